"""The component under wasmtime: its imports, the precompiled cache, limits and traps."""

from __future__ import annotations

import hashlib
import json
import logging
import os
from pathlib import Path

import pytest
from helpers.files import digest_if_any as digest
from hostprocs import past_the_deadline
from wasmtime import Store, WasmtimeError
from wasmtime.component import Linker

from host_harness.errors import GuestError, GuestTrap
from host_harness.services import HostServices, ManualClock
from host_harness.targets import codec
from host_harness.targets.component import IMPORTS, HostImports, WasmGuest
from host_harness.targets.runtime import (
    ENGINE_FLAVOUR,
    WASMTIME_VERSION,
    Runtime,
    artifact_is_intact,
    cache_file_name,
    default_cache_dir,
    load_component,
    lock_path,
    make_engine,
    prune,
)


def custom_section(name: bytes, payload: bytes) -> bytes:
    """A custom section (id 0): valid anywhere in a component, ignored by the runtime."""
    body = bytes([len(name)]) + name + payload
    assert len(body) < 128
    return b"\x00" + bytes([len(body)]) + body


def test_the_component_imports_exactly_the_six_host_functions(wasm_runtime: Runtime):
    imports = wasm_runtime.component.type.imports(wasm_runtime.engine)
    assert sorted(imports) == sorted(IMPORTS)
    exports = wasm_runtime.component.type.exports(wasm_runtime.engine)
    assert {"version", "recall", "memorize", "dispatch"} <= set(exports)


def test_it_instantiates_with_only_those_six(wasm_runtime: Runtime, services: HostServices):
    guest = WasmGuest(wasm_runtime, services)
    assert guest.version() == "0.2.0"
    assert guest.instantiations == 1


def test_a_linker_missing_one_import_cannot_instantiate(wasm_runtime: Runtime, services: HostServices):
    linker = Linker(wasm_runtime.engine)
    imports = HostImports(services)
    with linker.root() as root:
        for name, func in zip(IMPORTS[:-1], (imports.kv_get, imports.kv_put, imports.kv_query,
                                              imports.vec_search, imports.log), strict=True):
            root.add_func(name, func)
    with pytest.raises(WasmtimeError, match="host-now-ms"):
        linker.instantiate(Store(wasm_runtime.engine), wasm_runtime.component)


def test_cache_key_covers_the_bytes_and_the_wasmtime_version(wasm_path: Path, tmp_path: Path):
    wasm = wasm_path.read_bytes()
    name = cache_file_name(wasm)
    assert hashlib.sha256(wasm).hexdigest() in name
    assert f"wasmtime-{WASMTIME_VERSION}" in name and ENGINE_FLAVOUR in name
    changed = wasm + custom_section(b"rs-learn-test", b"a different build")
    (tmp_path / "changed.wasm").write_bytes(changed)
    assert cache_file_name(changed) != name
    assert cache_file_name(changed) == cache_file_name((tmp_path / "changed.wasm").read_bytes())


def seed_cache(wasm_path: Path, cache: Path) -> Path:
    """Copy the session's warm artifact (and its digest) into ``cache``."""
    name = cache_file_name(wasm_path.read_bytes())
    warm = default_cache_dir() / name
    if not (warm.exists() and Path(f"{warm}.sha256").exists()):
        pytest.skip(f"the session could not write its cache at {warm}")
    (cache / name).write_bytes(warm.read_bytes())
    (cache / f"{name}.sha256").write_bytes(Path(f"{warm}.sha256").read_bytes())
    return cache / name


def test_second_load_uses_the_precompiled_cache(wasm_runtime: Runtime, wasm_path: Path, tmp_path: Path,
                                                caplog: pytest.LogCaptureFixture):
    seed_cache(wasm_path, tmp_path)
    with caplog.at_level(logging.DEBUG, logger="rs_learn.host"):
        component = load_component(make_engine(), wasm_path, tmp_path)
    assert "loaded precompiled component" in caplog.text and "compiling" not in caplog.text
    assert not lock_path(tmp_path / cache_file_name(wasm_path.read_bytes())).exists(), "no compile was begun"
    assert sorted(component.type.imports(make_engine())) == sorted(IMPORTS)


@pytest.mark.parametrize("damage", ["flip-a-byte", "truncate", "no-digest"])
def test_a_corrupt_artifact_is_detected(wasm_runtime: Runtime, wasm_path: Path, tmp_path: Path, damage: str):
    artifact = seed_cache(wasm_path, tmp_path)
    assert artifact_is_intact(artifact)
    if damage == "flip-a-byte":
        raw = bytearray(artifact.read_bytes())
        raw[len(raw) // 2] ^= 0x01
        artifact.write_bytes(bytes(raw))
    elif damage == "truncate":
        artifact.write_bytes(artifact.read_bytes()[:4096])
    else:
        Path(f"{artifact}.sha256").unlink()
    assert not artifact_is_intact(artifact)


@pytest.mark.slow  # a full compile of the component
def test_a_corrupt_cache_file_falls_back_to_compiling(wasm_path: Path, tmp_path: Path,
                                                       caplog: pytest.LogCaptureFixture):
    artifact = tmp_path / cache_file_name(wasm_path.read_bytes())
    artifact.write_bytes(b"\x7fELF truncated garbage")
    Path(f"{artifact}.sha256").write_text("0" * 64 + "\n", encoding="ascii")
    with caplog.at_level(logging.DEBUG, logger="rs_learn.host"):
        runtime = Runtime(engine := make_engine(), load_component(engine, wasm_path, tmp_path))
    assert "is corrupt; recompiling" in caplog.text and "compiling" in caplog.text
    guest = WasmGuest(runtime, HostServices(tmp_path / "p"))
    assert guest.version() == "0.2.0"
    assert artifact_is_intact(artifact), "the artifact and its digest were rewritten"
    caplog.clear()
    with caplog.at_level(logging.DEBUG, logger="rs_learn.host"):
        load_component(make_engine(), wasm_path, tmp_path)
    assert "loaded precompiled component" in caplog.text
    assert [p.name for p in tmp_path.iterdir() if ".tmp." in p.name] == []


def test_prune_keeps_the_newest_artifacts(tmp_path: Path):
    for i in range(6):
        path = tmp_path / f"rs_learn-{i}-wasmtime-x-epoch.cwasm"
        path.write_bytes(b"x")
        Path(f"{path}.sha256").write_text("digest", encoding="ascii")
        stamp = 1_700_000_000 + i
        os.utime(path, (stamp, stamp))
    (tmp_path / "unrelated.txt").write_text("keep me")
    removed = prune(tmp_path, keep=4)
    assert sorted(p.name for p in removed) == [f"rs_learn-{i}-wasmtime-x-epoch.cwasm" for i in (0, 1)]
    assert len(list(tmp_path.glob("*.cwasm"))) == 4 and (tmp_path / "unrelated.txt").exists()
    assert len(list(tmp_path.glob("*.cwasm.sha256"))) == 4


class TrippingServices(HostServices):
    """Services whose ``trip`` callback runs after the N-th put (to force a trap mid-call)."""

    trip_after: int | None = None
    puts = 0

    def trip(self) -> None:
        raise NotImplementedError

    def kv_put(self, ns: str, key: str, value: bytes) -> None:
        super().kv_put(ns, key, value)
        self.puts += 1
        if self.trip_after is not None and self.puts == self.trip_after:
            self.trip()


def test_a_trap_rolls_back_and_the_next_call_reinstantiates(wasm_runtime: Runtime, project: Path,
                                                            clock: ManualClock):
    db = project / ".gm" / "rs-learn.db"
    services = TrippingServices(project, clock=clock)
    guest = WasmGuest(wasm_runtime, services, timeout_s=60)  # no real call comes near it
    guest.memorize("The first fact survives.", "default")
    before = digest(db)

    def move_the_epoch_past_the_deadline() -> None:  # the guest traps as soon as it is back in wasm
        for _ in range(wasm_runtime.ticker.ticks(60) + 2):
            wasm_runtime.engine.increment_epoch()

    services.trip = move_the_epoch_past_the_deadline  # type: ignore[method-assign]
    services.trip_after = services.puts + 2  # mid-memorize: two puts made, more to come
    with pytest.raises(GuestTrap, match="interrupt"):
        guest.memorize("The second fact is rolled back.", "default")
    assert digest(db) == before, "nothing of the trapped call may remain"
    assert not (project / ".gm" / "rs-learn.db-journal").exists()
    services.trip_after = None
    envelope = json.loads(guest.dispatch("memorize", "The second fact is rolled back."))
    assert envelope["ok"] is True and envelope["data"]["deduped"] is False
    assert guest.instantiations == 2
    hits = guest.recall("second fact rolled back", 1)
    assert [h["text"] for h in hits] == ["The second fact is rolled back."]


def test_a_runaway_call_hits_the_wall_clock_deadline(wasm_runtime: Runtime, project: Path):
    def slow_clock() -> int:
        past_the_deadline(wasm_runtime, 1.0)  # a slow host: the deadline covers time spent in imports too
        return 1_700_000_000_000

    guest = WasmGuest(wasm_runtime, HostServices(project, clock=slow_clock), timeout_s=1.0)
    with pytest.raises(GuestTrap, match="interrupt") as trapped:
        guest.memorize("a fact that takes too long", "default")
    assert not (project / ".gm" / "rs-learn.db").exists()
    # a call past its deadline is a foreseeable condition: a clear answer, never internal: (issue 38.8)
    assert trapped.value.message.startswith("timeout: the call (memorize) ran past its 1 s deadline")
    assert "nothing it wrote was kept" in trapped.value.message
    with pytest.raises(GuestTrap) as trapped:
        guest.dispatch("import", json.dumps({"memories": [{"text": "another slow fact"}]}))
    assert trapped.value.message.startswith("timeout: the call (dispatch import) ran past its 1 s")
    guest.timeout_s = 30.0
    assert guest.version() == "0.2.0"


def test_the_memory_limit_is_enforced(wasm_runtime: Runtime, services: HostServices):
    guest = WasmGuest(wasm_runtime, services, memory_limit=1 << 20)
    with pytest.raises(GuestError, match="cannot instantiate"):
        guest.version()


def test_host_imports_never_raise(services: HostServices, project: Path):
    imports = HostImports(services)
    entry = codec.lower_pairs([("k", b"v")])
    assert imports.kv_put(None, "host", entry) == "namespace 'host' is read-only (served by the host)"
    assert imports.kv_put(None, "memories", 42) is not None  # wrong type: an err, not an exception
    assert imports.kv_get(None, "disciplines/../x", codec.lower_pack([b"k"])) == "-\n"  # absent, one per key
    assert imports.kv_query(None, "a\x00", "", 0) == "\n"
    assert imports.vec_search(None, "vectors", "abc", 3) == "\n"  # not a blob of f32s
    assert imports.kv_put(None, "memories", entry) is None
    assert imports.now_ms(None) == services.now_ms()
    failures = services.failures
    assert len(failures) == 4 and "host-kv-put: TypeError" in failures[0]
    assert "host-kv-get: StoreError" in failures[1]
    assert services.failure() is not None and services.failure().startswith("internal: host failure: ")
