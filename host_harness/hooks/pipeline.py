"""One run of a Claude Code hook: auto-recall at ``UserPromptSubmit``, skill discovery at ``SessionStart``.

Protocol (Claude Code hooks): the hook reads one JSON object on stdin -- ``{"session_id",
"transcript_path", "cwd", "hook_event_name", ...}``, plus ``"prompt"`` for ``UserPromptSubmit``
and ``"source"`` (``startup``/``resume``/``clear``/``compact``) for ``SessionStart`` -- and, to
add context, prints ``{"hookSpecificOutput": {"hookEventName": <event>, "additionalContext":
"..."}}`` and exits 0. Printing nothing adds nothing. Exit status 2 would *block* the prompt, so
these hooks never exit with anything but 0.

The guest does the work -- ``dispatch("auto_recall", {"prompt", "budget_tokens"})`` for a prompt,
``dispatch("session_start", {"budget_tokens"})`` for a session; both return ``{"context", ...}``,
``context == ""`` when there is nothing to add; the host only moves JSON. A hook must never block
or fail its event:

* every failure (malformed input, empty prompt, missing project or component,
  a guest error, the time budget) means *nothing injected, exit 0*, and one line
  with the reason appended to ``<project>/.gm/logs/hook.log`` -- or to
  ``<cache dir>/hook.log`` when there is no usable project;
* a project with nothing to offer (no memory store for a prompt, no skill for a
  session) is answered at once, without loading the component, and is not an error;
* a hard time budget (:data:`DEFAULT_TIMEOUT_S`, ``--timeout`` or
  ``$RS_LEARN_HOOK_TIMEOUT``) bounds everything, counted from the start of the
  process (:func:`process_started`: the interpreter's start-up and the imports are
  part of what Claude Code waits for): the work runs in a worker thread, the SQLite
  busy timeout and the guest's epoch deadline are set to what is left, and if the
  worker is still busy at the deadline the hook logs it; the CLI always leaves with
  ``os._exit(0)`` after printing, so interpreter teardown is not paid either, and
  :data:`EXIT_MARGIN_S` of the budget is kept for printing and exiting;
* the component is loaded only from the precompiled cache (milliseconds). On a
  cache miss (first prompt after an upgrade) a detached ``rs-learn-host warmup``
  compiles it in the background and this event gets nothing.

The project is the nearest directory holding ``.gm/``, starting from the hook
input's ``cwd`` (Claude Code's working directory may be a subdirectory), else
from ``-p``/``$RS_LEARN_PROJECT``/the process's working directory.

A run is one pipeline, whatever answers it -- :meth:`Hook.work`:

1. **read** the event from stdin (:data:`~host_harness.hooks.protocol.MAX_INPUT_BYTES` at most, a JSON
   object of the hook's event: :func:`~host_harness.hooks.protocol.read_event`);
2. **locate** the project, once, from the event's ``cwd`` (else the fallback);
3. **begin**: what the event does whatever the project holds (a prompt's run in the ledger, a
   session's reset), whether the project has anything to offer, then the prompt's off switches and
   session (:mod:`host_harness.hooks.prompt_run`), which may answer at once;
4. **ask** the guest ``verb`` with the body through a transport: the project's warm server
   (:mod:`host_harness.hooks.warm`; only when the command line came through the fast path, and when
   its socket is there), else this process loading the component (:mod:`host_harness.hooks.in_process`);
5. **finish**: the answer's context, the ledger's line, the output to print; any failure or the
   time budget is logged with how far the run got (:func:`~host_harness.hooks.protocol.note_stage`).

A warm server that is busy, gone or of another version (:class:`~host_harness.hooks.warm.NoServer`)
sends the run on to the component, the steps before it not repeated; one that started the request
and did not answer in time ends the run (it is the budget's). A prompt's ledger line says which
transport answered (``path``: ``warm``, ``cold``; ``direct`` when neither was asked).

Standard library only until a transport is asked (the fast path imports this module): the component
transport and the warm client load when the run gets there.
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, NoReturn

from host_harness.config import ConfigError, ProjectContext
from host_harness.envelope import Envelope
from host_harness.hooks import protocol, switches
from host_harness.hooks.command_line import HookOptions
from host_harness.hooks.prompt_run import PromptRun, log_prompts, reset_session, unread_run
from host_harness.hooks.protocol import (
    DEFAULT_BUDGET_TOKENS,
    DEFAULT_TIMEOUT_S,
    EXIT_MARGIN_S,
    HOOK_EVENT,
    SESSION_EVENT,
    WARM_SOCKET,
    Skip,
    clip,
    has_memory,
    has_skills,
    hook_output,
    log_reason,
    note_project,
    process_started,
    read_event,
    read_prompt_event,
)
from host_harness.project import Found, find, find_from, find_project


def answer(kind: type[Hook], options: HookOptions, wasm: Path | None = None, native: bool = False,
           warm: bool = False, found: Found | None = None) -> NoReturn:
    """Run one hook of ``kind`` with ``options`` on the event on stdin; print its output and leave, status 0.

    The fast path (``warm``: the warm server is asked first) and the full command line (click,
    ``host_harness/cli/hook.py``) both come here. The component is ``wasm``, else the one
    ``$RS_LEARN_WASM`` names, else the installed one; the project as ``-p`` or ``$RS_LEARN_PROJECT``
    names it (``options.project``), else found from the working directory (``found``: found there
    already, by the entry point).
    """
    from host_harness.targets import DEFAULT_WASM

    protocol.arm(options.timeout)  # (the entry point armed it already, unless run otherwise)
    output = run_on_stdin(kind, HookConfig(
        wasm=wasm if wasm is not None else Path(os.environ.get("RS_LEARN_WASM") or DEFAULT_WASM),
        fallback_project=options.project if options.project is not None else Path.cwd(), native=native,
        budget_tokens=options.budget, timeout_s=options.timeout, log_prompts=options.log_prompts, warm=warm,
        budget_note=options.budget_note, found=found))
    protocol.leave(output)


def run_on_stdin(kind: type[Hook], config: HookConfig) -> str:
    """Run one hook of ``kind`` on the event on stdin; its output (the budget counts from the process start).

    ``config.log_prompts`` is the ``--log-prompts`` flag; ``$RS_LEARN_LOG_PROMPTS`` may also turn it on.
    """
    config = replace(config, started=process_started(), log_prompts=log_prompts(config.log_prompts))
    return kind(config).run(protocol.read_stdin)


@dataclass(frozen=True)
class HookConfig:
    """Where things are and how much time and context the hook may use."""

    wasm: Path
    fallback_project: Path
    native: bool = False
    budget_tokens: int = DEFAULT_BUDGET_TOKENS
    timeout_s: float = DEFAULT_TIMEOUT_S
    cache_dir: Path | None = None
    started: float | None = None  # monotonic time the budget counts from (default: the process start)
    scan_max: int | None = None  # a stale vector index bigger than this: keywords alone (None: HOOK_SCAN_MAX)
    log_prompts: bool = False  # the ledger keeps the prompt's text (its secrets redacted by the guest)
    warm: bool = False  # ask the project's warm server first, when one listens
    budget_note: str | None = None  # --budget was outside the guest's range: logged, and in the ledger
    found: Found | None = None  # the project of fallback_project, found already (the entry point's)


class Done(Exception):
    """The run is over and recorded already: nothing to print, nothing more to log."""


class Hook:
    """One run of a hook: read the input, ask the guest, return what to print (``""`` for nothing).

    Subclasses say which event they serve, how to read its input into a request body, and
    whether a project is worth asking the guest for.
    """

    event = HOOK_EVENT
    verb = "auto_recall"

    def __init__(self, config: HookConfig) -> None:
        self.config = config
        self.started = started = config.started if config.started is not None else process_started()
        self.deadline = started + config.timeout_s - EXIT_MARGIN_S
        self.project: Path | None = None
        self.context: ProjectContext | None = None  # the project's configuration and store, once located
        self.timed_out = False
        self.watchdog_ends = False  # the run's deadline is the watchdog's, not the worker's join
        self.incoming: dict[str, Any] = {}  # the event, once read

    def request(self, raw: bytes) -> tuple[dict[str, Any], str | None]:
        """The verb's body and the event's ``cwd``; :class:`Skip` on a malformed input."""
        raise NotImplementedError

    def worth_asking(self, project: Path) -> bool:
        """Whether the project has anything for this event (else nothing is loaded)."""
        raise NotImplementedError

    def arrived(self, project: Path) -> None:
        """The project is known (before :meth:`worth_asking`): what the event does whatever it holds."""

    def before(self, project: Path, body: dict[str, Any]) -> str | None:
        """Before the guest is asked: a context to answer at once instead (``""``: nothing), else ``None``."""
        return None

    def through(self, path: str) -> None:
        """The transport asked from here on (``warm``, ``cold``)."""

    def after(self, data: dict[str, Any], context: str) -> str:
        """The context to inject for the guest's answer ``data``."""
        return context

    def failed(self, reason: str) -> None:
        """Nothing is injected, because of ``reason``: logged."""
        self.log(reason)

    def unanswered(self, reason: str) -> None:
        """The warm server started the request and did not answer in time: logged."""
        self.log(reason)

    def gave_up(self, reason: str) -> None:
        """The time budget ended the run (``reason`` says how far it got): logged; the compile started.

        (:func:`protocol.leave_warm`: the watchdog does the same when it ends a run itself.)
        """
        self.log(reason)
        try:
            protocol.leave_warm()
        except Exception as error:  # never in the event's way
            self.log(f"cannot start compiling the component in the background: {error}")

    def remaining(self) -> float:
        """Seconds left in the budget (at least a millisecond, so that timeouts stay positive)."""
        return max(self.deadline - time.monotonic(), 0.001)

    def run(self, read_input: Callable[[], bytes]) -> str:
        """Do the work in a worker thread bounded by the deadline; never raises.

        On the fast path (``config.warm``) the steps before the component are bounded by the
        watchdog (:func:`protocol.arm`) instead, as in a process that never loads the component:
        the warm client keeps the deadline itself (hard, with its own ledger line), and a run the
        watchdog ends is recorded by its callback.
        """
        if time.monotonic() >= self.deadline:
            self.timed_out = True
            self.project = self.locate(read_input)
            self.gave_up(protocol.gave_up(self.config.timeout_s, spent=True))
            return ""
        result: list[str] = []
        worker = threading.Thread(target=lambda: result.append(self.guarded(read_input)), daemon=True,
                                  name="rs-learn-hook")
        worker.start()
        worker.join(self.remaining())
        if worker.is_alive() and self.watchdog_ends:
            worker.join()
        if worker.is_alive():
            self.timed_out = True
            self.gave_up(protocol.gave_up(self.config.timeout_s))
            return ""
        return result[0] if result else ""

    def guarded(self, read_input: Callable[[], bytes]) -> str:
        """:meth:`work`, with every failure logged and turned into ``""``."""
        try:
            return self.work(read_input)
        except Done:
            pass
        except Skip as skip:
            self.failed(str(skip))
        except Exception as error:  # the event must go through whatever happened here
            self.failed(f"unexpected {type(error).__name__}: {error}")
        return ""

    def locate(self, read_input: Callable[[], bytes]) -> Path | None:
        """The project to log in, from the input's ``cwd`` or the fallback; ``None`` when there is none."""
        try:
            cwd = self.request(read_input())[1]
        except Skip:
            cwd = None
        start = Path(cwd) if cwd is not None else self.config.fallback_project
        return find_project(start) if start.is_dir() else None

    def log(self, reason: str) -> None:
        """One line in the hook log."""
        log_reason(self.project, reason, self.config.cache_dir)

    def work(self, read_input: Callable[[], bytes]) -> str:
        """Read, locate the project, begin, ask, finish: the output to print."""
        self.watchdog_ends = self.config.warm  # until the component is asked
        fallback = self.config.fallback_project
        near = self.config.found if self.config.found is not None else (
            find(fallback) if fallback.is_dir() else None)
        self.project = near.root if near is not None else None  # where to log a bad input
        protocol.note_stage("reading the event")
        body, cwd = self.request(read_input())
        start = Path(cwd) if cwd is not None else fallback
        self.project = None
        if not start.is_dir():
            raise Skip(f"project directory {str(start)!r} does not exist")
        found = find_from(start, fallback, near)
        self.project = found.root
        self.context = ProjectContext.load(found)  # .gm/config.json read once for the whole run
        note_project(self.project)
        if self.config.budget_note:
            self.log(self.config.budget_note)
        self.arrived(self.project)
        if not self.worth_asking(self.project):
            return ""  # nothing here: not an error
        early = self.before(self.project, body)
        if early is not None:
            return hook_output(clip(early), self.event) if early.strip() else ""
        data = self.ask(self.project, body)
        context = data.get("context") if isinstance(data, dict) else None
        if not isinstance(data, dict) or not isinstance(context, str):
            raise Skip(f"{self.verb} returned no 'context' string: {str(data)[:200]}")
        context = self.after(data, context)
        protocol.note_stage("printing the answer")
        return hook_output(clip(context), self.event) if context.strip() else ""

    def ask(self, project: Path, body: dict[str, Any]) -> Any:
        """:attr:`verb` through the warm server if one answers, else the component; its ``data``."""
        envelope = self.ask_warm(project, body) if self.config.warm else None
        if envelope is None:
            from host_harness.hooks import in_process

            self.watchdog_ends = False
            self.through("cold")
            config = self.config
            context = self.context if self.context is not None else ProjectContext.load(project)
            envelope = in_process.ask(context, self.verb, body, wasm=config.wasm, native=config.native,
                                      cache_dir=config.cache_dir, scan_max=config.scan_max,
                                      remaining=self.remaining, log=self.log)
        if not envelope.ok:
            raise Skip(f"{self.verb} failed: {envelope.error}")
        for warning in envelope.warnings:
            self.log(f"warning: {warning}")  # e.g. a discipline store that is not a database
        return envelope.data

    def ask_warm(self, project: Path, body: dict[str, Any]) -> Envelope | None:
        """The warm server's envelope (the head of its text when no JSON object); ``None``: no server.

        :class:`Done` when the server started the request and did not answer (the run is recorded).
        """
        if not os.path.lexists(project / ".gm" / WARM_SOCKET):
            return None  # no server: without loading the client (warm.ask checks what is there)
        from host_harness.hooks import warm

        self.through("warm")
        protocol.note_stage("waiting for the warm server")
        try:
            text = warm.ask(project, self.verb, body, self.deadline, self.config.timeout_s)
        except warm.ServerBusy as why:
            self.log(f"{why}; answering without it (cold)")
            return None
        except warm.NoServer:
            return None
        except TimeoutError as error:  # it started the request and did not answer in time
            self.unanswered(f"the warm server did not answer: {error}; nothing injected")
            raise Done from None
        except OSError as error:
            raise Skip(f"the warm server did not answer: {error}; nothing injected") from None
        except Exception as error:  # the component answers (the steps before are not repeated)
            self.log(f"the fast path failed: {type(error).__name__}: {error}; answering without it (cold)")
            return None
        return Envelope.parse(text)


class PromptSubmitHook(Hook):
    """``UserPromptSubmit``: the memories relevant to the prompt (``auto_recall``), recorded in the ledger."""

    def __init__(self, config: HookConfig) -> None:
        super().__init__(config)
        self.prompt = ""
        self.recording: PromptRun | None = None

    def request(self, raw: bytes) -> tuple[dict[str, Any], str | None]:
        """``{prompt, budget_tokens}``."""
        self.incoming, self.prompt, cwd = read_prompt_event(raw)
        return {"prompt": self.prompt, "budget_tokens": self.config.budget_tokens}, cwd

    def arrived(self, project: Path) -> None:
        """The run to record from here on, whatever ends it."""
        self.recording = PromptRun(project, self.incoming, self.prompt, started=self.started,
                                   log_prompts=self.config.log_prompts, cache_dir=self.config.cache_dir,
                                   note=self.config.budget_note,
                                   settings=self.context.settings if self.context is not None else None)
        protocol.on_timeout(self.recording.timed_out)

    def worth_asking(self, project: Path) -> bool:
        """A project without a memory store has nothing to recall (a ``.gm/`` ledger still gets the line)."""
        if has_memory(project, self.context.settings if self.context is not None else None):
            return True
        if self.recording is not None and (project / ".gm").is_dir():
            self.recording.off("no memory store in this project yet: nothing to recall", outcome="nothing")
        return False

    def before(self, project: Path, body: dict[str, Any]) -> str | None:
        """The off switches and the session's injected ids (:mod:`host_harness.hooks.prompt_run`).

        Also what becomes of memories of untrusted origin (``untrusted_recall`` of ``.gm/config.json``).
        """
        assert self.recording is not None
        try:
            body["untrusted"] = switches.untrusted_recall(self.context.settings if self.context else project)
        except ConfigError:
            body["untrusted"] = "hold"  # a bad setting holds them: the safe reading
        return self.recording.begin(body)

    def through(self, path: str) -> None:
        """The run's ``path`` in the ledger."""
        assert self.recording is not None
        self.recording.path = path

    def after(self, data: dict[str, Any], context: str) -> str:
        """The session's state and the ledger's line; the context."""
        assert self.recording is not None
        return self.recording.finish(data)

    def failed(self, reason: str) -> None:
        """Logged, and recorded in the ledger: the run's line, or what is known of it (a malformed event).

        A worker that fails after the budget ended its run is only logged: the run's line is the
        ``timeout`` one already written (the worker's late answer is never recorded either).
        """
        super().failed(reason)
        if self.timed_out:
            return
        if self.recording is not None:
            self.recording.fail(reason)
        elif self.project is not None:  # (none: the hook logs in the cache dir, and keeps no ledger)
            unread_run(reason, self.project, self.started, self.config.cache_dir, outcome="error")

    def unanswered(self, reason: str) -> None:
        """Logged, and recorded in the ledger as the budget's (``timeout``)."""
        super().unanswered(reason)
        assert self.recording is not None
        self.recording.timed_out(reason)

    def gave_up(self, reason: str) -> None:
        """Logged, and recorded in the ledger: the run's line, or what is known of it."""
        super().gave_up(reason)
        if self.recording is None and self.project is not None and self.prompt and has_memory(self.project):
            self.recording = PromptRun(self.project, self.incoming, self.prompt, started=self.started,
                                       log_prompts=self.config.log_prompts, cache_dir=self.config.cache_dir,
                                       note=self.config.budget_note)
        if self.recording is not None:
            self.recording.timed_out(reason)
        elif self.project is not None:
            unread_run(reason, self.project, self.started, self.config.cache_dir)


class SessionStartHook(Hook):
    """``SessionStart``: the managed and authored skills, so that the agent discovers them."""

    event = SESSION_EVENT
    verb = "session_start"

    def request(self, raw: bytes) -> tuple[dict[str, Any], str | None]:
        """``{budget_tokens}``; every ``source`` (startup, resume, clear, compact) is answered."""
        self.incoming, cwd = read_event(raw, SESSION_EVENT)
        return {"budget_tokens": self.config.budget_tokens}, cwd

    def arrived(self, project: Path) -> None:
        """After ``/clear`` or a compaction the session's injected memories are forgotten."""
        reset_session(project, self.incoming, self.config.cache_dir)

    def worth_asking(self, project: Path) -> bool:
        """A project without a skill folder has nothing to tell."""
        return has_skills(project)

    def after(self, data: dict[str, Any], context: str) -> str:
        """The context; logged why when no skill fits in the budget."""
        cut = protocol.skills_left_out(data, context, self.config.budget_tokens)
        if cut is not None:
            self.log(cut)
        return context


HOOKS: dict[str, type[Hook]] = {"prompt-submit": PromptSubmitHook, "session-start": SessionStartHook}
