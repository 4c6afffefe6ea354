"""``rs-learn-host import --from KIND [PATH]``: CLAUDE.md, AGENTS.md, Cursor rules, Claude's auto-memory.

The files are read here (``host_harness/integrations/importers.py``); the memories are stored by the
component's ``import`` verb in batches, so ids are content-addressed and a second import stores
nothing. ``--dry-run`` asks the same verb what it would store and stores nothing.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

import click

from host_harness.guests.session import Session, echo_json
from host_harness.integrations.importers import ImportSourceError, find
from host_harness.integrations.markdown import Found

BATCH = 500
MAX_BATCH_BYTES = 1_800_000  # under the guest's 2 MiB body limit
MAX_REDACT_BYTES = 1_800_000  # one redact call's text


def import_existing(session: Session, kind: str, path: Path | None, namespace: str | None, dry_run: bool,
                    as_json: bool) -> None:
    """Import the memories of ``kind`` found at ``path``; print what happened (or would)."""
    redacted: Counter[str] = Counter()

    def clean(text: str) -> str:  # redacted whole, before the file is split into items
        out = []
        for part in _parts(text):
            data = session.dispatch("redact", {"text": part})
            redacted.update(data.get("redacted", {}))
            out.append(str(data["text"]))
        return "".join(out)

    try:
        found = find(kind, path, session.project, clean)
    except ImportSourceError as error:
        raise click.ClickException(str(error)) from None
    if redacted:
        kinds = ", ".join(f"{name} x{n}" for name, n in sorted(redacted.items()))
        click.echo(f"secrets redacted: {kinds}", err=True)
    wanted = [item for item in found if item.skipped is None]
    fresh: set[int] = set()
    stored = 0
    for first, chunk in _batches(wanted):
        memories = [{"text": item.text, "context": item.context or None, "source": kind} for item in chunk]
        body: dict[str, Any] = {"memories": memories, "dry_run": dry_run}
        if namespace:
            body["namespace"] = namespace
        data = session.dispatch("import", body)
        stored += int(data["imported"])
        fresh |= {first + index for index in data.get("new", [])} if dry_run else set()
    skipped = Counter(item.skipped for item in found if item.skipped is not None)
    summary = _summary(stored, len(wanted) - stored, skipped)
    if as_json:
        echo_json({"found": len(found), "new": stored, "already_stored": len(wanted) - stored,
                   "skipped": [{"where": i.where, "reason": i.skipped} for i in found if i.skipped],
                   "dry_run": dry_run})
        return
    if dry_run:
        _show(found, wanted, fresh)
        click.echo(f"dry run: {summary} (nothing stored)")
    else:
        click.echo(summary)


def _parts(text: str) -> list[str]:
    """``text`` in parts of at most :data:`MAX_REDACT_BYTES`: one part, unless the file is huge.

    A part ends after a blank line where it can (an armored key holds one, but not megabytes).
    """
    parts: list[str] = []
    while len(text.encode("utf-8")) > MAX_REDACT_BYTES:
        head = text[: MAX_REDACT_BYTES // 4]  # at most 4 bytes a character: within the limit
        blank, line = head.rfind("\n\n"), head.rfind("\n")
        cut = blank + 2 if blank > 0 else line + 1 if line > 0 else len(head)
        parts.append(text[:cut])
        text = text[cut:]
    return [*parts, text]


def _summary(new: int, already: int, skipped: Counter[str]) -> str:
    parts = [f"{new:,} new", f"{already:,} already stored"]
    parts += [f"{count:,} skipped: {reason}" for reason, count in sorted(skipped.items(), key=str)]
    return ", ".join(parts)


def _show(found: list[Found], wanted: list[Found], fresh: set[int]) -> None:
    """One line per item: ``+`` would be stored, ``=`` already stored, ``-`` skipped (and why)."""
    position = {id(item): index for index, item in enumerate(wanted)}
    for item in found:
        first_line = item.text.split("\n", 1)[0]
        text = first_line if len(first_line) <= 100 else first_line[:99] + "…"
        if item.skipped is not None:
            click.echo(f"- {item.where}: skipped, {item.skipped}: {text}")
            continue
        mark = "+" if position[id(item)] in fresh else "="
        context = f"  [{item.context}]" if item.context else ""
        click.echo(f"{mark} {item.where}: {text}{context}")


def _batches(items: list[Found]) -> list[tuple[int, list[Found]]]:
    """``(index of the first item, items)`` chunks of at most :data:`BATCH` items and ~1.8 MB."""
    out: list[tuple[int, list[Found]]] = []
    chunk: list[Found] = []
    first = used = 0
    for index, item in enumerate(items):
        size = len(item.text.encode("utf-8")) + len(item.context.encode("utf-8")) + 64
        if chunk and (len(chunk) == BATCH or used + size > MAX_BATCH_BYTES):
            out.append((first, chunk))
            chunk, first, used = [], index, 0
        chunk.append(item)
        used += size
    if chunk:
        out.append((first, chunk))
    return out
