"""The wasmtime-py accelerations give exactly what the stock code gives, and only patch a tested version."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import ROOT

from host_harness.targets import accel
from host_harness.targets.component import WasmGuest


def exercise(runtime, services) -> list:
    """A memorize/recall/embed sequence that moves bytes and floats both ways."""
    guest = WasmGuest(runtime, services)
    out = []
    for text in ("alpha beta gamma", "beta gamma delta ünïcödé", "", "x" * 3000):
        out.append(guest.dispatch("memorize", json.dumps({"text": text})))
    out.append(guest.dispatch("recall", json.dumps({"query": "gamma", "limit": 5})))
    out.append(guest.dispatch("embed", json.dumps({"text": "vectors cross the boundary"})))
    out.append(guest.recall("beta", 3))
    out.append(guest.dispatch("reindex", json.dumps({"rebuild": True})))  # host-kv-query: entry records
    guest.close()
    return out


@pytest.mark.parametrize("stock", ["uninstalled", "untested-version"])
def test_accelerated_equals_stock(wasm_runtime, services, project, tmp_path, stock: str):
    from host_harness.services import HostServices

    assert accel.install() and accel.installed(), f"wasmtime-py {accel.WASMTIME_VERSION} is the tested one"
    fast = exercise(wasm_runtime, services)
    other = tmp_path / "other"
    other.mkdir()
    if stock == "uninstalled":
        accel.uninstall()
    else:  # what a newer wasmtime-py gets: install() keeps (here: puts back) the stock code
        assert accel.install("51.0.0") is False
    try:
        assert not accel.installed()
        stock_services = HostServices(other, clock=services.clock)
        slow = exercise(wasm_runtime, stock_services)
        stock_services.close()
    finally:
        accel.install()
    assert fast == slow
    assert (project / ".gm" / "rs-learn.db").read_bytes() == (other / ".gm" / "rs-learn.db").read_bytes()


def test_only_the_tested_versions_are_patched():
    from host_harness.targets import wasmtime50

    versions = ("49.0.0", "50.0.0", "50.0.1", "50.2.0.dev1", "51.0.0", "5.0", "500.0")
    assert [v for v in versions if accel.tested(v)] == ["50.0.0", "50.0.1", "50.2.0.dev1"]
    assert accel.patches("39.0.0") is None and accel.patches("50.0.1") is wasmtime50


FALLBACK = """
import json, sys
sys.modules["host_harness.targets.wasmtime50"] = None  # the patches do not import: internals moved
from host_harness.targets import accel
from host_harness.targets.runtime import Runtime
from host_harness.services import HostServices
from test_harness_accel import exercise
runtime = Runtime.load(sys.argv[1])
assert not accel.installed() and sys.modules[accel.PATCHES] is None
services = HostServices(sys.argv[2], clock=lambda: 1_700_000_000_000)
print(json.dumps(exercise(runtime, services)))
services.close()
"""


def test_internals_that_moved_fall_back_to_the_stock_code(wasm_runtime, wasm_path: Path, tmp_path: Path):
    """A tested version whose patches do not import (a name they need is gone): stock path, same answers."""
    from host_harness.services import HostServices

    stock, fast_project = tmp_path / "stock", tmp_path / "fast"
    stock.mkdir()
    fast_project.mkdir()
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), str(ROOT / "tests")])}
    done = subprocess.run([sys.executable, "-c", FALLBACK, str(wasm_path), str(stock)], env=env,
                          capture_output=True, text=True, timeout=600, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    services = HostServices(fast_project, clock=lambda: 1_700_000_000_000)
    fast = exercise(wasm_runtime, services)
    services.close()
    assert json.loads(done.stdout) == json.loads(json.dumps(fast))
    assert (stock / ".gm" / "rs-learn.db").read_bytes() == (fast_project / ".gm" / "rs-learn.db").read_bytes()


def test_typed_caches_types_after_first_call():
    calls = []
    typed = accel.Typed(lambda store, a: calls.append(a) or a)
    assert typed.params is None
    assert typed("store", 5) == 5 and calls == [5]


def test_install_is_idempotent():
    from host_harness.targets import wasmtime50

    accel.install()
    accel.install()
    from wasmtime.component import _linker, _types

    assert _linker.func_impl is wasmtime50._typed_func_impl
    assert _types.ListType.convert_to_c is wasmtime50._to_c


class _List:
    """A stand-in ``ListType`` receiver: the conversions only read its ``element``."""

    def __init__(self, element) -> None:
        self.element = element

    def _is_bytes(self) -> bool:
        from wasmtime.component import _types

        return isinstance(self.element, _types.U8)


def test_lists_of_every_size_cross_as_the_stock_code_crosses_them():
    import ctypes
    import random

    from wasmtime import _ffi as ffi
    from wasmtime.component import _types

    from host_harness.targets import wasmtime50

    rnd = random.Random(3)
    u8, f32 = _List(_types.U8()), _List(_types.F32())
    for n in (0, 1, 31, wasmtime50.IN_PLACE - 1, wasmtime50.IN_PLACE, wasmtime50.IN_PLACE + 1, 8192):
        value = bytes(rnd.randrange(256) for _ in range(n))
        for write, read in ((wasmtime50._to_c, wasmtime50._original_from_c),
                            (wasmtime50._original_to_c, wasmtime50._from_c)):
            cell = ffi.wasmtime_component_val_t()
            write(u8, None, value, ctypes.pointer(cell))
            assert read(u8, cell) == value
        floats = [float(ctypes.c_float(rnd.uniform(-1, 1)).value) for _ in range(min(n, 3000))]
        cell = ffi.wasmtime_component_val_t()
        wasmtime50._original_to_c(f32, None, floats, ctypes.pointer(cell))
        assert wasmtime50._from_c(f32, cell) == floats


def test_a_list_type_fetches_its_element_once(wasm_runtime):
    from wasmtime.component import _types

    from host_harness.targets import wasmtime50

    imports = wasm_runtime.component.type.imports(wasm_runtime.engine)
    lists = [imports["host-kv-get"].ty.result.payload, dict(imports["host-kv-put"].ty.params)["value"]]
    for ty in lists:
        assert isinstance(ty, _types.ListType)
        first = ty.element
        assert isinstance(first, _types.U8) and ty.element is first
        assert isinstance(wasmtime50._original_element.fget(ty), _types.U8)
