"""The files SQLite opens for a store, checked before it opens them; stale super-journals removed.

SQLite opens a database by name, and by name too the files beside it: the rollback journal
``<db>-journal`` (written by every write, and opened by every reader that finds one), ``<db>-wal``
and ``<db>-shm`` (when the file's header asks for WAL mode) and, when a commit spans attached files
(a spool call writes the store and the spool's ledger together), a *super-journal*
``<db>-mjXXXXXXXX`` whose absolute path the journals of those files carry at their end. Rolling
back a hot journal, SQLite opens the super-journal it names and the journals *that* lists.

``.gm/`` can be tampered with (a cloned repository, an archive unpacked into it), so before SQLite
opens a store or the ledger, :func:`check_database` makes sure, never opening anything that is not
a regular file (an ``lstat`` first, so a FIFO cannot make it block), that every one of those paths
that exists is a regular file with a single link, reached without a symbolic link below the
project, and that a journal names no super-journal -- nor a super-journal a journal -- that exists
outside the project. :func:`check_quick` repeats the cheap part before every transaction of an open
connection (four ``lstat`` calls when nothing is wrong).

Super-journals normally live for the few milliseconds of a commit; one whose commit was killed
stays forever. :func:`remove_stale_supers` removes those that no journal names any more, and only
while the caller holds the store's write lock: no writer of the store can be in the middle of a
commit then, so a super-journal that no journal names is provably orphaned.
"""

from __future__ import annotations

import contextlib
import logging
import os
from pathlib import Path

from host_harness.fs import confine

SIDE_SUFFIXES = ("-journal", "-wal", "-shm")
SUPER_INFIX = "-mj"
JOURNAL_MAGIC = bytes((0xD9, 0xD5, 0x05, 0xF9, 0x20, 0xA1, 0x63, 0xD7))
MAX_NAME = 512  # SQLite's unix VFS: the longest path it writes into a journal
MAX_SUPER_BYTES = 64 * 1024  # a super-journal lists a few journal paths

log = logging.getLogger("rs_learn.host")


def check_database(root: Path, path: Path, *, create: bool) -> None:
    """Before SQLite opens ``path``: no link on the way, and every file it may open beside it is safe.

    With ``create`` the directories are made (without following links); otherwise a missing
    directory raises ``FileNotFoundError``. Refusals are :class:`confine.OutsideProject` (a link)
    or :class:`confine.UnsafeFile` (not a regular file, hard-linked, naming a file outside).
    """
    parts = confine.parts_of(root, path)
    with confine.directory(root, parts[:-1], create=create) as dir_fd:
        _check_dir(root, Path(root, *parts[:-1]), dir_fd, parts[-1])


def check_quick(root: Path, path: Path) -> None:
    """Before a transaction of an open connection: ``lstat`` the side files (all checks if one exists)."""
    for suffix in ("", *SIDE_SUFFIXES):
        try:
            st = os.lstat(f"{path}{suffix}")
        except FileNotFoundError:
            continue
        confine.check_regular(st, f"{path}{suffix}")
        if suffix:
            check_database(root, path, create=False)  # a journal is there: what does it name?
            return


def _check_dir(root: Path, folder: Path, dir_fd: int, db: str) -> None:
    """Check ``db`` and its side files in the directory ``dir_fd`` (``folder``)."""
    names = [db, *(db + suffix for suffix in SIDE_SUFFIXES)]
    names += sorted(entry.name for entry in os.scandir(dir_fd) if entry.name.startswith(db + SUPER_INFIX))
    for name in names:
        try:
            st = os.stat(name, dir_fd=dir_fd, follow_symlinks=False)
        except FileNotFoundError:
            continue
        confine.check_regular(st, folder / name)
    try:
        named = super_named(dir_fd, db + "-journal", folder / (db + "-journal"))
    except FileNotFoundError:
        return
    if named is not None:
        _check_named(root, named, folder / (db + "-journal"), journal=False)


def _check_named(root: Path, named: str, by: Path, *, journal: bool) -> None:
    """A file a journal (or super-journal) names: absent, or a safe regular file inside the project.

    A super-journal's own journals are checked too (SQLite opens them when it rolls back).
    """
    path = Path(named)
    parts = _inside(root, path)
    if not parts:
        if os.path.lexists(named):
            raise confine.UnsafeFile(0, f"{by} names {named}, outside the project; rs-learn refuses to let "
                                        "SQLite open it")
        return
    try:
        with confine.directory(root, parts[:-1]) as dir_fd:
            st = os.stat(parts[-1], dir_fd=dir_fd, follow_symlinks=False)
            confine.check_regular(st, path)
            if not journal:
                for child in journals_of(_read_small(dir_fd, parts[-1], path)):
                    _check_named(root, child, path, journal=True)
    except FileNotFoundError:
        return


def _inside(root: Path, path: Path) -> tuple[str, ...] | None:
    """The components of an absolute ``path`` below ``root`` (``None``: relative, or outside the project)."""
    if not path.is_absolute():
        return None
    try:
        parts = confine.parts_of(root, path)
    except ValueError:
        return None
    return parts if parts and not {".", ".."} & set(parts) else None  # "..": treated as outside


def super_named(dir_fd: int, name: str, where: Path) -> str | None:
    """The super-journal path a rollback journal ends with (``None`` when it names none).

    SQLite writes it last: the path, its length and a checksum (big-endian 32-bit), the journal
    magic. The checksum is not verified: a name read here is only ever checked, never trusted.
    """
    confine.check_regular(os.stat(name, dir_fd=dir_fd, follow_symlinks=False), where)  # never open a FIFO
    fd = confine.open_file(name, dir_fd, where)
    try:
        size = os.fstat(fd).st_size
        if size < 16:
            return None
        tail = os.pread(fd, 16, size - 16)
        length = int.from_bytes(tail[:4], "big")
        if tail[8:] != JOURNAL_MAGIC or not 0 < length <= min(MAX_NAME, size - 16):
            return None
        raw = os.pread(fd, length, size - 16 - length)
    finally:
        os.close(fd)
    return os.fsdecode(raw.split(b"\x00", 1)[0]) or None


def journals_of(content: bytes) -> list[str]:
    """The journal paths a super-journal lists (NUL-terminated, one after the other)."""
    return [os.fsdecode(part) for part in content.split(b"\x00") if part]


def _read_small(dir_fd: int, name: str, where: Path) -> bytes:
    fd = confine.open_file(name, dir_fd, where)
    try:
        content = os.pread(fd, MAX_SUPER_BYTES + 1, 0)
    finally:
        os.close(fd)
    if len(content) > MAX_SUPER_BYTES:
        raise confine.UnsafeFile(0, f"{where} is larger than {MAX_SUPER_BYTES} bytes: not a super-journal")
    return content


def remove_stale_supers(root: Path, path: Path) -> list[str]:
    """Remove the super-journals of ``path`` that no journal names; the caller holds its write lock.

    A super-journal is kept when any journal it lists exists and ends with its name, or when that
    cannot be told (a journal outside the project that exists, anything unreadable). Returns the
    names removed.
    """
    parts = confine.parts_of(root, path)
    removed = []
    with confine.directory(root, parts[:-1]) as dir_fd:
        folder = Path(root, *parts[:-1])
        for entry in sorted(os.scandir(dir_fd), key=lambda e: e.name):
            if not entry.name.startswith(parts[-1] + SUPER_INFIX) or not entry.is_file(follow_symlinks=False):
                continue
            try:
                if _is_live(root, entry.name, _read_small(dir_fd, entry.name, folder / entry.name)):
                    continue
                os.unlink(entry.name, dir_fd=dir_fd)
            except OSError as error:
                log.warning("left %s alone: %s", folder / entry.name, error)
                continue
            removed.append(entry.name)
    if removed:
        log.info("removed %d orphaned super-journal(s) beside %s: %s", len(removed), path, ", ".join(removed))
    return removed


def _is_live(root: Path, name: str, content: bytes) -> bool:
    """Whether a journal the super-journal ``name`` lists still names it (so a rollback needs it)."""
    for child in journals_of(content):
        path = Path(child)
        parts = _inside(root, path)
        if not parts:
            if os.path.lexists(child):
                return True  # cannot be told without reading outside the project: keep it
            continue
        with contextlib.suppress(FileNotFoundError):
            with confine.directory(root, parts[:-1]) as dir_fd:
                named = super_named(dir_fd, parts[-1], path)
            if named is not None and os.path.basename(named) == name:
                return True
    return False
