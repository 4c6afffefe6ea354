"""One capture run over a transcript: read from the saved offset, decide, store through the guest.

:func:`capture` is what ``rs-learn-host capture --transcript FILE`` and the hooks' background runs
do: under the transcript's lock, read the lines after the saved offset, find the directives and
lessons in them (``host_harness/capture/extract.py``), send them, the session note and -- with
``archive`` (a compaction is coming) -- the pending big blocks to the guest's ``capture`` verb, then
save the new offset and what the next run needs, its texts redacted by the guest (``redact``: the
state file never holds a secret the guest's catalogue knows). A transcript that is not a regular file
is refused before the lock is taken; a line that cannot be read is skipped and reported
(:attr:`Report.skipped`). Nothing is sent for a kind that is switched off
(:mod:`host_harness.capture.switches`); nothing is ever sent to a model.
"""

from __future__ import annotations

import json
import subprocess
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from host_harness.capture import extract, jsonl, state, transcript
from host_harness.capture.switches import Switches, switches

MAX_BLOCK_BYTES = 256 * 1024  # an archived block keeps at most this much of a huge result
MAX_BATCH_BYTES = 1_500_000  # one capture request (the guest takes 2 MiB bodies)
MAX_REDACT_TEXTS = 5000  # the guest's redact {texts} limit
MAX_ITEMS = 500  # the guest's limit of directives, lessons or blocks in one capture request
Dispatch = Callable[[str, dict[str, Any]], Any]


@dataclass
class Report:
    """What a run read and stored."""

    transcript: str
    session: str | None = None
    read_bytes: int = 0
    entries: int = 0
    directives: list[dict[str, Any]] = field(default_factory=list)
    lessons: list[dict[str, Any]] = field(default_factory=list)
    blocks: list[dict[str, Any]] = field(default_factory=list)
    note: dict[str, Any] | None = None
    off: list[str] = field(default_factory=list)
    skipped: list[jsonl.Skipped] = field(default_factory=list)  # lines that could not be read

    def as_json(self) -> dict[str, Any]:
        """The report as JSON (``capture --json``)."""
        return {**vars(self), "skipped": [line.as_json() for line in self.skipped]}


def capture(
    project: Path,
    path: Path,
    dispatch: Dispatch,
    *,
    session: str | None = None,
    archive: bool = False,
    chosen: Switches | None = None,
) -> Report:
    """Capture what ``path`` holds beyond its saved offset (``archive``: and archive its pending blocks)."""
    try:
        return _capture(project, path, dispatch, session, archive, chosen)
    finally:
        state.done(project, path)  # a hook's pending mark


def _capture(
    project: Path, path: Path, dispatch: Dispatch, session: str | None, archive: bool, chosen: Switches | None
) -> Report:
    on = chosen if chosen is not None else switches(project)
    report = Report(str(path), off=on.off())
    if on.all_off():
        return report
    jsonl.check_regular(path)  # a FIFO or a device: refused before the lock, never waited on
    with state.locked(project, path):
        saved = state.load(project, path)
        tracker = saved.tracker or extract.Tracker()
        reader = transcript.Reader(path, saved.offset)
        found = extract.scan(reader, tracker, project, on.block_bytes)
        offset = reader.offset
        report.read_bytes, report.entries = offset - reader.start, reader.entries
        report.skipped = reader.skipped
        report.session = session = session or tracker.session or path.stem
        bodies: list[dict[str, Any]] = [{"session": session}]
        for kind, wanted, items in (("directives", on.directives, found.directives),
                                    ("lessons", on.lessons, found.lessons)):
            for batch in batches([_item(text, at) for text, at in items] if wanted else []):
                bodies.append({"session": session, kind: batch})
        note = extract.note_of(tracker, commit(project)) if on.notes and tracker.changed else None
        if note is not None:
            bodies[0]["note"] = note
            tracker.changed = False
        for body in bodies:
            if len(body) > 1:
                _stored(report, dispatch("capture", body))
        if archive and on.archive and tracker.blocks:
            blocks = [b for b in (block_of(path, p) for p in tracker.blocks) if b is not None]
            compaction = str(int(time.time() * 1000))
            for batch in batches(blocks):
                _stored(
                    report,
                    dispatch("capture", {"session": session, "compaction": compaction, "blocks": batch}),
                )
        if archive or not on.archive:
            tracker.blocks = []  # archived, or never will be
        tracker.redact(lambda texts: _redacted(dispatch, texts))
        saved.offset, saved.tracker = offset, tracker
        state.save(project, path, saved)
    return report


def _redacted(dispatch: Dispatch, texts: list[str]) -> list[str]:
    """``texts`` as the guest redacts them (a ``redact {texts}`` call per batch of them)."""
    out: list[str] = []
    for batch in batches(texts, MAX_REDACT_TEXTS):
        out += dispatch("redact", {"texts": batch})["texts"]
    return out


def _item(text: str, at: int | None) -> dict[str, Any]:
    return {"text": text, **({"at": at} if at is not None else {})}


def _stored(report: Report, data: dict[str, Any]) -> None:
    report.directives += data.get("directives", [])
    report.lessons += data.get("lessons", [])
    report.blocks += data.get("blocks", [])
    report.note = data.get("note") or report.note


def block_of(path: Path, pending: dict[str, Any]) -> dict[str, Any] | None:
    """The block a pending entry points at, re-read from the transcript (``None`` when it is gone)."""
    line = transcript.read_line(path, pending["offset"], pending["length"])
    if line is None:
        return None
    message = line.get("message")
    content = message.get("content") if isinstance(message, dict) else None
    kind, _, ident = str(pending["part"]).partition(":")
    text = ""
    if kind == "prompt":
        text = transcript.prompt_block(line)
    elif isinstance(content, list):
        for block in content:
            if not isinstance(block, dict):
                continue
            if kind == "result" and block.get("tool_use_id") == ident:
                text = transcript.result_text(block)
            elif kind == "use" and block.get("id") == ident and isinstance(block.get("input"), dict):
                data = block["input"]
                written = data.get("content") or data.get("new_string") or data.get("new_source")
                text = written if isinstance(written, str) else ""
    if not text.strip():
        return None
    label, raw = pending["label"], text.encode("utf-8")
    if len(raw) > MAX_BLOCK_BYTES:
        text = raw[:MAX_BLOCK_BYTES].decode("utf-8", "ignore")
        label = f"{label} (first {MAX_BLOCK_BYTES // 1024} KB of {len(raw) // 1024} KB)"
    return {"label": label, "content": text, **({"at": pending["at"]} if pending.get("at") else {})}


def batches(items: list[Any], most: int = MAX_ITEMS) -> list[list[Any]]:
    """``items`` in requests of at most :data:`MAX_BATCH_BYTES` (as JSON) and ``most`` items, in order."""
    out: list[list[Any]] = []
    size = MAX_BATCH_BYTES
    for item in items:
        cost = len(json.dumps(item, ensure_ascii=False).encode("utf-8", "surrogatepass")) + 2
        if size + cost > MAX_BATCH_BYTES or len(out[-1]) >= most:
            out.append([])
            size = 0
        out[-1].append(item)
        size += cost
    return out


def commit(project: Path) -> str | None:
    """The project's checked-out commit (short), when it is a git work tree."""
    try:
        done = subprocess.run(
            ["git", "-C", str(project), "rev-parse", "--short", "HEAD"],
            capture_output=True,
            text=True,
            timeout=5,
            check=False,
        )
    except (OSError, subprocess.SubprocessError):
        return None
    return done.stdout.strip() or None if done.returncode == 0 else None
