"""``rs-learn-host`` and ``python -m host_harness``: a hook that a warm server answers imports nothing else.

A hook command line goes first to the fast path (``host_harness/hooks/fast.py``), which answers it
through a running server's warm socket without importing click, wasmtime, numpy or the guest;
a command line it parsed but no server answered runs the cold hook directly
(:func:`host_harness.hooks.cold.answer`: no click, none of the CLI's other commands); anything else
goes to the full CLI (``host_harness/cli/main.py``), the event still on stdin. ``--version`` is
answered here, and ``mcp`` starts answering the MCP handshake (:mod:`host_harness.mcp.early`)
before the rest loads.
"""

from __future__ import annotations

import sys


def main() -> None:
    """Answer a hook through a warm server if one listens; otherwise run the full command line."""
    args = sys.argv[1:]
    if args in (["--version"], ["-V"]):  # what click prints, without importing it
        from host_harness import __version__

        sys.stdout.write(f"rs-learn-host {__version__}\n")
        return
    if "mcp" in args:
        from host_harness.mcp import early

        early.start(args)  # answers initialize and tools/list while the rest loads
    from host_harness.hooks import fast, protocol
    from host_harness.project import find_project

    timeout = fast.hook_timeout(sys.argv[1:])
    if timeout is not None:
        start = fast.project_start(sys.argv[1:])
        protocol.note_project(find_project(start) if start is not None else None)  # until the event says
        if fast.hook_command(sys.argv[1:]) == "prompt-submit":
            from host_harness.hooks import record

            protocol.on_timeout(record.unread_run)  # a run the budget ends is in the ledger too
        protocol.arm(timeout)  # the budget is hard from here on, whatever path answers
        options = fast.hook_options(sys.argv[1:])
        if options is not None:
            try:
                fast.warm_hook(*options)  # leaves the process when it answered
            except Exception as error:  # the cold path answers (the event is still on stdin)
                why = f"the fast path failed: {type(error).__name__}: {error}; answering without it (cold)"
                protocol.log_reason(protocol.noted_project(), why)
            if options[0] == "prompt-submit":
                protocol.on_timeout(record.unread_run)  # the cold path's run is not begun yet
            from host_harness.hooks import cold

            cold.answer(*options)  # the cold path without click and the CLI's other commands: leaves
    from host_harness.cli.main import main as full

    full()


