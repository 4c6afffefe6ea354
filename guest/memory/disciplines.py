"""Disciplines: the ``@name`` sigil and the stores a request reads and writes.

A leading ``@name`` token (``[A-Za-z0-9][A-Za-z0-9_-]{0,63}``, followed by
whitespace or the end of the text) restricts a request to that discipline's
store and is stripped from the text. ``@`` anywhere else (``use @latest``,
``me@example.com``, a lone ``@``, ``@name:`` with punctuation attached) is text.
Without a sigil, reads fan out over ``default`` plus the enabled disciplines
the host serves (``host``/``enabled-disciplines``), and writes go to ``default``.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass

from guest.errors import InvalidRequest
from guest.host import HOST_NS, WARN, Host
from guest.requests import NAME_RE, RESERVED_NAMES, reserved

SIGIL_RE = re.compile(r"\s*@([^\s@]*)(?:\s+|$)", re.S)
DEFAULT = "default"
PREFIX = "[discipline:{}] "


@dataclass(frozen=True)
class Target:
    """Where a request goes: its text without the sigil, and the stores to use."""

    text: str
    namespaces: list[str]
    explicit: bool  # a sigil or an explicit namespace chose the store


def split_sigil(text: str) -> tuple[str | None, str]:
    """``(name, rest)`` when ``text`` starts with a sigil, else ``(None, text)``.

    A leading ``@token`` that is not a valid name (``@../x``, ``@`` + 65 chars)
    is refused rather than taken as text: it was meant as a sigil.
    """
    match = SIGIL_RE.match(text)
    if match is None or not match.group(1):
        return None, text
    name = match.group(1)
    if not NAME_RE.fullmatch(name):
        if "/" in name or "\\" in name or "\x00" in name or ".." in name or len(name) > 64:
            raise InvalidRequest(f"discipline {name!r} is not a valid name")
        return None, text  # e.g. "@latest," — punctuation: ordinary text
    if name in RESERVED_NAMES:
        raise InvalidRequest(reserved(name, "discipline"))
    return name, text[match.end() :]


def enabled(host: Host) -> list[str]:
    """The enabled disciplines (valid, distinct, in the host's order; never ``default``)."""
    raw = host.kv_get(HOST_NS, "enabled-disciplines")
    if not raw:
        return []
    try:
        names = json.loads(raw)
    except ValueError:
        host.log(WARN, "host/enabled-disciplines is not JSON; ignoring it")
        return []
    out: list[str] = []
    for name in names if isinstance(names, list) else []:
        usable = isinstance(name, str) and NAME_RE.fullmatch(name) and name not in RESERVED_NAMES
        if usable and name != DEFAULT and name not in out:
            out.append(name)
        elif name != DEFAULT:
            host.log(WARN, f"ignoring invalid enabled discipline {name!r}")
    return out


def for_read(host: Host, text: str, namespace: str | None) -> Target:
    """Stores a read goes to: the sigil's or ``namespace``'s, else default + enabled."""
    name, rest = split_sigil(text)
    chosen = _choose(name, namespace)
    if chosen is not None:
        return Target(rest, [chosen], True)
    return Target(rest, [DEFAULT, *enabled(host)], False)


def for_write(text: str, namespace: str | None) -> Target:
    """The store a write goes to: the sigil's, ``namespace``'s, or ``default``."""
    name, rest = split_sigil(text)
    chosen = _choose(name, namespace)
    return Target(rest, [chosen or DEFAULT], chosen is not None)


def label(text: str, namespace: str, fanned_out: bool) -> str:
    """A hit's text as shown: prefixed ``[discipline:<name>] `` when it came from a fan-out."""
    return PREFIX.format(namespace) + text if fanned_out and namespace != DEFAULT else text


def _choose(sigil: str | None, namespace: str | None) -> str | None:
    """The store a sigil or an explicit ``namespace`` names (they must agree), or ``None``."""
    if sigil is None:
        return namespace
    if namespace not in (None, sigil):
        raise InvalidRequest(f"the sigil @{sigil} and the namespace {namespace!r} disagree")
    return sigil
