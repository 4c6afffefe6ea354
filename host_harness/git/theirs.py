"""Who wrote the branch git is merging in: what the merge driver tells the component (issue 45).

Git does not pass a merge driver the commit it merges; it keeps it in ``MERGE_HEAD`` (``git
merge``, ``git pull``), ``CHERRY_PICK_HEAD``, ``REVERT_HEAD`` or ``REBASE_HEAD`` while the driver
runs. Its author is compared with this checkout's ``user.email``: a memory that arrives from
someone else is not trusted until approved (``guest/memory/origin.py``). Outside a merge (the
driver run by hand), nothing is known and ``None`` is answered; the memories then arrive as
``{"kind": "git"}`` from an unknown author: not trusted either.
"""

from __future__ import annotations

import subprocess
from pathlib import Path
from typing import Any

HEADS = ("MERGE_HEAD", "CHERRY_PICK_HEAD", "REVERT_HEAD", "REBASE_HEAD")
TIMEOUT_S = 10


def _git(where: Path, *args: str) -> str | None:
    try:
        done = subprocess.run(["git", *args], cwd=where, capture_output=True, text=True, check=False,
                              timeout=TIMEOUT_S)
    except (OSError, subprocess.SubprocessError):
        return None
    return done.stdout.strip() if done.returncode == 0 and done.stdout.strip() else None


def theirs(where: Path) -> dict[str, Any]:
    """``{commit, author, self}`` of the commit being merged in at ``where``, or ``{"self": False}``."""
    for head in HEADS:
        commit = _git(where, "rev-parse", "-q", "--verify", f"{head}^{{commit}}")
        if commit is None:
            continue
        found = _git(where, "log", "-1", "--format=%an%x00%ae", commit) or "\0"
        name, _, email = found.partition("\0")
        mine = _git(where, "config", "user.email")
        author = f"{name} <{email}>" if email else name or None
        out: dict[str, Any] = {"commit": commit, "self": bool(email) and email == mine}
        return {**out, "author": author} if author else out
    return {"self": False}
