"""Compiling and caching the component, and the deadline clock of its engine.

Compiling ``rs_learn.wasm`` with Cranelift takes seconds; deserialising a
precompiled artifact takes milliseconds. :func:`load_component` keeps the
artifact in a cache directory (``$RS_LEARN_CACHE_DIR``, default
``~/.cache/rs-learn``) under a name made of the sha256 of the ``.wasm`` bytes, the
wasmtime version and the engine flavour (artifacts only load into an engine of
the same version and configuration). The artifact is written atomically (temp
file, fsync, rename), then its sha256 beside it (``<name>.sha256``). Loading
checks that digest before wasmtime maps the file: wasmtime trusts what it
deserialises, so a corrupt, truncated or orphaned artifact is detected first,
logged and replaced by a fresh compile. At most :data:`CACHE_KEEP` artifacts are
kept (least recently used go first).

One compile per artifact at a time: a process about to compile holds ``<artifact>.lock``
(``flock``); another one (the MCP server's background compile, ``rs-learn-host warmup``, a hook's
background compile) waits for it, up to :data:`LOCK_WAIT_S`, then loads what the first one wrote
instead of compiling the same bytes again on the same cores. Each compile records how long it took
(``compile-seconds.json`` in the cache directory), keyed by the artifact's name -- the component's
digest and the wasmtime version -- and the machine (host name, CPU count, architecture): the cache
may be shared (a home folder on several machines) and another component's compile says nothing about
this one's. :func:`expected_compile_s` is that measurement, or ``None`` when this component was never
compiled on this machine: progress reports then show the time so far and promise nothing.

Deadline: the engine uses *epoch interruption* rather than fuel. Fuel slows the
pure-Python interpreter inside the component and would need a per-verb budget;
an epoch deadline is a wall-clock bound that also covers time spent in host
imports. One daemon thread per :class:`Runtime` advances the epoch every
:data:`TICK_S` seconds; each call sets its deadline in ticks from "now", so many
stores can share one engine (and one compiled component) safely.
"""

from __future__ import annotations

import contextlib
import hashlib
import importlib.metadata
import json
import logging
import os
import platform
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

from wasmtime import Config, Engine, WasmtimeError
from wasmtime.component import Component

from host_harness.cachedir import CACHE_ENV, default_cache_dir, flock_within

ENGINE_FLAVOUR = "epoch"  # part of the cache key: artifacts depend on the engine configuration
CACHE_KEEP = 4  # artifacts kept per cache directory (newest first); each is ~50 MB
TICK_S = 0.05
LOCK_WAIT_S = 600.0  # how long a compile waits for another process compiling the same artifact
COMPILE_SECONDS = "compile-seconds.json"  # {"<artifact>@<machine>": seconds}, in the cache directory
COMPILE_SECONDS_KEEP = 16  # measurements kept (the newest)
WASMTIME_VERSION = importlib.metadata.version("wasmtime")

__all__ = ["CACHE_ENV", "Runtime", "default_cache_dir", "load_component", "make_engine"]

log = logging.getLogger("rs_learn.host")
Progress = Callable[[float, float | None], None]  # (seconds so far, seconds this compile took here before)
PROGRESS_EVERY_S = 0.25


def make_engine() -> Engine:
    """Make an engine configured for the harness (epoch interruption on)."""
    config = Config()
    config.epoch_interruption = True
    return Engine(config)


def cache_file_name(wasm: bytes) -> str:
    """Name the artifact: sha256 of the component, wasmtime version, engine flavour."""
    digest = hashlib.sha256(wasm).hexdigest()
    return f"rs_learn-{digest}-wasmtime-{WASMTIME_VERSION}-{ENGINE_FLAVOUR}.cwasm"


def _digest_path(artifact: Path) -> Path:
    return artifact.with_name(artifact.name + ".sha256")


def artifact_is_intact(path: Path) -> bool:
    """Whether the artifact at ``path`` exists and matches its recorded sha256."""
    try:
        expected = _digest_path(path).read_text(encoding="ascii").strip()
        with open(path, "rb") as artifact:
            actual = hashlib.file_digest(artifact, "sha256").hexdigest()
    except (FileNotFoundError, UnicodeDecodeError):
        return False
    return actual == expected


def _write_atomic(path: Path, data: bytes) -> None:
    tmp = path.with_name(f".{path.name}.tmp.{os.getpid()}")
    try:
        with open(tmp, "wb") as out:
            out.write(data)
            out.flush()
            os.fsync(out.fileno())
        os.replace(tmp, path)
    finally:
        tmp.unlink(missing_ok=True)


def _write_artifact(path: Path, body: bytes) -> None:
    """Write the artifact, then its digest, each atomically; a cache that cannot be written is logged."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        _write_atomic(path, body)
        _write_atomic(_digest_path(path), hashlib.sha256(body).hexdigest().encode("ascii") + b"\n")
    except OSError as error:
        log.warning("cannot write precompiled component %s: %s", path, error)
        return
    prune(path.parent, keep=CACHE_KEEP)


def prune(cache_dir: Path, keep: int) -> list[Path]:
    """Delete all but the ``keep`` newest artifacts of ``cache_dir``; return what was deleted."""
    artifacts = sorted(cache_dir.glob("rs_learn-*.cwasm"), key=_mtime, reverse=True)
    for stale in artifacts[keep:]:
        stale.unlink(missing_ok=True)
        _digest_path(stale).unlink(missing_ok=True)
        lock_path(stale).unlink(missing_ok=True)
    return artifacts[keep:]


def _mtime(path: Path) -> int:
    try:
        return path.stat().st_mtime_ns
    except FileNotFoundError:  # pruned by another process meanwhile
        return 0


def load_component(engine: Engine, wasm_path: Path | str, cache_dir: Path | str | None = None,
                   progress: Progress | None = None) -> Component:
    """Return the compiled component of ``wasm_path``, from the precompiled cache when possible.

    ``progress(elapsed_s, expected_s)`` is called from a daemon thread every quarter second while this
    process compiles, or waits for another one that compiles (never when the cache has the artifact).
    """
    wasm = Path(wasm_path).read_bytes()
    path = Path(cache_dir) if cache_dir is not None else default_cache_dir()
    path = path / cache_file_name(wasm)
    if artifact_is_intact(path) and (component := _deserialize(engine, path)) is not None:
        return component
    with _reporting(progress, expected_compile_s(wasm, path.parent)):
        return _compile_into(engine, wasm, wasm_path, path)


@contextlib.contextmanager
def _reporting(progress: Progress | None, expected_s: float | None) -> Iterator[None]:
    """Call ``progress`` on a daemon thread until the block ends."""
    if progress is None:
        yield
        return
    done = threading.Event()
    started = time.monotonic()

    def report() -> None:
        while not done.wait(PROGRESS_EVERY_S):
            progress(time.monotonic() - started, expected_s)

    progress(0.0, expected_s)
    reporter = threading.Thread(target=report, name="rs-learn-compile-progress", daemon=True)
    reporter.start()
    try:
        yield
    finally:
        done.set()
        reporter.join()


def _compile_into(engine: Engine, wasm: bytes, wasm_path: Path | str, path: Path) -> Component:
    """Compile ``wasm`` into the artifact ``path`` under its lock (or load what another process wrote)."""
    with compile_lock(path):  # an artifact being written reads as damaged until its writer lets go
        if artifact_is_intact(path):
            if (component := _deserialize(engine, path)) is not None:
                return component  # another process compiled it while this one waited
        elif path.exists():
            log.warning("precompiled component %s is corrupt; recompiling", path)
        log.debug("compiling %s", wasm_path)
        started = time.monotonic()
        component = Component(engine, wasm)
        _write_artifact(path, bytes(component.serialize()))
        record_compile_s(path.parent, path.name, time.monotonic() - started)
    return component


def _deserialize(engine: Engine, path: Path) -> Component | None:
    try:
        component = Component.deserialize_file(engine, str(path))  # mmap: no copy
    except WasmtimeError as error:  # e.g. another engine configuration
        log.warning("cannot load precompiled component %s (%s); recompiling", path, error)
        return None
    log.debug("loaded precompiled component %s", path)
    with contextlib.suppress(OSError):
        os.utime(path)  # most recently used: the last to be pruned
    return component


def lock_path(artifact: Path) -> Path:
    """The lock file a process holds while it compiles ``artifact``."""
    return artifact.with_name(artifact.name + ".lock")


@contextlib.contextmanager
def compile_lock(artifact: Path, wait_s: float = LOCK_WAIT_S) -> Iterator[bool]:
    """Hold ``artifact``'s lock while compiling it; whether it is held.

    Waits up to ``wait_s`` for another process's compile. A cache that cannot be written, or a wait
    that runs out (a stopped process holding the lock), gives ``False``: compile anyway.
    """
    try:
        artifact.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(lock_path(artifact), os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW, 0o644)
    except OSError as error:
        log.warning("cannot lock %s (%s): compiling without the lock", lock_path(artifact), error)
        yield False
        return
    try:
        locked = flock_within(fd, wait_s, 0.1)
        if not locked:
            log.warning("another process has compiled %s for %.0f s: compiling too", artifact, wait_s)
        yield locked
    finally:
        os.close(fd)  # releases the lock


def machine() -> str:
    """The machine compile times are keyed by: host name, CPU count, architecture."""
    return f"{platform.node()}/{os.cpu_count()}cpu/{platform.machine()}"


def _compile_times(cache_dir: Path) -> dict[str, float]:
    try:
        times = json.loads((cache_dir / COMPILE_SECONDS).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    if not isinstance(times, dict):
        return {}
    return {k: float(v) for k, v in times.items() if isinstance(v, (int, float)) and not isinstance(v, bool)}


def record_compile_s(cache_dir: Path, artifact: str, seconds: float, where: str | None = None) -> None:
    """Record that compiling ``artifact`` (its cache file name) took ``seconds`` on ``where`` (here)."""
    times = _compile_times(cache_dir)
    key = f"{artifact}@{where or machine()}"
    times.pop(key, None)
    times[key] = round(seconds, 1)  # the newest last
    kept = dict(list(times.items())[-COMPILE_SECONDS_KEEP:])
    with contextlib.suppress(OSError):
        _write_atomic(cache_dir / COMPILE_SECONDS, json.dumps(kept, indent=0).encode("utf-8"))
        (cache_dir / "compile-seconds").unlink(missing_ok=True)  # 0.1.0's unkeyed figure: misleading


def expected_compile_s(wasm: bytes, cache_dir: Path | str | None = None) -> float | None:
    """How long compiling the component ``wasm`` took on this machine, or ``None`` if it never did here."""
    path = Path(cache_dir) if cache_dir is not None else default_cache_dir()
    return _compile_times(path).get(f"{cache_file_name(wasm)}@{machine()}")


class Ticker:
    """A daemon thread that advances an engine's epoch every ``tick_s`` seconds."""

    def __init__(self, engine: Engine, tick_s: float = TICK_S) -> None:
        self.engine = engine
        self.tick_s = tick_s
        self.count = 0  # ticks so far: how far the epoch has moved (tests wait on it instead of sleeping)
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._lock = threading.Lock()

    def start(self) -> None:
        """Start ticking (idempotent)."""
        with self._lock:
            if self._thread is None:
                self._stop.clear()
                self._thread = threading.Thread(target=self._run, name="rs-learn-epoch", daemon=True)
                self._thread.start()

    def stop(self) -> None:
        """Stop ticking."""
        with self._lock:
            thread, self._thread = self._thread, None
        if thread is not None:
            self._stop.set()
            thread.join()

    def ticks(self, seconds: float) -> int:
        """Return a deadline of at least ``seconds``, in ticks."""
        return max(1, int(seconds / self.tick_s + 0.999999) + 1)

    def _run(self) -> None:
        while not self._stop.wait(self.tick_s):
            self.engine.increment_epoch()
            self.count += 1


class Runtime:
    """An engine, the compiled component and the engine's deadline clock; share it between guests."""

    def __init__(self, engine: Engine, component: Component) -> None:
        self.engine = engine
        self.component = component
        self.ticker = Ticker(engine)

    @classmethod
    def load(cls, wasm_path: Path | str, cache_dir: Path | str | None = None,
             progress: Progress | None = None) -> Runtime:
        """Compile (or load from the cache) ``wasm_path`` in a fresh engine (see :func:`load_component`)."""
        engine = make_engine()
        return cls(engine, load_component(engine, wasm_path, cache_dir, progress))

    def close(self) -> None:
        """Stop the deadline clock."""
        self.ticker.stop()
