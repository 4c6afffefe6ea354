"""Claims: a request moved to ``work/<token>/<verb>/<name>`` while it is being answered.

The token is random (16 hex digits) and names the claim for good: it survives a crash in the
claim's path, and the replay ledger (``host_harness/store/replay.py``) records the call's answer
under it. Claiming is a rename, atomic within a file system. When ``in/`` lives on another file
system than ``work/`` (a mount), the rename fails with ``EXDEV`` and the request is copied instead:
first a marker ``work/<token>/.source`` naming the source (device, inode, size, mtime), then the
copy (temp file, fsync, rename, fsync), then the source is removed. Recovery finishes an
interrupted copy: a token folder without its request is dropped (the source is still in ``in/``),
and a source still matching its marker is removed, so a request is never claimed twice.

Entries that cannot be claimed or removed without losing something -- a directory where a
request should be, a verb folder that is a symbolic link -- are set aside in a ``.rejected/<token>/``
folder next to them (same file system; dotfolders are never scanned).
"""

from __future__ import annotations

import contextlib
import errno
import json
import os
import re
import secrets
import shutil
from dataclasses import dataclass
from pathlib import Path

from host_harness.fs import fsync_dir, write_atomic
from host_harness.spool.inbox import READ_FLAGS, Request, ignored, scan

TOKEN_RE = re.compile(r"[0-9a-f]{16}")
SOURCE = ".source"
REJECTED = ".rejected"


def new_token() -> str:
    """A fresh claim token."""
    return secrets.token_hex(8)


@dataclass(frozen=True)
class Claim:
    """A claimed request (``request.path`` is in ``work/``); ``token`` is ``None`` for an old-layout claim."""

    token: str | None
    request: Request


def identity(st: os.stat_result) -> list[int]:
    """What identifies a source file across the copy."""
    return [st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns]


class Claims:
    """The ``work/`` folder of one spool."""

    def __init__(self, work: Path, in_dir: Path) -> None:
        self.work = work
        self.in_dir = in_dir

    def take(self, request: Request, st: os.stat_result) -> Claim | None:
        """Claim ``request`` (a regular file, ``st`` its lstat); ``None`` when it was withdrawn."""
        token = new_token()
        folder = self.work / token / request.verb
        folder.mkdir(parents=True)
        target = folder / request.name
        try:
            os.rename(request.path, target)
        except OSError as error:
            if error.errno != errno.EXDEV:
                self._remove(token)
                if isinstance(error, FileNotFoundError):
                    return None
                raise
            if not self._copy(request, st, token, target):
                return None
        return Claim(token, Request(request.verb, request.name, target))

    def _copy(self, request: Request, st: os.stat_result, token: str, target: Path) -> bool:
        marker = {"verb": request.verb, "name": request.name, "source": identity(st)}
        write_atomic(self.work / token / SOURCE, json.dumps(marker).encode("utf-8"))
        try:
            fd = os.open(request.path, READ_FLAGS)
        except FileNotFoundError:
            self._remove(token)
            return False
        try:
            chunks = []
            while chunk := os.read(fd, 1 << 20):
                chunks.append(chunk)
        finally:
            os.close(fd)
        write_atomic(target, b"".join(chunks))
        with contextlib.suppress(FileNotFoundError):
            os.unlink(request.path)
        fsync_dir(request.path.parent)
        return True

    def pending(self) -> list[Claim]:
        """Every claim a crashed watcher left, in processing order (interrupted copies finished)."""
        claims: list[Claim] = []
        try:
            entries = [e for e in os.scandir(self.work) if not ignored(e.name)]
        except FileNotFoundError:
            return []
        for entry in entries:
            if not entry.is_dir(follow_symlinks=False):
                continue
            if TOKEN_RE.fullmatch(entry.name):
                requests = self._recovered(entry.name)
                claims.extend(Claim(entry.name, request) for request in requests)
            else:  # the layout before tokens: work/<verb>/<name>
                for item in os.scandir(entry.path):
                    if not ignored(item.name) and item.is_file(follow_symlinks=False):
                        claims.append(Claim(None, Request(entry.name, item.name, Path(item.path))))
        return sorted(claims, key=lambda c: c.request.order)

    def _recovered(self, token: str) -> list[Request]:
        folder = self.work / token
        requests, _ = scan(folder)
        try:
            marker = json.loads((folder / SOURCE).read_text(encoding="utf-8"))
        except FileNotFoundError:
            marker = None
        except ValueError:
            marker = {}
        if marker is not None:
            if not requests:  # the copy did not finish: the source is still the request
                self._remove(token)
                return []
            source = self.in_dir / str(marker.get("verb")) / str(marker.get("name"))
            with contextlib.suppress(OSError):
                if identity(os.lstat(source)) == marker.get("source"):
                    os.unlink(source)  # the copy finished, the removal did not
            (folder / SOURCE).unlink(missing_ok=True)
        if not requests:
            self._remove(token)
        return requests

    def drop(self, claim: Claim) -> None:
        """Remove an answered claim (and its token folder)."""
        claim.request.path.unlink(missing_ok=True)  # not fsynced: a resurrected answered claim is dropped
        if claim.token is not None:
            self._remove(claim.token)

    def _remove(self, token: str) -> None:
        shutil.rmtree(self.work / token, ignore_errors=True)

    @staticmethod
    def quarantine(path: Path) -> Path:
        """Move ``path`` (a folder, a link) into ``.rejected/<token>/`` beside it; return where it went."""
        folder = path.parent / REJECTED / new_token()
        folder.mkdir(parents=True)
        target = folder / path.name
        os.rename(path, target)
        return target
