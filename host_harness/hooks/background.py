"""What a hook leaves to processes of its own: compiling the component, building vector indexes.

A hook has a hard time budget (``host_harness/hooks/protocol.py``), so it never compiles the
component nor builds a persisted vector index itself: it loads the component only from the
precompiled cache (:func:`cached_runtime`, a miss starts a detached ``rs-learn-host warmup``), and
a vector index it had to scan around is built by a detached ``rs-learn-host hook build-index``
(:func:`warm_vector_indexes`) for the next prompts. Each such process is started at most once per
:data:`~host_harness.hooks.protocol.WARMING_S` (:func:`~host_harness.hooks.protocol.start_once`, a
marker file); a hook the budget ends starts the compile too
(:func:`~host_harness.hooks.protocol.leave_warm`).
"""

from __future__ import annotations

import json
import sys
from dataclasses import replace
from pathlib import Path

from host_harness.fs import write_atomic
from host_harness.hooks.protocol import Skip, log_reason, start_once
from host_harness.services import HostServices
from host_harness.targets.runtime import (
    Runtime,
    artifact_is_intact,
    cache_file_name,
    default_cache_dir,
    make_engine,
)
from host_harness.vectors import HOOK_SCAN_MAX, IndexDir, IndexPolicy

STAMP_NAME = ".hook-verified.json"


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
    (``host_harness/vectors/search.py``). Either way :func:`warm_vector_indexes` rebuilds the index.
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
