"""The Prompts page and the overview's chart: the injection ledger (``rs-learn-host why``) per session.

Read from ``.gm/logs/ledger.jsonl`` (:func:`host_harness.hooks.prompt_ledger.read`) at every request: a
local file, no component, no store.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from host_harness.hooks import prompt_ledger
from host_harness.ui.backend import UiError

NO_SESSION = "(no session id)"


async def timeline(root: Path, session: str | None = None) -> dict[str, Any]:
    """``{sessions: [{id, first, last, entries}]}``: the latest session first, each run newest first."""
    sessions: dict[str, list[dict[str, Any]]] = {}
    for entry in _read(root, session or None):
        sessions.setdefault(str(entry.get("session") or NO_SESSION), []).append(entry)
    rows = [{"id": ident, "first": runs[0].get("ts"), "last": runs[-1].get("ts"), "entries": runs[::-1]}
            for ident, runs in sessions.items()]
    rows.sort(key=lambda row: str(row["last"] or ""), reverse=True)
    return {"sessions": rows}


async def per_session(root: Path) -> dict[str, Any]:
    """Tokens injected and prompts answered per session (oldest session first), and the share overall."""
    sessions: dict[str, dict[str, Any]] = {}
    prompts = served = 0
    for entry in _read(root):
        if entry.get("event") == "session-start":
            continue
        ident = str(entry.get("session") or NO_SESSION)
        row = sessions.setdefault(ident, {"id": ident, "first": entry.get("ts"), "prompts": 0, "served": 0,
                                          "tokens": 0})
        got = bool(entry.get("injected"))
        row["prompts"] += 1
        row["served"] += got
        row["tokens"] += int(entry.get("tokens") or 0) if got else 0
        prompts += 1
        served += got
    rows = sorted(sessions.values(), key=lambda row: str(row["first"] or ""))
    return {"sessions": rows, "prompts": prompts, "served": served,
            "share": round(served / prompts, 3) if prompts else None}


def _read(root: Path, session: str | None = None) -> list[dict[str, Any]]:
    """The ledger's entries; a ledger that cannot be read (behind a link, say) is a :class:`UiError`."""
    try:
        return prompt_ledger.read(root, 0, session)
    except OSError as error:
        raise UiError(f"cannot read the ledger .gm/logs/ledger.jsonl: {error}", 500) from None
