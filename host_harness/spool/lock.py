"""``SpoolLock``: one exec-spool watcher per project.

The lock is the file ``.gm/exec-spool/.lock`` holding JSON
``{"pid", "host", "token", "started", "heartbeat"}`` (epoch seconds). Its owner
rewrites ``heartbeat`` every :data:`HEARTBEAT_S` seconds from a background
thread, so a long request does not make it look dead.

Every read-decide-write of the file happens under ``fcntl.flock`` on the file
itself, so two starters cannot both win: they are serialised, the first writes
its token, the second reads it. The flock is held only for that short critical
section, never for the owner's lifetime -- that is what makes a *hung* owner
(stopped, deadlocked) replaceable. A holder is replaced when

* its heartbeat is older than :data:`STALE_S` seconds, or
* its heartbeat lies more than :data:`STALE_S` seconds in the *future* (a forged
  lock, or a clock set back: it would otherwise never grow stale), or
* it ran on this host and its pid is gone (or a zombie): a ``kill -9`` is
  recovered at once, without waiting for staleness.

An owner that finds someone else's token at its next heartbeat has lost the
lock (it was presumed dead) and must stop. Releasing unlinks the file under the
flock; a starter blocked on the old inode notices that the path now names
another file (or none) and starts over, so no one ever owns an unlinked lock.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import logging
import os
import secrets
import socket
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

HEARTBEAT_S = 1.0
STALE_S = 5.0

log = logging.getLogger("rs_learn.spool")


class LockHeld(Exception):
    """Another live watcher holds the lock."""

    def __init__(self, holder: dict[str, Any], age_s: float) -> None:
        super().__init__(
            f"another spool watcher holds the lock (pid {holder.get('pid')} on {holder.get('host')}, "
            f"heartbeat {age_s:.1f} s ago)"
        )
        self.holder = holder


def pid_alive(pid: int) -> bool:
    """Whether ``pid`` names a live (non-zombie) process on this host."""
    if pid <= 0:
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True  # someone else's process
    try:
        stat = Path(f"/proc/{pid}/stat").read_text(encoding="ascii", errors="replace")
    except OSError:
        return True  # no procfs: trust kill(0)
    return stat.rpartition(")")[2].split()[:1] != ["Z"]


class SpoolLock:
    """The watcher lock of one spool directory."""

    def __init__(
        self,
        path: Path,
        *,
        stale_s: float = STALE_S,
        heartbeat_s: float = HEARTBEAT_S,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.path = Path(path)
        self.stale_s = stale_s
        self.heartbeat_s = heartbeat_s
        self.clock = clock
        self.token = f"{os.getpid()}-{secrets.token_hex(8)}"
        self.host = socket.gethostname()
        self.started = 0.0
        self.owned = False
        self._beat: threading.Thread | None = None
        self._stop_beat = threading.Event()

    # the critical section

    @contextlib.contextmanager
    def _flocked(self) -> Iterator[int]:
        """Open the lock file and flock it, retrying until the path still names the locked inode."""
        self.path.parent.mkdir(parents=True, exist_ok=True)
        while True:
            flags = os.O_RDWR | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)
            fd = os.open(self.path, flags, 0o644)  # a planted link is refused (ELOOP), never followed
            try:
                fcntl.flock(fd, fcntl.LOCK_EX)
                mine = os.fstat(fd)
                try:
                    there = os.stat(self.path)
                except FileNotFoundError:
                    there = None
                if there is not None and (there.st_dev, there.st_ino) == (mine.st_dev, mine.st_ino):
                    break
            except BaseException:
                os.close(fd)
                raise
            os.close(fd)  # released and unlinked meanwhile: start over on the new file
        try:
            yield fd
        finally:
            os.close(fd)  # closing drops the flock

    @staticmethod
    def _read(fd: int) -> dict[str, Any] | None:
        data = b""
        while chunk := os.pread(fd, 65536, len(data)):
            data += chunk
        try:
            value = json.loads(data.decode("utf-8"))
        except ValueError:  # empty or torn by a crash mid-write: nobody owns it
            return None
        return value if isinstance(value, dict) else None

    def _write(self, fd: int) -> None:
        now = self.clock()
        record = {"pid": os.getpid(), "host": self.host, "token": self.token,
                  "started": self.started or now, "heartbeat": now}
        data = json.dumps(record).encode("utf-8")
        os.ftruncate(fd, 0)
        os.pwrite(fd, data, 0)
        os.fsync(fd)

    def _age(self, holder: dict[str, Any]) -> float:
        beat = holder.get("heartbeat")
        return self.clock() - float(beat) if isinstance(beat, (int, float)) else float("inf")

    def _vacant(self, holder: dict[str, Any] | None) -> bool:
        """Whether ``holder`` can be replaced: nobody, ourselves, a dead pid here, or a stale heartbeat."""
        if holder is None or holder.get("token") == self.token:
            return True
        pid = holder.get("pid")
        if holder.get("host") == self.host and isinstance(pid, int) and not pid_alive(pid):
            return True
        age = self._age(holder)
        return age > self.stale_s or age < -self.stale_s  # a heartbeat from the future is not a heartbeat

    # the API

    def acquire(self) -> None:
        """Take the lock, replacing a dead or stale holder; raise :class:`LockHeld` otherwise."""
        with self._flocked() as fd:
            holder = self._read(fd)
            if not self._vacant(holder):
                assert holder is not None
                raise LockHeld(holder, self._age(holder))
            if holder is not None and holder.get("token") != self.token:
                log.warning("taking over the spool lock from pid %s (dead or stale)", holder.get("pid"))
            self.started = self.clock()
            self._write(fd)
        self.owned = True

    def refresh(self) -> bool:
        """Rewrite the heartbeat; return ``False`` (and drop ownership) if someone else took the lock."""
        with self._flocked() as fd:
            holder = self._read(fd)
            if holder is None or holder.get("token") != self.token:
                self.owned = False
                return False
            self._write(fd)
        return True

    def release(self) -> None:
        """Stop the heartbeat and remove the lock file if it is still ours."""
        self.stop_heartbeat()
        if not self.owned:
            return
        self.owned = False
        with self._flocked() as fd:
            holder = self._read(fd)
            if holder is not None and holder.get("token") == self.token:
                self.path.unlink(missing_ok=True)

    def start_heartbeat(self, on_lost: Callable[[], None]) -> None:
        """Refresh every ``heartbeat_s`` seconds in a daemon thread; call ``on_lost`` once if it is lost."""
        self._stop_beat.clear()

        def beat() -> None:
            while not self._stop_beat.wait(self.heartbeat_s):
                try:
                    kept = self.refresh()
                except OSError as error:
                    log.error("cannot refresh the spool lock %s: %s", self.path, error)
                    kept = False
                if not kept:
                    log.error("lost the spool lock %s to another watcher; stopping", self.path)
                    on_lost()
                    return

        self._beat = threading.Thread(target=beat, name="rs-learn-spool-heartbeat", daemon=True)
        self._beat.start()

    def stop_heartbeat(self) -> None:
        """Stop the heartbeat thread (idempotent)."""
        self._stop_beat.set()
        if self._beat is not None and self._beat is not threading.current_thread():
            self._beat.join()
        self._beat = None
