"""``Spool``: the exec spool of one project (SPEC section 6).

A client writes a request file ``.gm/exec-spool/in/<verb>/<N>.<ext>`` and reads
the answer ``.gm/exec-spool/out/<N>.json``, a ``dispatch`` envelope
``{"ok": true, "verb": V, "data": ...}`` or ``{"ok": false, "verb": V, "error": "..."}``.
Every request gets an answer, bad ones an error envelope.

One request, step by step (crash-safe at every point):

1. *claim*: rename the in-file to ``work/<verb>/<N>.<ext>`` (atomic; a
   previous answer ``out/<N>.json`` that the new request supersedes is removed
   first, so a claim never coexists with an answer that is not its own);
2. read and decode the body, ``guest.dispatch(verb, body)`` (one transaction);
3. write ``out/<N>.json`` atomically (``out/.<N>.json.tmp.<pid>``, fsync, rename,
   fsync the directory);
4. remove the claim.

On start, a claim left by a crash is finished: if its answer exists it was
answered (step 3 done) and the claim is just removed -- exactly one answer;
otherwise it is processed again (the guest's writes are idempotent: memorize
deduplicates). Stale ``out/.*.tmp.*`` files are removed.

Ids. ``N`` is the file name up to its first dot; requests are taken in the order
(numeric ``N`` first, by value; then other ids by name; then verb; then file
name). ``out/<N>.json`` is one mailbox per id, so two requests pending with the
same ``N`` (under two verbs, or two extensions) cannot both be answered at
once: the first in that order is answered, the others wait in ``in/`` while an
answer newer than them sits in ``out/<N>.json``; once the client has removed
it (or rewritten the request), the next one is answered. A request written
*after* ``out/<N>.json`` reuses the id: it is answered and replaces the old answer.

Bodies: UTF-8 (a BOM is stripped), UTF-16/UTF-32 with a BOM (recoded), invalid
UTF-8 is answered with an error naming the byte offset, more than
:data:`MAX_BODY_BYTES` is refused without reading it. ``.md``/``.markdown``
files are raw text whatever they start with (sent as a JSON string); other
files are given to the guest as they are (JSON object, bare JSON string or raw
text). Dotfiles and ``*.tmp.*`` files are ignored everywhere. An *empty* file
younger than a quarter second is left for the next poll (a client may not have
written it yet); write requests atomically (to a dotfile or ``*.tmp.*`` name,
then rename) to avoid that wait.
"""

from __future__ import annotations

import codecs
import json
import logging
import os
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from host_harness.guests.base import BaseGuest, answer, envelope_ok
from host_harness.store.atomic import write_atomic

MAX_BODY_BYTES = 2 * 1024 * 1024
MAX_ID_CHARS = 200  # out/.<N>.json.tmp.<pid> must fit in a 255-byte file name
RAW_TEXT_SUFFIXES = (".md", ".markdown")
POLL_INTERVAL_S = 0.1
ANSWERED, DEFERRED, POSTPONED, GONE = "answered", "deferred", "postponed", "gone"
FRESH_EMPTY_NS = 250_000_000  # an empty request younger than this may still be being written
BOMS = (  # longest first: the UTF-32 LE BOM starts with the UTF-16 LE one
    (codecs.BOM_UTF32_LE, "utf-32-le"),
    (codecs.BOM_UTF32_BE, "utf-32-be"),
    (codecs.BOM_UTF8, "utf-8"),
    (codecs.BOM_UTF16_LE, "utf-16-le"),
    (codecs.BOM_UTF16_BE, "utf-16-be"),
)

log = logging.getLogger("rs_learn.spool")


class BodyError(Exception):
    """A request body that cannot be turned into text; the message goes into the error envelope."""


def ignored(name: str) -> bool:
    """Dotfiles and temp files (``*.tmp.*``) are never requests."""
    return name.startswith(".") or ".tmp." in name or name.endswith(".tmp")


def decode_body(raw: bytes, suffix: str) -> str:
    """The body as text for ``dispatch``; raises :class:`BodyError`."""
    encoding = "utf-8"
    for bom, name in BOMS:
        if raw.startswith(bom):
            raw, encoding = raw[len(bom) :], name
            break
    try:
        text = raw.decode(encoding)
    except UnicodeDecodeError as error:
        label = "UTF-8" if encoding == "utf-8" else encoding.upper()
        where = f"byte {error.start}: {error.reason}"
        raise BodyError(f"validation: body is not valid {label} ({where})") from None
    if suffix.lower() in RAW_TEXT_SUFFIXES:
        return json.dumps(text, ensure_ascii=False)
    return text


def printable(value: str) -> str:
    """``value`` safe to put in JSON as UTF-8 (undecodable file-name bytes shown escaped)."""
    return value.encode("utf-8", "backslashreplace").decode("utf-8")


def error_envelope(verb: str, message: str) -> str:
    """An ``{"ok": false}`` envelope."""
    return json.dumps({"ok": False, "verb": printable(verb), "error": message}, ensure_ascii=False)


@dataclass(frozen=True)
class Request:
    """One request file ``<dir>/<verb>/<name>`` with id ``n``."""

    verb: str
    name: str
    path: Path
    n: str = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "n", self.name.split(".", 1)[0])

    @property
    def order(self) -> tuple[int, int, str, str, str]:
        """Numeric ids first (by value), then the others by name; then verb, then file name."""
        numeric = self.n.isascii() and self.n.isdigit()
        return (0 if numeric else 1, int(self.n) if numeric else 0, self.n, self.verb, self.name)


def scan(root: Path) -> list[Request]:
    """The requests under ``root/<verb>/``, in processing order."""
    found: list[Request] = []
    try:
        verbs = [d for d in os.scandir(root) if not ignored(d.name) and d.is_dir(follow_symlinks=False)]
    except FileNotFoundError:
        return []
    for verb in verbs:
        try:
            entries = list(os.scandir(verb.path))
        except (FileNotFoundError, NotADirectoryError):
            continue
        for entry in entries:
            if not ignored(entry.name) and (entry.is_file(follow_symlinks=False) or entry.is_symlink()):
                found.append(Request(verb.name, entry.name, Path(entry.path)))
    return sorted(found, key=lambda r: r.order)


def spool_root(project: Path) -> Path:
    """``<project>/.gm/exec-spool``."""
    return Path(project) / ".gm" / "exec-spool"


class Spool:
    """The exec spool of ``project``, answered by one warm ``guest``."""

    def __init__(self, project: Path, guest: BaseGuest, *, max_body_bytes: int = MAX_BODY_BYTES) -> None:
        self.root = spool_root(project)
        self.in_dir, self.out_dir, self.work_dir = self.root / "in", self.root / "out", self.root / "work"
        self.guest = guest
        self.max_body_bytes = max_body_bytes
        self.deferred: set[Path] = set()

    def out_path(self, n: str) -> Path:
        """Where the answer to id ``n`` goes."""
        return self.out_dir / f"{n}.json"

    # recovery

    def recover(self) -> int:
        """Finish what a crashed watcher left (stale temp answers, claims); return how many it answered."""
        if self.out_dir.is_dir():
            for entry in os.scandir(self.out_dir):
                if entry.name.startswith(".") and ".tmp." in entry.name:
                    Path(entry.path).unlink(missing_ok=True)
        done = 0
        for claim in scan(self.work_dir):
            if self.out_path(claim.n).exists():
                log.info("%s/%s was answered before a crash; removing its claim", claim.verb, claim.name)
                claim.path.unlink(missing_ok=True)
            else:
                self._answer(claim)
                done += 1
        return done

    # the queue

    def drain(self, stop: Callable[[], bool] = lambda: False) -> dict[str, int]:
        """Take every pending request once (until ``stop()``); count them by :meth:`process` outcome."""
        counts = {ANSWERED: 0, DEFERRED: 0, POSTPONED: 0, GONE: 0}
        for request in scan(self.in_dir):
            if stop():
                break
            counts[self.process(request)] += 1
        return counts

    def process(self, request: Request) -> str:
        """Claim and answer one request; return ``answered``, ``deferred``, ``postponed`` or ``gone``."""
        if len(request.n) > MAX_ID_CHARS:
            self._defer(request, f"its id is longer than {MAX_ID_CHARS} characters")
            return DEFERRED
        out = self.out_path(request.n)
        try:
            answer_ns: int | None = out.stat().st_mtime_ns
        except FileNotFoundError:
            answer_ns = None
        try:
            request_stat = request.path.lstat()
        except FileNotFoundError:
            return GONE  # withdrawn by the client
        request_ns = request_stat.st_mtime_ns
        if request_stat.st_size == 0 and time.time_ns() - request_ns < FRESH_EMPTY_NS:
            return POSTPONED  # probably still being written: look again at the next poll
        if answer_ns is not None and answer_ns > request_ns:
            self._defer(request, f"out/{request.n}.json holds another request's unread answer")
            return DEFERRED
        claim = self.work_dir / request.verb / request.name
        claim.parent.mkdir(parents=True, exist_ok=True)
        if answer_ns is not None:
            out.unlink(missing_ok=True)  # superseded by this request (it reuses the id)
        try:
            os.rename(request.path, claim)
        except FileNotFoundError:
            return GONE
        self.deferred.discard(request.path)
        self._answer(Request(request.verb, request.name, claim))
        return ANSWERED

    def _defer(self, request: Request, why: str) -> None:
        if request.path not in self.deferred:
            self.deferred.add(request.path)
            log.warning("%s/%s waits: %s", printable(request.verb), printable(request.name), why)

    def _answer(self, claim: Request) -> None:
        envelope = self.envelope(claim)
        self.out_dir.mkdir(parents=True, exist_ok=True)
        write_atomic(self.out_path(claim.n), envelope.encode("utf-8") + b"\n")
        claim.path.unlink(missing_ok=True)  # not fsynced: a resurrected claim with its answer is just dropped
        ok = envelope_ok(envelope)
        log.info("answered %s/%s -> out/%s.json (%s)", printable(claim.verb), printable(claim.name),
                 printable(claim.n), "ok" if ok else "error")

    def envelope(self, request: Request) -> str:
        """Read, decode and dispatch one request; always an envelope, never an exception."""
        verb = request.verb
        try:
            verb.encode("utf-8")
        except UnicodeEncodeError:
            return error_envelope(verb, "validation: the verb directory name is not valid UTF-8")
        try:
            if request.path.is_symlink():
                return error_envelope(verb, "validation: a request must be a regular file, not a symlink")
            with open(request.path, "rb") as handle:
                size = os.fstat(handle.fileno()).st_size
                raw = b"" if size > self.max_body_bytes else handle.read(self.max_body_bytes + 1)
            size = max(size, len(raw))
            if size > self.max_body_bytes:
                limit = self.max_body_bytes
                return error_envelope(verb, f"validation: body is {size} bytes; the limit is {limit}")
            body = decode_body(raw, request.path.suffix)
        except BodyError as error:
            return error_envelope(verb, str(error))
        except OSError as error:
            return error_envelope(verb, f"internal: cannot read the request: {error.strerror or error}")
        return answer(self.guest, verb, body, f"{verb}/{printable(request.name)}")

    # watching

    def watch(self, stop: threading.Event, interval_s: float = POLL_INTERVAL_S) -> None:
        """Answer requests as they arrive, polling every ``interval_s``, until ``stop`` is set."""
        self.recover()
        while not stop.is_set():
            if not self.drain(stop.is_set)[ANSWERED]:
                stop.wait(interval_s)

    def drain_all(self, stop: threading.Event, interval_s: float = POLL_INTERVAL_S) -> dict[str, int]:
        """``--once``: recover, then drain until nothing is left but deferred requests (or ``stop``)."""
        total = {ANSWERED: self.recover(), DEFERRED: 0}
        while not stop.is_set():
            counts = self.drain(stop.is_set)
            total[ANSWERED] += counts[ANSWERED]
            total[DEFERRED] = counts[DEFERRED]
            if counts[POSTPONED]:
                stop.wait(interval_s)
            elif not counts[ANSWERED]:
                break
        return total
