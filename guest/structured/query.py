"""``query_records``: scope-filtered keyword/tag search, fused with semantic search of session notes.

Filters (all optional): ``kinds`` (``checklist``, ``todo``, ``session_note``), ``status`` (one or a
list), ``tags`` (every one must be present), ``includeArchived``. The caller's trusted scope always
filters (``guest/structured/context.py``); soft-deleted records never appear; archived ones only with
``includeArchived`` or an explicit ``status`` filter.

With a ``query``, two ranked lists are fused by weighted reciprocal-rank fusion:

* keyword: BM25 over the indexed text (title and tags weigh double), weight 1;
* semantic (session notes only, when ``enableSemanticNotes``): cosine of the query's embedding
  against the note vectors, hits below :data:`MIN_COSINE` dropped, weight 0.5.

A record's score is ``sum(w / (60 + rank))`` over the lists that rank it, divided for session
notes by the total weight 1.5 and for the other kinds by 1 (only the keyword list can rank them).
The plain sum would favour notes systematically -- a note that barely matches one keyword plus
a semantic hit would beat a todo that matches every keyword -- whereas the weighted mean keeps
every kind on one scale: a note both channels rank highly rises, a note only the embedding
finds ranks after the keyword hits. With ``enableSemanticNotes`` false the ranking is
keyword-only. Without a query the matching
records are listed newest first (score 0). Ties break by ``updatedAt`` (newer first), then id.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from guest.errors import InvalidRequest
from guest.host import Host
from guest.index import keywords
from guest.structured import fields, index, store
from guest.structured.context import Context, record_scope
from guest.structured.shapes import ALL_KINDS, ALL_STATUSES, MAX_LIMIT, MAX_QUERY_BYTES
from guest.structured.store import ARCHIVED, DELETED
from guest.text.embed import StaticEmbedder

RRF_K = 60
KEYWORD_WEIGHT = 1.0
SEMANTIC_WEIGHT = 0.5
MIN_COSINE = 0.55


@dataclass(frozen=True)
class Query:
    """A validated query."""

    text: str = ""
    kinds: tuple[str, ...] = ALL_KINDS
    statuses: tuple[str, ...] = ()
    tags: tuple[str, ...] = ()
    include_archived: bool = False
    limit: int = 10

    @classmethod
    def parse(cls, body: dict[str, Any], default_limit: int) -> Query:
        """Validate a ``query_records`` body (fields other than :data:`QUERY_FIELDS` are the caller's)."""
        text = "" if body.get("query") is None else fields.text(body["query"], "query", allow_empty=True)
        if len(text.encode("utf-8")) > MAX_QUERY_BYTES:
            raise InvalidRequest(f"field 'query' is longer than {MAX_QUERY_BYTES} bytes")
        kinds = _names(body.get("kinds"), "kinds", ALL_KINDS) or ALL_KINDS
        statuses = _names(body.get("status"), "status", ALL_STATUSES)
        tags = tuple(fields.tags(body["tags"], "tags")) if body.get("tags") is not None else ()
        archived = fields.boolean(body.get("includeArchived", False), "includeArchived")
        limit = fields.integer(body.get("limit", 0), "limit", 0, MAX_LIMIT) or default_limit  # 0: the default
        return cls(text.strip(), kinds, statuses, tags, archived, limit)

    def accepts(self, ctx: Context, record: dict[str, Any]) -> bool:
        """Whether ``record`` passes the scope and the filters."""
        return self.matches(record) and ctx.scope.sees(record_scope(record))

    def matches(self, record: dict[str, Any]) -> bool:
        """Whether ``record`` passes the filters (kinds, status, tags, archived), whatever its scope."""
        status = record.get("status")
        if status == DELETED or record.get("kind") not in self.kinds:
            return False
        if self.statuses:
            if status not in self.statuses:
                return False
        elif status == ARCHIVED and not self.include_archived:
            return False
        return not (self.tags and not set(self.tags) <= set(record.get("tags", [])))


def _names(value: Any, field: str, allowed: tuple[str, ...]) -> tuple[str, ...]:
    if value is None:
        return ()
    values = value if isinstance(value, list) else [value]
    return tuple(fields.choice(v, field, allowed) for v in values)


@dataclass(frozen=True)
class Hit:
    """One ranked record and the channels that found it."""

    record: dict[str, Any]
    score: float
    channels: tuple[str, ...]

    def as_json(self) -> dict[str, Any]:
        """The hit as returned by ``query_records``."""
        return {"score": self.score, "channels": list(self.channels), "record": self.record}


def run(host: Host, embedder: StaticEmbedder, ctx: Context, query: Query) -> list[Hit]:
    """The best ``query.limit`` records for ``query`` in the caller's scope."""
    if not query.text:
        return _listing(host, ctx, query)
    pool = max(3 * query.limit, 30)
    loaded: dict[str, dict[str, Any] | None] = {}

    def accepted(record_id: str) -> dict[str, Any] | None:
        if record_id not in loaded:
            raw = host.kv_get(store.RECORDS, record_id)
            record = store.decode(record_id, raw) if raw is not None else None
            loaded[record_id] = record if record is not None and query.accepts(ctx, record) else None
        return loaded[record_id]

    lists: list[tuple[str, float, list[str]]] = []
    ranked = []
    for doc, _ in index.search(host, keywords.terms(query.text)):
        if accepted(store.doc_id(doc)) is not None:
            ranked.append(store.doc_id(doc))
            if len(ranked) == pool:
                break
    lists.append(("keyword", KEYWORD_WEIGHT, ranked))
    if ctx.config.enableSemanticNotes and "session_note" in query.kinds:
        lists.append(("semantic", SEMANTIC_WEIGHT, _semantic(host, embedder, query.text, pool, accepted)))
    scores: dict[str, float] = {}
    channels: dict[str, list[str]] = {}
    for name, weight, ids in lists:
        for rank, record_id in enumerate(ids, start=1):
            scores[record_id] = scores.get(record_id, 0.0) + weight / (RRF_K + rank)
            channels.setdefault(record_id, []).append(name)
    note_weight = sum(weight for _, weight, _ in lists)
    hits = []
    for record_id, score in scores.items():
        record = loaded[record_id]
        assert record is not None
        share = note_weight if record["kind"] == "session_note" else KEYWORD_WEIGHT
        hits.append(Hit(record, score / share, tuple(channels[record_id])))
    hits.sort(key=lambda h: (-h.score, -int(h.record.get("updatedAt", 0)), h.record["id"]))
    return hits[: query.limit]


def _semantic(
    host: Host,
    embedder: StaticEmbedder,
    text: str,
    pool: int,
    accepted: Callable[[str], dict[str, Any] | None],
) -> list[str]:
    vector = embedder.embed(text)
    if not any(vector):
        return []
    out: list[str] = []
    for key, cosine in host.vec_search(store.vectors_ns(embedder.id), vector, 4 * pool):
        if cosine < MIN_COSINE or len(out) == pool:
            break
        record_id = key.partition("@")[0]
        if record_id not in out and accepted(record_id) is not None:
            out.append(record_id)
    return out


def hidden(host: Host, ctx: Context, query: Query) -> int:
    """How many records the filters accept but the caller's scope hides (the query's words aside)."""
    return sum(1 for r in store.scan(host, _prefilter(query))
               if query.matches(r) and not ctx.scope.sees(record_scope(r)))


def _prefilter(query: Query) -> str:
    """A text every record the filters accept contains: the host's scan skips the others."""
    if query.tags:
        return f'"{query.tags[0]}"'
    if len(query.kinds) == 1:
        return f'"kind":"{query.kinds[0]}"'
    return ""


def _listing(host: Host, ctx: Context, query: Query) -> list[Hit]:
    """Every matching record, newest first (the host prefilters on one tag or kind)."""
    records = [r for r in store.scan(host, _prefilter(query)) if query.accepts(ctx, r)]
    records.sort(key=lambda r: (-int(r.get("updatedAt", 0)), r["id"]))
    return [Hit(r, 0.0, ()) for r in records[: query.limit]]
