"""Which project a command works on: one rule for the CLI, the spool, the MCP server and the hooks.

Started from a folder (the working directory, or a hook event's ``cwd``), the project is

1. the nearest folder at or above it that holds ``.gm/`` (``.gm found``);
2. else the root of the git work tree it is in: the nearest folder holding ``.git``, a folder or
   the file a linked work tree or a submodule has (``git root``);
3. else the folder itself (``working directory``).

So ``cd proj/src && rs-learn-host memorize x`` writes ``proj/.gm/``, and a prompt from ``src/``
recalls from it. A project named by ``-p``/``--project`` or ``$RS_LEARN_PROJECT`` is used as it is
(:func:`chosen`). Standard library only: the hooks' fast path imports this before anything else.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import NamedTuple

GM_FOUND = ".gm found"
GIT_ROOT = "git root"
WORKING_DIRECTORY = "working directory"
GIVEN = "-p"
FROM_ENV = "$RS_LEARN_PROJECT"


class Found(NamedTuple):
    """A project's root and why it was chosen (one of the reasons above)."""

    root: Path
    reason: str

    def as_json(self) -> dict[str, str]:
        """``{"root", "found_by"}`` (what ``stats --json`` shows)."""
        return {"root": str(self.root), "found_by": self.reason}


def find(start: Path) -> Found:
    """The project of a command started in ``start`` (see the module's rule)."""
    start = Path(os.path.abspath(start)).resolve()
    folders = (start, *start.parents)
    for folder in folders:
        if (folder / ".gm").is_dir():
            return Found(folder, GM_FOUND)
    for folder in folders:
        if os.path.lexists(folder / ".git"):
            return Found(folder, GIT_ROOT)
    return Found(start, WORKING_DIRECTORY)


def find_project(start: Path) -> Path:
    """The root :func:`find` chooses."""
    return find(start).root


def chosen(option: Path | None, reason: str = GIVEN, cwd: Path | None = None) -> Found:
    """``option`` as it is (``-p`` or ``$RS_LEARN_PROJECT``: ``reason``), else :func:`find` from ``cwd``."""
    if option is not None:
        return Found(Path(option).resolve(), reason)
    return find(cwd if cwd is not None else Path.cwd())
