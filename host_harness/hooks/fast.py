"""A hook answered by a warm server: nothing heavy is imported.

Every prompt starts a hook process. When a spool watcher or an MCP server of the project is
running, it listens on the project's warm socket (:mod:`host_harness.hooks.warm`); the hook then
sends it the request and prints the answer, without importing click, wasmtime, numpy or the guest
-- the whole point, since those imports were most of a hook's ~225 ms. Anything this fast path
does not handle exactly as the full command line would -- another option, a malformed event, no
server -- goes back to the full CLI with the event still on stdin, so the cold path is unchanged.
"""

from __future__ import annotations

import io
import json
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from host_harness.hooks import protocol
from host_harness.project import find_project

HOOKS = {"prompt-submit": "auto_recall", "session-start": "session_start"}  # command -> verb
GLOBAL_FLAGS = ("-v", "--verbose")


def hook_options(args: list[str]) -> tuple[str, Path | None, int, float] | None:
    """``(command, -p, budget, timeout)`` of a plain hook command line; ``None`` for anything else."""
    project: str | None = None
    i = 0
    while i < len(args) and args[i] != "hook":
        arg = args[i]
        if arg in ("-p", "--project") and i + 1 < len(args):
            project, i = args[i + 1], i + 2
        elif arg.startswith("--project="):
            project, i = arg.split("=", 1)[1], i + 1
        elif arg in GLOBAL_FLAGS:
            i += 1
        else:
            return None  # --wasm, --native, anything else: the full command line decides
    if i + 1 >= len(args) or args[i + 1] not in HOOKS:
        return None
    command, rest = args[i + 1], args[i + 2 :]
    values = {"--budget": os.environ.get(protocol.BUDGET_ENV[command]),
              "--timeout": os.environ.get(protocol.TIMEOUT_ENV)}
    while rest:
        name, _, value = rest[0].partition("=")
        if name not in values:
            return None
        if not value:
            if len(rest) < 2:
                return None
            value, rest = rest[1], rest[1:]
        values[name], rest = value, rest[1:]
    try:
        budget = int(values["--budget"] or protocol.DEFAULT_BUDGET_TOKENS)
        timeout = float(values["--timeout"] or protocol.DEFAULT_TIMEOUT_S)
    except ValueError:
        return None
    (low, high), (shortest, longest) = protocol.BUDGET_RANGE, protocol.TIMEOUT_RANGE
    if not (low <= budget <= high and shortest <= timeout <= longest):
        return None
    root = project or os.environ.get("RS_LEARN_PROJECT")
    if root is not None and not Path(root).is_dir():
        return None
    return command, Path(root) if root else None, budget, timeout


def hook_timeout(args: list[str]) -> float | None:
    """The time budget of any hook command line (``None``: not a hook), for :func:`protocol.arm`.

    ``--timeout`` after the hook's name, else ``$RS_LEARN_HOOK_TIMEOUT``, else the default; a value
    the full command line will reject is skipped (the hook then logs why it rejected it).
    """
    commands = [i for i in range(len(args) - 1) if args[i] == "hook" and args[i + 1] in HOOKS]
    if not commands:
        return None
    values, rest = [os.environ.get(protocol.TIMEOUT_ENV)], args[commands[0] + 2 :]
    for i, arg in enumerate(rest):
        if arg == "--timeout" and i + 1 < len(rest):
            values.insert(0, rest[i + 1])
        elif arg.startswith("--timeout="):
            values.insert(0, arg.split("=", 1)[1])
    shortest, longest = protocol.TIMEOUT_RANGE
    for value in values:
        try:
            timeout = float(value or "nan")
        except ValueError:
            continue
        if shortest <= timeout <= longest:
            return timeout
    return protocol.DEFAULT_TIMEOUT_S


def project_start(args: list[str]) -> Path | None:
    """Where a hook command line starts looking for its project before it reads its event.

    ``-p``/``--project``, else ``$RS_LEARN_PROJECT``, else the working directory; ``None`` when the
    one named is not a directory (the hook then logs in the cache dir).
    """
    value = os.environ.get("RS_LEARN_PROJECT")
    for i, arg in enumerate(args):
        if arg in ("-p", "--project") and i + 1 < len(args):
            value = args[i + 1]
        elif arg.startswith("--project="):
            value = arg.split("=", 1)[1]
    start = Path(value) if value else Path.cwd()
    return start if start.is_dir() else None


def warm_hook(command: str, project_option: Path | None, budget: int, timeout: float) -> None:
    """Serve the hook through the project's warm server and leave; return (stdin kept) to go cold."""
    verb = HOOKS[command]
    event = protocol.EVENTS[command]
    deadline = protocol.arm(timeout)  # (the entry point armed it already)
    fallback = project_option or Path.cwd()
    raw = sys.stdin.buffer.read(protocol.MAX_INPUT_BYTES + 1)
    sys.stdin = io.TextIOWrapper(io.BytesIO(raw), encoding="utf-8")  # the cold path reads it again
    try:
        if command == "prompt-submit":
            prompt, cwd = protocol.parse_input(raw)
            body: dict[str, Any] = {"prompt": prompt, "budget_tokens": budget}
            worth: Callable[[Path], bool] = protocol.has_memory
        else:
            cwd = protocol.parse_event(raw, event)[1]
            body, worth = {"budget_tokens": budget}, protocol.has_skills
    except protocol.Skip:
        return  # the cold path logs why
    start = Path(cwd) if cwd is not None else fallback
    if not start.is_dir():
        return
    project = find_project(start)
    protocol.note_project(project)
    if not worth(project):
        protocol.leave("")  # nothing here: not an error (as the cold path)
    if not os.path.lexists(project / ".gm" / protocol.WARM_SOCKET):
        return  # no server: go cold without loading the client (warm.ask checks what is there)
    from host_harness.hooks import warm

    try:
        envelope = warm.ask(project, verb, body, deadline, timeout)
    except warm.ServerBusy as why:
        protocol.log_reason(project, f"{why}; answering without it (cold)")
        return
    except warm.NoServer:
        return
    except OSError as error:  # it started the request and did not answer in time
        protocol.log_reason(project, f"the warm server did not answer: {error}; nothing injected")
        protocol.leave("")
    protocol.leave(_output(project, verb, event, envelope))


def _output(project: Path, verb: str, event: str, envelope: str) -> str:
    """What to print for the server's envelope (``""`` for nothing), logging why not, as the cold path."""
    try:
        value = json.loads(envelope)
    except ValueError:
        value = None
    if not isinstance(value, dict) or value.get("ok") is not True:
        reason = value.get("error") if isinstance(value, dict) else envelope[:200]
        protocol.log_reason(project, f"{verb} failed: {reason}")
        return ""
    for warning in value.get("warnings") or []:
        protocol.log_reason(project, f"warning: {warning}")
    data = value.get("data")
    context = data.get("context") if isinstance(data, dict) else None
    if not isinstance(context, str):
        protocol.log_reason(project, f"{verb} returned no 'context' string: {str(data)[:200]}")
        return ""
    return protocol.hook_output(protocol.clip(context), event) if context.strip() else ""

