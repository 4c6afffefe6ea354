"""Markdown instruction files as memories: one per bullet or paragraph, the headings above it as context.

CLAUDE.md, AGENTS.md, Cursor rules and Claude Code's memory files are Markdown written for an agent:
short bullets and paragraphs under headings. Each bullet (with its continuation lines) or paragraph
becomes one memory; the headings it sits under -- and, for a nested bullet, the bullet it hangs
from -- become its context (``Conventions > Testing``). A fenced code block belongs to the item
just before it in the same section (``Run the tests with:`` and the command), else it is an item of
its own. A paragraph or bullet that ends with a colon and introduces a list is context for that list,
not a memory. Tables and quotes are items as they are. Headings, rules, HTML comments and front matter
are not memories. A line that is only ``@path`` is a CLAUDE.md import of another file: it is
reported as skipped (import that file itself).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

HEADING_RE = re.compile(r"^ {0,3}(#{1,6})[ \t]+(.*?)[ \t]*#*[ \t]*$")
BULLET_RE = re.compile(r"^([ \t]*)(?:[-*+]|\d{1,9}[.)])[ \t]+(.*)$")
FENCE_RE = re.compile(r"^[ \t]*(`{3,}|~{3,})")
RULE_RE = re.compile(r"^ {0,3}([-*_])(?:[ \t]*\1){2,}[ \t]*$")
SETEXT_RE = re.compile(r"^ {0,3}(=+|-+)[ \t]*$")
IMPORT_RE = re.compile(r"^@[^\s@]+$")
COMMENT_RE = re.compile(r"<!--.*?-->", re.S)
MAX_CONTEXT_PARENT = 120


@dataclass(frozen=True)
class Found:
    """One memory found in a file, or one thing skipped (``skipped`` says why)."""

    text: str
    context: str
    where: str  # "CLAUDE.md:12"
    skipped: str | None = None


def front_matter(text: str) -> tuple[dict[str, str], str, int]:
    """``(fields, body, line number of the body)``: a leading ``---`` block of ``key: value`` lines.

    Values are kept as written (quotes taken off); an indented line continues the previous value
    (YAML's folded ``>`` and literal ``|`` blocks, and ``metadata:`` sub-keys as ``metadata.type``).
    """
    lines = text.split("\n")
    if not lines or lines[0].strip() != "---":
        return {}, text, 1
    end = next((i for i in range(1, len(lines)) if lines[i].strip() in ("---", "...")), None)
    if end is None:
        return {}, text, 1
    fields: dict[str, str] = {}
    parent = last = ""
    for line in lines[1:end]:
        match = re.match(r"^([ \t]*)([A-Za-z0-9_.-]+):[ \t]*(.*)$", line)
        if match and (not match.group(1) or parent):
            key = f"{parent}.{match.group(2)}" if match.group(1) and parent else match.group(2)
            value = match.group(3).strip()
            if not match.group(1):
                parent = match.group(2) if not value else ""
            last = key
            fields[key] = "" if value in (">", "|", ">-", "|-", ">+", "|+") else value.strip("\"'")
        elif line.strip() and last:
            fields[last] = f"{fields[last]} {line.strip()}".strip()
    return fields, "\n".join(lines[end + 1 :]), end + 2


def items(text: str, name: str, context: str = "", first_line: int = 1) -> list[Found]:
    """The memories of a Markdown ``text`` (``name`` for messages, ``context`` before its headings)."""
    return _Parser(name, context, first_line).run(COMMENT_RE.sub(_blank_lines, text))


class _Parser:
    """One pass over the lines: an open block (a bullet, a paragraph, a table or quote) at a time."""

    def __init__(self, name: str, context: str, first_line: int) -> None:
        self.name, self.base, self.first = name, context, first_line
        self.headings: list[tuple[int, str]] = []
        self.parents: list[tuple[int, str]] = []  # (indent, text) of the bullets above the open one
        self.kind = ""  # the open block: "bullet", "text" or "verbatim" (tables, quotes, code)
        self.block: list[str] = []
        self.code: list[str] = []  # fenced blocks that belong to the open block
        self.start = self.indent = 0
        self.out: list[Found] = []
        self.pending: tuple[str, int, Found] | None = None  # a lead ending with ":": (kind, indent, item)

    def run(self, text: str) -> list[Found]:
        lines = text.split("\n")
        number = 0
        while number < len(lines):
            fence = FENCE_RE.match(lines[number])
            if fence is None:
                self._line(lines[number], number)
                number += 1
                continue
            end = next((i for i in range(number + 1, len(lines))
                        if lines[i].strip().startswith(fence.group(1))), len(lines) - 1)
            self._code("\n".join(line.rstrip() for line in lines[number : end + 1]), number)
            number = end + 1
        self._close()
        self._settle()
        return self.out

    def _line(self, line: str, number: int) -> None:
        heading = HEADING_RE.match(line)
        bullet = BULLET_RE.match(line)
        stripped = line.strip()
        if not stripped:
            self._close()
        elif heading:
            self._heading(len(heading.group(1)), heading.group(2))
        elif self.kind == "text" and len(self.block) == 1 and SETEXT_RE.match(line):
            title, self.block = self.block[0], []
            self._heading(1 if stripped.startswith("=") else 2, title)
        elif RULE_RE.match(line):
            self._close()
        elif bullet:
            self._close()
            indent = len(bullet.group(1).expandtabs(4))
            lead = self.pending
            if lead is not None and (lead[0] == "text" or lead[1] < indent):
                self.pending = None  # it introduces this list: context, not a memory
                if lead[0] == "text":
                    self.parents = [(-1, lead[2].text)]
            self._settle()
            self.parents = [(i, t) for i, t in self.parents if i < indent]
            self._open("bullet", bullet.group(2).strip(), number, indent)
        elif stripped.startswith(("|", ">")):
            if self.kind != "verbatim":
                self._close()
                self._open("verbatim", "", number, 0)
            self.block.append(stripped.removeprefix(">").strip() if stripped[0] == ">" else stripped)
        elif self.kind in ("bullet", "text"):
            self.block.append(stripped)
        else:
            self._close()
            self._open("text", stripped, number, 0)

    def _open(self, kind: str, first: str, number: int, indent: int) -> None:
        self._settle()
        if kind != "bullet":
            self.parents = []
        self.kind, self.block, self.code = kind, [first] if first else [], []
        self.start, self.indent = number, indent

    def _heading(self, level: int, title: str) -> None:
        self._close()
        self._settle()
        self.headings = [(lvl, t) for lvl, t in self.headings if lvl < level] + [(level, title.strip())]
        self.parents = []

    def _code(self, block: str, number: int) -> None:
        """A fenced block: part of the open block, or of the item before it that ends with a colon."""
        if self.block:
            self.code.append(block)
            self._close()
            return
        if self.pending is not None:
            lead = self.pending[2]
            self.pending = None
            self.out.append(Found(f"{lead.text}\n{block}", lead.context, lead.where))
            return
        self._open("verbatim", block, number, 0)
        self._close()

    def _close(self) -> None:
        if not self.block:
            self.kind, self.code = "", []
            return
        text = ("\n" if self.kind == "verbatim" else " ").join(self.block).strip()
        text = "\n".join([text, *self.code])
        if self.kind == "text" and not self.code and IMPORT_RE.match(text):
            self._emit(text, "an @-import")
        elif self.kind in ("text", "bullet") and not self.code and text.endswith(":"):
            self.pending = (self.kind, self.indent, self._found(text))
        else:
            self._emit(text)
        if self.kind == "bullet":
            self.parents.append((self.indent, text))
        self.kind, self.block, self.code = "", [], []

    def _settle(self) -> None:
        """The pending lead introduced no list: it is a memory after all."""
        if self.pending is not None:
            self.out.append(self.pending[2])
            self.pending = None

    def _emit(self, text: str, skipped: str | None = None) -> None:
        self.out.append(self._found(text, skipped))

    def _found(self, text: str, skipped: str | None = None) -> Found:
        trail = [t for _, t in self.headings]
        if self.kind == "bullet":
            trail += [_short(t) for i, t in self.parents if i < self.indent]
        context = " > ".join(part for part in [self.base, *trail] if part)
        return Found(text, context, f"{self.name}:{self.first + self.start}", skipped)


def _short(text: str) -> str:
    return text if len(text) <= MAX_CONTEXT_PARENT else text[: MAX_CONTEXT_PARENT - 1].rstrip() + "…"


def _blank_lines(match: re.Match[str]) -> str:
    """An HTML comment replaced by as many line breaks (line numbers stay right)."""
    return "\n" * match.group(0).count("\n")
