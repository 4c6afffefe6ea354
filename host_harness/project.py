"""Which project a command works on: one rule for the CLI, the spool, the MCP server and the hooks.

Started from a folder (the working directory, or a hook event's ``cwd``), the project is

1. the nearest folder at or above it that holds ``.gm/`` (``.gm found``);
2. else the root of the git work tree it is in: the nearest folder holding ``.git``, a folder or
   the file a linked work tree or a submodule has (``git root``);
3. else the folder itself (``working directory``).

A linked git work tree (``git worktree add``) shares its repository's memory: when the project would
be the linked tree's root (its ``.gm/`` or its git root), it is the main work tree instead (``git
worktree``) -- the folder holding the repository's common git dir, which ``git rev-parse
--git-common-dir`` names; found here the way git finds it, from the linked tree's ``.git`` file and
its git dir's ``commondir``, without running git. ``$RS_LEARN_WORKTREES=own`` gives each work tree
its own memory again. A submodule (no ``commondir``) and a bare repository's work trees (no main
work tree) keep their own.

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
WORKTREE = "git worktree"
WORKTREES_ENV = "RS_LEARN_WORKTREES"  # "shared" (default) or "own"
MAX_GIT_FILE = 4096


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
    gm = next((folder for folder in folders if (folder / ".gm").is_dir()), None)
    top = next((folder for folder in folders if os.path.lexists(folder / ".git")), None)
    if top is not None and gm in (None, top) and (main := shared_root(top)) is not None:
        return Found(main, WORKTREE)
    if gm is not None:
        return Found(gm, GM_FOUND)
    if top is not None:
        return Found(top, GIT_ROOT)
    return Found(start, WORKING_DIRECTORY)


def find_from(start: Path, known_start: Path, known: Found | None) -> Found:
    """The project of ``start``: ``known`` (found from ``known_start`` already) when it is the same folder.

    A hook's event names its ``cwd``; the entry point looked from where the command started. When both
    are one folder the project is located once.
    """
    if known is not None and os.path.abspath(start) == os.path.abspath(known_start):
        return known
    return find(start)


def shared_root(folder: Path) -> Path | None:
    """The main work tree of the repository whose linked work tree's root is ``folder``; else ``None``.

    ``None`` also when ``$RS_LEARN_WORKTREES`` is ``own``, for a submodule and for a bare repository.
    """
    if os.environ.get(WORKTREES_ENV, "shared").strip().lower() == "own":
        return None
    try:
        with open(folder / ".git", encoding="utf-8") as dotgit:  # a directory: the main tree itself
            head = dotgit.read(MAX_GIT_FILE)
        if not head.startswith("gitdir:"):
            return None
        gitdir = folder / head[len("gitdir:"):].strip()  # an absolute path stays as it is
        with open(gitdir / "commondir", encoding="utf-8") as commondir:
            common = (gitdir / commondir.read(MAX_GIT_FILE).strip()).resolve()
    except (OSError, UnicodeDecodeError):
        return None
    main = common.parent
    if common.name != ".git" or main == folder.resolve() or not main.is_dir():
        return None
    return main


def find_project(start: Path) -> Path:
    """The root :func:`find` chooses."""
    return find(start).root


def chosen(option: Path | None, reason: str = GIVEN, cwd: Path | None = None) -> Found:
    """``option`` as it is (``-p`` or ``$RS_LEARN_PROJECT``: ``reason``), else :func:`find` from ``cwd``."""
    if option is not None:
        given = Path(option).resolve()
        main = shared_root(given)
        return Found(main, WORKTREE) if main is not None else Found(given, reason)
    return find(cwd if cwd is not None else Path.cwd())
