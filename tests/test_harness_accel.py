"""The wasmtime-py accelerations give exactly what the stock code gives."""

from __future__ import annotations

import json

from host_harness.guests import accel
from host_harness.guests.component import WasmGuest


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


def test_accelerated_equals_stock(wasm_runtime, services, project, tmp_path):
    from host_harness.services import HostServices

    fast = exercise(wasm_runtime, services)
    other = tmp_path / "other"
    other.mkdir()
    accel.uninstall()
    try:
        stock_services = HostServices(other, clock=services.clock)
        slow = exercise(wasm_runtime, stock_services)
        stock_services.close()
    finally:
        accel.install()
    assert fast == slow
    assert (project / ".gm" / "rs-learn.db").read_bytes() == (other / ".gm" / "rs-learn.db").read_bytes()


def test_typed_caches_types_after_first_call():
    calls = []
    typed = accel.Typed(lambda store, a: calls.append(a) or a)
    assert typed.params is None
    assert typed("store", 5) == 5 and calls == [5]


def test_install_is_idempotent():
    accel.install()
    accel.install()
    from wasmtime.component import _linker, _types

    assert _linker.func_impl is accel._typed_func_impl
    assert _types.ListType.convert_to_c is accel._to_c


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

    rnd = random.Random(3)
    u8, f32 = _List(_types.U8()), _List(_types.F32())
    for n in (0, 1, 31, accel.IN_PLACE - 1, accel.IN_PLACE, accel.IN_PLACE + 1, 8192):
        value = bytes(rnd.randrange(256) for _ in range(n))
        for write, read in ((accel._to_c, accel._original_from_c), (accel._original_to_c, accel._from_c)):
            cell = ffi.wasmtime_component_val_t()
            write(u8, None, value, ctypes.pointer(cell))
            assert read(u8, cell) == value
        floats = [float(ctypes.c_float(rnd.uniform(-1, 1)).value) for _ in range(min(n, 3000))]
        cell = ffi.wasmtime_component_val_t()
        accel._original_to_c(f32, None, floats, ctypes.pointer(cell))
        assert accel._from_c(f32, cell) == floats


def test_a_list_type_fetches_its_element_once(wasm_runtime):
    from wasmtime.component import _types

    imports = wasm_runtime.component.type.imports(wasm_runtime.engine)
    lists = [imports["host-kv-get"].ty.result.payload, dict(imports["host-kv-put"].ty.params)["value"]]
    for ty in lists:
        assert isinstance(ty, _types.ListType)
        first = ty.element
        assert isinstance(first, _types.U8) and ty.element is first
        assert isinstance(accel._original_element.fget(ty), _types.U8)
