"""Memories people already keep, read from their files: ``import --from KIND [PATH]`` (issue 26).

* ``claude-md`` -- a CLAUDE.md (PATH: the file, or a folder holding ``CLAUDE.md`` or
  ``.claude/CLAUDE.md``; default: the project);
* ``agents-md`` -- an AGENTS.md (the file, or a folder holding one);
* ``cursor-rules`` -- Cursor's ``.mdc`` rules (a file, a rules folder, or a project with
  ``.cursor/rules/``); each rule's ``description`` and ``globs`` go into the context;
* ``claude-memory`` -- Claude Code's auto-memory folder: ``MEMORY.md`` and its topic files (default:
  the project's folder under ``~/.claude/projects/``). A topic file is one memory (its body, its
  ``description`` as context); a line of ``MEMORY.md`` that only points at a topic file is reported
  as skipped, since the file itself is imported.

Parsing is the host's (it reads files): each file's whole text goes through the component's
``redact`` verb first, so a secret is redacted before a split or a join can move it out of reach;
the items go to the component's ``import`` verb, which owns ids and deduplication. Items are
checked against the component's limits first, so one oversized
paragraph is reported as skipped instead of failing its batch.
"""

from __future__ import annotations

import os
import re
import subprocess
from collections.abc import Callable
from pathlib import Path

from host_harness.contract import section
from host_harness.integrations.edits import home
from host_harness.integrations.markdown import Found, front_matter, items

KINDS = ("claude-md", "agents-md", "cursor-rules", "claude-memory")
# The component's limits on a memory's text and its context (contract.json: never restated, issue 46).
MAX_TEXT_BYTES: int = section("memory.limits").MAX_TEXT_BYTES
MAX_CONTEXT_BYTES: int = section("memory.bulk").MAX_CONTEXT_BYTES
LINK_RE = re.compile(r"^\[[^\]]*\]\(([^)\s]+\.md)\)")


class ImportSourceError(Exception):
    """The source cannot be read (missing, not a file of the kind, not UTF-8)."""


def find(
    kind: str, path: Path | None, project: Path, limit: int = 0, clean: Callable[[str], str] | None = None
) -> list[Found]:
    """Every memory (and every skipped part) of ``kind`` at ``path`` (default: the project's own).

    A text over ``limit`` bytes (default: the component's :data:`MAX_TEXT_BYTES`) is skipped as too
    long; ``import --split`` passes the larger limit of a text the component cuts into memories.
    ``clean``: applied to each file's whole text before it is split into items (the component's
    ``redact``: a key split from its header, or a line joined to the next, is out of its reach).
    """
    def read(file: Path) -> str:
        text = _read(file)
        return clean(text) if clean is not None else text

    if kind == "cursor-rules":
        found = _cursor_rules(path or project, project, read)
    elif kind == "claude-memory":
        found = _claude_memory(path or memory_folder(project), project, read)
    else:
        name = "CLAUDE.md" if kind == "claude-md" else "AGENTS.md"
        alternatives = [name, f".claude/{name}"] if kind == "claude-md" else [name]
        file = _one_file(path or project, alternatives)
        found = items(read(file), _shown(file, project), _shown(file, project))
    return [_checked(item, limit or MAX_TEXT_BYTES) for item in _unique(found)]


def memory_folder(project: Path) -> Path:
    """Claude Code's auto-memory folder of a project: ``<config>/projects/<its git root, dashed>/memory``."""
    done = subprocess.run(["git", "rev-parse", "--show-toplevel"], cwd=project, capture_output=True,
                          text=True, check=False)
    root = Path(done.stdout.strip()) if done.returncode == 0 and done.stdout.strip() else project
    config = Path(os.environ.get("CLAUDE_CONFIG_DIR") or home() / ".claude")
    return config / "projects" / re.sub(r"[^A-Za-z0-9]", "-", str(root.resolve())) / "memory"


def _cursor_rules(path: Path, project: Path, read: Callable[[Path], str]) -> list[Found]:
    if path.is_dir() and (path / ".cursor" / "rules").is_dir():
        path = path / ".cursor" / "rules"
    files = [path] if path.is_file() else sorted(path.rglob("*.mdc")) if path.is_dir() else []
    if not files:
        raise ImportSourceError(f"no Cursor rules (*.mdc) at {path}")
    out = []
    for file in files:
        fields, body, first = front_matter(read(file))
        context = _shown(file, project)
        if fields.get("description"):
            context += f": {fields['description']}"
        if fields.get("globs"):
            context += f" (globs: {fields['globs']})"
        out += items(body, _shown(file, project), context, first)
    return out


def _claude_memory(path: Path, project: Path, read: Callable[[Path], str]) -> list[Found]:
    folder = path.parent if path.is_file() else path
    if not folder.is_dir():
        raise ImportSourceError(f"no Claude Code memory folder at {path} (give the folder of MEMORY.md)")
    topics = sorted(p for p in folder.glob("*.md") if p.name != "MEMORY.md")
    out = []
    index = folder / "MEMORY.md"
    if index.is_file():
        for item in items(read(index), _shown(index, project), "MEMORY.md"):
            link = LINK_RE.match(item.text)
            if link and (folder / link.group(1)).resolve() in {t.resolve() for t in topics}:
                item = Found(item.text, item.context, item.where, "points at a topic file")
            out.append(item)
    for topic in topics:
        fields, body, first = front_matter(read(topic))
        label = fields.get("description") or fields.get("name") or topic.stem
        kind = fields.get("metadata.type") or fields.get("type")
        context = f"{topic.name}: {label}" + (f" ({kind})" if kind else "")
        text = body.strip()
        if text:
            out.append(Found(text, context, f"{_shown(topic, project)}:{first}"))
    return out


def _one_file(path: Path, names: list[str]) -> Path:
    if path.is_file():
        return path
    for name in names:
        if (path / name).is_file():
            return path / name
    raise ImportSourceError(f"no {' or '.join(names)} at {path}")


def _read(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8-sig").replace("\r\n", "\n")
    except UnicodeDecodeError as error:
        raise ImportSourceError(f"{path} is not UTF-8 text: {error}") from None
    except OSError as error:
        raise ImportSourceError(f"cannot read {path}: {error}") from None


def _shown(path: Path, project: Path) -> str:
    try:
        return str(path.resolve().relative_to(project.resolve()))
    except ValueError:
        return path.name


def _unique(found: list[Found]) -> list[Found]:
    """Later copies of a text are reported as skipped (the component would store it once)."""
    seen: dict[str, str] = {}
    out = []
    for item in found:
        if item.skipped is None and item.text in seen:
            item = Found(item.text, item.context, item.where, "a repeat")
        elif item.skipped is None:
            seen[item.text] = item.where
        out.append(item)
    return out


def _checked(item: Found, limit: int) -> Found:
    """``item``, or ``item`` skipped as too long for the component."""
    if item.skipped is not None:
        return item
    size = len(item.text.encode("utf-8"))
    if size > limit:
        return Found(item.text, item.context, item.where, "too long")
    context = item.context
    while len(context.encode("utf-8")) > MAX_CONTEXT_BYTES:
        context = context[: len(context) * 3 // 4]
    return Found(item.text, context, item.where)
