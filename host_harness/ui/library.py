"""The read-only pages: the verbatim archive, the skills, and structured memory (checklists, todos, notes)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from host_harness.fs import confine
from host_harness.fs.skills import discover, shadowing, skill_table
from host_harness.ui.backend import Backend

MAX_RECORDS = 100  # query_records' own limit
MAX_SKILL_BYTES = 256 * 1024  # a SKILL.md shown at most this long


async def archive(backend: Backend, namespace: str) -> Any:
    """``archive_list``: the newest blocks' ids, labels and excerpts, and how many there are."""
    return await backend.call("archive_list", {"namespace": namespace or "default"})


async def block(backend: Backend, ident: str, namespace: str) -> Any:
    """``recall {id}``: one archived block as stored."""
    return await backend.call("archive_recall", {"id": ident, "namespace": namespace or "default"})


async def skills(backend: Backend) -> list[dict[str, Any]]:
    """Managed and authored skills: description, which one an agent finds, and the ``SKILL.md``."""
    found = discover(backend.root)
    fold = shadowing(found)
    claimed = set((await backend.call("names", {"skills": fold}))["skills"]) if fold else set()
    rows = skill_table(backend.root, found, claimed)
    for row in rows:
        row["path"] = Path(row["path"]).relative_to(backend.root).as_posix()
        try:
            text = confine.read_file(backend.root, tuple(row["path"].split("/")), MAX_SKILL_BYTES)
        except OSError as error:  # behind a link, not a regular file: said, never followed
            text = f"(cannot be read: {error})".encode()
        row["text"] = (text or b"").decode("utf-8", "replace")
    return rows


async def records(backend: Backend) -> Any:
    """``query_records``: the newest records of every kind, archived ones included, in the view's scope."""
    return await backend.call("query_records", {"includeArchived": True, "limit": MAX_RECORDS,
                                                "countHidden": True})
