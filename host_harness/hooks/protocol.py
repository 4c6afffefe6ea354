"""What a hook needs before it loads anything: the protocol, the project, the log, the time budget.

Standard library only (plus the confinement helpers), so that a hook answered by a warm server
(``host_harness/hooks/warm.py``) never imports wasmtime or numpy; ``host_harness/hooks/cold.py`` builds the
cold path on the same functions.

The time budget is hard (:func:`arm`): a watchdog thread ends the process, status 0, at the end of
the budget counted from the process start, whatever the hook is doing then -- importing, reading a
stdin that never closes, waiting for a server or the guest. :func:`leave` and the watchdog take one
lock, so an answer is printed whole or not at all.
"""

from __future__ import annotations

import json
import os
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, NoReturn

from host_harness.cachedir import default_cache_dir
from host_harness.store import confine
from host_harness.store.config import ConfigError
from host_harness.store.selection import resolve_store
from host_harness.store.skills import places as skill_places

HOOK_EVENT = "UserPromptSubmit"
SESSION_EVENT = "SessionStart"
DEFAULT_BUDGET_TOKENS = 1500
DEFAULT_TIMEOUT_S = 2.0
MAX_INPUT_BYTES = 8 * 1024 * 1024
MAX_CONTEXT_CHARS = 9_500  # Claude Code replaces an additionalContext over 10,000 characters by a preview
LOG_NAME = "hook.log"
WARM_SOCKET = "rs-learn.sock"  # in .gm: where a warm server listens (host_harness/hooks/warm.py)
MAX_LOG_BYTES = 1024 * 1024
EXIT_MARGIN_S = 0.05  # kept from the budget for printing the answer and leaving
# The hooks' options, shared by the full command line (cli/hook.py) and the fast path (hooks/fast.py).
EVENTS = {"prompt-submit": HOOK_EVENT, "session-start": SESSION_EVENT}  # hook command -> its event
BUDGET_ENV = {"prompt-submit": "RS_LEARN_HOOK_BUDGET", "session-start": "RS_LEARN_SESSION_BUDGET"}
TIMEOUT_ENV = "RS_LEARN_HOOK_TIMEOUT"
BUDGET_RANGE = (1, 100_000)
TIMEOUT_RANGE = (0.01, 60.0)


def process_started() -> float:
    """When this process started, on the ``time.monotonic()`` clock.

    Linux: the start time in ``/proc/self/stat`` (clock ticks since boot, compared with
    ``CLOCK_BOOTTIME``; rounded down to a tick, so never late). Elsewhere: when ``host_harness``
    was first imported.
    """
    from host_harness import IMPORTED_AT

    try:
        stat = Path("/proc/self/stat").read_text(encoding="ascii")
        ticks = int(stat.rpartition(")")[2].split()[19])  # field 22: starttime
        since_boot = time.clock_gettime(time.CLOCK_BOOTTIME)
        started = time.monotonic() - (since_boot - ticks / os.sysconf("SC_CLK_TCK"))
    except (OSError, ValueError, IndexError, AttributeError):
        return IMPORTED_AT
    return min(started, IMPORTED_AT)


class Skip(Exception):
    """Nothing is injected; the message says why and is logged."""


def parse_event(raw: bytes, event_name: str) -> tuple[dict[str, Any], str | None]:
    """The event object and its ``cwd`` from the hook's stdin; :class:`Skip` on anything malformed."""
    if len(raw) > MAX_INPUT_BYTES:
        raise Skip(f"hook input is larger than {MAX_INPUT_BYTES} bytes")
    try:
        value = json.loads(raw.decode("utf-8-sig"))
    except (UnicodeDecodeError, ValueError) as error:
        raise Skip(f"hook input is not JSON: {error}") from None
    except RecursionError:
        raise Skip("hook input is nested too deeply to be read") from None
    if not isinstance(value, dict):
        raise Skip(f"hook input must be a JSON object, got {type(value).__name__}")
    event = value.get("hook_event_name", event_name)
    if event != event_name:
        raise Skip(f"unexpected hook event {event!r} (this hook serves {event_name})")
    cwd = value.get("cwd")
    return value, cwd if isinstance(cwd, str) and cwd else None


def parse_input(raw: bytes) -> tuple[str, str | None]:
    """Return ``(prompt, cwd)`` from a ``UserPromptSubmit`` event; :class:`Skip` on anything malformed."""
    _, prompt, cwd = parse_prompt_event(raw)
    return prompt, cwd


def parse_prompt_event(raw: bytes) -> tuple[dict[str, Any], str, str | None]:
    """``(event, prompt, cwd)`` of a ``UserPromptSubmit`` event; :class:`Skip` on anything malformed."""
    value, cwd = parse_event(raw, HOOK_EVENT)
    prompt = value.get("prompt")
    if not isinstance(prompt, str):
        raise Skip("hook input has no 'prompt' string")
    if not prompt.strip():
        raise Skip("empty prompt: nothing to recall")
    return value, prompt, cwd


def has_memory(project: Path) -> bool:
    """Whether the project has any store to recall from (a PostgreSQL store: ask it)."""
    gm = project / ".gm"
    if (gm / "rs-learn.db").is_file() or any(gm.glob("disciplines/*/rs-learn.db")):
        return True
    try:
        return resolve_store(project).is_postgresql
    except ConfigError:
        return True  # asking will fail and log why


def has_skills(project: Path) -> bool:
    """Whether the project has any skill folder to tell a new session about."""
    return any(any(base.glob("*/SKILL.md")) for _, base in skill_places(project))


def skills_left_out(data: dict[str, Any], context: str, budget: int) -> str | None:
    """Why a ``session_start`` answer lists no skill although there are some (``None``: it lists some)."""
    skills, shown = data.get("skills"), data.get("shown")
    if not isinstance(skills, list) or not skills or shown != 0:
        return None
    said = "said so in one line" if context.strip() else "nothing injected"
    count = f"{len(skills)} skill" + ("s" if len(skills) > 1 else "")
    return (f"the {count} of this project do not fit in the {budget}-token budget "
            f"(--budget, ${BUDGET_ENV['session-start']}); {said}")


def hook_output(context: str, event: str = HOOK_EVENT) -> str:
    """The JSON Claude Code reads from a hook of ``event`` that adds ``context``."""
    return json.dumps({"hookSpecificOutput": {"hookEventName": event, "additionalContext": context}})


def clip(context: str, limit: int = MAX_CONTEXT_CHARS) -> str:
    """``context`` cut at the last line break within ``limit`` characters."""
    if len(context) <= limit:
        return context
    cut = context.rfind("\n", 0, limit)
    return context[: cut if cut > 0 else limit].rstrip()


def log_reason(project: Path | None, reason: str, cache_dir: Path | None = None) -> None:
    """Append one line to the project's hook log (or the fallback log); never raises.

    The project's log is reached without following links (``.gm/`` is committed: a planted
    ``.gm/logs`` link must not make the hook append outside the project); when it is refused,
    the line goes to the fallback log, with the reason.
    """
    stamp = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
    line = f"{stamp} pid={os.getpid()} {' '.join(reason.split())}\n"
    if project is not None and (project / ".gm").is_dir():
        try:
            confine.append_file(project, (".gm", "logs", LOG_NAME), _encoded(line), MAX_LOG_BYTES)
            return
        except OSError as error:
            line = f"{line.rstrip()} (not logged in {project}: {error})\n"
    directory = cache_dir if cache_dir is not None else default_cache_dir()
    try:
        directory.mkdir(parents=True, exist_ok=True)
        path = directory / LOG_NAME
        if path.exists() and path.stat().st_size > MAX_LOG_BYTES:
            os.replace(path, directory / (LOG_NAME + ".1"))
        with open(path, "ab") as log:
            log.write(_encoded(line))
    except OSError:
        pass


def _encoded(line: str) -> bytes:
    return line.encode("utf-8", "backslashreplace")


_leaving = threading.Lock()  # held by whoever ends the process: leave() or the watchdog
_watch: dict[str, Any] = {"project": None, "at": None, "stage": "starting up", "on_timeout": None}


def note_project(project: Path | None) -> None:
    """Where the watchdog logs, should the budget run out (the project found so far)."""
    _watch["project"] = project


def noted_project() -> Path | None:
    """The project noted last (:func:`note_project`)."""
    project = _watch["project"]
    return project if isinstance(project, Path) else None


def note_stage(stage: str) -> None:
    """How far the hook got (``"recalling in the component"``): said when the budget runs out there."""
    _watch["stage"] = stage


def stage() -> str:
    """The stage last noted (:func:`note_stage`)."""
    return str(_watch["stage"])


def on_timeout(record: Callable[[str], None] | None) -> None:
    """What the watchdog calls with its reason before it ends the process (a prompt's ledger line)."""
    _watch["on_timeout"] = record


def gave_up(timeout_s: float, spent: bool = False) -> str:
    """The reason of a run the time budget ended: when, and how far it got."""
    budget = f"the {timeout_s:g} s time budget"
    if spent:
        return f"{budget} was spent during start-up; nothing injected"
    return f"gave up after {budget} while {stage()}; nothing injected"


def arm(timeout_s: float) -> float:
    """Make ``timeout_s``, counted from the process start, a hard limit; the deadline the work should keep.

    At ``EXIT_MARGIN_S / 2`` before the end of the budget a daemon thread logs that the hook gave up
    and ends the process with status 0 (nothing printed), unless :func:`leave` already is. The work
    itself aims at :data:`EXIT_MARGIN_S` before the end, so the watchdog is the backstop. Arming
    again with a shorter budget moves the limit earlier, never later.
    """
    started = process_started()
    at = started + timeout_s - EXIT_MARGIN_S / 2
    if _watch["at"] is None or at < _watch["at"]:
        _watch["at"] = at
        threading.Thread(target=_watchdog, args=(at, timeout_s), name="rs-deadline", daemon=True).start()
    return started + timeout_s - EXIT_MARGIN_S


def _watchdog(at: float, timeout_s: float) -> None:
    spent = time.monotonic() >= at
    while (left := at - time.monotonic()) > 0:
        time.sleep(left)
    if not _leaving.acquire(timeout=EXIT_MARGIN_S / 4):
        os._exit(0)  # an answer is being printed and stdout does not drain: leave anyway
    reason = gave_up(timeout_s, spent)
    record = _watch["on_timeout"]
    if record is not None:
        try:
            record(reason)
        except BaseException:  # the process ends now whatever happens
            pass
    log_reason(_watch["project"], reason)
    os._exit(0)


def leave(output: str) -> NoReturn:
    """Print a hook's ``output`` (if any) and end the process at once, status 0.

    The budget counts to the end of the process: no interpreter teardown, no waiting for a worker
    that may still sit in the guest or in SQLite (the stores were only read; the log is written).
    """
    _leaving.acquire()  # if the watchdog has it, it ends the process
    if output:
        sys.stdout.write(output + "\n")
    sys.stdout.flush()
    os._exit(0)
