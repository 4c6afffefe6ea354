"""``Spool``: the exec spool of one project (SPEC section 6).

A client writes a request file ``.gm/exec-spool/in/<verb>/<N>.<ext>`` and reads
the answer ``.gm/exec-spool/out/<N>.json``, a ``dispatch`` envelope
``{"ok": true, "verb": V, "data": ...}`` or ``{"ok": false, "verb": V, "error": "..."}``.
Every request gets exactly one answer, bad ones an error envelope.

One request, step by step (crash-safe at every point):

1. *claim*: rename the in-file to ``work/<token>/<verb>/<N>.<ext>`` with a fresh random
   token (a previous answer ``out/<N>.json`` that the new request supersedes is removed
   first, so a claim never coexists with an answer that is not its own);
2. read and decode the body, ``guest.dispatch(verb, body, token=...)``: one transaction,
   which also records the envelope under the token in the replay ledger when the call
   changed anything (``host_harness/store/replay.py``);
3. write ``out/<N>.json`` atomically (a temp file in ``out/``, fsync, rename, fsync);
4. remove the claim.

On start, a claim left by a crash is finished: if its answer exists it was answered
(step 3 done) and the claim is just removed; if the ledger holds its token, the call
committed (step 2 done) and the answer is written from the ledger -- the call is never
run twice; otherwise nothing of it was committed and it is run again. Stale temp
answers are removed.

Ids. ``N`` is the file name without its final extension; requests are taken in the order
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

Unusable entries are answered with an error and removed, never left to be seen again:
a symbolic link, a FIFO, a socket or a hard-linked file (removed: only its name here is
unlinked), a directory (set aside in ``.rejected/``), an id over 200 bytes (answered
when ``out/<N>.json`` can be named, else set aside). A verb folder that is a symbolic
link is set aside unread. Nothing here follows a link: the spool's folders are checked
at every poll (``host_harness/fs/confine.py``).
"""

from __future__ import annotations

import contextlib
import errno
import logging
import os
import stat
import threading
import time
from collections.abc import Callable
from pathlib import Path

from host_harness.envelope import Envelope
from host_harness.fs import confine, write_atomic_at
from host_harness.spool.claims import Claim, Claims
from host_harness.spool.inbox import (
    MAX_BODY_BYTES,
    STRAY,
    BodyError,
    Request,
    decode_body,
    error_envelope,
    id_problem,
    ignored,
    printable,
    read_body,
    scan,
    unusable,
)
from host_harness.spool.scope import unwrap
from host_harness.targets.base import BaseGuest, answer, envelope_ok

__all__ = ["ANSWERED", "DEFERRED", "BodyError", "Spool", "decode_body", "ignored", "scan", "spool_root"]

POLL_INTERVAL_S = 0.1
ANSWERED, DEFERRED, POSTPONED, GONE = "answered", "deferred", "postponed", "gone"
FRESH_EMPTY_NS = 250_000_000  # an empty request younger than this may still be being written
SPOOL = (".gm", "exec-spool")
FOLDERS = ("in", "out", "work")
STRAY_REQUEST = "a request goes in in/<verb>/<N>.<ext> (one folder per verb), not in in/ itself"

log = logging.getLogger("rs_learn.spool")


def served_verbs(guest: BaseGuest) -> list[str]:
    """The verbs ``guest`` serves, from its ``version`` answer (``[]``, logged, when it cannot say)."""
    envelope = answer(guest, "version", "{}", "the spool's start (version)")
    data = Envelope.parse(envelope).data
    verbs = data.get("verbs") if isinstance(data, dict) else None
    if not isinstance(verbs, list) or not all(isinstance(v, str) and _plain(v) for v in verbs):
        log.warning("the component did not list its verbs (%s); no in/<verb>/ folder is created",
                    envelope[:200])
        return []
    return verbs


def _plain(name: str) -> bool:
    """Whether ``name`` can be a verb folder: one path component that is not ignored."""
    return bool(name) and "/" not in name and "\0" not in name and not ignored(name)


def spool_root(project: Path) -> Path:
    """``<project>/.gm/exec-spool``."""
    return Path(project) / ".gm" / "exec-spool"


class Spool:
    """The exec spool of ``project``, answered by one warm ``guest``."""

    def __init__(
        self,
        project: Path,
        guest: BaseGuest,
        *,
        max_body_bytes: int = MAX_BODY_BYTES,
        trust_request_scope: bool = False,
    ) -> None:
        self.project = Path(project)
        self.root = spool_root(project)
        self.in_dir, self.out_dir, self.work_dir = self.root / "in", self.root / "out", self.root / "work"
        self.guest = guest
        self.max_body_bytes = max_body_bytes
        self.trust_request_scope = trust_request_scope  # honour a request's "$spool" scope (spool/scope.py)
        self.deferred: set[Path] = set()
        self.check()
        self.verbs = served_verbs(guest)
        self.make_verb_folders()
        self.claims = Claims(self.work_dir, self.in_dir)
        self.ledger = guest.services.answer_ledger(self.root / "ledger.db")
        guest.services.use_ledger(self.ledger)
        # A fault-injection point for tests: called after a call committed, before its answer is written.
        self.after_commit: Callable[[Claim, str], None] | None = None

    def check(self) -> None:
        """Create the spool's folders; raise :class:`confine.OutsideProject` if any is (behind) a link."""
        for folder in FOLDERS:
            os.close(confine.open_dir(self.project, (*SPOOL, folder), create=True))

    def make_verb_folders(self) -> None:
        """Create ``in/<verb>/`` for every verb the guest serves, so a client can write into it at once."""
        with confine.directory(self.project, (*SPOOL, "in"), create=True) as in_fd:
            for verb in self.verbs:
                with contextlib.suppress(FileExistsError):  # a link planted there is set aside by drain()
                    os.mkdir(verb, 0o755, dir_fd=in_fd)

    def out_path(self, n: str) -> Path:
        """Where the answer to id ``n`` goes."""
        return self.out_dir / f"{n}.json"

    # recovery

    def recover(self) -> int:
        """Finish what a crashed watcher left (stale temp answers, claims); return how many it answered."""
        for entry in os.scandir(self.out_dir):
            if entry.name.startswith(".") and ".tmp." in entry.name:
                Path(entry.path).unlink(missing_ok=True)
        done = 0
        for claim in self.claims.pending():
            request = claim.request
            if self._answer_mtime(request.n) is not None:
                log.info("%s/%s was answered before a crash; removing its claim", request.verb, request.name)
                self.claims.drop(claim)
                continue
            committed = self.ledger.lookup(claim.token) if claim.token is not None else None
            if committed is not None:
                log.info("%s/%s was committed before a crash; answering it from the ledger",
                         printable(request.verb), printable(request.name))
                self._deliver(claim, self.guest.finish(committed))
            else:
                self._answer(claim)
            done += 1
        self.ledger.clear()
        return done

    # the queue

    def drain(self, stop: Callable[[], bool] = lambda: False) -> dict[str, int]:
        """Take every pending request once (until ``stop()``); count them by :meth:`process` outcome."""
        self.check()
        counts = {ANSWERED: 0, DEFERRED: 0, POSTPONED: 0, GONE: 0}
        requests, linked = scan(self.in_dir)
        for folder in linked:
            where = Claims.quarantine(folder)
            log.error("in/%s is a symbolic link (its requests would be read outside the project); "
                      "moved it to %s unread", printable(folder.name), where.relative_to(self.root))
        for request in requests:
            if stop():
                break
            counts[self.process(request)] += 1
        return counts

    def process(self, request: Request) -> str:
        """Claim and answer one request; return ``answered``, ``deferred``, ``postponed`` or ``gone``."""
        try:
            st = request.path.lstat()
        except FileNotFoundError:
            return GONE  # withdrawn by the client
        if st.st_size == 0 and stat.S_ISREG(st.st_mode) and time.time_ns() - st.st_mtime_ns < FRESH_EMPTY_NS:
            return POSTPONED  # probably still being written: look again at the next poll
        answer_ns = self._answer_mtime(request.n)
        if answer_ns is not None and answer_ns > st.st_mtime_ns:
            self._defer(request, f"out/{request.n}.json holds another request's unread answer")
            return DEFERRED
        if answer_ns is not None:
            self.out_path(request.n).unlink(missing_ok=True)  # superseded by this request (it reuses the id)
        problem = id_problem(request.n) or (STRAY_REQUEST if request.verb == STRAY else unusable(st))
        if problem is None and st.st_size > self.max_body_bytes:
            problem = f"body is {st.st_size} bytes; the limit is {self.max_body_bytes}"
        if problem is not None:
            self._refuse(request, st, problem)
            return ANSWERED
        claim = self.claims.take(request, st)
        if claim is None:
            return GONE
        self.deferred.discard(request.path)
        self._answer(claim)
        return ANSWERED

    def _defer(self, request: Request, why: str) -> None:
        if request.path not in self.deferred:
            self.deferred.add(request.path)
            log.warning("%s/%s waits: %s", printable(request.verb), printable(request.name), why)

    def _refuse(self, request: Request, st: os.stat_result, why: str) -> None:
        """Answer an unusable entry with an error, then remove it (a directory is set aside)."""
        self.deferred.discard(request.path)
        written = self._write_answer(request, error_envelope(request.verb, f"validation: {why}"))
        if stat.S_ISDIR(st.st_mode) or not written:
            where = Claims.quarantine(request.path)
            log.error("%s/%s: %s; moved it to %s", printable(request.verb), printable(request.name), why,
                      where.relative_to(self.root))
        else:
            with contextlib.suppress(FileNotFoundError):
                os.unlink(request.path)  # a link, FIFO or extra hard link: only this name goes

    def _answer(self, claim: Claim) -> None:
        envelope = self.envelope(claim)
        if self.after_commit is not None:
            self.after_commit(claim, envelope)
        self._deliver(claim, envelope)

    def _deliver(self, claim: Claim, envelope: str) -> None:
        if not self._write_answer(claim.request, envelope):
            Claims.quarantine(claim.request.path)
        self.claims.drop(claim)
        if claim.token is not None:
            self.ledger.forget.add(claim.token)

    def _write_answer(self, request: Request, envelope: str) -> bool:
        """Write ``out/<N>.json``; ``False`` when no such file can be named (an id too long)."""
        try:
            with confine.directory(self.project, (*SPOOL, "out"), create=True) as out:
                write_atomic_at(out, f"{request.n}.json", envelope.encode("utf-8") + b"\n",
                                tmp=f".tmp.{os.getpid()}")
        except OSError as error:
            if error.errno != errno.ENAMETOOLONG:
                raise
            log.error("%s/%s cannot be answered: out/<id>.json would be too long a name",
                      printable(request.verb), printable(request.name))
            return False
        ok = envelope_ok(envelope)
        log.info("answered %s/%s -> out/%s.json (%s)", printable(request.verb), printable(request.name),
                 printable(request.n), "ok" if ok else "error")
        return True

    def _answer_mtime(self, n: str) -> int | None:
        try:
            return self.out_path(n).stat().st_mtime_ns
        except OSError:  # absent, or a name too long to exist
            return None

    def envelope(self, claim: Claim) -> str:
        """Read, decode and dispatch one claimed request; always an envelope, never an exception."""
        request = claim.request
        verb = request.verb
        try:
            verb.encode("utf-8")
        except UnicodeEncodeError:
            return error_envelope(verb, "validation: the verb directory name is not valid UTF-8")
        try:
            body = decode_body(read_body(request.path, self.max_body_bytes), request.path.suffix)
            scoped = unwrap(body, self.trust_request_scope)
        except BodyError as error:
            return error_envelope(verb, str(error))
        except OSError as error:
            return error_envelope(verb, f"internal: cannot read the request: {error.strerror or error}")
        where = f"{printable(verb)}/{printable(request.name)}"
        if scoped is None:
            return answer(self.guest, verb, body, where, token=claim.token)
        router = self.guest.services.router
        configured, router.scope = router.scope, scoped[1]  # this call's scope: the guest reads host/scope
        try:
            return answer(self.guest, verb, scoped[0], where, token=claim.token)
        finally:
            router.scope = configured

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

    def close(self) -> None:
        """Close the ledger's own connection."""
        self.ledger.close()
