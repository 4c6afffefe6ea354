"""A hook's command line, read once, before anything heavy is imported.

``rs-learn-host [-p DIR] [-v] hook prompt-submit [--budget N] [--timeout S] [--log-prompts]`` (and
``hook session-start`` and ``hook session-context`` without ``--log-prompts``; capture's ``hook stop``,
``hook pre-compact`` and ``hook session-end`` with ``--timeout`` alone). :func:`read_command_line`
gives everything the entry point needs from it (:class:`HookLine`): which hook, the time budget to arm
at once, where to look for the project until the event says, and -- for a plain command line, one the
fast path serves exactly as the full command line would -- the hook's :class:`HookOptions`. Anything else
(``--wasm``, ``--native``, a malformed value or an out-of-range timeout) has no options: the full command
line (click, ``host_harness/cli/hook.py``) decides, and says why it rejects it. Either way the
options reach the one pipeline (:func:`host_harness.hooks.pipeline.answer`) as :class:`HookOptions`.
A ``--budget`` outside the guest's range is moved to the nearest allowed value, with a note the run
logs (:func:`~host_harness.hooks.protocol.clamp_budget`).

Standard library only (with the protocol's constants): the fast path reads it.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from host_harness.hooks import protocol

HOOKS = {"prompt-submit": "auto_recall", "session-start": "session_start",  # command -> verb
         "session-context": "capture_context", "pre-compact": None, "stop": None, "session-end": None}
GLOBAL_FLAGS = ("-v", "--verbose")
LOG_PROMPTS = "--log-prompts"


@dataclass(frozen=True)
class HookOptions:
    """A hook command's options, as the fast path or click read them."""

    command: str  # prompt-submit, session-start (or one of capture's hooks)
    project: Path | None  # -p, else $RS_LEARN_PROJECT; None: found from the working directory
    budget: int = protocol.DEFAULT_BUDGET_TOKENS
    timeout: float = protocol.DEFAULT_TIMEOUT_S  # (each hook's default: protocol.DEFAULT_TIMEOUTS)
    log_prompts: bool = False  # the --log-prompts flag ($RS_LEARN_LOG_PROMPTS is read by the run)
    budget_note: str | None = None  # the budget given was outside the guest's range: what was used


@dataclass(frozen=True)
class HookLine:
    """What a command line says for a hook (:func:`read_command_line`)."""

    command: str | None  # the hook it runs (prompt-submit, session-start), or None
    timeout: float | None  # the budget to arm at once (None: not a hook, or --help)
    start: Path | None  # where to look for the project before the event is read (None: nowhere usable)
    options: HookOptions | None  # a plain command line's options (None: the full command line decides)


def read_command_line(args: list[str]) -> HookLine:
    """The hook of command line ``args``, its budget, its project's start and (when plain) its options."""
    at = next((i for i in range(len(args) - 1) if args[i] == "hook" and args[i + 1] in HOOKS), None)
    if at is None:
        return HookLine(None, None, None, None)
    command = args[at + 1]
    timeout = None if "--help" in args else _timeout(args[at + 2 :], command)
    return HookLine(command, timeout, project_start(args), _options(args, at))


def _options(args: list[str], at: int) -> HookOptions | None:
    """The options of a plain hook command line (``args[at]`` is ``hook``); ``None`` otherwise."""
    project: str | None = None
    i = 0
    while i < at:
        arg = args[i]
        if arg in ("-p", "--project") and i + 1 < at:
            project, i = args[i + 1], i + 2
        elif arg.startswith("--project="):
            project, i = arg.split("=", 1)[1], i + 1
        elif arg in GLOBAL_FLAGS:
            i += 1
        else:
            return None  # --wasm, --native, anything else: the full command line decides
    command, rest = args[at + 1], args[at + 2 :]
    values = {"--timeout": os.environ.get(protocol.TIMEOUT_ENV)}
    if command in protocol.BUDGET_ENV:
        values["--budget"] = os.environ.get(protocol.BUDGET_ENV[command])
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
        text = values.get("--budget")
        given = int(text) if text else None
        timeout = float(values["--timeout"] or protocol.DEFAULT_TIMEOUTS[command])
    except ValueError:
        return None
    shortest, longest = protocol.TIMEOUT_RANGE
    if not shortest <= timeout <= longest:
        return None
    budget, note = protocol.DEFAULT_BUDGET_TOKENS, None
    if "--budget" in values:  # capture's hooks take none: no range to read (contract.json stays unread)
        asked = protocol.default_budget(command) if given is None else given
        budget, note = protocol.clamp_budget(command, asked)
    root = project or os.environ.get("RS_LEARN_PROJECT")
    if root is not None and not Path(root).is_dir():
        return None
    return HookOptions(command, Path(root) if root else None, budget, timeout, log_prompts, note)


def _timeout(rest: list[str], command: str) -> float:
    """The time budget of a hook whose arguments after its name are ``rest``.

    ``--timeout`` there, else ``$RS_LEARN_HOOK_TIMEOUT``, else the hook's default; a value the full command
    line will reject is skipped (the hook then logs why it rejected it).
    """
    values = [os.environ.get(protocol.TIMEOUT_ENV)]
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
    return protocol.DEFAULT_TIMEOUTS[command]


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
