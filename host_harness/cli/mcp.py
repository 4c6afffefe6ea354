"""``rs-learn-host mcp``: serve the project's memory to MCP clients over stdio (issues #14, 26).

The server answers ``initialize`` and ``tools/list`` at once (issue 44: a lean start): a bad
configuration fails before it serves, the stores open on the guest's thread and the component loads
on its own thread meanwhile (a first start after an install or upgrade compiles it), and the first
tool call waits for both, with progress notifications (a store that cannot open: each call says why).
The hooks' warm socket opens once the component is loaded, so a hook never waits for a compile: until
then hooks take their own (cold) path.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from concurrent.futures import Future
from pathlib import Path
from typing import TYPE_CHECKING

import click

from host_harness.cli.structured import scope_options, trusted_scope
from host_harness.targets.session import Session

if TYPE_CHECKING:
    from host_harness.hooks.server import WarmServer
    from host_harness.services import HostServices
    from host_harness.targets.runtime import Runtime


TOOLS_MARK = "{tools}"


class ListsItsTools(click.Command):
    """A command whose help names every MCP tool, read when the help is shown.

    The names come from the tool specs the server serves (:mod:`host_harness.mcp.tools`), so the
    list cannot drift from ``tools/list``, and the help imports neither the SDK nor the guest.
    """

    def format_help_text(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        """The docstring with :data:`TOOLS_MARK` replaced by the tool names."""
        from host_harness.mcp.tools import MEMORY_TOOLS, STRUCTURED_TOOLS

        if self.help and TOOLS_MARK in self.help:
            memory = [spec.name for spec in MEMORY_TOOLS]
            structured = [spec.name for spec in STRUCTURED_TOOLS]
            self.help = self.help.replace(TOOLS_MARK, f"{', '.join(memory)}; for structured memory (unless "
                                                      f"memory.enabled is false) {', '.join(structured)}")
        super().format_help_text(ctx, formatter)


@click.command("mcp", cls=ListsItsTools)
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

    The tools are {tools}. The resources are archived blocks
    (rs-learn://archive/r7) and managed skills (rs-learn://skills/<name>). One warm
    component serves every call, one transaction each, alongside a spool watcher or
    hooks on the same project. The scope of structured memory comes from these
    options (or RS_LEARN_SCOPE_*), never from a tool call. stdout carries the
    protocol; logs go to stderr. The server answers at once; after an install or
    upgrade its first tool call waits for the component to compile (run
    `rs-learn-host warmup` ahead to spare that wait).

    \b
    Examples:
      claude mcp add rs-learn -- rs-learn-host mcp -p /path/to/project
      rs-learn-host -p ~/code/app mcp --project-id app
    """
    if project is not None:
        session.project = project.resolve()
    session.scope = trusted_scope(actor, conversation, project_id, thread, is_global)
    session.timeout_s = timeout
    # the component loads first (its own thread), while the SDK imports (most of a start: issue 44)
    from host_harness.warmup import Compiling

    compiling = None if session.native else Compiling(session.require_wasm())
    if compiling is not None:
        session.load_runtime = lambda _wasm: compiling.runtime()
    from host_harness.config import ConfigError, load_memory_config

    try:
        config = load_memory_config(session.project)  # a bad configuration fails here
    except ConfigError as error:
        raise click.ClickException(f"invalid configuration: {error}") from None
    from host_harness.mcp.server import RsLearnServer  # the SDK: only here
    from host_harness.mcp.worker import GuestWorker
    from host_harness.store import Project

    worker = GuestWorker(session.open, session.close)
    worker.soon(session.open_services)  # the stores open on the guest's thread while the server answers
    server = RsLearnServer(worker, Project(session.project), config, compiling)
    # once the component is loaded, hooks are answered by a guest of their own beside the tools'
    # (host_harness/hooks/reader.py)
    hooks = HooksOnceLoaded(lambda: warm_server(worker.run_sync(session.open_services), session))
    if compiling is None:
        hooks.start()
    else:
        compiling.future.add_done_callback(hooks.loaded)
    try:
        # until stdin closes, SIGTERM or SIGINT: the call in progress finishes first
        server.run_stdio()
    finally:
        hooks.close()
        worker.close()


def warm_server(services: HostServices, session: Session) -> WarmServer:
    """The hooks' warm socket beside the tools' guest (imported once the component has loaded)."""
    from host_harness.hooks.reader import start_warm_server

    return start_warm_server(services.project.root, services.store, session.guest_beside)


def run_alone(args: list[str]) -> None:
    """``rs-learn-host mcp ARGS`` without the rest of the command line (issue 44: a lean start).

    The global options come from the environment, as the group reads them (``RS_LEARN_PROJECT``,
    ``RS_LEARN_WASM``, ``RS_LEARN_STORE``); ``host_harness/cli/entry.py`` sends only a command line that
    starts with ``mcp`` here.
    """
    import logging
    import os

    from host_harness.project import FROM_ENV, chosen
    from host_harness.targets import DEFAULT_WASM

    logging.basicConfig(level=logging.WARNING, format="%(name)s: %(message)s")
    given = os.environ.get("RS_LEARN_PROJECT") or None
    found = chosen(Path(given) if given else None, FROM_ENV)
    session = Session(found.root, Path(os.environ.get("RS_LEARN_WASM") or DEFAULT_WASM), False,
                      os.environ.get("RS_LEARN_STORE") or None)
    session.found = found
    try:
        mcp.main(args, prog_name="rs-learn-host mcp", obj=session)
    finally:
        session.close()


class HooksOnceLoaded:
    """Open the warm socket when the component has loaded, unless the server is closing by then."""

    def __init__(self, start: Callable[[], WarmServer]) -> None:
        self._start = start
        self.warm: WarmServer | None = None
        self._lock = threading.Lock()
        self._closed = False

    def start(self) -> None:
        """Serve hooks now (once)."""
        with self._lock:
            if not self._closed and self.warm is None:
                self.warm = self._start()

    def loaded(self, future: Future[Runtime]) -> None:
        """The component finished loading (on the loading thread): serve hooks if it loaded."""
        if future.exception() is None:
            self.start()

    def close(self) -> None:
        """Stop serving hooks (or never start)."""
        with self._lock:
            self._closed = True
            if self.warm is not None:
                self.warm.close()
