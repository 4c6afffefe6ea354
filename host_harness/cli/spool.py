"""``rs-learn-host spool``: answer the exec spool once, or watch it."""

from __future__ import annotations

import contextlib
import os
import signal
import sys
import threading
from collections.abc import Callable
from types import FrameType
from typing import Any

import click

from host_harness.cli.structured import with_scope
from host_harness.fs import confine
from host_harness.spool.lock import LockHeld, SpoolLock
from host_harness.spool.scope import TRUST_FLAG
from host_harness.spool.watcher import ANSWERED, DEFERRED, POLL_INTERVAL_S, SPOOL, Spool, spool_root
from host_harness.targets.session import Session

Scope = dict[str, Any]
EXIT_LOCK_HELD = 3
EXIT_LOCK_LOST = 4


@click.command("spool")
@click.option("--once", "mode", flag_value="once", help="Answer every pending request, then exit.")
@click.option("--watch", "mode", flag_value="watch", help="Keep answering requests until SIGTERM/SIGINT.")
@click.option(
    "--interval", type=click.FloatRange(0.01, 60.0), default=POLL_INTERVAL_S, show_default=True,
    help="Seconds between polls of in/ (--watch).",
)
@click.option(
    TRUST_FLAG, "trust_request_scope", is_flag=True,
    help='Use the scope a request names in its "$spool" field (set by a trusted spool writer).',
)
@with_scope
@click.pass_obj
def spool(
    session: Session, mode: str | None, interval: float, trust_request_scope: bool, scope: Scope | None
) -> None:
    """Answer requests written to .gm/exec-spool/in/<verb>/<N>.<ext> in out/<N>.json.

    Both modes first create in/<verb>/ for every verb (--once only in a folder that has .gm/).
    Write a request under a dotfile name and rename it into place: a half-written file is
    never read.

    Structured records get the scope of the scope options (or RS_LEARN_SCOPE_*),
    as with `records`; with --trust-request-scope a request may name its own in
    a "$spool" field: {"$spool": {"scope": {"projectId": "app"}}, ...}.

    One watcher per project: the lock is .gm/exec-spool/.lock. If another live
    watcher holds it, this command exits with status 3 (a dead or stale holder is
    replaced). SIGTERM/SIGINT finish the current request, release the lock and
    exit 0; status 4 means the lock was lost to another watcher.

    \b
    Examples:
      rs-learn-host spool --once
      rs-learn-host -p ~/code/app spool --watch --interval 0.05
      rs-learn-host spool --watch --project-id app
      printf '{"query": "build tool"}' > .gm/exec-spool/in/recall/.1.tmp
      mv .gm/exec-spool/in/recall/.1.tmp .gm/exec-spool/in/recall/1.json
    """
    if mode is None:
        raise click.UsageError("choose --once or --watch")
    session.scope = scope
    root = spool_root(session.project)
    if mode == "once" and not (session.project / ".gm").is_dir():
        click.echo("answered 0 request(s)")  # not an rs-learn project: create nothing
        return
    lock = SpoolLock(root / ".lock")
    try:
        os.close(confine.open_dir(session.project, SPOOL, create=True))  # never through a link
        lock.acquire()  # before loading the component: a losing starter exits at once
    except LockHeld as held:
        click.echo(f"rs-learn-host spool: {held}", err=True)
        sys.exit(EXIT_LOCK_HELD)
    except OSError as error:
        raise click.ClickException(f"cannot use the spool: {error}") from None
    from host_harness.hooks.reader import start_warm_server  # here: the hook's cold path imports this module
    from host_harness.hooks.server import WarmServer

    lost, stop = threading.Event(), threading.Event()
    stopper = stop_handler(stop)
    previous = {sig: signal.signal(sig, stopper) for sig in (signal.SIGTERM, signal.SIGINT)}
    queue: Spool | None = None
    warm: WarmServer | None = None
    try:
        queue = Spool(session.project, session.open(), trust_request_scope=trust_request_scope)
        lock.start_heartbeat(lambda: _set(lost, stop))
        if mode == "watch":  # hooks get a guest of their own, beside the spool's (hooks/reader.py)
            warm = start_warm_server(session.context(), queue.guest.services.store, session.guest_beside)
        if mode == "once":
            counts = queue.drain_all(stop, interval)
            waiting = counts[DEFERRED]
            click.echo(f"answered {counts[ANSWERED]} request(s)"
                       + (f"; {waiting} wait until their id's answer is read" if waiting else ""))
        else:
            click.echo(f"rs-learn-host spool: watching {queue.root} (pid {os.getpid()})", err=True)
            queue.watch(stop, interval)
    except OSError as error:  # e.g. a full disk or a planted link: stop; a restart answers the claim
        raise click.ClickException(f"the spool cannot go on: {error}") from error
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)
        if warm is not None:
            warm.close()
        if queue is not None:
            queue.close()
        session.close()  # every transaction is committed or rolled back before the lock goes
        lock.release()
    if lost.is_set():
        sys.exit(EXIT_LOCK_LOST)


def _set(*events: threading.Event) -> None:
    for event in events:
        event.set()


def stop_handler(*events: threading.Event) -> Callable[[int, FrameType | None], None]:
    """A signal handler that sets ``events`` without taking their lock in the handler.

    A handler runs on the main thread between two bytecodes, possibly inside ``Event.wait`` while
    that thread holds the event's lock: ``Event.set`` there waits for itself forever (a watcher
    that SIGTERM did not stop). The handler only writes a byte to a pipe, which is safe anywhere;
    a relay thread reads it and sets the events.
    """
    read_fd, write_fd = os.pipe()
    os.set_blocking(write_fd, False)

    def relay() -> None:
        with os.fdopen(read_fd, "rb", buffering=0) as signals:
            if signals.read(1):
                _set(*events)

    threading.Thread(target=relay, name="rs-learn-signals", daemon=True).start()

    def handle(_signum: int, _frame: FrameType | None) -> None:
        with contextlib.suppress(BlockingIOError):  # a byte is already waiting: the events get set
            os.write(write_fd, b"\0")

    return handle
