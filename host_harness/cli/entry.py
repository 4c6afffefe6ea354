"""``rs-learn-host`` and ``python -m host_harness``: a hook that a warm server answers imports nothing else.

A plain hook command line (``host_harness/hooks/command_line.py`` reads it) goes to the fast path,
the hook's one pipeline without click (:func:`host_harness.hooks.plain.answer_plain`): a running
server's warm socket answers it without importing click, wasmtime, numpy or the guest, else the
component loaded in this process (no click, none of the CLI's other commands); anything else goes
to the full CLI (``host_harness/cli/main.py``), the event still on stdin. ``--version`` is
answered here, and ``mcp ...`` goes to the MCP command alone (``host_harness/cli/mcp.py``: none of
the CLI's other commands).
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
    if args[:1] == ["mcp"] and not {"-h", "--help"} & set(args) and _project_from_env_is_a_folder():
        from host_harness.cli.mcp import run_alone

        run_alone(args[1:])  # the MCP server without the rest of the CLI (issue 44: a lean start)
        return
    from host_harness.hooks import protocol
    from host_harness.hooks.command_line import read_command_line
    from host_harness.project import find

    line = read_command_line(args)
    if line.timeout is not None:
        start = line.start  # the project until the event says (the pipeline's too: found once)
        found = find(start) if start is not None else None
        protocol.note_project(found.root if found is not None else None)
        if line.command == "prompt-submit":
            from host_harness.hooks import prompt_run

            protocol.on_timeout(prompt_run.unread_run)  # a run the budget ends is in the ledger too
        protocol.arm(line.timeout)  # the budget is hard from here on, whatever answers
        if line.options is not None:
            from host_harness.hooks.plain import answer_plain

            answer_plain(line.options, found)  # the warm server, else the component, without click: leaves
    from host_harness.cli.main import main as full

    full()




def _project_from_env_is_a_folder() -> bool:
    """Whether ``$RS_LEARN_PROJECT`` is unset or a folder (else the full CLI says what is wrong with it)."""
    import os

    given = os.environ.get("RS_LEARN_PROJECT")
    return not given or os.path.isdir(given)
