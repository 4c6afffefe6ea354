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
