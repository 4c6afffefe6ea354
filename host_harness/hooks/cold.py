"""Claude Code hooks: auto-recall at ``UserPromptSubmit``, skill discovery at ``SessionStart``.

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
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from host_harness.errors import GuestError
from host_harness.guests.base import BaseGuest
from host_harness.guests.runtime import (
    Runtime,
    artifact_is_intact,
    cache_file_name,
    default_cache_dir,
    make_engine,
)
from host_harness.hooks.protocol import (
    DEFAULT_BUDGET_TOKENS,
    DEFAULT_TIMEOUT_S,
    EXIT_MARGIN_S,
    HOOK_EVENT,
    LOG_NAME,
    MAX_CONTEXT_CHARS,
    MAX_INPUT_BYTES,
    SESSION_EVENT,
    Skip,
    clip,
    has_memory,
    has_skills,
    hook_output,
    log_reason,
    note_project,
    parse_event,
    parse_input,
    process_started,
)
from host_harness.project import find_project
from host_harness.services import HostServices
from host_harness.store.atomic import write_atomic
from host_harness.store.config import read_memory_config
from host_harness.store.vecindex import HOOK_SCAN_MAX, IndexDir, IndexPolicy

__all__ = [  # the protocol's pieces live in hooks.protocol (the fast path needs them without this)
    "DEFAULT_BUDGET_TOKENS", "DEFAULT_TIMEOUT_S", "EXIT_MARGIN_S", "HOOK_EVENT", "LOG_NAME",
    "MAX_CONTEXT_CHARS", "MAX_INPUT_BYTES", "SESSION_EVENT", "Hook", "HookConfig", "PromptSubmitHook",
    "SessionStartHook", "Skip",
    "clip", "find_project", "has_memory", "has_skills", "hook_output", "log_reason", "parse_event",
    "parse_input", "process_started",
]

STAMP_NAME = ".hook-verified.json"
WARMING_S = 300.0  # a background compile younger than this is not started again


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
    scan_max: int | None = HOOK_SCAN_MAX  # a stale vector index bigger than this: keywords alone


def cached_runtime(wasm: Path, cache_dir: Path | None) -> Runtime:
    """The component from the precompiled cache; on a miss start a background compile and :class:`Skip`."""
    from wasmtime import WasmtimeError
    from wasmtime.component import Component

    cache = cache_dir if cache_dir is not None else default_cache_dir()
    artifact = verified_artifact(wasm, cache)
    if artifact is not None:
        engine = make_engine()
        try:
            return Runtime(engine, Component.deserialize_file(engine, str(artifact)))
        except WasmtimeError as error:
            raise Skip(f"cannot load the precompiled component {artifact}: {error}") from None
    started = warm_cache(wasm, cache, cache_file_name(wasm.read_bytes()))
    raise Skip("the component is not precompiled yet; "
               + ("compiling it in the background" if started else "a background compile is running"))


def verified_artifact(wasm: Path, cache: Path) -> Path | None:
    """The intact precompiled artifact of ``wasm`` in ``cache``, or ``None``.

    Hashing the 35 MB component and the 50 MB artifact costs ~80 ms, a third of the
    hook's budget, so the hook remembers a verification in ``.hook-verified.json``,
    keyed by the component's (path, device, inode, size, mtime) and the artifact's
    (device, inode, size): artifacts are only ever replaced by a rename (new inode).
    The CLI and the spool still verify the full digests on every load.
    """
    try:
        st = wasm.stat()
        key = [str(wasm.resolve()), st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns]
        stamp = json.loads((cache / STAMP_NAME).read_text(encoding="utf-8"))
        artifact = cache / str(stamp["name"])
        at = artifact.stat()
        if stamp["wasm"] == key and stamp["artifact"] == [at.st_dev, at.st_ino, at.st_size]:
            return artifact
    except (OSError, ValueError, KeyError, TypeError):
        pass
    artifact = cache / cache_file_name(wasm.read_bytes())
    if not artifact_is_intact(artifact):
        return None
    try:
        st, at = wasm.stat(), artifact.stat()
        key = [str(wasm.resolve()), st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns]
        stamp = {"name": artifact.name, "wasm": key, "artifact": [at.st_dev, at.st_ino, at.st_size]}
        write_atomic(cache / STAMP_NAME, json.dumps(stamp).encode("utf-8"))
    except OSError:
        pass  # a read-only cache: verify every time
    return artifact


def warm_cache(wasm: Path, cache: Path, name: str) -> bool:
    """Start a detached ``rs-learn-host warmup`` that compiles the component into ``cache`` (once)."""
    cache.mkdir(parents=True, exist_ok=True)
    command = [sys.executable, "-m", "host_harness", "-p", str(cache), "--wasm", str(wasm), "warmup"]
    return start_once(cache / f".warming-{name}", command, cache)


def hook_index_policy(cache_dir: Path, scan_max: int | None = HOOK_SCAN_MAX) -> IndexPolicy:
    """The hooks' vector indexes: never built inside a hook, and a big stale one not scanned either.

    On a miss the hook scans SQLite when the namespace holds at most ``scan_max`` vectors (~0.2 s
    at the default); above, it answers from the keyword channel alone and says so in the hook log
    (``host_harness/store/vectors.py``). Either way :func:`warm_vector_indexes` rebuilds the index.
    """
    return replace(IndexPolicy.from_env(cache_dir), build_on_miss=False, scan_max=scan_max)


def warm_vector_indexes(services: HostServices, cache: Path) -> int:
    """Build in the background the vector indexes this call scanned instead (a build can outlast the budget).

    At 100k memories a build reads every vector and writes ~150 MB (1-2 s); the hook answers by
    scanning, as before the index existed, and the next prompt opens the index. Returns how many
    builds were started.
    """
    started = 0
    for db, ns, dim in services.index_misses():
        marker = IndexDir(services.index_policy, db, ns, dim).path.with_suffix(".building")
        command = [sys.executable, "-m", "host_harness", "-p", str(services.project.root), "hook",
                   "build-index", str(db), ns, str(dim)]
        try:
            marker.parent.mkdir(parents=True, exist_ok=True)
            started += start_once(marker, command, services.project.root, cache)
        except OSError as error:  # an unwritable cache: the hook keeps scanning
            log_reason(services.project.root, f"cannot start building the index of {db}: {error}", cache)
    return started


def start_once(marker: Path, command: list[str], cwd: Path, cache: Path | None = None) -> bool:
    """Start ``command`` detached unless ``marker`` says one started less than :data:`WARMING_S` ago."""
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


class Hook:
    """One run of a hook: read the input, ask the guest, return what to print (``""`` for nothing).

    Subclasses say which event they serve, how to read its input into a request body, and
    whether a project is worth loading the component for.
    """

    event = HOOK_EVENT
    verb = "auto_recall"

    def __init__(self, config: HookConfig) -> None:
        self.config = config
        started = config.started if config.started is not None else process_started()
        self.deadline = started + config.timeout_s - EXIT_MARGIN_S
        self.project: Path | None = None
        self.timed_out = False

    def request(self, raw: bytes) -> tuple[dict[str, Any], str | None]:
        """The verb's body and the event's ``cwd``; :class:`Skip` on a malformed input."""
        raise NotImplementedError

    def worth_asking(self, project: Path) -> bool:
        """Whether the project has anything for this event (else nothing is loaded)."""
        raise NotImplementedError

    def remaining(self) -> float:
        """Seconds left in the budget (at least a millisecond, so that timeouts stay positive)."""
        return max(self.deadline - time.monotonic(), 0.001)

    def run(self, read_input: Callable[[], bytes]) -> str:
        """Do the work in a worker thread bounded by the deadline; never raises."""
        if time.monotonic() >= self.deadline:
            self.timed_out = True
            self.project = self.locate(read_input)
            budget = self.config.timeout_s
            self.log(f"the {budget:g} s time budget was spent during start-up; nothing injected")
            return ""
        result: list[str] = []
        worker = threading.Thread(target=lambda: result.append(self.guarded(read_input)), daemon=True,
                                  name="rs-learn-hook")
        worker.start()
        worker.join(self.remaining())
        if worker.is_alive():
            self.timed_out = True
            self.log(f"gave up after the {self.config.timeout_s:g} s time budget; nothing injected")
            return ""
        return result[0] if result else ""

    def guarded(self, read_input: Callable[[], bytes]) -> str:
        """:meth:`work`, with every failure logged and turned into ``""``."""
        try:
            return self.work(read_input)
        except Skip as skip:
            self.log(str(skip))
        except Exception as error:  # the event must go through whatever happened here
            self.log(f"unexpected {type(error).__name__}: {error}")
        return ""

    def locate(self, read_input: Callable[[], bytes]) -> Path | None:
        """The project to log in, from the input's ``cwd`` or the fallback; ``None`` when there is none."""
        try:
            cwd = parse_input(read_input())[1]
        except Skip:
            cwd = None
        start = Path(cwd) if cwd is not None else self.config.fallback_project
        return find_project(start) if start.is_dir() else None

    def log(self, reason: str) -> None:
        """One line in the hook log."""
        log_reason(self.project, reason, self.config.cache_dir)

    def work(self, read_input: Callable[[], bytes]) -> str:
        """Parse, locate the project, ask the guest; the output to print."""
        fallback = self.config.fallback_project
        self.project = find_project(fallback) if fallback.is_dir() else None  # where to log a bad input
        body, cwd = self.request(read_input())
        start = Path(cwd) if cwd is not None else fallback
        self.project = None
        if not start.is_dir():
            raise Skip(f"project directory {str(start)!r} does not exist")
        self.project = find_project(start)
        note_project(self.project)
        if not self.worth_asking(self.project):
            return ""  # nothing here: not an error
        data = self.ask(self.project, body)
        context = data.get("context") if isinstance(data, dict) else None
        if not isinstance(context, str):
            raise Skip(f"{self.verb} returned no 'context' string: {str(data)[:200]}")
        return hook_output(clip(context), self.event) if context.strip() else ""

    def ask(self, project: Path, body: dict[str, Any]) -> Any:
        """:attr:`verb` through a guest built within the remaining budget; its ``data``.

        A missing or stale persisted vector index is not built inside the budget: the call scans
        the store, and a background process builds the index for the next prompts.
        """
        cache = self.config.cache_dir if self.config.cache_dir is not None else default_cache_dir()
        policy = hook_index_policy(cache, self.config.scan_max)
        services = HostServices(project, busy_timeout_ms=int(self.remaining() * 1000), index_policy=policy)
        for warning in read_memory_config(project)[1]:  # a bad RS_LEARN_MEMORY_* variable: said, not fatal
            self.log(f"warning: {warning}")
        runtime: Runtime | None = None
        guest: BaseGuest
        try:
            if self.config.native:
                from host_harness.guests.native import NativeGuest  # loads the model: development only

                guest = NativeGuest(services)
            else:
                from host_harness.guests.component import WasmGuest

                if not self.config.wasm.is_file():
                    raise Skip(f"component not found: {self.config.wasm} (run `make wasm`; RS_LEARN_WASM)")
                runtime = cached_runtime(self.config.wasm, self.config.cache_dir)
                guest = WasmGuest(runtime, services, timeout_s=self.remaining())
            try:
                envelope = json.loads(guest.dispatch(self.verb, json.dumps(body, ensure_ascii=False)))
            except GuestError as error:
                raise Skip(f"{self.verb} failed: {error.message}") from None
            finally:
                guest.close()
                if policy.cache_dir is not None:
                    warm_vector_indexes(services, policy.cache_dir)
        finally:
            services.close()
            if runtime is not None:
                runtime.close()
        if not isinstance(envelope, dict) or envelope.get("ok") is not True:
            reason = envelope.get("error") if isinstance(envelope, dict) else envelope
            raise Skip(f"{self.verb} failed: {reason}")
        for warning in envelope.get("warnings") or []:
            self.log(f"warning: {warning}")  # e.g. a discipline store that is not a database
        return envelope.get("data")


class PromptSubmitHook(Hook):
    """``UserPromptSubmit``: the memories relevant to the prompt (``auto_recall``)."""

    def request(self, raw: bytes) -> tuple[dict[str, Any], str | None]:
        """``{prompt, budget_tokens}``."""
        prompt, cwd = parse_input(raw)
        return {"prompt": prompt, "budget_tokens": self.config.budget_tokens}, cwd

    def worth_asking(self, project: Path) -> bool:
        """A project without a memory store has nothing to recall."""
        return has_memory(project)


class SessionStartHook(Hook):
    """``SessionStart``: the managed and authored skills, so that the agent discovers them."""

    event = SESSION_EVENT
    verb = "session_start"

    def request(self, raw: bytes) -> tuple[dict[str, Any], str | None]:
        """``{budget_tokens}``; every ``source`` (startup, resume, clear, compact) is answered."""
        _, cwd = parse_event(raw, SESSION_EVENT)
        return {"budget_tokens": self.config.budget_tokens}, cwd

    def worth_asking(self, project: Path) -> bool:
        """A project without a skill folder has nothing to tell."""
        return has_skills(project)
