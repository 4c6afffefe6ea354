"""Durable atomic file replacement: temp file beside the target, fsync, rename, fsync the directory.

A reader sees the old content or the new content, never a mix, and after a
crash the file holds one of the two. The temp file is named
``.<name>.tmp.<pid>-<thread>`` (a dotfile that spool scanners and git tooling ignore);
it is removed if anything fails before the rename.
"""

from __future__ import annotations

import contextlib
import os
import threading
from pathlib import Path


def temp_name(path: Path) -> Path:
    """The temp file used while ``path`` is being written by this thread (the warm server has several)."""
    return path.with_name(f".{path.name}.tmp.{os.getpid()}-{threading.get_native_id()}")


def fsync_dir(directory: Path) -> None:
    """Make a rename or unlink in ``directory`` durable (a no-op where directories cannot be opened)."""
    try:
        fd = os.open(directory, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    except OSError:
        return
    try:
        with contextlib.suppress(OSError):  # some file systems refuse fsync on a directory
            os.fsync(fd)
    finally:
        os.close(fd)


def write_durably(fd: int, data: bytes) -> None:
    """Write all of ``data`` at the descriptor's offset, then fsync."""
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view) :]
    os.fsync(fd)


def write_atomic(path: Path, data: bytes, *, mode: int = 0o644) -> None:
    """Replace ``path`` with ``data`` atomically and durably."""
    fd = os.open(path.parent, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0) | getattr(os, "O_CLOEXEC", 0))
    try:
        write_atomic_at(fd, path.name, data, mode=mode)
    finally:
        os.close(fd)


def write_atomic_at(
    dir_fd: int, name: str, data: bytes, *, mode: int = 0o644, tmp: str | None = None
) -> None:
    """Replace ``name`` in the directory ``dir_fd`` with ``data``: temp file, fsync, rename, fsync.

    The temp file is created exclusively and never through a link, and the rename replaces a
    link named ``name`` rather than writing where it points. ``tmp`` names the temp file
    (default ``.<name>.tmp.<pid>-<thread>``; a short one when ``name`` is long).
    """
    tmp = tmp or temp_name(Path(name)).name
    flags = os.O_WRONLY | os.O_CREAT | os.O_TRUNC | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)
    try:
        fd = os.open(tmp, flags, mode, dir_fd=dir_fd)
        try:
            write_durably(fd, data)
        finally:
            os.close(fd)
        os.replace(tmp, name, src_dir_fd=dir_fd, dst_dir_fd=dir_fd)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp, dir_fd=dir_fd)
        raise
    with contextlib.suppress(OSError):  # some file systems refuse fsync on a directory
        os.fsync(dir_fd)
