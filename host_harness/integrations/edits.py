"""One planned change to a configuration file: shown as a diff, applied atomically, with a backup.

``setup`` plans every change first (nothing is written until each file's new text is known to be
sound), then applies them one by one. A changed file is replaced atomically (temp file, fsync,
rename) and keeps its permission bits (``~/.claude.json`` is private); its previous content goes
first to :func:`backup_of` -- the user's rs-learn cache, never beside the file, where a project's git
would see it. A file that is a symbolic link (dotfiles kept in a repository) is written where
the link points, never replaced by a plain file -- except in a project, where a link leading out of
the project is refused: a cloned repository must not make ``setup`` write elsewhere.
"""

from __future__ import annotations

import difflib
import os
import stat
from dataclasses import dataclass
from pathlib import Path

from host_harness.cachedir import default_cache_dir
from host_harness.fs import write_atomic

BACKUPS = "setup-backups"


class SetupError(Exception):
    """A file ``setup`` must not or cannot change; the message says which and why."""


@dataclass(frozen=True)
class Edit:
    """``path`` going from ``old`` to ``new`` (``None``: the file is absent / is to be deleted)."""

    path: Path
    old: str | None
    new: str | None
    what: str  # what changes, for the report ("mcpServers.rs-learn", "2 hooks", ...)
    rewrote: tuple[str, ...] = ()  # entries that ran a Python package, now the command (legacy.Fix)

    @property
    def changes(self) -> bool:
        """Whether applying the edit changes the file."""
        return self.old != self.new

    def diff(self, shown: str | None = None) -> str:
        """A unified diff (``shown`` names the file in the headers; default: its path)."""
        name = shown or str(self.path)
        before = (self.old or "").splitlines(keepends=True)
        after = (self.new or "").splitlines(keepends=True)
        lines = difflib.unified_diff(before, after, f"a/{name}" if self.old is not None else "/dev/null",
                                     f"b/{name}" if self.new is not None else "/dev/null")
        return "".join(line if line.endswith("\n") else line + "\n\\ No newline at end of file\n"
                       for line in lines)

    def apply(self) -> Path | None:
        """Write the change (atomically); return the backup of the previous content, if any."""
        if not self.changes:
            return None
        backup = None
        mode = 0o644
        if self.old is not None:
            mode = stat.S_IMODE(self.path.stat().st_mode)
            backup = backup_of(self.path)
            backup.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
            write_atomic(backup, self.old.encode("utf-8"), mode=mode)
        if self.new is None:
            self.path.unlink()
        else:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            write_atomic(self.path, self.new.encode("utf-8"), mode=mode)
        return backup


def backup_of(path: Path) -> Path:
    """Where the previous content of ``path`` is kept: ``<cache>/setup-backups/<its absolute path>``.

    (``~/.cache/rs-learn/setup-backups/home/me/app/.mcp.json``; each run keeps the content it replaced.)
    """
    absolute = path.absolute()
    drive = absolute.drive.strip(":\\/").replace(":", "")  # a Windows drive ("C:") as a folder ("C")
    return default_cache_dir() / BACKUPS / drive / absolute.relative_to(absolute.anchor)


def target_of(path: Path, confined_to: Path | None) -> Path:
    """Where writing ``path`` lands: the file itself, or where its symbolic links lead.

    With ``confined_to`` (a project), a path whose links leave that folder is refused.
    """
    real = path.resolve()
    if confined_to is not None and not real.is_relative_to(confined_to.resolve()):
        raise SetupError(f"{path} leads out of the project (to {real}) through a symbolic link: not written")
    return real


def read_text(path: Path) -> str | None:
    """The file's text (``None`` when it does not exist); a file that is not UTF-8 is refused."""
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        return None
    except IsADirectoryError:
        raise SetupError(f"{path} is a directory, not a file") from None
    try:
        return data.decode("utf-8-sig" if data.startswith(b"\xef\xbb\xbf") else "utf-8")
    except UnicodeDecodeError as error:
        raise SetupError(f"{path} is not UTF-8 text ({error}): not changed") from None


def home() -> Path:
    """The user's home folder (``$HOME`` first, as the agents themselves look it up)."""
    return Path(os.environ.get("HOME") or Path.home())
