"""The project's local state -- what lives in ``.gm/`` but must not be committed -- and its ``.gitignore``.

The stores in ``.gm/`` (``rs-learn.db``, disciplines, managed skills, ``config.json``) are meant to be
committed; these are not: the exec spool and its ledger (requests, answers, claims), the hook and
server logs, a warm server's socket, SQLite's journals and the writers' queue (the list is
``host_harness/fs/local_state.py``'s, also written to ``.gm/.gitignore``). The persisted vector
indexes live in the user's cache, never in the project.

``setup --scope project`` and ``git install`` add the lines that are missing to the project's
``.gitignore`` (under one comment line), keeping the rest of the file byte for byte.
"""

from __future__ import annotations

from pathlib import Path

from host_harness.fs import project_patterns
from host_harness.integrations.edits import Edit, read_text

# The one list of local state (host_harness/fs/local_state.py), as paths from the project root.
LOCAL_STATE = tuple(project_patterns())
HEADER = "# rs-learn: local state (the stores in .gm/ are committed)"


def gitignore_edit(project: Path) -> Edit:
    """The change that gives ``<project>/.gitignore`` every line of :data:`LOCAL_STATE` (maybe none)."""
    path = project / ".gitignore"
    old = read_text(path)
    present = {line.strip() for line in (old or "").splitlines()}
    missing = [line for line in LOCAL_STATE if line not in present]
    if not missing:
        return Edit(path, old, old, "local state")
    text = old or ""
    if text and not text.endswith("\n"):
        text += "\n"
    if text.strip():
        text += "\n"
    block = ([HEADER] if HEADER not in present else []) + missing
    return Edit(path, old, text + "\n".join(block) + "\n", f"{len(missing)} lines of local state")
