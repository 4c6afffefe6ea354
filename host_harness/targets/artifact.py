"""What the built component says about itself: its name, version and producers, and its memory.

``componentize-py`` leaves a component that does not name itself (``jco wit`` and ``wasm-tools
component wit`` print any component's type as ``package root:component; world root``: they decode
its type, not a name). ``scripts/build_component.py`` therefore writes the component-level metadata
that the tools do read (``jco metadata-show``, ``wasm-tools metadata show``), following the
WebAssembly tool conventions:

* the ``component-name`` section's component name: ``rs:learn@0.1.0`` (the WIT package and version);
* custom sections ``version`` (``0.1.0``, the WIT package's version), ``description`` (naming the
  world, ``rs:learn/rs-learn@0.1.0``) and ``licenses`` (an SPDX expression), each raw UTF-8;
* the ``producers`` section: ``language`` Python and ``sdk`` componentize-py beside the
  ``processed-by`` entries the build tools wrote.

:func:`read_metadata` reads them back (``make dist`` checks them); :func:`initial_memory_mib` is
the initial linear memory of the largest core module (the heap snapshot), which ``make dist``
prints in ``dist/README.md``. Only top-level sections are read or written: nested core modules keep
their own.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field

CUSTOM, CORE_MODULE = 0, 1
COMPONENT_NAME = "component-name"
PRODUCERS = "producers"
TEXT_SECTIONS = ("version", "description", "licenses")
WASM_PAGE = 65536


@dataclass(frozen=True)
class Metadata:
    """The component-level metadata of a component."""

    name: str | None = None
    version: str | None = None
    description: str | None = None
    licenses: str | None = None
    producers: dict[str, list[tuple[str, str]]] = field(default_factory=dict)


def leb(data: bytes, i: int) -> tuple[int, int]:
    """The unsigned LEB128 number at ``data[i:]`` and the index after it."""
    value = shift = 0
    while True:
        byte = data[i]
        i += 1
        value |= (byte & 0x7F) << shift
        shift += 7
        if not byte & 0x80:
            return value, i


def encode_leb(value: int) -> bytes:
    """``value`` as unsigned LEB128."""
    out = bytearray()
    while True:
        byte, value = value & 0x7F, value >> 7
        out.append(byte | (0x80 if value else 0))
        if not value:
            return bytes(out)


def _name(data: bytes, i: int) -> tuple[str, int]:
    size, i = leb(data, i)
    return data[i : i + size].decode("utf-8"), i + size


def _encode_name(text: str) -> bytes:
    raw = text.encode("utf-8")
    return encode_leb(len(raw)) + raw


def sections(wasm: bytes) -> Iterator[tuple[int, int, int, int]]:
    """The top-level sections: ``(id, start of the section, start of its payload, end)``."""
    i = 8  # magic and version (a core module or a component layer alike)
    while i < len(wasm):
        start, section = i, wasm[i]
        size, body = leb(wasm, i + 1)
        yield section, start, body, body + size
        i = body + size


def custom_sections(wasm: bytes) -> Iterator[tuple[str, bytes]]:
    """The top-level custom sections: ``(name, payload)``."""
    for section, _start, body, end in sections(wasm):
        if section == CUSTOM:
            name, payload = _name(wasm, body)
            yield name, wasm[payload:end]


def read_metadata(wasm: bytes) -> Metadata:
    """The component-level name, version, description, licenses and producers of ``wasm``."""
    values: dict[str, str] = {}
    name: str | None = None
    producers: dict[str, list[tuple[str, str]]] = {}
    for section, payload in custom_sections(wasm):
        if section in TEXT_SECTIONS:
            values[section] = payload.decode("utf-8")
        elif section == COMPONENT_NAME:
            name = _component_name(payload)
        elif section == PRODUCERS:
            producers = _producers(payload)
    return Metadata(name, values.get("version"), values.get("description"), values.get("licenses"), producers)


def _component_name(payload: bytes) -> str | None:
    i = 0
    while i < len(payload):
        sub, size_at = payload[i], i + 1
        size, i = leb(payload, size_at)
        if sub == 0:
            return _name(payload, i)[0]
        i += size
    return None


def _producers(payload: bytes) -> dict[str, list[tuple[str, str]]]:
    out: dict[str, list[tuple[str, str]]] = {}
    count, i = leb(payload, 0)
    for _ in range(count):
        key, i = _name(payload, i)
        entries, i = leb(payload, i)
        values = out.setdefault(key, [])
        for _ in range(entries):
            tool, i = _name(payload, i)
            version, i = _name(payload, i)
            values.append((tool, version))
    return out


def with_metadata(wasm: bytes, meta: Metadata) -> bytes:
    """``wasm`` naming itself as ``meta`` says (its other sections unchanged, producers merged)."""
    kept: list[bytes] = []
    names = b""
    producers: dict[str, list[tuple[str, str]]] = {}
    for section, start, body, end in sections(wasm):
        if section == CUSTOM:
            name, at = _name(wasm, body)
            if name in TEXT_SECTIONS:
                continue
            if name == COMPONENT_NAME:
                names = _without_component_name(wasm[at:end])
                continue
            if name == PRODUCERS:
                producers = _producers(wasm[at:end])
                continue
        kept.append(wasm[start:end])
    for key, values in meta.producers.items():
        listed = producers.setdefault(key, [])
        listed[:] = [v for v in listed if v[0] not in {tool for tool, _ in values}] + values
    if meta.name is not None:
        names = bytes([0]) + _sized(_encode_name(meta.name)) + names
    added = [(COMPONENT_NAME, names)] if names else []
    added.append((PRODUCERS, _encode_producers(producers)))
    added += [(key, value.encode("utf-8")) for key, value in
              (("version", meta.version), ("description", meta.description), ("licenses", meta.licenses))
              if value is not None]
    out = bytearray(wasm[:8])
    for part in kept:
        out += part
    for key, content in added:
        out += bytes([CUSTOM]) + _sized(_encode_name(key) + content)
    return bytes(out)


def _sized(payload: bytes) -> bytes:
    return encode_leb(len(payload)) + payload


def _without_component_name(payload: bytes) -> bytes:
    out, i = bytearray(), 0
    while i < len(payload):
        sub = payload[i]
        size, body = leb(payload, i + 1)
        if sub != 0:
            out += payload[i : body + size]
        i = body + size
    return bytes(out)


def _encode_producers(producers: dict[str, list[tuple[str, str]]]) -> bytes:
    out = bytearray(encode_leb(len(producers)))
    for key, values in producers.items():
        out += _encode_name(key) + encode_leb(len(values))
        for tool, version in values:
            out += _encode_name(tool) + _encode_name(version)
    return bytes(out)


def initial_memory_mib(wasm: bytes) -> float:
    """The initial linear memory of the component's largest core module, in MiB."""
    pages = [_memory_pages(wasm[body:end]) for section, _start, body, end in sections(wasm)
             if section == CORE_MODULE]
    return max(pages, default=0) * WASM_PAGE / 2**20


def _memory_pages(module: bytes) -> int:
    for section, _start, body, _end in sections(module):
        if section == 5:  # memory section: count, then limits of the first memory
            _, j = leb(module, body)
            flags, j = module[j], j + 1
            pages, _ = leb(module, j)
            return pages if not flags & 0x04 else 0  # memory64 is not used
    return 0
