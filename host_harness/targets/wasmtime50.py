"""The accelerations of wasmtime-py's component calls, written against its 50.x internals (D7).

Imported only through :mod:`host_harness.targets.accel`, which checks the installed wasmtime-py
version first: these functions replace private methods of ``wasmtime.component._types`` and
``_linker`` and read private ``_ffi`` structures, whose shape is only known for the tested range.

1. Bulk conversion of ``list<u8>`` and ``list<f32>`` values.
2. Host import callbacks that look their parameter and result types up once.
3. Variant, option and result types that compute their cases once, list types their element.
4. Records and strings lowered with one FFI call per string: a record type's fields are read
   once, and a string's bytes are copied by ``wasm_byte_vec_new`` directly.

wasmtime-py (50.x) converts every list element through ctypes one at a time:
a 1,536-byte vector crossing the boundary costs thousands of Python calls, and
it dominated every recall (measured: ~1 µs per byte). Each element is a
32-byte ``wasmtime_component_val_t`` (kind byte at offset 0, payload at offset 8),
so a whole list can be written or read with one ``memmove``/``string_at`` and strided slicing.
From :data:`IN_PLACE` elements on, the cells are written and read through a numpy view instead,
with no intermediate copy: an 8 KiB value (a sealed postings chunk) crossed in ~0.45 ms through
the image and its copies, ~0.14 ms in place; below it the view costs more than it saves.

:func:`install` replaces ``ListType.convert_to_c`` / ``convert_from_c`` with
versions that take this fast path for ``u8`` and ``f32`` elements and defer to
the original code for everything else.

wasmtime-py also rebuilds the parameter and result types of a host import
through FFI on *every* call (about 50 µs; a memorize makes ~60 import calls).
:class:`Typed` wraps a host function so that the patched callback caches those
types on the wrapper: the types of one registered function never change, and
the cache lives and dies with the function object (no slab-index reuse issue).
Functions not wrapped in :class:`Typed` take the stock path. Lowering an
``option``/``result`` then asked FFI for the type's cases twice per value
(``_cases`` and ``_tagged``, ~35 µs); a type's cases never change, so they are
memoised on the type object. So is a list type's ``element``, which the stock property fetched
through FFI on every access -- three times for each ``option<list<u8>>`` a ``host-kv-get`` returns
(~0.2 ms of a recall's ~40 imports).

Lowering the 50 ``hit`` records of a ``host-vec-search`` took ~1 ms through the stock code (its
record conversion asks FFI for the field types, and allocates each field name and string in three
ctypes calls); it now takes about a third of that.

``tests/test_harness_accel.py`` checks all of them against the stock code.
"""

from __future__ import annotations

import ctypes
from typing import Any

import numpy as np
from wasmtime import _ffi as ffi
from wasmtime.component import _linker, _types
from wasmtime.component._enter import catch_exceptions

from host_harness.targets.typed import Typed

VAL_SIZE = ctypes.sizeof(ffi.wasmtime_component_val_t)
PAYLOAD = ffi.wasmtime_component_val_t.of.offset
U8 = ffi.WASMTIME_COMPONENT_U8.value
F32 = ffi.WASMTIME_COMPONENT_F32.value
LIST = ffi.WASMTIME_COMPONENT_LIST
IN_PLACE = 2048  # elements from which a list is read and written through a numpy view (measured)

_original_to_c = _types.ListType.convert_to_c
_original_from_c = _types.ListType.convert_from_c
_original_record_to_c = _types.RecordType.convert_to_c
_original_string_to_c = _types.String.convert_to_c
STRING = ffi.WASMTIME_COMPONENT_STRING
RECORD = ffi.WASMTIME_COMPONENT_RECORD
# wasm_byte_vec_new with the data as a plain char pointer: Python bytes pass without a copy.
_byte_vec_new = ffi.dll["wasm_byte_vec_new"]
_byte_vec_new.restype = None
_byte_vec_new.argtypes = [ctypes.POINTER(ffi.wasm_byte_vec_t), ctypes.c_size_t, ctypes.c_char_p]
_original_func_impl = _linker.func_impl
_VARIANT_LIKE = (_types.VariantType, _types.OptionType, _types.ResultType)
_original_cases: dict[type, Any] = {cls: cls._cases for cls in _VARIANT_LIKE}
_original_tagged = _types.VariantLikeType._tagged
_original_element: property = _types.ListType.__dict__["element"]
_element_of: Any = _original_element.fget


def _memo_cases(cls: type) -> Any:
    original = _original_cases[cls]

    def cases(self: Any) -> Any:
        cached = self.__dict__.get("_rs_cases")
        if cached is None:
            cached = self.__dict__["_rs_cases"] = original(self)
        return cached

    return cases


def _memo_element(self: Any) -> Any:
    cached = self.__dict__.get("_rs_element")
    if cached is None:
        cached = self.__dict__["_rs_element"] = _element_of(self)
    return cached


def _memo_tagged(self: Any) -> bool:
    cached = self.__dict__.get("_rs_tagged")
    if cached is None:
        cached = self.__dict__["_rs_tagged"] = _original_tagged(self)
    return bool(cached)


@ffi.wasmtime_component_func_callback_t  # type: ignore[untyped-decorator]
def _typed_func_impl(
    idx: Any, context: Any, ty_raw: Any, args: Any, nargs: Any, results: Any, nresults: Any
) -> Any:
    func = _linker.FUNCTIONS.get(idx or 0)
    if not isinstance(func, Typed):
        return _original_func_impl(idx, context, ty_raw, args, nargs, results, nresults)

    def run(store: Any) -> None:
        if func.params is None:
            with _types.FuncType._from_ptr(ty_raw, owner=store) as fty:
                func.result = fty.result
                func.params = [ty for _, ty in fty.params]
        pyargs = [ty.convert_from_c(args[i]) for i, ty in enumerate(func.params)]
        value = func.func(store, *pyargs)
        if func.result is not None:
            func.result.convert_to_c(store, value, results)

    return catch_exceptions(context, run)


def _cells(address: int, n: int) -> Any:
    """The ``n`` 32-byte values of a C value list as an ``n x 32`` uint8 array (a view, no copy)."""
    return np.ctypeslib.as_array((ctypes.c_uint8 * (n * VAL_SIZE)).from_address(address)).reshape(n, VAL_SIZE)


def _to_c(self: Any, store: Any, val: Any, ptr: Any) -> None:
    if not isinstance(val, (bytes, bytearray)) or not isinstance(self.element, _types.U8):
        _original_to_c(self, store, val, ptr)
        return
    n = len(val)
    raw = ffi.wasmtime_component_vallist_t()
    ffi.wasmtime_component_vallist_new_uninit(raw, n)
    if n >= IN_PLACE:
        cells = _cells(ctypes.addressof(raw.data.contents), n)  # written in place: kind, then the byte
        cells[:, 0] = U8
        cells[:, PAYLOAD] = np.frombuffer(val, dtype=np.uint8)
    elif n:
        image = bytearray(n * VAL_SIZE)
        image[0::VAL_SIZE] = bytes([U8]) * n
        image[PAYLOAD::VAL_SIZE] = val
        ctypes.memmove(ctypes.addressof(raw.data.contents), bytes(image), len(image))
    ptr.contents.kind = LIST
    ptr.contents.of.list = raw


def _from_c(self: Any, c: Any) -> Any:
    element = self.element
    kind = U8 if isinstance(element, _types.U8) else F32 if isinstance(element, _types.F32) else None
    n = c.of.list.size
    if kind is None or n == 0:
        return _original_from_c(self, c)
    try:
        address = ctypes.addressof(c.of.list.data.contents)
        if kind == U8 and n < IN_PLACE:
            image = ctypes.string_at(address, n * VAL_SIZE)
            if image[0::VAL_SIZE] != bytes([kind]) * n:
                raise TypeError("list element kinds do not match the list type")
            return image[PAYLOAD::VAL_SIZE]
        cells = _cells(address, n)
        if not (cells[:, 0] == kind).all():
            raise TypeError("list element kinds do not match the list type")
        if kind == U8:
            return cells[:, PAYLOAD].tobytes()
        return np.ascontiguousarray(cells[:, PAYLOAD : PAYLOAD + 4]).view("<f4").reshape(n).tolist()
    finally:
        ffi.wasmtime_component_vallist_delete(ctypes.byref(c.of.list))


def _byte_vec(data: bytes) -> Any:
    vec = ffi.wasm_byte_vec_t()
    _byte_vec_new(ctypes.byref(vec), len(data), data)
    return vec


def _string_to_c(self: Any, store: Any, val: Any, ptr: Any) -> None:
    if not isinstance(val, str):
        raise TypeError("expected string type")
    ptr.contents.kind = STRING
    ptr.contents.of.string = _byte_vec(val.encode("utf-8"))


def _record_fields(ty: Any) -> list[tuple[str, bytes, Any]]:
    cached: list[tuple[str, bytes, Any]] | None = ty.__dict__.get("_rs_fields")
    if cached is None:
        cached = ty.__dict__["_rs_fields"] = [(name, name.encode("utf-8"), t) for name, t in ty.fields]
    return cached


def _record_to_c(self: Any, store: Any, val: Any, ptr: Any) -> None:
    fields = _record_fields(self)
    raw = ffi.wasmtime_component_valrecord_t()
    ffi.wasmtime_component_valrecord_new_uninit(raw, len(fields))
    done = 0
    try:
        for name, encoded, ty in fields:
            field = raw.data[done]
            ty.convert_to_c(store, getattr(val, name), ctypes.pointer(field.val))
            field.name = _byte_vec(encoded)
            done += 1
    except BaseException:
        for j in range(done, len(fields)):  # as the stock code: make the rest deletable, then delete
            raw.data[j].val.kind = ffi.WASMTIME_COMPONENT_BOOL
            raw.data[j].val.of.boolean = False
        ffi.wasmtime_component_valrecord_delete(ctypes.byref(raw))
        raise
    ptr.contents.kind = RECORD
    ptr.contents.of.record = raw


def install() -> None:
    """Patch wasmtime-py (idempotent); linkers made afterwards use the typed callback."""
    _types.ListType.convert_to_c = _to_c  # type: ignore[method-assign]
    _types.ListType.convert_from_c = _from_c  # type: ignore[method-assign]
    _types.RecordType.convert_to_c = _record_to_c  # type: ignore[method-assign]
    _types.String.convert_to_c = _string_to_c  # type: ignore[method-assign]
    _linker.func_impl = _typed_func_impl
    for cls in _VARIANT_LIKE:
        cls._cases = _memo_cases(cls)  # type: ignore[method-assign]
    _types.VariantLikeType._tagged = _memo_tagged  # type: ignore[method-assign]
    _types.ListType.element = property(_memo_element)  # type: ignore[method-assign,assignment]


def uninstall() -> None:
    """Restore the stock code (tests compare both)."""
    _types.ListType.convert_to_c = _original_to_c  # type: ignore[method-assign]
    _types.ListType.convert_from_c = _original_from_c  # type: ignore[method-assign]
    _types.RecordType.convert_to_c = _original_record_to_c  # type: ignore[method-assign]
    _types.String.convert_to_c = _original_string_to_c  # type: ignore[method-assign]
    _linker.func_impl = _original_func_impl
    for cls, cases in _original_cases.items():
        cls._cases = cases  # type: ignore[attr-defined]
    _types.VariantLikeType._tagged = _original_tagged  # type: ignore[method-assign]
    _types.ListType.element = _original_element  # type: ignore[method-assign,assignment]
