"""Codex's ``config.toml``: one ``[mcp_servers.<name>]`` table edited as text, so comments survive.

There is no TOML writer in the standard library, and re-serialising the file would drop its comments
and layout. So the table is found by its header line, and only the lines of the keys setup manages
(``command``, ``args``) are replaced or added; defaults (``required``, ``startup_timeout_sec``) are
added when the table has none of its own; a person's other keys (``env``...) and its sub-tables
stay. A new table is appended at the end; ``remove`` takes out the table with its sub-tables.

Every edit is checked with ``tomllib``: the new text must parse, and parse to exactly the old
document with only that table changed. Anything else -- a file that is not valid TOML, the server
defined as an inline table or with dotted keys, a header inside a multi-line string -- is refused
with the table to add by hand, never written half-right.
"""

from __future__ import annotations

import copy
import json
import re
import tomllib
from typing import Any

from host_harness.integrations.edits import SetupError

ROOT = "mcp_servers"
HEADER_RE = re.compile(r"^[ \t]*(\[\[?)[ \t]*(?P<key>[^\[\]\n]+?)[ \t]*\]\]?[ \t]*(?:#[^\n]*)?$")
KEY_PART_RE = re.compile(r"""[ \t]*(?:"((?:[^"\\]|\\.)*)"|'([^']*)'|([A-Za-z0-9_-]+))[ \t]*""")


def table(name: str, values: dict[str, Any]) -> str:
    """The text of ``[mcp_servers.<name>]`` holding ``values``."""
    lines = [f"[{ROOT}.{_key(name)}]"] + [f"{_key(key)} = {_value(value)}" for key, value in values.items()]
    return "\n".join(lines) + "\n"


def put_table(text: str | None, name: str, values: dict[str, Any],
              defaults: dict[str, Any] | None = None) -> str:
    """``text`` with ``[mcp_servers.<name>]`` holding ``values`` and the ``defaults`` it lacks.

    The table's other keys are kept, and so is a value a person gave a key of ``defaults``.
    """
    old = text or ""
    before = _load(old, name, values)
    servers_now = before.get(ROOT)
    current = servers_now.get(name) if isinstance(servers_now, dict) else None
    current = current if isinstance(current, dict) else {}
    wanted = values | {key: value for key, value in (defaults or {}).items() if key not in current}
    lines = old.splitlines(keepends=True)
    span = _span(lines, name)
    if span is None:
        glue = "" if not old or old.endswith("\n") else "\n"
        spacer = "\n" if old.strip() and not old.endswith("\n\n") else ""
        new = old + glue + spacer + table(name, wanted)
    else:
        start, end = span
        body = _set_keys(lines[start + 1 : end], wanted)
        new = "".join(lines[: start + 1] + body + lines[end:])
    expected = copy.deepcopy(before)
    servers = expected.setdefault(ROOT, {})
    servers[name] = current | wanted
    _check(new, expected, name, wanted)
    return new


def drop_table(text: str | None, name: str) -> str | None:
    """``text`` without ``[mcp_servers.<name>]`` and its sub-tables (unchanged when it has none)."""
    if text is None:
        return None
    before = _load(text, name, {})
    lines = text.splitlines(keepends=True)
    span = _span(lines, name)
    if span is None:
        return text
    start, end = span
    while end > start + 1 and (not lines[end - 1].strip() or lines[end - 1].lstrip().startswith("#")):
        end -= 1  # trailing comments and blank lines belong to what follows
    while end < len(lines) and not lines[end].strip():
        end += 1
    if end == len(lines):
        while start > 0 and not lines[start - 1].strip():
            start -= 1
    new = "".join(lines[:start] + lines[end:])
    expected = copy.deepcopy(before)
    expected.get(ROOT, {}).pop(name, None)
    _check(new, expected, name, {})
    return new


def _span(lines: list[str], name: str) -> tuple[int, int] | None:
    """Line numbers ``[start, end)`` of the table and its sub-tables, or ``None``."""
    start = None
    for number, line in enumerate(lines):
        path = _header(line)
        if path is None:
            continue
        ours = path[:2] == (ROOT, name)
        if start is None and ours and len(path) == 2:
            start = number
        elif start is not None and not ours:
            return start, number
    return None if start is None else (start, len(lines))


def _set_keys(body: list[str], values: dict[str, Any]) -> list[str]:
    """The table's own lines (before any sub-table) with each key of ``values`` set."""
    own = next((i for i, line in enumerate(body) if _header(line) is not None), len(body))
    head, rest = body[:own], body[own:]
    for key, value in values.items():
        line = f"{_key(key)} = {_value(value)}\n"
        found = next((i for i, text in enumerate(head) if _assigns(text, key)), None)
        if found is None:
            last = max((i for i, text in enumerate(head) if _is_setting(text)),
                       default=-1)
            head.insert(last + 1, line)
            continue
        stop = found + 1
        while stop <= len(head) and not _parses("".join(head[found:stop])):
            stop += 1  # a value spread over several lines
        head[found:stop] = [line]
    return head + rest


def _is_setting(line: str) -> bool:
    return bool(line.strip()) and not line.lstrip().startswith("#")


def _assigns(line: str, key: str) -> bool:
    match = re.match(r"[ \t]*(\"[^\"]*\"|'[^']*'|[A-Za-z0-9_-]+)[ \t]*=", line)
    return match is not None and match.group(1).strip("\"'") == key


def _header(line: str) -> tuple[str, ...] | None:
    """The key path of a table header line (``[a.b]`` or ``[[a.b]]``), or ``None``."""
    match = HEADER_RE.match(line.rstrip("\r\n"))
    if match is None:
        return None
    parts = []
    for piece in _split_dots(match.group("key")):
        part = KEY_PART_RE.fullmatch(piece)
        if part is None:
            return None
        basic, literal, bare = part.groups()
        if basic is not None:
            parts.append(json.loads(f'"{basic}"'))
        else:
            parts.append(literal if literal is not None else bare)
    return tuple(parts)


def _split_dots(key: str) -> list[str]:
    parts, current, quote = [], "", ""
    for char in key:
        if quote:
            quote = "" if char == quote and not current.endswith("\\") else quote
        elif char in "\"'":
            quote = char
        elif char == ".":
            parts.append(current)
            current = ""
            continue
        current += char
    return [*parts, current]


def _parses(text: str) -> bool:
    try:
        tomllib.loads(text)
    except tomllib.TOMLDecodeError:
        return False
    return True


def _load(text: str, name: str, values: dict[str, Any]) -> dict[str, Any]:
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise SetupError(f"not valid TOML ({error}): not changed{_by_hand(name, values)}") from None


def _check(new: str, expected: dict[str, Any], name: str, values: dict[str, Any]) -> None:
    try:
        got = tomllib.loads(new)
    except tomllib.TOMLDecodeError as error:
        got = {"<invalid>": str(error)}
    if _normal(got) != _normal(expected):
        raise SetupError(f"[{ROOT}.{name}] is written in a form setup does not edit (an inline table, "
                         f"dotted keys, ...): not changed{_by_hand(name, values)}")


def _normal(doc: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in doc.items() if not (k == ROOT and v == {})}


def _by_hand(name: str, values: dict[str, Any]) -> str:
    return f"; add this by hand:\n{table(name, values)}" if values else f"; remove [{ROOT}.{name}] by hand"


def _key(key: str) -> str:
    return key if re.fullmatch(r"[A-Za-z0-9_-]+", key) else json.dumps(key)


def _value(value: Any) -> str:
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, list):
        return "[" + ", ".join(_value(item) for item in value) + "]"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return repr(value)
    raise TypeError(f"no TOML for {type(value).__name__}")
