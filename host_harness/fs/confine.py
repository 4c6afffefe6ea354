"""Paths under ``<project>/.gm/`` that can never lead outside the project.

``.gm/`` is committed to git, so a cloned repository can plant symbolic links in it
(``.gm/managed-skills -> ~/.claude/skills``, ``.gm/exec-spool/out -> ~``, a discipline folder
pointing elsewhere) or hard-link a file from outside into it. The host therefore never follows a
link below the project root:

* every directory on the way is opened relative to its parent with ``O_NOFOLLOW | O_DIRECTORY``
  (``openat``), and created the same way (``mkdirat``) when a write needs it;
* files are opened relative to their directory with ``O_NOFOLLOW`` (and ``O_NONBLOCK``, so a
  FIFO cannot hang a reader), and must be regular files;
* a write replaces its file by a rename inside the directory it opened.

A link anywhere on the way raises :class:`OutsideProject`; a file that is not a regular file, or
is hard-linked elsewhere, where a regular file of ours belongs raises :class:`UnsafeFile`
(:func:`check_regular`). Links *above* the project root are the user's business: the root is
whatever path the user chose. SQLite opens its files by name, so before it opens a database
``host_harness/store/sqlite_files.py`` checks every path it may open this way.

Every write that makes a folder under ``.gm/`` (a store's first write, the spool's folders, its
ledger) also gives ``.gm/`` its ``.gitignore``, which keeps the local state out of git, and its
``.gitattributes``, which names the stores' diff and merge drivers (``host_harness/fs/local_state.py``):
whoever made ``.gm/``, by hand or by a command, and never over a file that is already there.
"""

from __future__ import annotations

import contextlib
import errno
import os
import stat
from collections.abc import Iterator, Sequence
from pathlib import Path

from host_harness.fs import local_state
from host_harness.fs.atomic import write_atomic_at

_CLOEXEC = getattr(os, "O_CLOEXEC", 0)
_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
DIR_FLAGS = os.O_RDONLY | getattr(os, "O_DIRECTORY", 0) | _NOFOLLOW | _CLOEXEC
READ_FLAGS = os.O_RDONLY | _NOFOLLOW | getattr(os, "O_NONBLOCK", 0) | _CLOEXEC


class OutsideProject(OSError):
    """A path under the project that is (or passes through) a symbolic link; never followed."""


class UnsafeFile(OSError):
    """A file under the project that is not a regular file (a FIFO...) or is hard-linked elsewhere."""


KINDS = {stat.S_IFIFO: "a FIFO", stat.S_IFSOCK: "a socket", stat.S_IFCHR: "a character device",
         stat.S_IFBLK: "a block device", stat.S_IFDIR: "a directory"}


def check_regular(st: os.stat_result, where: Path | str) -> None:
    """Refuse (from an ``lstat``) anything but a regular file with one link (never opened: never blocks)."""
    if stat.S_ISLNK(st.st_mode):
        raise refused(where)
    if not stat.S_ISREG(st.st_mode):
        kind = KINDS.get(stat.S_IFMT(st.st_mode), "not a regular file")
        raise UnsafeFile(errno.EINVAL, f"{where} is {kind}, not a regular file; rs-learn refuses to open it "
                                       "(it could block or lead outside the project)")
    if st.st_nlink > 1:
        raise UnsafeFile(errno.EMLINK, f"{where} has {st.st_nlink} hard links; rs-learn refuses a file that "
                                       "is also linked elsewhere (writing it would change that file too)")


def parts_of(root: Path, path: Path) -> tuple[str, ...]:
    """The components of ``path`` below ``root`` (lexically; ``ValueError`` when it is not below)."""
    return Path(path).relative_to(root).parts


def refused(where: Path | str) -> OutsideProject:
    """The error for a link at ``where``."""
    return OutsideProject(
        errno.ELOOP,
        f"{where} is a symbolic link; rs-learn never follows links under the project (they could "
        "lead outside it)",
    )


def _is_link(name: str, dir_fd: int) -> bool:
    try:
        return stat.S_ISLNK(os.stat(name, dir_fd=dir_fd, follow_symlinks=False).st_mode)
    except FileNotFoundError:
        return False


def open_dir(root: Path, parts: Sequence[str], *, create: bool = False) -> int:
    """A file descriptor of ``root/parts...``, reached without following any link below ``root``."""
    fd = os.open(root, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0) | _CLOEXEC)
    try:
        for depth, part in enumerate(parts):
            if part in ("", ".", "..") or "/" in part:
                raise ValueError(f"not a plain path component: {part!r}")
            try:
                child = os.open(part, DIR_FLAGS, dir_fd=fd)
            except FileNotFoundError:
                if not create:
                    raise
                made = True
                try:
                    os.mkdir(part, 0o755, dir_fd=fd)
                except FileExistsError:
                    made = False
                child = _open_child(part, fd, root, parts[: depth + 1])
                if made and depth == 0 and part == ".gm":
                    _write_local_files(child)
            except OSError as error:
                if error.errno in (errno.ELOOP, errno.ENOTDIR, errno.EMLINK) and _is_link(part, fd):
                    raise refused(Path(root, *parts[: depth + 1])) from None
                raise
            if create and depth == 0 and part == ".gm":
                _write_local_files(child, missing_only=True)  # whoever made .gm/: a write uses it now
            os.close(fd)
            fd = child
    except BaseException:
        os.close(fd)
        raise
    return fd


def _write_local_files(gm_fd: int, *, missing_only: bool = False) -> None:
    """``.gm/.gitignore`` and ``.gm/.gitattributes`` (best effort: never fails the write).

    ``missing_only``: only a file that is not there; an existing one is the user's.
    """
    for name, text in ((local_state.GITIGNORE, local_state.gitignore_text()),
                       (local_state.GITATTRIBUTES, local_state.gitattributes_text())):
        with contextlib.suppress(OSError):
            if missing_only:
                try:
                    os.stat(name, dir_fd=gm_fd, follow_symlinks=False)
                    continue
                except FileNotFoundError:
                    pass
            write_atomic_at(gm_fd, name, text.encode("utf-8"))


def ensure_gitignore(root: Path) -> None:
    """Give an existing ``root/.gm/`` its ``.gitignore`` and ``.gitattributes`` when missing (best effort)."""
    with contextlib.suppress(OSError), directory(root, (".gm",)) as gm_fd:
        _write_local_files(gm_fd, missing_only=True)


def _open_child(part: str, fd: int, root: Path, where: Sequence[str]) -> int:
    try:
        return os.open(part, DIR_FLAGS, dir_fd=fd)
    except OSError as error:
        if _is_link(part, fd):
            raise refused(Path(root, *where)) from None
        raise error


@contextlib.contextmanager
def directory(root: Path, parts: Sequence[str], *, create: bool = False) -> Iterator[int]:
    """:func:`open_dir` as a context manager."""
    fd = open_dir(root, parts, create=create)
    try:
        yield fd
    finally:
        os.close(fd)


def open_file(name: str, dir_fd: int, where: Path | str) -> int:
    """Open regular file ``name`` of ``dir_fd`` for reading: no link, no FIFO, never blocking."""
    try:
        fd = os.open(name, READ_FLAGS, dir_fd=dir_fd)
    except OSError as error:
        if error.errno in (errno.ELOOP, errno.EMLINK) and _is_link(name, dir_fd):
            raise refused(where) from None
        raise
    try:
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):
            raise OSError(errno.EINVAL, f"{where} is not a regular file")
    except BaseException:
        os.close(fd)
        raise
    return fd


def read_file(root: Path, parts: Sequence[str], limit: int) -> bytes | None:
    """The first ``limit`` bytes of the regular file ``root/parts...``; ``None`` when it is absent."""
    try:
        with directory(root, parts[:-1]) as dir_fd:
            fd = open_file(parts[-1], dir_fd, Path(root, *parts))
    except FileNotFoundError:
        return None
    try:
        chunks, size = [], 0
        while size < limit and (chunk := os.read(fd, min(limit - size, 1 << 20))):
            chunks.append(chunk)
            size += len(chunk)
        return b"".join(chunks)
    finally:
        os.close(fd)


def write_file(root: Path, parts: Sequence[str], data: bytes) -> None:
    """Replace ``root/parts...`` with ``data`` atomically, creating its directories without links."""
    with directory(root, parts[:-1], create=True) as dir_fd:
        write_atomic_at(dir_fd, parts[-1], data)


def append_file(root: Path, parts: Sequence[str], data: bytes, rotate_at: int) -> None:
    """Append ``data``; first move a file larger than ``rotate_at`` to ``<name>.1``."""
    name = parts[-1]
    with directory(root, parts[:-1], create=True) as dir_fd:
        with contextlib.suppress(FileNotFoundError):
            st = os.stat(name, dir_fd=dir_fd, follow_symlinks=False)
            if stat.S_ISLNK(st.st_mode):
                raise refused(Path(root, *parts))
            if st.st_size > rotate_at:
                os.replace(name, name + ".1", src_dir_fd=dir_fd, dst_dir_fd=dir_fd)
        flags = os.O_WRONLY | os.O_APPEND | os.O_CREAT | _NOFOLLOW | _CLOEXEC
        try:
            fd = os.open(name, flags, 0o644, dir_fd=dir_fd)
        except OSError as error:
            if _is_link(name, dir_fd):
                raise refused(Path(root, *parts)) from None
            raise error
        try:
            os.write(fd, data)
        finally:
            os.close(fd)
