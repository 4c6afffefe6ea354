"""Each transcript's capture state: where the last run stopped, and what it carries over.

One file per transcript, ``.gm/logs/capture/<sha256 of its absolute path, 32 hex>.json`` --
``{"path", "offset", "tracker"}`` -- local state, never committed (``.gm/logs/`` is in
``.gm/.gitignore``), reached without following links and replaced atomically. A run holds the
transcript's lock (``.lock`` beside it, ``flock``) from reading the state to saving it, so two runs
of one session (a ``Stop`` right after another) never capture the same lines twice. A hook marks a run
it starts as pending (``.pending`` beside it) before the run exists; the run removes the mark when done,
so that ``SessionStart`` after a compaction knows to wait for it (:func:`wait_idle`).
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import json
import os
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from host_harness.fs import confine

if TYPE_CHECKING:  # the rules' tables load where a run loads or saves a tracker, never in a hook
    from host_harness.capture.extract import Tracker

FOLDER = (".gm", "logs", "capture")
MAX_FILE_BYTES = 4 * 1024 * 1024
PENDING_S = 600.0  # a pending mark older than this is a run that died


@dataclass
class State:
    """Where the next run starts in one transcript, and the tracker it goes on with."""

    path: str
    offset: int = 0
    tracker: Tracker | None = None

    def saved(self) -> bytes:
        """The file's bytes."""
        from host_harness.capture.extract import Tracker

        tracker = (self.tracker or Tracker()).saved()
        return json.dumps({"path": self.path, "offset": self.offset, "tracker": tracker}).encode("utf-8")


def name_of(transcript: Path) -> str:
    """The state file's name for ``transcript`` (a digest: the path never becomes a path)."""
    return hashlib.sha256(str(transcript.absolute()).encode("utf-8", "surrogatepass")).hexdigest()[:32]


def load(project: Path, transcript: Path) -> State:
    """The transcript's state (a fresh one when it has none or its file is unreadable)."""
    from host_harness.capture.extract import Tracker

    path = str(transcript.absolute())
    try:
        raw = confine.read_file(project, (*FOLDER, name_of(transcript) + ".json"), MAX_FILE_BYTES)
        value: Any = json.loads(raw) if raw else None
    except (OSError, ValueError):
        value = None
    if not isinstance(value, dict) or value.get("path") != path or not isinstance(value.get("offset"), int):
        return State(path, 0, Tracker())
    return State(path, max(0, value["offset"]), Tracker.load(value.get("tracker")))


def save(project: Path, transcript: Path, state: State) -> None:
    """Write the state atomically."""
    confine.write_file(project, (*FOLDER, name_of(transcript) + ".json"), state.saved())


@contextlib.contextmanager
def locked(project: Path, transcript: Path, wait_s: float | None = None) -> Iterator[bool]:
    """Hold the transcript's capture lock; yields whether it was got (``wait_s``: give up after it)."""
    with confine.directory(project, FOLDER, create=True) as folder:
        fd = os.open(
            name_of(transcript) + ".lock", os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW, 0o644, dir_fd=folder
        )
    try:
        got = _lock(fd, wait_s)
        try:
            yield got
        finally:
            if got:
                fcntl.flock(fd, fcntl.LOCK_UN)
    finally:
        os.close(fd)


def _lock(fd: int, wait_s: float | None) -> bool:
    if wait_s is None:
        fcntl.flock(fd, fcntl.LOCK_EX)
        return True
    until = time.monotonic() + wait_s
    while True:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            return True
        except BlockingIOError:
            if time.monotonic() >= until:
                return False
            time.sleep(0.02)


def mark_pending(project: Path, transcript: Path) -> None:
    """A run of ``transcript`` is about to start (removed by :func:`done`)."""
    confine.write_file(project, (*FOLDER, name_of(transcript) + ".pending"), str(time.time()).encode("ascii"))


def done(project: Path, transcript: Path) -> None:
    """The run of ``transcript`` is over: its pending mark goes."""
    with contextlib.suppress(OSError), confine.directory(project, FOLDER) as folder:
        os.unlink(name_of(transcript) + ".pending", dir_fd=folder)


def pending(project: Path, transcript: Path) -> bool:
    """Whether a run of ``transcript`` was started and has not finished (a mark older than PENDING_S: no)."""
    try:
        with confine.directory(project, FOLDER) as folder:
            st = os.stat(name_of(transcript) + ".pending", dir_fd=folder, follow_symlinks=False)
    except OSError:
        return False
    return time.time() - st.st_mtime < PENDING_S


def wait_idle(project: Path, transcript: Path, seconds: float) -> bool:
    """Wait (at most ``seconds``) until no run of ``transcript`` is pending or running; whether it is so."""
    until = time.monotonic() + seconds
    while pending(project, transcript):
        if time.monotonic() >= until:
            return False
        time.sleep(0.02)
    with locked(project, transcript, wait_s=max(0.0, until - time.monotonic())) as got:
        return got
