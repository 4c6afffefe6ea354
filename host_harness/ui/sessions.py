"""The Sessions page: what capture kept from each agent session, and what the next session start injects.

* **Captured**: the memories capture stored (``list_memories {captured}``: directives and lessons,
  each with its kind and when it was said), grouped by session, the latest session first; one
  session's with ``?session=<id or prefix>``.
* **Next session start**: the two ``SessionStart`` hooks' answers as a new session would get them
  now, with the hooks' default budget -- ``hook session-start`` (``session_start``: the skills an agent
  discovers) and ``hook session-context`` (``capture_context`` of a ``startup``: where the last
  session stopped). Both verbs only read.
"""

from __future__ import annotations

from typing import Any

from host_harness.hooks.protocol import default_budget
from host_harness.ui.backend import Backend

PAGE = 200  # list_memories' largest page
MAX_CALLS = 20  # pages read at most (each looks at 1,000 entries at most)


async def captured(backend: Backend, session: str) -> dict[str, Any]:
    """``{sessions: [{id, first, last, memories}], complete}``: captured memories by session."""
    body: dict[str, Any] = {"captured": True, "limit": PAGE, **({"session": session} if session else {})}
    found: list[dict[str, Any]] = []
    cursor = None
    for _ in range(MAX_CALLS):
        data = await backend.call("list_memories", {**body, **({"cursor": cursor} if cursor else {})})
        found += data["memories"]
        cursor = data["next"]
        if cursor is None:
            break
    groups: dict[str, list[dict[str, Any]]] = {}
    for memory in found:
        groups.setdefault(str(memory["captured"].get("session", "")), []).append(memory)
    rows = [{"id": ident, "first": min(map(_at, kept)), "last": max(map(_at, kept)), "memories": kept}
            for ident, kept in groups.items()]
    rows.sort(key=lambda row: (-int(str(row["last"])), str(row["id"])))
    return {"sessions": rows, "complete": cursor is None}


def _at(memory: dict[str, Any]) -> int:
    at = memory["captured"].get("at")
    return int(at) if isinstance(at, int) else int(memory["ts"])


async def next_start(backend: Backend) -> dict[str, Any]:
    """``{hooks: [{hook, verb, context, ...}], budget_tokens}``: what a session starting now is told."""
    start, context = default_budget("session-start"), default_budget("session-context")  # each hook's own
    skills = await backend.call("session_start", {"budget_tokens": start})
    note = await backend.call("capture_context", {"source": "startup", "budget_tokens": context})
    return {"budget_tokens": start, "hooks": [
        {"hook": "session-start", "verb": "session_start", "context": skills["context"],
         "shown": skills["shown"], "skills": len(skills["skills"]), "budget_tokens": start},
        {"hook": "session-context", "verb": "capture_context", "context": note["context"],
         "note": note["note"], "budget_tokens": context},
    ]}
