"""``rs-learn-host capture`` and ``review``: capture from a saved transcript; see what was captured.

``capture --transcript FILE`` runs what the Claude Code hooks run in the background
(``host_harness/capture/run.py``) over any saved transcript, from where the last run over that file
stopped; ``review`` lists what capture stored, newest first, with the commands to drop or release it.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click

from host_harness.capture.run import capture as run_capture
from host_harness.cli.correct import describe
from host_harness.guests.session import Session, echo_json
from host_harness.store.config import ConfigError


@click.command("capture")
@click.option(
    "-t",
    "--transcript",
    "path",
    required=True,
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    help="A Claude Code transcript (JSONL, as under ~/.claude/projects/).",
)
@click.option("--session", "session_id", help="The session's id (default: the transcript's own).")
@click.option(
    "--archive",
    is_flag=True,
    help="Also archive the big blocks seen since the last archive (what PreCompact does).",
)
@click.option("--json", "as_json", is_flag=True, help="Print what was read and stored as JSON.")
@click.pass_obj
def capture(session: Session, path: Path, session_id: str | None, archive: bool, as_json: bool) -> None:
    """Capture rules, lessons and the session note from TRANSCRIPT, with no model call.

    Reads from where the last capture of this file stopped. The rules the user stated in
    their own prompts become memories, a failed command fixed by edits becomes a lesson,
    and the session's note (files edited, commands run, branch, open todos) is written or
    replaced; with --archive the big tool results, files and pastes are archived verbatim
    too. Each kind can be turned off in .gm/config.json ({"capture": {"lessons": false}}).

    \b
    Examples:
      rs-learn-host capture --transcript ~/.claude/projects/-home-me-app/0b6f….jsonl
      rs-learn-host capture --transcript saved.jsonl --archive --json
    """
    try:
        report = run_capture(session.project, path, session.dispatch, session=session_id, archive=archive)
    except ConfigError as error:
        raise click.ClickException(str(error)) from None
    if as_json:
        echo_json(report.as_json())
        return
    new = [d for d in report.directives if not d.get("deduped")]
    learned = [d for d in report.lessons if not d.get("deduped")]
    archived = [b for b in report.blocks if b.get("archived")]
    click.echo(
        f"read {report.read_bytes:,} bytes ({report.entries} entries) of session {report.session}: "
        f"{len(new)} rule(s), {len(learned)} lesson(s), {len(archived)} block(s) archived"
        + (f", note {report.note['id']}" if report.note else "")
    )
    for item in new + learned:
        replaced = f" (supersedes {', '.join(item['supersedes'])})" if item.get("supersedes") else ""
        click.echo(f"  {item['kind']}: {item['id']}{replaced}")
    for block in archived:
        click.echo(f"  block: {block['id']} {block['label']}")
    if report.off:
        click.echo(f"off: {', '.join(report.off)}")


@click.command("review")
@click.option("--session", "session_id", help="Only what this session captured.")
@click.option("-l", "--limit", type=click.IntRange(1, 200), default=50, show_default=True)
@click.option("--json", "as_json", is_flag=True, help="Print the memories as JSON.")
@click.pass_obj
def review(session: Session, session_id: str | None, limit: int, as_json: bool) -> None:
    """Show what capture stored (rules and lessons), newest first, and how to drop or keep it.

    \b
    Examples:
      rs-learn-host review
      rs-learn-host review --session 0b6f1c2e-… --json
    """
    body: dict[str, Any] = {
        "captured": True,
        "limit": limit,
        **({"session": session_id} if session_id else {}),
    }
    data = session.dispatch("list_memories", body)
    if as_json:
        echo_json(data)
        return
    if not data["memories"]:
        click.echo("Nothing captured" + (f" in session {session_id}." if session_id else "."))
        return
    for memory in data["memories"]:
        click.echo(describe(memory))
    held = any(memory.get("quarantined") for memory in data["memories"])
    click.echo(
        "Drop one: rs-learn-host forget ID" + (" · release one: rs-learn-host approve ID" if held else "")
    )
