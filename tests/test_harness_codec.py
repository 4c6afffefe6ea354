"""The codec: wasmtime-py's value conventions, pinned against the real WIT types.

The unit tests check the Python shapes; the ``wasm`` tests push the lowered values
through the component's own import/export types (``convert_to_c`` and back), so a
wasmtime-py upgrade that changes a convention fails here, not in production.
"""

from __future__ import annotations

import ctypes
from typing import Any

import numpy as np
import pytest
from wasmtime import Store
from wasmtime import _ffi as ffi
from wasmtime.component import Record, Variant

from host_harness.errors import GuestError
from host_harness.targets import codec
from host_harness.targets.runtime import Runtime


def test_lower_option_bytes():
    assert codec.lower_option_bytes(None) is None
    for raw in (b"ab", bytearray(b"ab"), memoryview(b"ab")):
        value = codec.lower_option_bytes(raw)
        assert value == b"ab" and type(value) is bytes


def test_lower_entries_and_hits_are_records():
    (entry,) = codec.lower_entries([("k", bytearray(b"v"))])
    assert isinstance(entry, Record) and entry.key == "k" and type(entry.value) is bytes
    (hit,) = codec.lower_hits([("k", np.float32(0.25))])
    assert hit.key == "k" and type(hit.score) is float and hit.score == 0.25


def test_lower_unit_result_and_u64():
    assert codec.lower_unit_result(None) is None
    assert codec.lower_unit_result("boom") == "boom"
    assert codec.lower_u64(-5) == 0
    assert codec.lower_u64(2**70) == 2**64 - 1
    assert codec.lower_u64(123) == 123


def test_lift_arguments():
    assert codec.lift_bytes(b"x") == b"x"
    assert codec.lift_floats([1.0, 2.5]) == [1.0, 2.5]
    with pytest.raises(TypeError):
        codec.lift_bytes([1, 2])
    with pytest.raises(TypeError):
        codec.lift_floats((1.0,))


def test_lift_recall_result():
    hit = codec.record(id="mem-1", text="t", score=0.5, namespace="default")
    expected = [{"id": "mem-1", "text": "t", "score": 0.5, "namespace": "default"}]
    assert codec.lift_recall_result([hit]) == expected
    assert codec.lift_recall_result([]) == []
    with pytest.raises(GuestError, match="validation: bad"):
        codec.lift_recall_result("validation: bad")
    with pytest.raises(TypeError):
        codec.lift_recall_result(None)


def test_lift_string_result():
    assert codec.lift_string_result(Variant("ok", "mem-1")) == "mem-1"
    with pytest.raises(GuestError, match=r"^validation: empty$"):
        codec.lift_string_result(Variant("err", "validation: empty"))
    for wrong in ("mem-1", Variant("maybe", "x"), Variant("ok", 3)):
        with pytest.raises(TypeError):
            codec.lift_string_result(wrong)


# Against the real component types.


@pytest.fixture(scope="module")
def types(wasm_runtime: Runtime) -> tuple[Store, dict[str, Any], dict[str, Any]]:
    engine = wasm_runtime.engine
    kind = wasm_runtime.component.type
    imports = {name: ext.ty for name, ext in kind.imports(engine).items()}
    exports = {name: ext.ty for name, ext in kind.exports(engine).items()}
    return Store(engine), imports, exports


def round_trip(store: Store, ty: Any, value: Any) -> Any:
    raw = ffi.wasmtime_component_val_t()
    ty.convert_to_c(store, value, ctypes.pointer(raw))
    return ty.convert_from_c(raw)


def test_import_results_lower_as_wasmtime_expects(types):
    store, imports, _ = types
    get = imports["host-kv-get"].result
    assert round_trip(store, get, codec.lower_option_bytes(bytearray(b"v"))) == b"v"
    assert round_trip(store, get, codec.lower_option_bytes(None)) is None
    put = imports["host-kv-put"].result
    assert round_trip(store, put, codec.lower_unit_result(None)) is None
    assert round_trip(store, put, codec.lower_unit_result("namespace 'host' is read-only")) == (
        "namespace 'host' is read-only"
    )
    (entry,) = round_trip(store, imports["host-kv-query"].result, codec.lower_entries([("k", b"v")]))
    assert (entry.key, entry.value) == ("k", b"v")
    (hit,) = round_trip(store, imports["host-vec-search"].result, codec.lower_hits([("k", np.float32(0.5))]))
    assert (hit.key, hit.score) == ("k", 0.5)
    assert round_trip(store, imports["host-now-ms"].result, codec.lower_u64(2**63)) == 2**63
    assert imports["host-log"].result is None


def test_the_conventions_the_codec_relies_on(types):
    store, imports, exports = types
    with pytest.raises((TypeError, ValueError)):  # list<u8> insists on bytes
        round_trip(store, imports["host-kv-get"].result, bytearray(b"v"))
    with pytest.raises(TypeError):  # f32 insists on a Python float
        round_trip(store, imports["host-vec-search"].result, [codec.record(key="k", score=np.float32(0.5))])
    with pytest.raises((TypeError, ValueError)):  # result<_, string> is untagged
        round_trip(store, imports["host-kv-put"].result, Variant("ok"))
    # result<string, string> is tagged; result<list<recall-hit>, string> is not
    assert round_trip(store, exports["memorize"].result, Variant("err", "x")) == Variant("err", "x")
    assert round_trip(store, exports["recall"].result, "validation: x") == "validation: x"
    hit = codec.record(id="m", text="t", score=0.5, namespace="default")
    lifted = codec.lift_recall_result(round_trip(store, exports["recall"].result, [hit]))
    assert lifted == [{"id": "m", "text": "t", "score": 0.5, "namespace": "default"}]
    assert codec.lift_string_result(round_trip(store, exports["memorize"].result, Variant("ok", "m"))) == "m"
