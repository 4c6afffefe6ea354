"""``WriterQueue``: writers waiting for a SQLite store's write lock are served first come, first served.

SQLite's own wait (its busy handler) is not fair: a waiter sleeps 1, 2, 5, 10 ... up to 100 ms
between tries, and a writer that arrives meanwhile takes the lock first. Under eight writers one call
in a couple of thousand waited out its whole busy timeout while later ones went past it. So a writer
that finds the lock taken queues in ``<db>-queue``, a local file beside the store:

* it takes a ticket: the file's first 8 bytes count the tickets, bumped under a lock on byte 0, and
  the ticket's own byte (:data:`TICKETS` + n) is locked before that lock is released;
* it waits until the previous ticket's byte is free -- that writer has committed, given up or died
  (the kernel releases a dead process's locks) -- and is then the head of the queue;
* as the head it takes SQLite's write lock, trying every few milliseconds, and keeps its ticket's byte
  locked until its transaction ends, so the next writer starts after its commit.

A writer that could take the lock at once first checks that nobody is queued (:meth:`busy`), else it
queues too: nobody goes past a waiting writer. The locks are open file description locks
(``F_OFD_SETLK``, Linux): two connections of one process exclude each other too, and closing one
file never drops another's lock. Without them (macOS) the queue is a ``flock`` mutex instead: the
waiters take turns one at a time, not in arrival order.

Waits are polled (0.5 to 4 ms apart: a kernel lock wait cannot be bounded in time) against a deadline
the caller derives from the call's lock budget; past it :class:`LockTimeout` is raised and the
ticket released, so the writers behind move up.
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import os
import struct
import time
from collections.abc import Callable
from pathlib import Path

from host_harness.fs import QUEUE_SUFFIX, confine
from host_harness.store.locks import LockTimeout

TICKETS = 1024  # ticket n is the lock on byte TICKETS + n (the count lives in bytes 0-7)
FIRST_POLL_S, LAST_POLL_S = 0.0005, 0.004
_OFD = hasattr(fcntl, "F_OFD_SETLK")
_FLOCK = struct.Struct("hhqqi4x")  # struct flock on Linux (x86-64, arm64): type, whence, start, len, pid


def poll(attempt: Callable[[], bool], deadline: float, what: str) -> None:
    """Call ``attempt`` until it returns true, sleeping a little longer each time (until ``deadline``)."""
    delay = FIRST_POLL_S
    while not attempt():
        if time.monotonic() >= deadline:
            raise LockTimeout(f"gave up waiting for {what}")
        time.sleep(delay)
        delay = min(delay * 1.5, LAST_POLL_S)


class WriterQueue:
    """The queue of writers of the store ``db`` (``confine_to``: the project root, links refused below it)."""

    def __init__(self, db: Path, confine_to: Path | None) -> None:
        self.path = Path(f"{db}{QUEUE_SUFFIX}")
        self.confine_to = confine_to
        self._fd: int | None = None
        self._ticket: int | None = None
        self.ahead = 0  # writers that were ahead of the last ticket taken

    def busy(self) -> bool:
        """Whether a writer is queued or holds the head (never creates the file; never waits)."""
        fd = self._open(create=False)
        if fd is None:
            return False
        if not _OFD:
            return not _try_flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB, release=True)
        count = _count(fd)
        return count > 0 and not _free(fd, TICKETS + count - 1)

    def join(self, deadline: float) -> None:
        """Queue; return once the writers queued earlier are done (:class:`LockTimeout` at ``deadline``)."""
        fd = self._open(create=True)
        assert fd is not None
        if not _OFD:
            poll(lambda: _try_flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB), deadline, f"the queue {self.path}")
            self._ticket = 0
            return
        poll(lambda: _lock(fd, fcntl.F_WRLCK, 0), deadline, f"a ticket of {self.path}")
        try:
            ticket = _count(fd)
            os.pwrite(fd, (ticket + 1).to_bytes(8, "little"), 0)
            if not _lock(fd, fcntl.F_WRLCK, TICKETS + ticket):  # a stale count: nobody can hold it
                raise LockTimeout(f"the ticket byte {ticket} of {self.path} is held by another writer")
        finally:
            _lock(fd, fcntl.F_UNLCK, 0)
        self._ticket = ticket
        self.ahead = _waiting_ahead(fd, ticket)
        if ticket == 0:
            return
        try:
            poll(lambda: _lock(fd, fcntl.F_RDLCK, TICKETS + ticket - 1), deadline,
                 f"the {self.ahead} writer(s) queued ahead in {self.path}")
        except LockTimeout:
            self.leave()
            raise
        _lock(fd, fcntl.F_UNLCK, TICKETS + ticket - 1)

    def leave(self) -> None:
        """Release the ticket (after the transaction ended): the next writer may go."""
        if self._ticket is None or self._fd is None:
            return
        if _OFD:
            _lock(self._fd, fcntl.F_UNLCK, TICKETS + self._ticket)
        else:
            fcntl.flock(self._fd, fcntl.LOCK_UN)
        self._ticket = None

    @property
    def queued(self) -> bool:
        """Whether this writer holds a ticket."""
        return self._ticket is not None

    def close(self) -> None:
        """Release the ticket and close the file."""
        self.leave()
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None

    def _open(self, create: bool) -> int | None:
        if self._fd is not None:
            return self._fd
        if not create and not os.path.lexists(self.path):
            return None  # the usual case, answered by one lstat
        flags = os.O_RDWR | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)
        flags |= getattr(os, "O_CLOEXEC", 0)
        flags |= os.O_CREAT if create else 0
        root = self.confine_to
        try:
            if root is None:
                fd = os.open(self.path, flags, 0o644)
            else:
                with confine.directory(root, confine.parts_of(root, self.path.parent)) as dir_fd:
                    with contextlib.suppress(FileNotFoundError):  # an lstat first: never open a FIFO
                        confine.check_regular(os.stat(self.path.name, dir_fd=dir_fd, follow_symlinks=False),
                                              self.path)
                    fd = os.open(self.path.name, flags, 0o644, dir_fd=dir_fd)
        except FileNotFoundError:
            if create:
                raise
            return None
        try:
            confine.check_regular(os.fstat(fd), self.path)
        except BaseException:
            os.close(fd)
            raise
        self._fd = fd
        return fd


def _lock(fd: int, kind: int, offset: int) -> bool:
    """Set (``F_WRLCK``/``F_RDLCK``) or clear (``F_UNLCK``) an OFD lock on one byte without waiting."""
    try:
        fcntl.fcntl(fd, fcntl.F_OFD_SETLK, _FLOCK.pack(kind, os.SEEK_SET, offset, 1, 0))
    except OSError as error:
        if error.errno in (errno.EAGAIN, errno.EACCES):
            return False
        raise
    return True


def _free(fd: int, offset: int) -> bool:
    """Whether nobody holds a lock on byte ``offset``."""
    answer = fcntl.fcntl(fd, fcntl.F_OFD_GETLK, _FLOCK.pack(fcntl.F_WRLCK, os.SEEK_SET, offset, 1, 0))
    return bool(_FLOCK.unpack(answer)[0] == fcntl.F_UNLCK)


def _count(fd: int) -> int:
    raw = os.pread(fd, 8, 0)
    return int.from_bytes(raw, "little") if len(raw) == 8 else 0


def _waiting_ahead(fd: int, ticket: int, look: int = 64) -> int:
    """How many of the (at most ``look``) tickets before ``ticket`` are still held: for messages."""
    return sum(not _free(fd, TICKETS + n) for n in range(max(ticket - look, 0), ticket))


def _try_flock(fd: int, how: int, release: bool = False) -> bool:
    try:
        fcntl.flock(fd, how)
    except BlockingIOError:
        return False
    if release:
        fcntl.flock(fd, fcntl.LOCK_UN)
    return True
