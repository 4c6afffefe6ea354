"""Compile the component before anyone waits for it (issue 26).

Wasmtime compiles ``rs_learn.wasm`` with Cranelift once per component and wasmtime version (tens of
seconds on a loaded 2-core machine); every later process loads the precompiled artifact from the
cache in milliseconds (:mod:`host_harness.targets.runtime`). Two ways to pay that once, early:

* :func:`warmup` compiles into the cache now and returns when the artifact is there (instant when it
  already is), calling ``progress(elapsed_s, expected_s)`` while it waits. ``rs-learn-host warmup``
  and ``rs-learn-host setup`` run it;
* :class:`Compiling` loads the component on a daemon thread while the caller gets on with something
  else -- the MCP server answers ``initialize`` and ``tools/list`` meanwhile -- and
  :meth:`Compiling.wait` lets an event loop wait for it with a progress report every second.

Both go through :func:`~host_harness.targets.runtime.load_component`, so a warmup, a server and a
hook compiling the same component take turns on its lock instead of compiling it three times.
"""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Awaitable, Callable
from concurrent.futures import Future
from dataclasses import dataclass
from pathlib import Path

from host_harness.targets.runtime import (
    Runtime,
    artifact_is_intact,
    cache_file_name,
    default_cache_dir,
    expected_compile_s,
)

Progress = Callable[[float, float | None], None]  # (seconds so far, seconds this compile took here before)
AsyncProgress = Callable[[float, float | None], Awaitable[None]]


@dataclass(frozen=True)
class Warmed:
    """What :func:`warmup` did: the artifact, whether it was already there, how long it took."""

    artifact: Path
    was_cached: bool
    seconds: float


def warmup(wasm: Path | None = None, cache_dir: Path | None = None, progress: Progress | None = None,
           every_s: float = 0.1) -> Warmed:
    """Precompile ``wasm`` (the installed component by default) into the cache; idempotent.

    Raises what compiling raises (``FileNotFoundError`` for a missing component, ``WasmtimeError``
    for an invalid one).
    """
    if wasm is None:
        from host_harness.targets import DEFAULT_WASM

        wasm = DEFAULT_WASM
    cache = cache_dir if cache_dir is not None else default_cache_dir()
    artifact = cache / cache_file_name(wasm.read_bytes())
    started = time.monotonic()
    if artifact_is_intact(artifact):
        return Warmed(artifact, True, time.monotonic() - started)
    job = Compiling(wasm, cache)
    while not job.join(every_s):
        if progress is not None:
            progress(time.monotonic() - started, job.expected_s)
    job.runtime().close()
    return Warmed(artifact, False, time.monotonic() - started)


class Compiling:
    """The component loading on a daemon thread (compiled first when the cache has no artifact).

    The thread is a daemon: a process that exits while it compiles does not wait for it.
    """

    def __init__(self, wasm: Path, cache_dir: Path | None = None) -> None:
        self.started = time.monotonic()
        try:
            self.expected_s = expected_compile_s(wasm.read_bytes(), cache_dir)
        except OSError:  # a missing component: loading raises it, for whoever waits
            self.expected_s = None
        self.future: Future[Runtime] = Future()
        loader = threading.Thread(target=self._load, args=(wasm, cache_dir), daemon=True)
        loader.name = "rs-learn-compile"
        loader.start()

    def _load(self, wasm: Path, cache_dir: Path | None) -> None:
        try:
            self.future.set_result(Runtime.load(wasm, cache_dir))
        except Exception as error:  # handed to whoever waits: runtime() raises it
            self.future.set_exception(error)

    @property
    def done(self) -> bool:
        """Whether loading has finished (successfully or not)."""
        return self.future.done()

    def join(self, timeout_s: float) -> bool:
        """Wait up to ``timeout_s`` for loading to finish; whether it has."""
        try:
            self.future.exception(timeout=timeout_s)
        except TimeoutError:
            return False
        return True

    def runtime(self) -> Runtime:
        """The loaded component (waits for it); raises what loading raised."""
        return self.future.result()

    async def wait(self, report: AsyncProgress | None = None, every_s: float = 1.0) -> None:
        """Wait without blocking the event loop, awaiting ``report`` every ``every_s`` seconds meanwhile.

        Returns once loading has finished, successfully or not (:meth:`runtime` then says which).
        """
        waiting = asyncio.wrap_future(self.future)
        while True:
            done, _ = await asyncio.wait({waiting}, timeout=every_s)
            if done:
                waiting.exception()  # retrieved here; runtime() raises it for the caller
                return
            if report is not None:
                await report(time.monotonic() - self.started, self.expected_s)
