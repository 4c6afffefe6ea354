"""``rs-learn-host import --from KIND [PATH]``: CLAUDE.md, AGENTS.md, Cursor rules, Claude's auto-memory.

The files are read here (``host_harness/integrations/importers.py``); the memories are stored by the
component's ``import`` verb in batches, so ids are content-addressed and a second import stores
nothing. ``--dry-run`` asks the same verb what it would store and stores nothing.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import click

from host_harness.contract import section
from host_harness.integrations.importers import ImportSourceError, find
from host_harness.integrations.markdown import Found
from host_harness.store import Project
from host_harness.store.enabled_list import BadName, EnabledList
from host_harness.targets.session import Session, echo_json

BATCH = 500
# What the guest lets one import line hold (contract.json, never restated: issue 46), which keeps a batch
# of that many bytes under its 2 MiB body limit.
MAX_BATCH_BYTES: int = section("memory.bulk").MAX_SPLIT_BYTES
MAX_SPLIT_BYTES = MAX_BATCH_BYTES - 100_000  # a text the component cuts into memories, in one batch
MAX_REDACT_BYTES = MAX_BATCH_BYTES  # one redact call's text


@dataclass
class ImportOptions:
    """What the user asked of one import (both kinds: JSON lines and ``--from``)."""

    namespace: str | None
    dry_run: bool
    as_json: bool
    with_ids: bool
    split: bool
    origin: dict[str, Any] = field(default_factory=lambda: {"kind": "imported", "reviewed": False})

    def body(self, memories: list[dict[str, Any]]) -> dict[str, Any]:
        """The ``import`` verb's body for one batch: an item that cannot be stored is skipped, not fatal."""
        body: dict[str, Any] = {"memories": memories, "dry_run": self.dry_run, "skip_invalid": True,
                                "ids": True, "split": self.split, "origin": self.origin}
        if self.namespace:
            body["namespace"] = self.namespace
        return body


@dataclass
class Totals:
    """The sums of every batch's answer, and what was skipped (``{"where", "reason"}``)."""

    lines: int
    imported: int = 0
    deduped: int = 0
    embedded: int = 0
    forgotten: int = 0
    quarantined: int = 0
    redacted: Counter[str] = field(default_factory=Counter)
    skipped: list[dict[str, Any]] = field(default_factory=list)
    ids: list[str] = field(default_factory=list)
    namespaces: Counter[str] = field(default_factory=Counter)

    def add(self, data: dict[str, Any], where: Callable[[int], str]) -> None:
        """Add one batch's answer; ``where(i)`` names the batch's item ``i`` (``FILE:LINE``)."""
        self.imported += int(data.get("imported", 0))
        self.deduped += int(data.get("deduped", 0))
        self.embedded += int(data.get("embedded", 0))
        self.forgotten += int(data.get("forgotten", 0))
        self.quarantined += int(data.get("quarantined", 0))
        self.redacted.update(data.get("redacted", {}))
        self.skipped += [{"where": where(item["index"]), "reason": item["error"]}
                         for item in data.get("skipped", [])]
        self.ids += data.get("ids", [])
        self.namespaces.update(data.get("namespaces", {}))

    def as_json(self, options: ImportOptions) -> dict[str, Any]:
        """The counts of ``import --json``."""
        out: dict[str, Any] = {"lines": self.lines, "imported": self.imported, "deduped": self.deduped,
                               "embedded": self.embedded, "forgotten": self.forgotten,
                               "redacted": dict(sorted(self.redacted.items())),
                               "quarantined": self.quarantined, "skipped": self.skipped}
        if options.with_ids:
            out["ids"] = self.ids
        return out | ({"dry_run": True} if options.dry_run else {})

    def screened(self) -> str:
        """``; secrets redacted: kind x n; quarantined n`` for the summary line, or ``""``."""
        out = ""
        if self.redacted:
            out += "; secrets redacted: " + ", ".join(f"{k} x{n}" for k, n in sorted(self.redacted.items()))
        if self.quarantined:
            out += f"; quarantined {self.quarantined:,} (see `rs-learn-host quarantined`)"
        return out

    def show_skipped(self) -> None:
        """Each skipped line or item on stderr: ``FILE:LINE: reason; skipped``."""
        for item in self.skipped:
            click.echo(f"{item['where']}: {item['reason']}; skipped", err=True)

    def show(self, summary: str, notes: list[str], with_ids: bool) -> None:
        """The summary and the notes; with ``with_ids`` the ids alone on stdout, the rest on stderr."""
        for memory_id in self.ids if with_ids else []:
            click.echo(memory_id)
        for line in [summary, *notes]:
            click.echo(line, err=with_ids)


def known_disciplines(session: Session) -> set[str]:
    """The disciplines the project knows now (folders, enabled.txt, a PostgreSQL store's rows)."""
    return set(Project(session.project).known_disciplines()) | set(session.stored_disciplines())


def settle_disciplines(session: Session, before: set[str], stored: Counter[str], dry_run: bool) -> list[str]:
    """Enable each discipline the import created; say how to enable an existing disabled one.

    Imported memories are meant to be recalled: a discipline that did not exist before is enabled
    (as `discipline enable` does); one the project had and keeps disabled stays as the user chose.
    """
    project = Project(session.project)
    enabled = set(project.enabled_disciplines())
    notes = []
    for name in sorted(set(stored) - {"default"} - enabled):
        if name in before:
            notes.append(f"discipline {name} is disabled: recall searches its {stored[name]:,} new memories "
                         f"only when asked (@{name}); `rs-learn-host discipline enable {name}` to search it")
        elif dry_run:
            notes.append(f"would enable the new discipline {name} (recall would search it)")
        else:
            try:
                EnabledList(project).enable(name)
            except (BadName, OSError) as error:
                notes.append(f"discipline {name} could not be enabled: {error}")
                continue
            notes.append(f"enabled the new discipline {name}: recall searches it "
                         f"(`rs-learn-host discipline disable {name}` to stop)")
    return notes


def import_existing(session: Session, kind: str, path: Path | None, options: ImportOptions) -> None:
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
        found = find(kind, path, session.project, MAX_SPLIT_BYTES if options.split else 0, clean)
    except ImportSourceError as error:
        raise click.ClickException(str(error)) from None
    wanted = [item for item in found if item.skipped is None]
    totals = Totals(len(found), redacted=redacted)  # what the files' whole-text redaction found
    before = known_disciplines(session)
    fresh: set[int] = set()
    for first, chunk in _batches(wanted):
        memories = [{"text": item.text, "context": item.context or None, "source": kind} for item in chunk]
        data = session.dispatch("import", options.body(memories))
        totals.add(data, lambda index: chunk[index].where)  # noqa: B023 (used at once)
        fresh |= {first + index for index in data.get("new", [])} if options.dry_run else set()
    stored = totals.imported
    already = max(0, len(wanted) - len(totals.skipped) - stored)
    notes = settle_disciplines(session, before, totals.namespaces, options.dry_run)
    if options.as_json:
        passed = [{"where": i.where, "reason": i.skipped} for i in found if i.skipped is not None]
        echo_json({"found": len(found), "new": stored, "already_stored": already,
                   "skipped": passed + totals.skipped,
                   "redacted": dict(sorted(totals.redacted.items())), "quarantined": totals.quarantined,
                   **({"ids": totals.ids} if options.with_ids else {}), "dry_run": options.dry_run,
                   **({"disciplines": notes} if notes else {})})
    else:
        skipped = Counter(item.skipped for item in found if item.skipped is not None)
        skipped.update(["cannot be stored"] * len(totals.skipped))
        summary = _summary(stored, already, skipped) + totals.screened()
        if options.dry_run:
            _show(found, wanted, fresh)
            summary = f"dry run: {summary} (nothing stored)"
        totals.show_skipped()
        totals.show(summary, notes, options.with_ids)
    if totals.skipped:
        raise click.exceptions.Exit(1)


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
