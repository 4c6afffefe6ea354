"""The Overview page: what is stored, how big, how fresh, and what the hook injected over time."""

from __future__ import annotations

from collections import Counter
from typing import Any

from host_harness.contract import section
from host_harness.fs.skills import discover
from host_harness.ui import prompts
from host_harness.ui.backend import Backend
from host_harness.ui.library import records

MAX_PAGE: int = section("memory.listing").MAX_PAGE
KINDS = {"checklist": "checklists", "todo": "todos", "session_note": "session notes"}
MAX_STALE_CALLS = 20  # list_memories pages read to count stale memories, per store


async def overview(backend: Backend) -> dict[str, Any]:
    """Counts by kind and store, size, index freshness, stale and quarantined, and the ledger's chart."""
    stores = []
    for namespace in await backend.namespaces():
        stats = await backend.call("stats", {"namespace": namespace})
        stale, exact = await _stale(backend, namespace)
        stores.append({"namespace": namespace, "memories": stats["memories"], "stale": stale,
                       "stale_exact": exact,
                       "embedder_current": stats["embedder"] in (None, stats["current_embedder"]),
                       "terms_current": stats["terms"] in (None, stats["current_terms"])})
    held = await backend.call("list_quarantined", {})
    blocks = await backend.call("archive_list", {"limit": 1})
    found = await records(backend)
    kinds = Counter(hit["record"]["kind"] for hit in found["hits"])
    return {
        "stores": stores,
        "kinds": {"memories": sum(row["memories"] for row in stores), "archived blocks": blocks["total"],
                  **{KINDS.get(kind, kind): count for kind, count in sorted(kinds.items())},
                  "skills": len(discover(backend.root))},
        "records_capped": len(found["hits"]) >= 100,
        "quarantined": {"memories": len(held["memories"]), "blocks": len(held["blocks"])},
        "size": await backend.run(lambda services: services.stored_bytes()),
        "ledger": await prompts.per_session(backend.root),
    }


async def _stale(backend: Backend, namespace: str) -> tuple[int, bool]:
    """How many memories of the store are stale (and whether every page was read to count them)."""
    count, cursor = 0, None
    for _ in range(MAX_STALE_CALLS):
        data = await backend.call("list_memories", {"namespace": namespace, "stale": True, "limit": MAX_PAGE,
                                                    **({"cursor": cursor} if cursor else {})})
        count += len(data["memories"])
        cursor = data["next"]
        if cursor is None:
            return count, True
    return count, False

