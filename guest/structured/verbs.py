"""The structured-memory verbs (seed 001, SIM-ONE Memory Helper) for ``dispatch``.

Every verb first reads the trusted context from the host (``guest/structured/context.py``); when
``memory.enabled`` is false it answers ``validation: structured memory is disabled ...``
(``memory_helper_version`` still answers, with ``"enabled": false``). A body carrying a scope
field anywhere is refused before anything else is looked at.

The daily retention pass (``guest/structured/maintenance.py``) runs lazily *after* a writing verb
(create, update, add or update an item, delete) that wrote something, in the same transaction.
Never on a read: the store is committed to git, and a read that archived records or stamped the
pass would turn a teammate's query into a binary diff. A store that is only read keeps showing
records past ``retentionDays`` until the next write (or ``memory_retention``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from guest.errors import InvalidRequest
from guest.host import Host, HostWrapper
from guest.screening.screen import Screen
from guest.structured import fields, maintenance, query, retrieve, shapes, snapshot, store
from guest.structured.context import Context, load_context
from guest.structured.records import RecordWriter
from guest.text.embed import StaticEmbedder
from guest.verbs import Verb

HELPER_VERSION = "1.0.0"
SCHEMA = 1
Handler = Callable[[Context, dict[str, Any]], Any]


class CountingHost(HostWrapper):
    """The host, counting the puts made through it (did a verb write anything?)."""

    def __init__(self, host: Host) -> None:
        super().__init__(host)
        self.puts = 0

    def kv_put(self, ns: str, key: str, value: bytes) -> None:
        """``host-kv-put``, counted (even when it fails: the verb tried to write)."""
        self.puts += 1
        self.inner.kv_put(ns, key, value)


class StructuredVerbs:
    """Checklists, todos and session notes over one host."""

    def __init__(self, host: Host, embedder: StaticEmbedder) -> None:
        self.host = CountingHost(host)
        self.embedder = embedder
        self.writer = RecordWriter(self.host, embedder)

    def table(self) -> dict[str, Verb]:
        """The verbs this module serves."""
        w = self.writer
        verbs: dict[str, tuple[Handler, str, bool]] = {
            "create_checklist": (lambda c, b: w.create(c, "checklist", b), "title", True),
            "update_checklist": (lambda c, b: w.update(c, "checklist", b), "id", True),
            "add_checklist_item": (w.add_item, "title", True),
            "update_checklist_item": (w.update_item, "itemId", True),
            "create_todo": (lambda c, b: w.create(c, "todo", b), "title", True),
            "update_todo": (lambda c, b: w.update(c, "todo", b), "id", True),
            "create_session_note": (lambda c, b: w.create(c, "session_note", b), "content", True),
            "update_session_note": (lambda c, b: w.update(c, "session_note", b), "id", True),
            "get_record": (self.get, "id", False),
            "query_records": (self.query, "query", False),
            "retrieve_memory": (self.retrieve, "query", False),
            "delete_record": (self.delete, "id", True),
            "memory_retention": (self.retention, "force", False),
            "reconcile_index": (self.reconcile, "text", False),
        }
        table = {
            name: Verb(self._serve(handler, lazy, lazy or name == "reconcile_index"), field)
            for name, (handler, field, lazy) in verbs.items()
        }
        table["memory_helper_version"] = Verb(self.version)
        return table

    def _serve(self, handler: Handler, lazy_retention: bool, writes: bool) -> Callable[[dict[str, Any]], Any]:
        """The verb: context, scope check, secrets redacted from what ``writes`` stores, lazy retention."""

        def run(body: dict[str, Any]) -> Any:
            ctx = load_context(self.host)
            if not ctx.config.enabled:
                raise InvalidRequest(
                    "structured memory is disabled (memory.enabled is false in .gm/config.json "
                    "or RS_LEARN_MEMORY_ENABLED)"
                )
            fields.reject_scope(body)
            screen = Screen(self.host) if writes else None
            if screen is not None:
                body = screen.strings(body)
            puts = self.host.puts
            result = handler(ctx, body)
            if lazy_retention and self.host.puts > puts:  # only after a verb that wrote
                maintenance.retention(self.host, self.embedder, ctx)
            return screen.report(result) if screen is not None and isinstance(result, dict) else result

        return run

    def version(self, body: dict[str, Any]) -> dict[str, Any]:
        """``memory_helper_version``: the helper's version, schema and whether it is enabled."""
        ctx = load_context(self.host)
        return {
            "version": HELPER_VERSION,
            "schema": SCHEMA,
            "enabled": ctx.config.enabled,
            "embedder": self.embedder.id,
            "semanticNotes": ctx.config.enableSemanticNotes,
            "config": {k: v for k, v in vars(ctx.config).items()},
            "scope": ctx.scope.as_json(),
        }

    def get(self, ctx: Context, body: dict[str, Any]) -> dict[str, Any]:
        """``get_record {id}``: one record of the caller's scope (archived ones too)."""
        fields.only(body, ("id",))
        if body.get("id") is None:
            raise InvalidRequest("missing field 'id'")
        return store.find(self.host, ctx, fields.record_id(body["id"], "id", ("cl", "td", "nt")))

    def query(self, ctx: Context, body: dict[str, Any]) -> dict[str, Any]:
        """``query_records``: ``{hits: [{score, channels, record}], semantic[, hiddenByScope]}``.

        ``countHidden: true`` (an unscoped caller only: the CLI's person) adds how many records of other
        scopes the filters would accept, so that ``records list`` can say they exist and how to see them.
        """
        body = dict(body)
        count = fields.boolean(body.pop("countHidden", False), "countHidden")  # a host's option, not a filter
        fields.only(body, shapes.QUERY_FIELDS)
        if count and not ctx.scope.unscoped:
            raise InvalidRequest("field 'countHidden' is for an unscoped caller only: a scoped caller never "
                                 "learns of other scopes' records")
        request = query.Query.parse(body, ctx.config.defaultLimit)
        hits = query.run(self.host, self.embedder, ctx, request)
        semantic = ctx.config.enableSemanticNotes
        data: dict[str, Any] = {"hits": [hit.as_json() for hit in hits], "semantic": semantic}
        if count:
            data["hiddenByScope"] = query.hidden(self.host, ctx, request)
        return data

    def retrieve(self, ctx: Context, body: dict[str, Any]) -> dict[str, Any]:
        """``retrieve_memory``: the ranked records rendered within the token budget."""
        fields.only(body, (*shapes.QUERY_FIELDS, "maxTokens"))
        return retrieve.retrieve(self.host, self.embedder, ctx, body)

    def delete(self, ctx: Context, body: dict[str, Any]) -> dict[str, Any]:
        """``delete_record``."""
        return maintenance.delete(self.host, self.embedder, ctx, body)

    def retention(self, ctx: Context, body: dict[str, Any]) -> dict[str, Any]:
        """``memory_retention {force?}``: run the retention pass now (``force`` defaults to true)."""
        fields.only(body, ("force",))
        force = fields.boolean(body.get("force", True), "force")
        return maintenance.retention(self.host, self.embedder, ctx, force)

    def reconcile(self, ctx: Context, body: dict[str, Any]) -> dict[str, Any]:
        """``reconcile_index {records?}``: store a snapshot's records, then rebuild the derived index."""
        fields.only(body, ("records",))
        hydrated: list[str] = []
        if body.get("records") is not None:
            hydrated = snapshot.hydrate(self.host, ctx, snapshot.parse(body["records"], ctx))
        return {**maintenance.reconcile(self.host, self.embedder), "hydrated": hydrated}
