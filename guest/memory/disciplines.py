"""Disciplines: the ``@name`` sigil and the stores a request reads and writes.

A text starting with ``@name`` (``[A-Za-z0-9][A-Za-z0-9_-]{0,63}``, then white
space or the end of the text) is restricted to that discipline's store, and the
sigil is stripped -- but only when the discipline is *known to the project*: its
folder ``.gm/disciplines/<name>/`` exists or ``enabled.txt`` lists it (the host
serves both lists, ``host/disciplines`` and ``host/enabled-disciplines``).
Anything else that starts with ``@`` -- a decorator (``@app.get(...)``), a
Javadoc tag (``@param``), ``@types/node``, ``@@x``, a name of no known
discipline -- is ordinary text, stored intact in ``default``: agents memorize
code, and a rule that reads every ``@word`` as a discipline misroutes it.

The ``namespace`` field of a body: absent, ``""`` or ``default`` means "not
chosen" (a known sigil still decides; a read without one searches ``default``
only when ``default`` was named, else fans out); any other name is a deliberate
choice, validated strictly, and creates its store on first write. A known sigil
naming a *different* discipline than an explicit namespace is an error.
Without a sigil, reads fan out over ``default`` plus the enabled disciplines,
and writes go to ``default``.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from guest import requests
from guest.errors import InvalidRequest
from guest.host import HOST_NS, WARN, Host
from guest.requests import NAME_RE, RESERVED_NAMES
from guest.screening.screen import secret_name

SIGIL_RE = re.compile(r"\s*@([A-Za-z0-9][A-Za-z0-9_-]{0,63})(?:\s+|$)")
DEFAULT = "default"
PREFIX = "[discipline:{}] "


@dataclass(frozen=True)
class Target:
    """Where a request goes: its text without the sigil, and the stores to use."""

    text: str
    namespaces: list[str]
    explicit: bool  # a sigil or a namespace chose the store(s)


def split_sigil(text: str, is_known: Callable[[str], bool]) -> tuple[str | None, str]:
    """``(name, rest)`` when ``text`` starts with the sigil of a known discipline, else ``(None, text)``.

    ``is_known`` is asked only when the text starts with a well-formed ``@name``.
    """
    match = SIGIL_RE.match(text)
    if match is None or not is_known(match.group(1)):
        return None, text
    return match.group(1), text[match.end() :]


def names(host: Host, key: str, raw: bytes | None = None) -> list[str]:
    """The discipline names listed under ``host/<key>`` (valid, distinct, in order; never ``default``).

    ``raw`` is the value when the caller has read it already.
    """
    raw = host.kv_get(HOST_NS, key) if raw is None else raw
    if not raw:
        return []
    try:
        listed = json.loads(raw)
    except ValueError:
        host.log(WARN, f"host/{key} is not JSON; ignoring it")
        return []
    out: list[str] = []
    for name in listed if isinstance(listed, list) else []:
        usable = (isinstance(name, str) and NAME_RE.fullmatch(name) and name not in RESERVED_NAMES
                  and not requests.is_device_name(name))
        if usable and secret_name(name) is not None:
            host.log(WARN, f"ignoring a discipline name in host/{key} that reads as a secret")
        elif usable and name != DEFAULT and name not in out:
            out.append(name)
        elif name != DEFAULT:
            host.log(WARN, f"ignoring invalid discipline name {name!r} in host/{key}")
    return out


def enabled(host: Host) -> list[str]:
    """The enabled disciplines: what a read without a sigil fans out over (besides ``default``)."""
    return names(host, "enabled-disciplines")


def known(host: Host) -> set[str]:
    """The disciplines known to the project: ``host/disciplines`` (their folders and the enabled ones).

    A host that does not serve that key makes the enabled ones known. ``enabled-disciplines`` is
    not read otherwise: a host may check every enabled store when it serves that list (and warn
    about a broken one), which a call that names one discipline has no reason to pay for.
    """
    raw = host.kv_get(HOST_NS, "disciplines")
    return set(enabled(host)) if raw is None else set(names(host, "disciplines", raw))


def requested(body: dict[str, Any]) -> str | None:
    """The body's ``namespace``: ``None`` when absent or ``""``, else a validated name (``default`` too)."""
    if body.get("namespace") in (None, ""):
        return None
    return requests.namespace(body)


def for_read(host: Host, text: str, namespace: str | None) -> Target:
    """Stores a read goes to: the sigil's or ``namespace``'s, else default + enabled."""
    chosen, rest = _choose(host, text, namespace)
    if chosen is not None:
        return Target(rest, [chosen], True)
    return Target(rest, [DEFAULT, *enabled(host)], False)


def for_write(host: Host, text: str, namespace: str | None) -> Target:
    """The store a write goes to: the sigil's, ``namespace``'s, or ``default``."""
    chosen, rest = _choose(host, text, namespace)
    return Target(rest, [chosen or DEFAULT], chosen is not None)


def label(text: str, namespace: str, fanned_out: bool) -> str:
    """A hit's text as shown: prefixed ``[discipline:<name>] `` when it came from a fan-out."""
    return PREFIX.format(namespace) + text if fanned_out and namespace != DEFAULT else text


def check_case(name: str, existing: set[str]) -> None:
    """Refuse a discipline that differs only in case from a known one: one folder on macOS and Windows."""
    if name in existing:
        return
    twin = next((other for other in sorted(existing) if other.casefold() == name.casefold()), None)
    if twin is not None:
        raise InvalidRequest(
            f"field 'namespace' {name!r} differs only in case from the discipline {twin!r}: on macOS "
            "and Windows they would be one folder; use the existing name"
        )


def _choose(host: Host, text: str, namespace: str | None) -> tuple[str | None, str]:
    """The store a known sigil or ``namespace`` names, and the text without the sigil.

    An explicit discipline counts as known for its own sigil (``{"text": "@ops x",
    "namespace": "ops"}`` writes ``x`` to ``ops`` even before ``ops`` exists).
    """
    explicit = namespace if namespace not in (None, DEFAULT) else None
    if explicit is not None:
        check_case(explicit, known(host))
    sigil, rest = split_sigil(text, lambda name: name == explicit or name in known(host))
    if sigil is None:
        return namespace, text
    if explicit is not None and sigil != explicit:
        raise InvalidRequest(f"the sigil @{sigil} and the namespace {explicit!r} name different disciplines")
    return sigil, rest
