"""``rs-learn-host`` and ``python -m host_harness``: a hook that a warm server answers imports nothing else.

A hook command line goes first to the fast path (``host_harness/hooks/fast.py``), which answers it
through a running server's warm socket without importing click, wasmtime, numpy or the guest;
anything it does not answer goes to the full CLI (``host_harness/cli/main.py``), the event still
on stdin.
"""

from __future__ import annotations

import sys


def main() -> None:
    """Answer a hook through a warm server if one listens; otherwise run the full command line."""
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
    from host_harness.cli.main import main as full

    full()


