"""``rs-learn-host mcp``: serve the project's memory to MCP clients over stdio (issue #14)."""

from __future__ import annotations

import logging
import signal
from pathlib import Path
from types import FrameType

import click

from host_harness.cli.records import scope_options, trusted_scope
from host_harness.guests.session import Session


@click.command("mcp")
@click.option(
    "-p", "--project", "project", type=click.Path(exists=True, file_okay=False, path_type=Path), default=None,
    help="Project directory (the same as the global -p; this one wins).",
)
@scope_options
@click.option(
    "--timeout", type=click.FloatRange(0.05, 3600.0), default=60.0, show_default=True,
    help="Deadline of one tool call inside the component, in seconds.",
)
@click.pass_obj
def mcp(
    session: Session,
    project: Path | None,
    actor: str | None,
    conversation: str | None,
    project_id: str | None,
    thread: str | None,
    is_global: bool,
    timeout: float,
) -> None:
    """Serve rs-learn to an MCP client (Claude Code, Cursor, Codex...) over stdio.

    The tools are recall, memorize, learn, archive, recall_search and the
    structured-memory verbs; the resources are archived blocks
    (rs-learn://archive/r7) and managed skills (rs-learn://skills/<name>). One warm
    component serves every call, one transaction each, alongside a spool watcher or
    hooks on the same project. The scope of structured memory comes from these
    options (or RS_LEARN_SCOPE_*), never from a tool call. stdout carries the
    protocol; logs go to stderr.

    \b
    Examples:
      claude mcp add rs-learn -- rs-learn-host mcp -p /path/to/project
      rs-learn-host -p ~/code/app mcp --project-id app
    """
    from host_harness.hooks.reader import start_warm_server
    from host_harness.mcp.server import RsLearnServer  # the SDK takes ~1 s to import: only here
    from host_harness.mcp.worker import GuestWorker

    if project is not None:
        session.project = project.resolve()
    session.scope = trusted_scope(actor, conversation, project_id, thread, is_global)
    session.timeout_s = timeout
    worker = GuestWorker(session.open, session.close)
    services = worker.start().services  # load it now: the first call is warm, a missing .wasm fails here
    verbose = logging.getLogger().getEffectiveLevel() <= logging.INFO
    server = RsLearnServer(worker, services.project, services.router.memory_config,
                           log_level="INFO" if verbose else "WARNING")
    # hooks are answered by a guest of their own, beside the tools' (host_harness/hooks/reader.py)
    warm = start_warm_server(services.project.root, services.store, session.guest_beside)
    previous = signal.signal(signal.SIGTERM, _interrupt)
    try:
        server.run("stdio")
    except KeyboardInterrupt:  # SIGINT or SIGTERM: finish the call in progress, then close
        pass
    finally:
        signal.signal(signal.SIGTERM, previous)
        warm.close()
        worker.close()


def _interrupt(_signum: int, _frame: FrameType | None) -> None:
    raise KeyboardInterrupt
