"""What the structured-memory verbs read: field lists, kinds, statuses and the bounds of a search.

Constants only (and the light ``store`` tables they derive from): nothing here imports the embedder,
so a host can describe the verbs (the MCP server's tool schemas, ``host_harness/mcp/schemas.py``)
without the model files or the component. ``records``, ``query`` and ``retrieve`` validate bodies
against these same values.
"""

from __future__ import annotations

from guest.structured.store import KINDS, STATUSES

COMMON = ("title", "tags", "status")
FIELDS = {
    "checklist": (*COMMON, "description", "due"),
    "todo": (*COMMON, "description", "due", "priority"),
    "session_note": (*COMMON, "content", "importance"),
}
QUERY_FIELDS = ("query", "kinds", "status", "tags", "includeArchived", "limit")
MAX_QUERY_BYTES = 4 * 1024
MAX_LIMIT = 100
MAX_TOKENS = 100_000  # retrieve_memory's largest budget
ALL_KINDS = tuple(KINDS.values())
ALL_STATUSES = tuple(sorted({s for kind in ALL_KINDS for s in STATUSES[kind]}))
