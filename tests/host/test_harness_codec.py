"""The codec: contract v2's packs and blobs, and wasmtime-py's conventions, pinned against the WIT types.

The unit tests check the encodings (the host's copy against the guest's, ``guest/host.py``); the
``wasm`` tests read the built component's import and export types through wasmtime-py's public API,
so a component whose imports are not the strings the codec encodes fails here.
"""

from __future__ import annotations

import struct
from typing import Any

import numpy as np
import pytest
from wasmtime.component import F32, U32, U64, ListType, OptionType, RecordType, ResultType, String, Variant

from guest import host as guest_host
from host_harness.errors import GuestError
from host_harness.targets import codec
from host_harness.targets.runtime import Runtime

ITEMS: list[list[bytes | None]] = [[], [b""], [b"abc", None], [None, None],
                                   [bytes(range(256)), b"\n,-", b"\xff"]]


@pytest.mark.parametrize("items", ITEMS)
def test_a_pack_round_trips_and_matches_the_guests(items: list[bytes | None]):
    text = codec.lower_pack(items)
    assert text == guest_host.pack(items)  # the host's copy encodes as the guest does
    assert codec.lift_pack(text) == items == guest_host.unpack(text)
    assert all(ord(char) < 256 for char in text)


def test_the_pack_format_is_the_wits():
    assert codec.lower_pack([]) == "\n"
    assert codec.lower_pack([b""]) == "0\n"
    assert codec.lower_pack([b"abc", None]) == "3,-\nabc"
    assert codec.lower_pack([b"\xe9"]) == "1\n\xe9"  # one code point per byte: Latin-1


@pytest.mark.parametrize("bad", ["", "abc", "3\nab", "1\nab", "x\na", "\nzz", "1\n\u0100", "1,\na", "-1\n"])
def test_a_malformed_pack_is_refused_on_both_sides(bad: str):
    with pytest.raises(ValueError):
        codec.lift_pack(bad)
    with pytest.raises(ValueError):
        guest_host.unpack(bad)


def test_keys_pairs_floats_and_hits():
    keys = ["a", "ключ", "🔑/x"]
    assert codec.lift_keys(guest_host.pack_keys(keys)) == keys
    pairs = [("k", b"v"), ("é", b"\x00\xff")]
    assert guest_host.pairs(codec.lower_pairs(pairs)) == pairs
    assert codec.lift_pairs(codec.lower_pairs(pairs)) == pairs
    with pytest.raises(ValueError):
        codec.lift_pairs(codec.lower_pack([b"k"]))
    with pytest.raises(ValueError):
        codec.lift_keys(codec.lower_pack([None]))
    query = codec.blob(struct.pack("<3f", 1.0, -2.5, 0.125))
    assert codec.lift_floats(query) == [1.0, -2.5, 0.125]
    with pytest.raises(ValueError):
        codec.lift_floats("abc")
    hits = guest_host.pairs(codec.lower_hits([("k", np.float32(0.25)), ("j", 1 / 3)]))
    assert [(key, struct.unpack("<f", score)[0]) for key, score in hits] == [
        ("k", 0.25), ("j", float(np.float32(1 / 3)))]


def test_lower_unit_result_and_u64():
    assert codec.lower_unit_result(None) is None
    assert codec.lower_unit_result("boom") == "boom"
    assert codec.lower_u64(-5) == 0
    assert codec.lower_u64(2**70) == 2**64 - 1
    assert codec.lower_u64(123) == 123


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


# Against the real component types (public API only).


@pytest.fixture(scope="module")
def types(wasm_runtime: Runtime) -> tuple[dict[str, Any], dict[str, Any]]:
    engine = wasm_runtime.engine
    kind = wasm_runtime.component.type
    imports = {name: ext.ty for name, ext in kind.imports(engine).items()}
    exports = {name: ext.ty for name, ext in kind.exports(engine).items()}
    return imports, exports


def shape(ty: Any) -> list[type]:
    return [type(param) for _, param in ty.params]


def test_every_import_crosses_strings_and_numbers_only(types):
    imports, _ = types
    assert sorted(imports) == sorted(("host-kv-get", "host-kv-put", "host-kv-query", "host-vec-search",
                                      "host-log", "host-now-ms"))
    assert shape(imports["host-kv-get"]) == [String, String]
    assert isinstance(imports["host-kv-get"].result, String)
    assert shape(imports["host-kv-put"]) == [String, String]
    put = imports["host-kv-put"].result
    assert isinstance(put, ResultType) and put.ok is None and isinstance(put.err, String)
    assert shape(imports["host-kv-query"]) == [String, String, U32]
    assert isinstance(imports["host-kv-query"].result, String)
    assert shape(imports["host-vec-search"]) == [String, String, U32]
    assert isinstance(imports["host-vec-search"].result, String)
    assert shape(imports["host-log"]) == [U32, String] and imports["host-log"].result is None
    assert shape(imports["host-now-ms"]) == [] and isinstance(imports["host-now-ms"].result, U64)
    for ty in imports.values():  # no list, record or option crosses an import (one value cell per element)
        for part in [param for _, param in ty.params] + [ty.result]:
            assert not isinstance(part, (ListType, RecordType, OptionType)), ty


def test_the_exports_the_codec_lifts(types):
    _, exports = types
    recall = exports["recall"].result
    assert isinstance(recall, ResultType) and isinstance(recall.ok, ListType)
    assert isinstance(recall.err, String)
    hit = recall.ok.element
    assert isinstance(hit, RecordType)
    assert [(name, type(ty)) for name, ty in hit.fields] == [
        ("id", String), ("text", String), ("score", F32), ("namespace", String)]
    memorize = exports["memorize"].result
    assert isinstance(memorize.ok, String) and isinstance(memorize.err, String)
    assert isinstance(exports["dispatch"].result, String)
