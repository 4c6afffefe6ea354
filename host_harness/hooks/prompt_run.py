"""One prompt-submit run's host side, whatever transport answers it: switches, session, ledger.

The guest decides what to inject (``auto_recall``); the host, around that call:

1. turns the run off when the environment, ``.gm/config.json`` or the session says so
   (:mod:`host_harness.hooks.switches`), or when the prompt holds a marker that turns the session
   off -- then answers at once, without the component;
2. sends the ids already injected in this session, and the conventions its start listed, as
   ``exclude`` (:mod:`host_harness.hooks.sessions`)
   and ``log_prompt`` when the hook runs with ``--log-prompts``;
3. notes what was injected in the session's state, and appends the run's line to the ledger
   (:mod:`host_harness.hooks.prompt_ledger`) -- also for a run turned off, one that failed, or one the
   time budget ended (:meth:`PromptRun.timed_out`, called by the watchdog of
   :mod:`host_harness.hooks.protocol` too); a run that ends before its event is read (the budget, a
   malformed event, a rejected command line) gets a line of what is known (:func:`unread_run`).

A run's ``path`` says what answered it: ``warm`` (a server), ``cold`` (this process loaded the
component), ``direct`` (neither: a switch, or a run that ended before either).

Standard library only (with the confinement helpers): the fast path imports it.
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from host_harness.config import ConfigError, Settings
from host_harness.hooks import prompt_ledger, protocol, sessions, switches
from host_harness.hooks.protocol import Skip, log_reason

LOG_PROMPTS_ENV = "RS_LEARN_LOG_PROMPTS"


class PromptRun:
    """The host side of one prompt-submit run in ``project`` (see the module docstring)."""

    def __init__(self, project: Path, event: dict[str, Any], prompt: str, *, path: str = "direct",
                 started: float, log_prompts: bool = False, cache_dir: Path | None = None,
                 note: str | None = None, settings: Settings | None = None) -> None:
        self.project, self.prompt, self.path, self.started = project, prompt, path, started
        self.settings = settings  # the project's .gm/config.json read already (None: read when asked)
        self.note = note  # said on the run's line (a --budget moved into the guest's range)
        self.log_prompts, self.cache_dir = log_prompts, cache_dir
        self.session = sessions.session_id(event)
        self.state: sessions.SessionState | None = None
        self.prefix = ""  # a line said before the recalled context (the session turned back on)
        self.recorded = False

    def begin(self, body: dict[str, Any]) -> str | None:
        """The context to answer at once (``""``: nothing) when the run is off; else ``None``.

        Then ``body`` is completed for the guest: the prompt without a marker, ``exclude``, ``log_prompt``.
        """
        protocol.note_stage("reading the on/off switches and the session")
        turn, rest = switches.marker(self.prompt)
        try:
            on, decided, warnings = switches.project_switch(self.settings or self.project)
        except ConfigError as error:
            raise Skip(str(error)) from None
        for warning in warnings:
            log_reason(self.project, f"warning: {warning}", self.cache_dir)
        if self.session is not None:
            self.state = sessions.load(self.project, self.session)
        if turn is not None:
            return self._turn(turn, rest, body, on, decided)
        if not on:
            return self.off(f"auto-recall is off ({_where(decided)})")
        if self.state is not None and self.state.off:
            return self.off("auto-recall is off for this session (#rs-learn off)")
        self._complete(body, self.prompt)
        return None

    def _turn(self, turn: str, rest: str, body: dict[str, Any], on: bool, decided: str) -> str | None:
        """A prompt that turns the session off or on."""
        if self.state is None:
            return self.off(f"#rs-learn {turn}, but the event has no session id", switches.NO_SESSION_TEXT)
        off = turn == "off"
        self._save(lambda state: setattr(state, "off", off))
        if turn == "off":
            return self.off("auto-recall turned off for this session (#rs-learn off)", switches.OFF_TEXT)
        if not on:
            text = f"rs-learn: auto-recall is still off ({_where(decided)})."
            return self.off(f"#rs-learn on, but auto-recall is off ({_where(decided)})", text)
        self.prefix = switches.ON_TEXT
        if not rest.strip():
            return self.off("auto-recall turned back on for this session (#rs-learn on)", switches.ON_TEXT,
                            outcome="on")
        self._complete(body, rest)
        return None

    def _complete(self, body: dict[str, Any], prompt: str) -> None:
        body["prompt"] = prompt
        if self.state is not None and (excluded := self.state.excluded()):
            body["exclude"] = excluded
        if self.log_prompts:
            body["log_prompt"] = True

    def finish(self, data: dict[str, Any]) -> str:
        """The context to inject for the guest's answer ``data``; the session noted, the line appended."""
        if self.recorded:  # the budget ended the run meanwhile: nothing is printed, nothing noted
            return ""
        protocol.note_stage("recording the run")
        context = data.get("context")
        context = context if isinstance(context, str) else ""
        candidates = [c for c in data.get("candidates") or [] if isinstance(c, dict)]
        injected = [str(c.get("id")) for c in candidates if c.get("decision") in ("injected", "stale")]
        if injected and self.state is not None:
            self._save(lambda state: state.add(injected))
        entry: dict[str, Any] = {
            "outcome": "injected" if context.strip() else "nothing",
            "query": data.get("query"), "recalled_with": data.get("recalled_with"),
            "candidates": candidates, "injected": injected, "tokens": data.get("tokens", 0),
        }
        evidence = data.get("evidence")
        if isinstance(evidence, dict):
            entry["evidence"] = evidence
        if not context.strip():
            entry["reason"] = prompt_ledger.nothing_reason(candidates, evidence)
        if self.log_prompts and isinstance(data.get("prompt"), str):
            entry["text"] = data["prompt"]
        self._append(entry)
        if self.prefix:
            return f"{self.prefix}\n\n{context}" if context.strip() else self.prefix
        return context

    def off(self, reason: str, context: str = "", outcome: str = "off") -> str:
        """Record a run that does not ask the guest; ``context`` is what it answers."""
        self._append({"outcome": outcome, "reason": reason, "tokens": 0})
        return context

    def fail(self, reason: str) -> None:
        """Record a run that injected nothing because something went wrong (logged in the hook log too)."""
        self._append({"outcome": "error", "reason": reason, "tokens": 0})

    def timed_out(self, reason: str) -> None:
        """Record a run the time budget ended: why, and how far it got (``stage``)."""
        self._append({"outcome": "timeout", "reason": reason, "stage": protocol.stage(), "tokens": 0})

    def _save(self, change: Callable[[sessions.SessionState], None]) -> None:
        """Apply ``change`` to this run's state and to the stored one (what others wrote since stays)."""
        assert self.state is not None
        change(self.state)
        try:
            sessions.update(self.project, self.state.session, change)
        except OSError as error:
            log_reason(self.project, f"cannot keep this session's state: {error}", self.cache_dir)

    def _append(self, entry: dict[str, Any]) -> None:
        """The run's one line (a second one -- the worker finishing after the deadline -- is dropped)."""
        if self.recorded:
            return
        self.recorded = True
        head = {"ts": prompt_ledger.stamp(), "session": self.session, "event": "prompt", "path": self.path,
                "prompt": prompt_ledger.digest(self.prompt)}
        if self.note:
            head["note"] = self.note
        _write(self.project, {**head, **entry}, self.started, self.cache_dir)


def unread_run(reason: str, project: Path | None = None, started: float | None = None,
               cache_dir: Path | None = None, *, outcome: str = "timeout") -> None:
    """The ledger line of a prompt run that ended before its event was read: no session, no prompt.

    ``outcome``: ``timeout`` (with the ``stage`` reached; the watchdog's callback) or ``error``. In
    ``project`` (default: the one noted for the watchdog), when it is one (it has ``.gm/``).
    """
    project = project if project is not None else protocol.noted_project()
    if project is None or not (project / ".gm").is_dir():
        return
    session, prompt = _event_of(protocol.event_by_now(protocol.EXIT_MARGIN_S / 2) if outcome == "timeout"
                                else None)
    entry = {"ts": prompt_ledger.stamp(), "session": session, "event": "prompt", "path": "direct",
             "prompt": prompt_ledger.digest(prompt) if prompt is not None else None, "outcome": outcome,
             "reason": reason, "tokens": 0}
    if outcome == "timeout":
        entry["stage"] = protocol.stage()
    _write(project, entry, started if started is not None else protocol.process_started(), cache_dir)


def _event_of(raw: bytes | None) -> tuple[str | None, str | None]:
    """The session id and prompt of an event's bytes, as far as they are there (``None`` each: not)."""
    try:
        event = json.loads(raw) if raw else None
    except ValueError:
        event = None
    if not isinstance(event, dict):
        return None, None
    session, prompt = event.get("session_id"), event.get("prompt")
    return (session if isinstance(session, str) and 0 < len(session) <= 256 else None,
            prompt if isinstance(prompt, str) else None)


def _write(project: Path, entry: dict[str, Any], started: float, cache_dir: Path | None) -> None:
    entry["ms"] = round((time.monotonic() - started) * 1000, 1)
    if not protocol.claim_line():
        return  # a hook process writes one line: the run's or the watchdog's, whichever comes first
    try:
        prompt_ledger.append(project, entry)
    except OSError as error:
        log_reason(project, f"cannot append to the ledger: {error}", cache_dir)


def log_prompts(flag: bool, environ: Mapping[str, str] | None = None) -> bool:
    """Whether to log prompts: the ``--log-prompts`` flag, or a true ``$RS_LEARN_LOG_PROMPTS``."""
    value = (environ if environ is not None else os.environ).get(LOG_PROMPTS_ENV, "")
    return flag or value.strip().lower() in ("1", "true", "t", "yes", "y", "on")


def reset_session(project: Path, event: dict[str, Any], cache_dir: Path | None = None) -> None:
    """At ``SessionStart`` after ``/clear`` or a compaction: forget what the session was injected."""
    session = sessions.session_id(event)
    source = event.get("source")
    if session is None or source not in sessions.RESET_SOURCES or not (project / ".gm").is_dir():
        return
    try:
        forgotten = sessions.reset(project, session)
        if forgotten:
            prompt_ledger.append(project, {"ts": prompt_ledger.stamp(), "session": session,
                                           "event": "session-start", "source": source, "outcome": "reset",
                                           "forgotten": forgotten})
    except OSError as error:
        log_reason(project, f"cannot reset this session's state: {error}", cache_dir)


def _where(decided: str) -> str:
    return {"environment": f"${switches.ENV}", "config": ".gm/config.json auto_recall"}.get(decided, decided)
