"""Real ``rs-learn-host`` processes for the spool, hook and concurrency tests (no mocks)."""

from __future__ import annotations

import hashlib
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from conftest import ROOT, WASM

HOST = [sys.executable, "-m", "host_harness"]


HOOK_TIMEOUT = "30"  # a hook's budget in tests: no outcome may depend on the machine's speed (issue 25)


def host_env(project: Path, **extra: str) -> dict[str, str]:
    """The environment of a harness process on ``project`` with the built component.

    Hooks get a budget of :data:`HOOK_TIMEOUT` seconds, which a loaded CI machine cannot exceed by
    accident; a test about the budget passes its own ``RS_LEARN_HOOK_TIMEOUT``.
    """
    env = {**os.environ, "RS_LEARN_PROJECT": str(project), "RS_LEARN_WASM": str(WASM),
           "PYTHONPATH": str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""),
           "RS_LEARN_HOOK_TIMEOUT": HOOK_TIMEOUT}
    env.update(extra)
    return env


def host(*args: str, env: dict[str, str], input: bytes | None = None,
         timeout: float = 60) -> subprocess.CompletedProcess[bytes]:
    """Run ``rs-learn-host ARGS`` to completion."""
    return subprocess.run([*HOST, *args], env=env, input=input, capture_output=True, timeout=timeout,
                          cwd=env["RS_LEARN_PROJECT"] if Path(env["RS_LEARN_PROJECT"]).is_dir() else None)


def leftovers(project: Path) -> list[str]:
    """SQLite side files anywhere under ``project`` (a committed store must have none)."""
    return sorted(str(p.relative_to(project)) for p in project.rglob("*")
                  if p.name.endswith(("-wal", "-shm", "-journal")))


def fingerprint(path: Path) -> tuple[str, int]:
    """Content digest and mtime of ``path``."""
    return hashlib.sha256(path.read_bytes()).hexdigest(), path.stat().st_mtime_ns


def wait_for(predicate: Callable[[], bool], timeout: float, what: str) -> None:
    """Poll ``predicate`` until it holds; fail with ``what`` after ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout} s waiting for {what}")
        time.sleep(0.02)


def past_the_deadline(runtime: object, timeout_s: float) -> None:
    """Return once the epoch has moved past a deadline of ``timeout_s`` set before this call.

    A host import that calls it is a slow import however fast the machine is: the call it serves
    traps when it returns to wasm (the deadline covers time spent in imports).
    """
    from host_harness.targets.runtime import Runtime

    assert isinstance(runtime, Runtime)
    ticker, start = runtime.ticker, runtime.ticker.count
    wait_for(lambda: ticker.count > start + ticker.ticks(timeout_s), 600, "the epoch to pass the deadline")


def write_request(project: Path, verb: str, name: str, body: bytes) -> Path:
    """Write a request the way a careful client does: a dotfile, then a rename into place."""
    folder = project / ".gm" / "exec-spool" / "in" / verb
    folder.mkdir(parents=True, exist_ok=True)
    tmp = folder / f".{name}.part"
    tmp.write_bytes(body)
    os.replace(tmp, folder / name)
    return folder / name


@contextmanager
def write_lock_held(project: Path) -> Iterator[None]:
    """Another writer holding the project's write lock (SQLite or PostgreSQL) until the block ends."""
    from host_harness.services import HostServices

    services = HostServices(project)
    try:
        services.begin(write_lock=True)
        services.kv_get("default", "meta")  # the first touch takes the lock
        yield
    finally:
        services.rollback()
        services.close()


class Watcher:
    """A ``spool --watch`` process; its stderr is drained into :attr:`lines`."""

    def __init__(self, env: dict[str, str], *args: str) -> None:
        self.proc = subprocess.Popen([*HOST, "-v", "spool", "--watch", "--interval", "0.02", *args],
                                     env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        self.lines: list[str] = []
        self.ready = threading.Event()
        self._reader = threading.Thread(target=self._drain, daemon=True)
        self._reader.start()

    def _drain(self) -> None:
        assert self.proc.stderr is not None
        for raw in self.proc.stderr:
            line = raw.decode("utf-8", "replace").rstrip("\n")
            self.lines.append(line)
            if "spool: watching" in line:
                self.ready.set()
        self.ready.set()  # exited: wake the waiter

    def wait_ready(self, timeout: float = 60) -> None:
        """Wait until the watcher holds the lock and the component is loaded."""
        assert self.ready.wait(timeout), "the watcher did not start"
        log = "\n".join(self.lines)
        assert self.proc.poll() is None, f"the watcher exited: {self.proc.returncode}\n{log}"

    def stop(self, sig: int = signal.SIGTERM, timeout: float = 30) -> int:
        """Signal the watcher and wait for it; return its exit status."""
        if self.proc.poll() is None:
            self.proc.send_signal(sig)
        code = self.proc.wait(timeout)
        self._reader.join(5)
        return code

    def answered(self) -> list[str]:
        """The ``verb/name`` of every request this watcher logged as answered."""
        return answered_in(self.lines)


def answered_in(lines: list[str]) -> list[str]:
    """The ``verb/name`` of every request logged as answered in ``lines``."""
    return [line.split("answered ", 1)[1].split(" -> ")[0] for line in lines if ": answered " in line]


HOOK_FACTS = [
    "The staging server runs on port 8080 behind nginx.",
    "Use pnpm, not npm, to install packages in this repository.",
    "Database migrations live in db/migrations and run with alembic upgrade head.",
]


def remember(project: Path, runtime: object, facts: list[str] = HOOK_FACTS) -> Path:
    """Memorize ``facts`` in ``project`` through the component (the hook tests' store)."""
    from host_harness.services import HostServices
    from host_harness.targets.component import WasmGuest
    from host_harness.targets.runtime import Runtime

    assert isinstance(runtime, Runtime)
    services = HostServices(project)
    guest = WasmGuest(runtime, services)
    for fact in facts:
        guest.memorize(fact, "default")
    guest.close()
    services.close()
    return project


class HeldCompile:
    """A compile of ``wasm`` into ``cache`` in progress, as another process would hold it.

    Holds the artifact's compile lock (``host_harness/targets/runtime.py``): a process that needs the
    component waits, deterministically, however fast the machine. :meth:`finish` writes what that
    compile would have written -- ``runtime``'s compiled component, serialised, so nothing compiles
    again -- and releases the lock.
    """

    def __init__(self, cache: Path, runtime: object, wasm: Path = WASM) -> None:
        import fcntl

        from host_harness.targets.runtime import Runtime, cache_file_name, lock_path

        assert isinstance(runtime, Runtime)
        self.runtime = runtime
        self.cache = cache
        self.artifact = cache / cache_file_name(wasm.read_bytes())
        cache.mkdir(parents=True, exist_ok=True)
        self.fd = os.open(lock_path(self.artifact), os.O_RDWR | os.O_CREAT, 0o644)
        fcntl.flock(self.fd, fcntl.LOCK_EX)

    def finish(self) -> None:
        """Write the artifact and its digest, then release the lock."""
        body = bytes(self.runtime.component.serialize())
        self.artifact.write_bytes(body)
        self.artifact.with_name(self.artifact.name + ".sha256").write_text(
            hashlib.sha256(body).hexdigest() + "\n", encoding="ascii")
        self.release()

    def release(self) -> None:
        """Release the lock (idempotent)."""
        if self.fd >= 0:
            os.close(self.fd)
            self.fd = -1
