"""``rs-learn-host capture``, ``review`` and capture's hooks: capture from a transcript, see what was kept.

``capture --transcript FILE`` runs what the Claude Code hooks run in the background
(``host_harness/capture/run.py``) over any saved transcript, from where the last run over that file
stopped; ``review`` lists what capture stored, newest first, with the commands to drop or release it.
``hook pre-compact``, ``hook stop``, ``hook session-end`` and ``hook session-context`` are the Claude Code
hooks of ``host_harness/capture/hooks.py``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click

from host_harness.capture import EVENTS
from host_harness.capture.run import capture as run_capture
from host_harness.cli.correct import describe
from host_harness.cli.hook import _run, budget, timeout_option
from host_harness.cli.spec import verb_option
from host_harness.config import ConfigError
from host_harness.hooks.protocol import arm, leave
from host_harness.targets.session import Session, echo_json


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
    except (ConfigError, OSError) as error:
        raise click.ClickException(str(error)) from None
    for line in report.skipped:  # said on stderr: .gm/logs/capture.log for the hooks' runs
        click.echo(f"skipped the line at byte {line.offset:,} of {path}: {line.reason}", err=True)
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
@click.option("--session", "session_id", metavar="ID",
              help="Only what this session captured (or the sessions whose id starts with ID, as listed).")
@verb_option("list_memories", "limit", "-l", "--limit", default=50,
             help="Show at most this many captured memories.")
@click.option("--json", "as_json", is_flag=True, help="Print the memories as JSON.")
@click.pass_obj
def review(session: Session, session_id: str | None, limit: int, as_json: bool) -> None:
    """Show what capture stored (rules and lessons), newest first, and how to drop or keep it.

    \b
    Examples:
      rs-learn-host review
      rs-learn-host review --session 0b6f1c2e --json
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


def _capture_hook(name: str) -> click.Command:
    """``hook pre-compact`` / ``hook stop`` / ``hook session-end``: start a capture run, print nothing."""
    event = EVENTS[name]

    archives = " Before a compaction the big blocks are archived too." if name == "pre-compact" else ""
    text = (
        f"Read a {event} event on stdin; capture its transcript in the background.\n\nPrints nothing and "
        "always exits 0; reasons go to <project>/.gm/logs/hook.log, what the capture run says to "
        f".gm/logs/capture.log.{archives}"
    )

    @click.command(name, help=text)
    @timeout_option(name)
    @click.pass_obj
    def command(session: Session, timeout: float) -> None:
        arm(timeout)
        from host_harness.capture.hooks import hand_off  # the hooks' own imports: only when one runs

        hand_off(name, session.project, session.wasm)
        leave("")

    return command


@click.command("session-context")
@budget("session-context", "archive index or session note")
@timeout_option("session-context")
@click.pass_obj
def session_context(session: Session, budget: int, timeout: float) -> None:
    """Read a SessionStart event on stdin; print what capture kept for the new context.

    After a compaction (source: compact): the index of the blocks archived before it
    ("r7 — `pytest -x` output (4.1 KB) · …"). At any other start: where the last
    session of the project stopped (its note). Always exits 0.

    \b
    Example:
      echo '{"cwd": ".", "source": "startup"}' | rs-learn-host hook session-context
    """
    from host_harness.capture.hooks import CaptureContextHook  # the hooks' own imports: only when one runs

    _run(CaptureContextHook, session, budget, timeout)


HOOK_COMMANDS = [_capture_hook(name) for name in ("pre-compact", "stop", "session-end")] + [session_context]
