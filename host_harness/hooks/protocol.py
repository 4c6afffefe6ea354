"""What a hook needs before it loads anything: the protocol, the project, the log, the time budget.

Standard library only (plus the confinement helpers), so that a hook answered by a warm server
(``host_harness/hooks/warm.py``) never imports wasmtime or numpy; the hook's run
(``host_harness/hooks/pipeline.py``) is built on these functions.

The time budget is hard (:func:`arm`): a watchdog thread ends the process, status 0, at the end of
the budget counted from the process start, whatever the hook is doing then -- importing, reading a
stdin that never closes, waiting for a server or the guest. :func:`leave` and the watchdog take one
lock, so an answer is printed whole or not at all.
"""

from __future__ import annotations

import json
import logging
import os
import select
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, NoReturn

from host_harness.cachedir import default_cache_dir
from host_harness.config import ConfigError, Settings, resolve_store
from host_harness.fs import confine
from host_harness.fs.skills import places as skill_places

HOOK_EVENT = "UserPromptSubmit"
SESSION_EVENT = "SessionStart"
# Other agents' names for the same moment, with the same input and output (issue 44 item 6):
# Gemini CLI's BeforeAgent carries the prompt and appends hookSpecificOutput.additionalContext to it.
EVENT_ALIASES = {"BeforeAgent": HOOK_EVENT}
DEFAULT_BUDGET_TOKENS = 1500  # a hook with no --budget (capture's); the others read their verb's default
DEFAULT_TIMEOUT_S = 2.0
MAX_INPUT_BYTES = 8 * 1024 * 1024
MAX_CONTEXT_CHARS = 9_500  # Claude Code replaces an additionalContext over 10,000 characters by a preview
LOG_NAME = "hook.log"
WARM_SOCKET = "rs-learn.sock"  # in .gm: where a warm server listens (host_harness/hooks/warm.py)
MAX_LOG_BYTES = 1024 * 1024
EXIT_MARGIN_S = 0.05  # kept from the budget for printing the answer and leaving
SAME_DEADLINE_S = 0.001  # arming again within this of the armed deadline keeps the watchdog there is
WARMING_S = 300.0  # a background compile younger than this is not started again
# The hooks' options, shared by the full command line (cli/hook.py) and the fast path (hooks/command_line.py).
EVENTS = {"prompt-submit": HOOK_EVENT, "session-start": SESSION_EVENT}  # hook command -> its event
BUDGET_ENV = {"prompt-submit": "RS_LEARN_HOOK_BUDGET", "session-start": "RS_LEARN_SESSION_BUDGET",
              "session-context": "RS_LEARN_CAPTURE_BUDGET"}
# Each hook's default time budget (docs/hooks.md): a prompt waits for its hook on every turn; a session
# start happens once and may take longer (session-context also waits for the archive run of a compaction);
# the capture hooks only start the detached capture run and leave.
DEFAULT_TIMEOUTS = {"prompt-submit": DEFAULT_TIMEOUT_S, "session-start": 5.0, "session-context": 10.0,
                    **dict.fromkeys(("pre-compact", "stop", "session-end"), DEFAULT_TIMEOUT_S)}
TIMEOUT_ENV = "RS_LEARN_HOOK_TIMEOUT"
TIMEOUT_RANGE = (0.01, 60.0)
# The section of contract.json whose DEFAULT/MIN/MAX_BUDGET_TOKENS are each hook's --budget default and
# range: those of the verb the hook calls (auto_recall, session_start, capture_context), never restated
# here (issue 46). The same constants are that verb's ``budget_tokens`` in verbs.json, which a hook does
# not parse (30 KB: the prompt hook reads only the 3 KB contract.json).
BUDGET_SECTIONS = {"prompt-submit": "memory.verbs", "session-start": "learn.verbs",
                   "session-context": "capture.verbs"}


def budget_values(command: str) -> Any:
    """The contract section of hook ``command``'s verb (``auto_recall``'s for any other command)."""
    from host_harness.contract import section  # json only

    return section(BUDGET_SECTIONS.get(command, "memory.verbs"))


def budget_range(command: str) -> tuple[int, int]:
    """The ``--budget`` range of hook ``command``: the guest's, from ``contract.json``."""
    values = budget_values(command)
    return int(values.MIN_BUDGET_TOKENS), int(values.MAX_BUDGET_TOKENS)


def default_budget(command: str) -> int:
    """The ``--budget`` of hook ``command`` when none is given: its verb's default."""
    return int(budget_values(command).DEFAULT_BUDGET_TOKENS)


def clamp_budget(command: str, budget: int) -> tuple[int, str | None]:
    """``budget`` moved into the guest's range for ``command``, and what is said of it (``None``: in range).

    A hook never refuses its budget (the prompt must go through with context): it runs with the
    nearest allowed value and says so in the hook log and the ledger (``why``).
    """
    low, high = budget_range(command)
    used = min(max(budget, low), high)
    if used == budget:
        return budget, None
    return used, (f"--budget {budget} (or ${BUDGET_ENV.get(command, 'RS_LEARN_CAPTURE_BUDGET')}) is outside "
                  f"the range of hook {command}, {low} to {high} tokens: ran with {used}")


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


def read_event(raw: bytes, event_name: str) -> tuple[dict[str, Any], str | None]:
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
    if EVENT_ALIASES.get(event, event) != event_name:
        raise Skip(f"unexpected hook event {event!r} (this hook serves {event_name})")
    cwd = value.get("cwd")
    return value, cwd if isinstance(cwd, str) and cwd else None


def read_prompt_event(raw: bytes) -> tuple[dict[str, Any], str, str | None]:
    """``(event, prompt, cwd)`` of a ``UserPromptSubmit`` event; :class:`Skip` on anything malformed."""
    value, cwd = read_event(raw, HOOK_EVENT)
    prompt = value.get("prompt")
    if not isinstance(prompt, str):
        raise Skip("hook input has no 'prompt' string")
    if not prompt.strip():
        raise Skip("empty prompt: nothing to recall")
    return value, prompt, cwd


def has_memory(project: Path, settings: Settings | None = None) -> bool:
    """Whether the project has any store to recall from (a PostgreSQL store: ask it).

    ``settings``: its ``.gm/config.json`` read already (else read here when there is no SQLite store).
    """
    gm = project / ".gm"
    if (gm / "rs-learn.db").is_file() or any(gm.glob("disciplines/*/rs-learn.db")):
        return True
    try:
        return resolve_store(settings or project).is_postgresql
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


_event: dict[str, bytes | None] = {"raw": None}
_reading = threading.Lock()  # the event is read once, by the run or by the watchdog


def read_stdin() -> bytes:
    """The event on stdin (:data:`MAX_INPUT_BYTES` + 1 at most), read once for the run and the watchdog."""
    with _reading:
        raw = _event["raw"]
        if raw is None:
            raw = _event["raw"] = sys.stdin.buffer.read(MAX_INPUT_BYTES + 1)
        return raw


def event_by_now(wait_s: float) -> bytes | None:
    """For the watchdog: the event, if the run read it or it is all on stdin within ``wait_s``; else ``None``.

    A run the budget ends while the interpreter still imports has not read its event yet; the client
    wrote it already, so the ledger's line can still name its session and prompt (issue 42).
    """
    if not _reading.acquire(timeout=wait_s):
        return None  # the run is reading it, and stdin does not end
    try:
        if _event["raw"] is None:
            chunks: list[bytes] = []
            end = time.monotonic() + wait_s
            while select.select([0], [], [], max(0.0, end - time.monotonic()))[0]:
                chunk = os.read(0, 1 << 16)
                if not chunk:
                    _event["raw"] = b"".join(chunks)
                    break
                chunks.append(chunk)
                if sum(map(len, chunks)) > MAX_INPUT_BYTES:
                    return None
        return _event["raw"]
    except (OSError, ValueError):
        return None
    finally:
        _reading.release()


_lined = threading.Lock()


def claim_line() -> bool:
    """Whether this ledger line may be written: once per hook process, whichever run or watchdog is first.

    Always in a process without a watchdog (a warm server writes a line per hook it answers).
    """
    with _lined:
        if _watch["at"] is None:
            return True
        if _watch.get("lined"):
            return False
        _watch["lined"] = True
        return True


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
    again with a shorter budget moves the limit earlier, never later; arming again with the same
    budget starts no second watchdog (the process start, read again, can come out a few nanoseconds
    earlier: a second watchdog would end the process while the first still records the run).
    """
    started = process_started()
    at = started + timeout_s - EXIT_MARGIN_S / 2
    if _watch["at"] is None or at < _watch["at"] - SAME_DEADLINE_S:
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
    try:
        leave_warm()
    except BaseException as error:  # the process ends now whatever happens
        log_reason(_watch["project"], f"cannot start compiling the component in the background: {error}")
    os._exit(0)


def leave_warm() -> bool:
    """After a run the budget ended: compile the component in the background, for the next prompt.

    A run that timed out may never have reached the component transport's own check of the compile cache (a
    loaded machine spends a 2 s budget importing), and then nothing would ever warm. So the
    watchdog starts a detached ``rs-learn-host warmup`` of the component the environment names
    (``$RS_LEARN_WASM``, else the installed one): instant when the cache is warm already, waiting
    on the compile lock when another process compiles it. At most one per :data:`WARMING_S` and
    component file (a marker in the cache directory keyed by the file's path, size and time:
    hashing the component itself takes too long here). Whether one was started.
    """
    import hashlib

    from host_harness.targets import DEFAULT_WASM

    wasm = Path(os.environ.get("RS_LEARN_WASM") or DEFAULT_WASM).resolve()
    stat = wasm.stat()
    cache = default_cache_dir()
    cache.mkdir(parents=True, exist_ok=True)
    key = hashlib.sha256(f"{wasm}\0{stat.st_size}\0{stat.st_mtime_ns}".encode()).hexdigest()[:16]
    command = [sys.executable, "-m", "host_harness", "-p", str(cache), "--wasm", str(wasm), "warmup"]
    return start_once(cache / f".warming-after-timeout-{key}", command, cache)


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


class HookLogHandler(logging.Handler):
    """Log records of a hook process go to the hook log: a hook never writes to stderr."""

    def emit(self, record: logging.LogRecord) -> None:
        """One line in the hook log of the project found so far."""
        try:
            log_reason(noted_project(), f"{record.name}: {record.getMessage()}")
        except Exception:  # a message that cannot be formatted is dropped, never printed
            pass


def log_to_hook_log() -> None:
    """Send this process's log records and warnings to the hook log (:class:`HookLogHandler`)."""
    logging.basicConfig(level=logging.WARNING, handlers=[HookLogHandler()], force=True)
    logging.captureWarnings(True)


def start_once(marker: Path, command: list[str], cwd: Path, cache: Path | None = None) -> bool:
    """Start ``command`` detached unless ``marker`` says one started less than :data:`WARMING_S` ago."""
    import subprocess  # not on the fast path's way; before the marker exists (a watchdog may be calling)

    try:
        if time.time() - marker.stat().st_mtime < WARMING_S:
            return False
        marker.unlink(missing_ok=True)
    except FileNotFoundError:
        pass
    try:
        fd = os.open(marker, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
    except FileExistsError:
        return False  # another hook won the race
    env = {**os.environ, "RS_LEARN_CACHE_DIR": str(cache or marker.parent)}
    try:
        quiet = subprocess.DEVNULL
        child = subprocess.Popen(command, cwd=cwd, env=env, start_new_session=True,
                                 stdin=quiet, stdout=quiet, stderr=quiet)
        os.write(fd, f"{child.pid}\n".encode("ascii"))
    finally:
        os.close(fd)
    return True
