"""One capture run over a transcript: read from the saved offset, decide, store through the guest.

:func:`capture` is what ``rs-learn-host capture --transcript FILE`` and the hooks' background runs
do: under the transcript's lock, read the lines after the saved offset, find the directives and
lessons in them (``host_harness/capture/extract.py``), send them, the session note and -- with
``archive`` (a compaction is coming) -- the pending big blocks to the guest's ``capture`` verb, then
save the new offset. Nothing is sent for a kind that is switched off
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

from host_harness.capture import extract, state, transcript
from host_harness.capture.switches import Switches, switches

MAX_BLOCK_BYTES = 256 * 1024  # an archived block keeps at most this much of a huge result
MAX_BATCH_BYTES = 1_500_000  # one capture request (the guest takes 2 MiB bodies)
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

    def as_json(self) -> dict[str, Any]:
        """The report as JSON (``capture --json``)."""
        return dict(vars(self))


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
    with state.locked(project, path):
        saved = state.load(project, path)
        tracker = saved.tracker or extract.Tracker()
        entries, offset = transcript.read_from(path, saved.offset)
        report.read_bytes, report.entries = offset - min(saved.offset, offset), len(entries)
        found = extract.scan(entries, tracker, project, on.block_bytes)
        report.session = session = session or tracker.session or path.stem
        body: dict[str, Any] = {"session": session}
        if on.directives and found.directives:
            body["directives"] = [_item(text, at) for text, at in found.directives]
        if on.lessons and found.lessons:
            body["lessons"] = [_item(text, at) for text, at in found.lessons]
        note = extract.note_of(tracker, commit(project)) if on.notes and tracker.changed else None
        if note is not None:
            body["note"] = note
            tracker.changed = False
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
        saved.offset, saved.tracker = offset, tracker
        state.save(project, path, saved)
    return report


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
        text = transcript.prompt_text(content)
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


def batches(blocks: list[dict[str, Any]]) -> list[list[dict[str, Any]]]:
    """``blocks`` in requests of at most :data:`MAX_BATCH_BYTES` (escaped), in order."""
    out: list[list[dict[str, Any]]] = []
    size = MAX_BATCH_BYTES
    for block in blocks:
        cost = len(json.dumps(block, ensure_ascii=False).encode("utf-8")) + 2
        if size + cost > MAX_BATCH_BYTES:
            out.append([])
            size = 0
        out[-1].append(block)
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
