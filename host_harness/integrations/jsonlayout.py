"""Writing a changed JSON document back into its file's text, changing only what changed (issue 32).

``setup`` edits an agent's configuration as a dictionary; re-serialising the whole dictionary would
reflow every line a person laid out by hand (a compact array, a one-line entry, aligned keys). So the
old text is scanned for where each value sits, the old and the new document are compared, and only
the values that differ are rewritten in place: a member added to an object goes after its last
member, in the layout of its siblings (on its own line, indented like them, or on the same line); a
removed member takes its comma with it; a changed string is replaced where it stands. A new value is
laid out as the file's indentation unit (or on one line in a one-line file).

The result is checked: it must parse to exactly the new document, keys in order. Anything else --
a layout this does not foresee -- falls back to rendering the whole document in the file's
indentation, as before.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from json.decoder import scanstring  # type: ignore[attr-defined]
from typing import Any

INDENT_RE = re.compile(r"^[\[{][^\n]*\n([ \t]+)\S", re.M)
SCALAR_RE = re.compile(r"-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][-+]?\d+)?|true|false|null")
WS_RE = re.compile(r"[ \t\n\r]*")


@dataclass
class Node:
    """A value at ``text[start:end]``; an object's members (key start, key, value), an array's items."""

    start: int
    end: int
    members: list[tuple[int, str, Node]] = field(default_factory=list)
    items: list[Node] = field(default_factory=list)


def render(doc: dict[str, Any], like: str | None) -> str:
    """``doc`` as the text of its file: ``like`` (the file's text) with only what changed rewritten."""
    style = Style.of(like)
    if like is None or not like.strip():
        return style.dump(doc, "") + (style.eol if style.newline else "")
    try:
        old = json.loads(like)
        root, _ = _scan(like, _blank(like, 0))
        edits: list[tuple[int, int, str]] = []
        _patch(like, root, old, doc, style, edits)
        text = like
        for start, end, new in sorted(edits, reverse=True):
            text = text[:start] + new + text[end:]
        if _same(json.loads(text), doc):
            return text
    except (ValueError, IndexError, TypeError):
        pass
    return style.dump(doc, "") + (style.eol if style.newline else "")


@dataclass(frozen=True)
class Style:
    """A file's indentation unit (``None``: one line), final newline, ``\\u`` escapes and line ends."""

    unit: str | None
    newline: bool
    ascii_only: bool
    eol: str = "\n"

    @classmethod
    def of(cls, like: str | None) -> Style:
        """The style of the file's text ``like`` (two spaces and a final newline for a new file)."""
        if like is None or not like.strip():
            return cls("  ", True, False)
        match = INDENT_RE.search(like.lstrip())
        return cls(match.group(1) if match else None, like.endswith("\n"), like.isascii() and "\\u" in like,
                   "\r\n" if "\r\n" in like else "\n")

    def dump(self, value: Any, base: str) -> str:
        """``value`` laid out at a line indented by ``base``."""
        indent: str | int | None = self.unit
        if isinstance(indent, str) and indent == " " * len(indent):
            indent = len(indent)
        text = json.dumps(value, indent=indent, ensure_ascii=self.ascii_only)
        return text.replace("\n", self.eol + base)


def _same(a: Any, b: Any) -> bool:
    """Equal, with the same types and the same key order."""
    return json.dumps(a, sort_keys=False) == json.dumps(b, sort_keys=False)


def _blank(text: str, i: int) -> int:
    """The index of the first non-blank character at or after ``i``."""
    return WS_RE.match(text, i).end()  # type: ignore[union-attr]  # matches everywhere


def _scan(text: str, i: int) -> tuple[Node, int]:
    """The value starting at ``text[i]`` (no leading blanks) and the index after it."""
    char = text[i]
    if char in "{[":
        node = Node(i, i)
        j = _blank(text, i + 1)
        while text[j] not in "}]":
            if char == "{":
                key, after = scanstring(text, j + 1)
                value, end = _scan(text, _blank(text, _blank(text, after) + 1))  # past the ':'
                node.members.append((j, key, value))
            else:
                value, end = _scan(text, j)
                node.items.append(value)
            j = _blank(text, end)
            if text[j] == ",":
                j = _blank(text, j + 1)
        node.end = j + 1
        return node, j + 1
    if char == '"':
        _, end = scanstring(text, i + 1)
        return Node(i, end), end
    match = SCALAR_RE.match(text, i)
    if match is None:
        raise ValueError(f"no JSON value at {i}")
    return Node(i, match.end()), match.end()


def _line_indent(text: str, i: int) -> str:
    """The blanks that open the line holding ``text[i]``."""
    line = text.rfind("\n", 0, i) + 1
    return text[line:_blank_inline(text, line)]


def _blank_inline(text: str, i: int) -> int:
    while i < len(text) and text[i] in " \t":
        i += 1
    return i


Edits = list[tuple[int, int, str]]


def _patch(text: str, node: Node, old: Any, new: Any, style: Style, edits: Edits) -> None:
    """Add to ``edits`` what turns ``node`` (holding ``old``) into ``new``."""
    if _same(old, new):
        return
    if isinstance(new, dict | list) and not new:
        edits.append((node.start, node.end, "{}" if isinstance(new, dict) else "[]"))
        return
    if isinstance(old, dict) and isinstance(new, dict) and _keeps_order(old, new):
        spans = [(start, value) for start, _, value in node.members]
        keys = [key for _, key, _ in node.members]
        _drop(spans, [key not in new for key in keys], edits)
        for key, (_, value) in zip(keys, spans, strict=True):
            if key in new:
                _patch(text, value, old[key], new[key], style, edits)
        added = [key for key in new if key not in old]
        colon = _colon(text, node)
        last = max(index for index, key in enumerate(keys) if key in new)
        heads = [json.dumps(key, ensure_ascii=style.ascii_only) + colon for key in added]
        _append(text, node, spans, last, heads, [new[key] for key in added], style, edits)
        return
    if isinstance(old, list) and isinstance(new, list):
        spans = [(item.start, item) for item in node.items]
        gone = _removed(old, new)
        if len(new) > len(old) and _same(new[: len(old)], old):  # appended
            extra = new[len(old):]
            _append(text, node, spans, len(spans) - 1, [""] * len(extra), extra, style, edits)
            return
        if gone is not None:
            _drop(spans, gone, edits)
            return
        if len(new) == len(old):
            for item, before, after in zip(node.items, old, new, strict=True):
                _patch(text, item, before, after, style, edits)
            return
    edits.append((node.start, node.end, style.dump(new, _line_indent(text, node.start))))


def _keeps_order(old: dict[str, Any], new: dict[str, Any]) -> bool:
    """Whether ``new`` is ``old`` with keys removed, then keys added at the end (at least one kept)."""
    kept = [key for key in old if key in new]
    return bool(kept) and list(new)[: len(kept)] == kept


def _removed(old: list[Any], new: list[Any]) -> list[bool] | None:
    """Which items of ``old`` are gone when ``new`` is ``old`` without some of them (else ``None``)."""
    gone, j = [], 0
    for item in old:
        keep = j < len(new) and _same(item, new[j])
        gone.append(not keep)
        j += keep
    return gone if j == len(new) else None


def _colon(text: str, node: Node) -> str:
    """The separator between a key and its value in ``node`` (that of its last member; ``": "``)."""
    if not node.members:
        return ": "
    start, _, value = node.members[-1]
    _, after = scanstring(text, start + 1)
    return text[after:value.start]


def _drop(spans: list[tuple[int, Node]], gone: list[bool], edits: Edits) -> None:
    """Delete the members (items) marked ``gone``, each with the comma that separates it (one stays)."""
    first_kept = gone.index(False)
    if first_kept:
        edits.append((spans[0][0], spans[first_kept][0], ""))
    for index in range(first_kept + 1, len(spans)):
        if gone[index]:
            edits.append((spans[index - 1][1].end, spans[index][1].end, ""))


def _append(text: str, node: Node, spans: list[tuple[int, Node]], last: int, heads: list[str],
            values: list[Any], style: Style, edits: Edits) -> None:
    """Add members after ``spans[last]`` (the last one kept), laid out like it.

    Each is a ``head`` (a key and its colon, or nothing in an array) and a value.
    """
    if not values:
        return
    if last < 0:
        _fill(text, node, heads, values, style, edits)
        return
    last_start, after = spans[last]
    if last > 0:
        before = text[_blank(text, spans[last - 1][1].end) + 1:last_start]  # past the comma
    else:
        before = text[node.start + 1:last_start]
        before = before if "\n" in before else " "
    multiline = "\n" in before and style.unit is not None
    base = _line_indent(text, last_start)
    added = "".join(f",{before}{head}{style.dump(value, base) if multiline else _one_line(style, value)}"
                    for head, value in zip(heads, values, strict=True))
    edits.append((after.end, after.end, added))


def _fill(text: str, node: Node, heads: list[str], values: list[Any], style: Style, edits: Edits) -> None:
    """Fill an empty object or array: laid out as the file's unit under the line that holds it."""
    pairs = list(zip(heads, values, strict=True))
    if style.unit is None:
        inner = ", ".join(head + _one_line(style, value) for head, value in pairs)
        edits.append((node.start + 1, node.end - 1, inner))
        return
    base = _line_indent(text, node.start)
    inside = base + style.unit
    inner = ("," + style.eol + inside).join(head + style.dump(value, inside) for head, value in pairs)
    edits.append((node.start + 1, node.end - 1, f"{style.eol}{inside}{inner}{style.eol}{base}"))


def _one_line(style: Style, value: Any) -> str:
    return json.dumps(value, ensure_ascii=style.ascii_only)
