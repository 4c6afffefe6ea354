"""The Memories page: a filtered listing or a recall search, one memory's chain, and the three writes.

A listing pages through ``list_memories`` (newest first) and keeps what the filters keep; a search
is ``recall`` (the CLI's ranking), each hit completed by ``get_memory`` (its files and links). The
writes are the CLI's verbs: ``forget`` (a tombstone), ``memorize`` with ``supersedes`` (an edit) and
``approve`` (a quarantined memory released).
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import UTC, datetime
from typing import Any

from host_harness.contract import section
from host_harness.ui.backend import Backend, UiError

MAX_PAGE: int = section("memory.listing").MAX_PAGE
SHOWS = ("current", "stale", "quarantined", "superseded", "forgotten")
PAGE = 50  # memories a listing answers at most
MAX_CALLS = 20  # list_memories pages one listing reads at most (each looks at 1,000 entries at most)
SEARCH_HITS = 20
MAX_CHAIN = 50
GATE = {"injected": "passes", "stale": "passes", "budget": "passes", "limit": "passes", "seen": "passes",
        "quarantined": "quarantined", "gate": "below"}  # auto_recall's decision -> the search's mark


class Filters:
    """The page's filters, from its query string (a bad value is a :class:`UiError`)."""

    def __init__(self, params: Mapping[str, str]) -> None:
        self.query = params.get("q", "").strip()
        self.namespace = params.get("ns", "").strip() or "default"
        self.show = params.get("show", "current") or "current"
        if self.show not in SHOWS:
            raise UiError(f"show must be one of {', '.join(SHOWS)}, got {self.show!r}")
        self.origin = params.get("origin", "").strip()
        self.since = _day(params.get("since", ""), "since", 0)
        self.until = _day(params.get("until", ""), "until", 86_400_000)  # the whole last day
        self.cursor = params.get("cursor") or None

    def keeps(self, memory: dict[str, Any]) -> bool:
        """Whether ``memory`` passes the filters a guest verb does not apply itself."""
        if self.show == "superseded" and not memory.get("superseded_by"):
            return False
        if self.show == "forgotten" and not memory.get("forgotten"):
            return False
        if self.show == "stale" and not memory.get("stale"):
            return False
        if self.show == "quarantined" and not memory.get("quarantined"):
            return False
        if self.origin and (memory.get("origin") or "memorize") != self.origin:
            return False
        ts = int(memory.get("ts") or 0)
        return (self.since is None or ts >= self.since) and (self.until is None or ts < self.until)


def _day(value: str, name: str, plus_ms: int) -> int | None:
    """``YYYY-MM-DD`` as epoch milliseconds (UTC midnight, plus ``plus_ms``), or ``None`` when blank."""
    if not value.strip():
        return None
    try:
        day = datetime.strptime(value.strip(), "%Y-%m-%d").replace(tzinfo=UTC)
    except ValueError:
        raise UiError(f"{name} must be a date as YYYY-MM-DD, got {value!r}") from None
    return int(day.timestamp() * 1000) + plus_ms


async def page(backend: Backend, filters: Filters) -> dict[str, Any]:
    """``{memories, next, searched}``: a search's hits, or a listing's next page of what the filters keep."""
    if filters.query:
        return await _search(backend, filters)
    body: dict[str, Any] = {"namespace": filters.namespace, "limit": MAX_PAGE,
                            "include": [name for name in ("superseded", "forgotten") if filters.show == name],
                            "stale": filters.show == "stale", "quarantined": filters.show == "quarantined"}
    shown: list[dict[str, Any]] = []
    cursor = filters.cursor
    for _ in range(MAX_CALLS):
        body["limit"] = PAGE - len(shown)  # a memory the filters drop here still ends the guest's page
        data = await backend.call("list_memories", {**body, **({"cursor": cursor} if cursor else {})})
        shown += [memory for memory in data["memories"] if filters.keeps(memory)]
        cursor = data["next"]
        if cursor is None or len(shown) >= PAGE:
            break
    whole = "total" in data and not (filters.cursor or filters.origin or filters.since or filters.until)
    return {"memories": shown, "next": cursor, "searched": False,
            **({"total": data["total"]} if whole else {})}


async def _search(backend: Backend, filters: Filters) -> dict[str, Any]:
    """Recall's hits for the query (in the chosen store), completed with their files and links.

    Each hit says where it stands with the hook's relevance gate (``gate``: ``passes`` -- the hook
    would inject it for this prompt, budget aside --, ``quarantined``, or ``below``: no evidence for
    it), as ``auto_recall`` decides for the same words; ``gate`` of the answer says whether the store
    as a whole had evidence (and why not).
    """
    if filters.show in ("superseded", "forgotten"):
        raise UiError("a search finds current memories only: clear the search to list superseded or "
                      "forgotten ones")
    query = filters.query if filters.namespace == "default" else f"@{filters.namespace} {filters.query}"
    hits = await backend.call("recall", {"query": query, "limit": SEARCH_HITS})
    hook = await backend.call("auto_recall", {"prompt": query, "limit": SEARCH_HITS,
                                              "budget_tokens": 100_000})
    decided = {(c["namespace"], c["id"]): c["decision"] for c in hook["candidates"]}
    found = []
    for hit in hits:
        memory = await backend.call("get_memory", {"id": hit["id"], "namespace": hit["namespace"]})
        memory["score"] = hit["score"]
        memory["gate"] = GATE.get(decided.get((hit["namespace"], hit["id"]), ""), "below")
        if filters.keeps(memory):
            found.append(memory)
    evidence = hook["evidence"]
    return {"memories": found, "next": None, "searched": True,
            "gate": {"passed": bool(evidence.get("passed", True)), "why": evidence.get("why")}}


async def detail(backend: Backend, memory_id: str, namespace: str | None) -> dict[str, Any]:
    """``{memory, chain}``: one memory and its supersede chain, oldest first (itself included)."""
    where = {"namespace": namespace} if namespace else {}
    memory = await backend.call("get_memory", {"id": memory_id, **where})
    where = {"namespace": memory["namespace"]}
    known = {memory["id"]: memory}
    pending = _links(memory)
    while pending and len(known) < MAX_CHAIN:
        ident = pending.pop()
        if ident in known:
            continue
        try:
            linked = await backend.call("get_memory", {"id": ident, **where})
        except UiError:  # a link to a memory this store no longer holds: the chain ends there
            continue
        known[ident] = linked
        pending += _links(linked)
    chain = sorted(known.values(), key=lambda m: (m["ts"], m["id"])) if len(known) > 1 else []
    return {"memory": memory, "chain": chain}


def _links(memory: dict[str, Any]) -> list[str]:
    """The ids a memory's supersede links name: those it replaced, and the one that replaced it."""
    newer = memory.get("superseded_by")
    return [*memory.get("supersedes", []), *([newer] if newer else [])]


async def forget(backend: Backend, body: dict[str, Any]) -> Any:
    """``forget {ids: [id], reason?, namespace?}``."""
    request = {"ids": [_text(body, "id")], **_optional(body, "reason", "namespace")}
    return await backend.call("forget", request)


async def supersede(backend: Backend, body: dict[str, Any]) -> Any:
    """``memorize {text, namespace, supersedes: [id]}``: the edited text replaces the memory."""
    request = {"text": _text(body, "text"), "namespace": body.get("namespace") or "default",
               "supersedes": [_text(body, "id")]}
    return await backend.call("memorize", request)


async def approve(backend: Backend, body: dict[str, Any]) -> Any:
    """``approve {id, namespace?}``."""
    return await backend.call("approve", {"id": _text(body, "id"), **_optional(body, "namespace")})


def _text(body: dict[str, Any], name: str) -> str:
    value = body.get(name)
    if not isinstance(value, str) or not value.strip():
        raise UiError(f"missing field {name!r}")
    return value


def _optional(body: dict[str, Any], *names: str) -> dict[str, Any]:
    return {name: body[name] for name in names if isinstance(body.get(name), str) and body[name]}
