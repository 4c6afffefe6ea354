"""The Overview page: what is stored, how big, how fresh, and what the hook injected over time."""

from __future__ import annotations

from collections import Counter
from typing import Any

from host_harness.fs.skills import discover
from host_harness.ui import prompts
from host_harness.ui.backend import Backend, background
from host_harness.ui.library import records

KINDS = {"checklist": "checklists", "todo": "todos", "session_note": "session notes"}


async def overview(backend: Backend) -> dict[str, Any]:
    """Counts by kind and store, size, index freshness, stale and quarantined, and the ledger's chart.

    Its guest calls give way to those of any other request (:func:`~host_harness.ui.backend.background`).
    """
    background()
    stores = []
    for namespace in await backend.namespaces():
        stats = await backend.call("stats", {"namespace": namespace})
        stores.append({"namespace": namespace, "memories": stats["memories"],
                       "stale": await _stale(backend, namespace),
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


async def _stale(backend: Backend, namespace: str) -> int:
    """How many memories of the store are stale: the ``total`` of one stale page.

    The guest counts them from the memories that cite files, not by reading the store.
    """
    data = await backend.call("list_memories", {"namespace": namespace, "stale": True, "limit": 1})
    return int(data["total"])
