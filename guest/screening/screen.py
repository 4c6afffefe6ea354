"""The storing verbs' screen for untrusted text: redact its secrets, say whether to quarantine it.

Every verb that stores text (``memorize``, ``learn``, ``import``, ``archive``, the structured
records' writes) builds one :class:`Screen` per request and passes each text field through it
before validating what is left and storing it; the answer then reports ``redacted: {kind: count}``
(:meth:`Screen.report`). Redaction is on unless the host serves ``host/redact`` as ``false`` (the
top-level ``"redact"`` of ``.gm/config.json``); a host that serves nothing gets it on.

Quarantine is a record's ``quarantined: {"reason": …}`` (in a memory's ``extra``, in an archived
block's record); ``approved: {"ts": …}`` beside it releases the record and wins over it, so a git
merge that unites both sides' fields keeps an approval (:func:`quarantine_of`). What is about to be
injected is screened again (:func:`held`): a record without either mark is read as it is then.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from guest.errors import InvalidRequest
from guest.host import HOST_NS, WARN, Host, HostWrapper
from guest.screening import injection
from guest.screening.redact import merge, redact

REDACT_KEY = "redact"
QUARANTINED = "quarantined"
APPROVED = "approved"


def redaction_on(host: Host) -> bool:
    """Whether the project redacts secrets: ``host/redact`` unless it is missing (then yes)."""
    raw = host.kv_get(HOST_NS, REDACT_KEY)
    if raw is None:
        return True
    try:
        value = json.loads(raw)
    except ValueError:
        value = None
    if not isinstance(value, bool):
        host.log(WARN, "host/redact is neither true nor false; redacting secrets")
        return True
    return value


class Screen:
    """One request's screening: the texts it redacted and how many secrets of each kind."""

    def __init__(self, host: Host) -> None:
        self.on = redaction_on(host)
        self.counts: dict[str, int] = {}

    def text(self, value: str, field: str = "text", limit: int = 0) -> str:
        """``value`` redacted (when the project redacts); still at most ``limit`` bytes if given."""
        if not self.on:
            return value
        out, counts = redact(value)
        if counts:
            merge(self.counts, counts)
            size = len(out.encode("utf-8"))
            if limit and size > limit:
                raise InvalidRequest(f"field {field!r} is {size} bytes once its secrets are redacted; "
                                     f"the limit is {limit}")
        return out

    def strings(self, value: Any) -> Any:
        """Every string of a JSON value (keys aside) redacted."""
        if isinstance(value, str):
            return self.text(value)
        if isinstance(value, dict):
            return {key: self.strings(item) for key, item in value.items()}
        if isinstance(value, list):
            return [self.strings(item) for item in value]
        return value

    def report(self, answer: dict[str, Any]) -> dict[str, Any]:
        """``answer`` with ``redacted: {kind: count}`` when something was redacted."""
        return {**answer, "redacted": dict(sorted(self.counts.items()))} if self.counts else answer

    def note(self) -> str:
        """`` Secrets redacted: kind x n, ….`` for a tool's text, or ``""``."""
        if not self.counts:
            return ""
        return " Secrets redacted: " + ", ".join(f"{k} x{n}" for k, n in sorted(self.counts.items())) + "."


def quarantine(*texts: str) -> str | None:
    """Why one of ``texts`` reads as an instruction aimed at the agent, or ``None``."""
    for text in texts:
        found = injection.reason(text) if text else None
        if found is not None:
            return found
    return None


def quarantined(reason: str) -> dict[str, Any]:
    """The fields marking a record quarantined for ``reason``."""
    return {QUARANTINED: {"reason": reason}}


def held(fields: dict[str, Any], *texts: str) -> str | None:
    """Why a stored record is held back from the agent when it is about to be injected.

    Its quarantine mark; or, when it has neither a mark nor an approval (it came in by a git merge,
    a hand edit, or from a store older than quarantine), what its texts read as now.
    """
    if fields.get(QUARANTINED) or fields.get(APPROVED):
        return quarantine_of(fields)
    return quarantine(*texts)


def quarantine_of(fields: dict[str, Any]) -> str | None:
    """The reason a record is quarantined -- not when it is approved --, or ``None``."""
    mark = fields.get(QUARANTINED)
    if not mark or fields.get(APPROVED):
        return None
    reason = mark.get("reason") if isinstance(mark, dict) else None
    return reason if isinstance(reason, str) else "quarantined"


def secret_name(name: str) -> str | None:
    """The kind of secret a discipline name reads as (redaction would change it), or ``None``.

    Checked whatever the project's redaction setting: the name becomes a folder git commits.
    """
    _, counts = redact(name)
    return min(counts) if counts else None


def secret_name_error(kind: str) -> str:
    """The message refusing a discipline name that reads as a secret (the name itself not repeated)."""
    return (f"field 'namespace' reads as a secret ({kind}): a discipline becomes a folder of .gm/ that git "
            "commits, so its name must not be one; choose another name")


class SecretNames(HostWrapper):
    """The host, refusing every store whose discipline name reads as a secret (before the host sees it).

    Every store of a discipline is reached through ``disciplines/<name>/`` namespaces, so no verb
    can create (or read) one -- a named namespace, an import item's, a sigil's -- whatever path it took.
    """

    def __init__(self, inner: Host) -> None:
        super().__init__(inner)
        self.checked: set[str] = set()

    def _check(self, ns: str) -> None:
        if not ns.startswith("disciplines/"):
            return
        name = ns.split("/", 2)[1]
        if name in self.checked:
            return
        kind = secret_name(name)
        if kind is not None:
            raise InvalidRequest(secret_name_error(kind))
        self.checked.add(name)

    def kv_get(self, ns: str, key: str) -> bytes | None:
        """``host-kv-get``."""
        self._check(ns)
        return self.inner.kv_get(ns, key)

    def kv_put(self, ns: str, key: str, value: bytes) -> None:
        """``host-kv-put``."""
        self._check(ns)
        self.inner.kv_put(ns, key, value)

    def kv_get_many(self, ns: str, keys: Sequence[str]) -> list[bytes | None]:
        """``host-kv-get`` of several keys (one crossing)."""
        self._check(ns)
        return self.inner.kv_get_many(ns, keys)

    def kv_put_many(self, ns: str, items: Sequence[tuple[str, bytes]]) -> None:
        """``host-kv-put`` of several entries (one crossing)."""
        self._check(ns)
        self.inner.kv_put_many(ns, items)

    def kv_query(self, ns: str, q: str, limit: int) -> list[tuple[str, bytes]]:
        """``host-kv-query``."""
        self._check(ns)
        return self.inner.kv_query(ns, q, limit)

    def vec_search(self, ns: str, query: list[float], k: int) -> list[tuple[str, float]]:
        """``host-vec-search``."""
        self._check(ns)
        return self.inner.vec_search(ns, query, k)
