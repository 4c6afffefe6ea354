"""Reading an agent's JSONL transcript safely: regular files only, one bounded line at a time.

Every agent's transcript reader (Claude Code's in ``transcript.py``; others beside it) reads through
here, so that none of them

* opens a FIFO, a device or a socket (:func:`open_regular` opens without blocking and refuses what is
  not a regular file: ``capture --transcript <FIFO>`` fails at once instead of hanging with the
  transcript's lock held);
* holds more than one line of at most :data:`MAX_LINE_BYTES` (:func:`lines` streams the file; a longer
  line is skipped a megabyte at a time, never read whole: a 300 MB line costs a megabyte of memory);
* loses the lines around a bad one (:func:`parse` says why a line is skipped -- too long, not UTF-8,
  not JSON, nested too deeply -- and the reader goes on with the next).

A line still being written (no newline yet) is left for the next run.
"""

from __future__ import annotations

import json
import os
import stat
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

MAX_LINE_BYTES = 16 * 1024 * 1024  # a transcript line (an entry) read at most; a longer one is skipped
PIECE = 1 << 20  # how much of a too-long line is read at a time (and dropped)


class NotRegular(OSError):
    """A transcript that is not a regular file (a FIFO, a device, a socket, a folder)."""


@dataclass(frozen=True)
class Line:
    """One complete line: where it starts, its length (newline aside), its bytes (``None``: too long)."""

    offset: int
    length: int
    raw: bytes | None


@dataclass(frozen=True)
class Skipped:
    """A line a reader could not use, and why."""

    offset: int
    reason: str

    def as_json(self) -> dict[str, Any]:
        """``{"offset", "reason"}``."""
        return {"offset": self.offset, "reason": self.reason}


def open_regular(path: Path) -> IO[bytes]:
    """``path`` opened for reading, when it is a regular file (links followed); else :class:`NotRegular`.

    Opened without blocking, so that a FIFO with no writer is refused rather than waited on.
    """
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC | getattr(os, "O_NOCTTY", 0))
    try:
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):
            raise NotRegular(f"{path} is not a regular file ({_kind(mode)}): a transcript must be one")
        os.set_blocking(fd, True)
        return os.fdopen(fd, "rb")
    except BaseException:
        os.close(fd)
        raise


def check_regular(path: Path) -> None:
    """:class:`NotRegular` unless ``path`` is a regular file (a first check, before any lock is taken)."""
    with open_regular(path):
        pass


def lines(handle: IO[bytes], start: int, limit: int = MAX_LINE_BYTES) -> Iterator[Line]:
    """The complete lines of ``handle`` from byte ``start`` (one over ``limit`` bytes has ``raw=None``)."""
    handle.seek(start)
    offset = start
    while True:
        raw = handle.readline(limit + 1)
        if not raw.endswith(b"\n"):
            if len(raw) <= limit:
                return  # the end of the file: a line still being written waits for the next run
            size = _skip(handle, len(raw))
            if size is None:
                return
            yield Line(offset, size, None)
            offset += size + 1
            continue
        yield Line(offset, len(raw) - 1, raw[:-1])
        offset += len(raw)


def _skip(handle: IO[bytes], size: int) -> int | None:
    """Read past the rest of a too-long line; its length, or ``None`` when it has no end yet."""
    while True:
        piece = handle.readline(PIECE)
        if not piece:
            return None
        if piece.endswith(b"\n"):
            return size + len(piece) - 1
        size += len(piece)


def parse(line: Line) -> dict[str, Any] | str | None:
    """The JSON object of ``line``; a string saying why it cannot be used; ``None`` for a blank line."""
    if line.raw is None:
        return f"the line is {line.length:,} bytes; a transcript line is read up to {MAX_LINE_BYTES:,}"
    if not line.raw.strip():
        return None
    try:
        value = json.loads(line.raw.decode("utf-8"))
    except UnicodeDecodeError as error:
        return f"not UTF-8 ({error.reason} at byte {error.start} of the line)"
    except RecursionError:
        return "nested too deeply"
    except ValueError as error:
        return f"not JSON ({error})"
    return value if isinstance(value, dict) else "not a JSON object"


def _kind(mode: int) -> str:
    kinds = ((stat.S_ISFIFO, "a FIFO"), (stat.S_ISCHR, "a character device"),
             (stat.S_ISBLK, "a block device"), (stat.S_ISSOCK, "a socket"), (stat.S_ISDIR, "a folder"))
    for test, name in kinds:
        if test(mode):
            return name
    return "not a file"
