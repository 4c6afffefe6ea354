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

from host_harness.hooks import protocol, record
from host_harness.project import find_project

HOOKS = {"prompt-submit": "auto_recall", "session-start": "session_start"}  # command -> verb
GLOBAL_FLAGS = ("-v", "--verbose")
LOG_PROMPTS = "--log-prompts"


def hook_options(args: list[str]) -> tuple[str, Path | None, int, float, bool] | None:
    """``(command, -p, budget, timeout, --log-prompts)`` of a plain hook command line; ``None`` otherwise."""
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
    log_prompts = False
    while rest:
        if rest[0] == LOG_PROMPTS and command == "prompt-submit":
            log_prompts, rest = True, rest[1:]
            continue
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
    return command, Path(root) if root else None, budget, timeout, log_prompts


def hook_command(args: list[str]) -> str | None:
    """The hook a command line runs (``prompt-submit``, ``session-start``), or ``None``."""
    commands = [args[i + 1] for i in range(len(args) - 1) if args[i] == "hook" and args[i + 1] in HOOKS]
    return commands[0] if commands else None


def hook_timeout(args: list[str]) -> float | None:
    """The time budget of any hook command line (``None``: not a hook, or one that asks for ``--help``).

    ``--timeout`` after the hook's name, else ``$RS_LEARN_HOOK_TIMEOUT``, else the default; a value
    the full command line will reject is skipped (the hook then logs why it rejected it). Help is
    never cut by a deadline.
    """
    commands = [i for i in range(len(args) - 1) if args[i] == "hook" and args[i + 1] in HOOKS]
    if not commands or "--help" in args:
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


def warm_hook(command: str, project_option: Path | None, budget: int, timeout: float,
              log_prompts: bool = False) -> None:
    """Serve the hook through the project's warm server and leave; return (stdin kept) to go cold."""
    verb = HOOKS[command]
    event = protocol.EVENTS[command]
    deadline = protocol.arm(timeout)  # (the entry point armed it already)
    fallback = project_option or Path.cwd()
    protocol.note_stage("reading the event")
    raw = sys.stdin.buffer.read(protocol.MAX_INPUT_BYTES + 1)
    sys.stdin = io.TextIOWrapper(io.BytesIO(raw), encoding="utf-8")  # the cold path reads it again
    prompt = ""
    try:
        if command == "prompt-submit":
            incoming, prompt, cwd = protocol.parse_prompt_event(raw)
            body: dict[str, Any] = {"prompt": prompt, "budget_tokens": budget}
            worth: Callable[[Path], bool] = protocol.has_memory
        else:
            incoming, cwd = protocol.parse_event(raw, event)
            body, worth = {"budget_tokens": budget}, protocol.has_skills
    except protocol.Skip:
        return  # the cold path logs why
    start = Path(cwd) if cwd is not None else fallback
    if not start.is_dir():
        return
    project = find_project(start)
    protocol.note_project(project)
    if command == "session-start":
        record.reset_session(project, incoming)
    if not worth(project):
        protocol.leave("")  # nothing here: not an error (as the cold path)
    run = None
    if command == "prompt-submit":
        run = record.PromptRun(project, incoming, prompt, started=protocol.process_started(),
                               log_prompts=record.log_prompts(log_prompts))
        protocol.on_timeout(run.timed_out)
        try:
            early = run.begin(body)
        except protocol.Skip as skip:
            protocol.log_reason(project, str(skip))
            run.fail(str(skip))
            protocol.leave("")
        if early is not None:
            protocol.leave(protocol.hook_output(protocol.clip(early), event) if early.strip() else "")
    if not os.path.lexists(project / ".gm" / protocol.WARM_SOCKET):
        return  # no server: go cold without loading the client (warm.ask checks what is there)
    from host_harness.hooks import warm

    if run is not None:
        run.path = "warm"
    protocol.note_stage("waiting for the warm server")
    try:
        envelope = warm.ask(project, verb, body, deadline, timeout)
    except warm.ServerBusy as why:
        protocol.log_reason(project, f"{why}; answering without it (cold)")
        return
    except warm.NoServer:
        return
    except OSError as error:  # it started the request and did not answer in time
        reason = f"the warm server did not answer: {error}; nothing injected"
        protocol.log_reason(project, reason)
        if run is not None:
            (run.timed_out if isinstance(error, TimeoutError) else run.fail)(reason)
        protocol.leave("")
    protocol.leave(_output(project, verb, event, envelope, run, budget))


def _output(project: Path, verb: str, event: str, envelope: str, run: record.PromptRun | None = None,
            budget: int = protocol.DEFAULT_BUDGET_TOKENS) -> str:
    """What to print for the server's envelope (``""`` for nothing), logging why not, as the cold path."""
    try:
        value = json.loads(envelope)
    except ValueError:
        value = None
    if not isinstance(value, dict) or value.get("ok") is not True:
        reason = value.get("error") if isinstance(value, dict) else envelope[:200]
        _failed(project, run, f"{verb} failed: {reason}")
        return ""
    for warning in value.get("warnings") or []:
        protocol.log_reason(project, f"warning: {warning}")
    data = value.get("data")
    context = data.get("context") if isinstance(data, dict) else None
    if not isinstance(data, dict) or not isinstance(context, str):
        _failed(project, run, f"{verb} returned no 'context' string: {str(data)[:200]}")
        return ""
    if run is not None:
        context = run.finish(data)
    elif (cut := protocol.skills_left_out(data, context, budget)) is not None:
        protocol.log_reason(project, cut)
    return protocol.hook_output(protocol.clip(context), event) if context.strip() else ""


def _failed(project: Path, run: record.PromptRun | None, reason: str) -> None:
    """Nothing injected because of ``reason``: logged, and recorded in the ledger for a prompt."""
    protocol.log_reason(project, reason)
    if run is not None:
        run.fail(reason)

