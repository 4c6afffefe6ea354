"""``rs-learn-host ui``: the local web view (issue 36; ``host_harness/ui/``, ``docs/ui.md``).

Starlette and uvicorn are imported here, when the command runs, so no other command pays for them.
"""

from __future__ import annotations

import secrets
import signal
import socket
import threading
import webbrowser

import click

from host_harness.targets.session import Session


@click.command("ui")
@click.option("--port", type=click.IntRange(0, 65535), default=0, show_default=True,
              help="The port on 127.0.0.1 (0: any free port).")
@click.option("--open", "open_browser", is_flag=True, help="Open the page in the default browser.")
@click.pass_obj
def ui(session: Session, port: int, open_browser: bool) -> None:
    """Serve a local web view of the project's memory on 127.0.0.1, until interrupted.

    Memories (search, filters, forget, edit, approve), the prompts' injection
    ledger, the archive, skills and structured memory, and an overview. Prints
    the page's URL: it carries a random token, without which every request is
    refused. Every change goes through the same verbs as the CLI, one transaction
    each: nothing is held between requests, and what the CLI or an agent changes
    shows on the page without a restart.

    \b
    Examples:
      rs-learn-host ui --open
      rs-learn-host -p ~/code/app ui --port 8765
    """
    import uvicorn

    from host_harness.mcp.worker import GuestWorker
    from host_harness.ui.app import build
    from host_harness.ui.backend import Backend

    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    try:
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listener.bind(("127.0.0.1", port))  # the loopback address only, never another interface
        listener.listen(64)
    except OSError as error:
        listener.close()
        raise click.ClickException(f"cannot listen on 127.0.0.1:{port}: {error.strerror}") from None
    worker = GuestWorker(session.open, session.close)
    previous = signal.signal(signal.SIGTERM, _leave)  # (uvicorn raises it again once it has stopped)
    try:
        services = worker.begin(session.open_services)  # a bad configuration or store fails here
        click.echo("loading the component…", err=True)
        worker.begin(session.open)
        token = secrets.token_urlsafe(24)
        url = f"http://127.0.0.1:{listener.getsockname()[1]}/?token={token}"
        click.echo(f"rs-learn ui for {services.project.root}: {url}")
        click.echo("(Ctrl-C stops it)", err=True)
        if open_browser:
            threading.Thread(target=webbrowser.open, args=(url,), daemon=True).start()
        config = uvicorn.Config(build(Backend(worker, services), token), log_level="warning",
                                lifespan="off", access_log=False, server_header=False)
        uvicorn.Server(config).run(sockets=[listener])
    except KeyboardInterrupt:  # Ctrl-C, at any point: leave quietly, status 0
        pass
    finally:
        signal.signal(signal.SIGTERM, previous)
        listener.close()
        worker.close()  # (idempotent: begin() closed it already when opening failed)


def _leave(_signum: int, _frame: object) -> None:
    """SIGTERM (before serving, or once uvicorn has stopped): leave with status 0, closing the stores."""
    raise SystemExit(0)
