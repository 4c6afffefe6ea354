"""``rs-learn-host why``: what the prompt-submit hook injected, and why, read from its ledger (issue 28).

Every hook run appends one line to ``.gm/logs/ledger.jsonl`` (``host_harness/hooks/prompt_ledger.py``);
this command renders the last ones for a person: the query, the memories injected with their
channel scores, those left out and why, tokens and time -- or why nothing was injected. It reads a
local file only: no component, no store.
"""

from __future__ import annotations

from typing import Any

import click

from host_harness.hooks import prompt_ledger
from host_harness.targets.session import Session, echo_json

WHY_NOT = {
    "budget": "over the token budget",
    "gate": "below the relevance gate",
    "limit": "beyond the hook's limit",
    "quarantined": "quarantined (reads as an instruction to the agent)",
    "untrusted": "untrusted origin, not approved (approve it to let it in)",
    "seen": "already injected in this session",
}


@click.command()
@click.option("-n", "--last", type=click.IntRange(1, 10_000), default=1, show_default=True,
              help="How many of the latest runs.")
@click.option("-s", "--session", "session_id", metavar="ID",
              help="Only the runs of this session (or of the sessions whose id starts with ID).")
@click.option("--json", "as_json", is_flag=True, help="Print the ledger's entries as JSON.")
@click.pass_obj
def why(session: Session, last: int, session_id: str | None, as_json: bool) -> None:
    """Explain what the prompt-submit hook injected on the last prompts, and why.

    For each run: the query it recalled with, the words that opened the relevance
    gate (or closed it) with their weights, every candidate memory with its
    scores (cosine and BM25, raw and normalised, fused) and what was decided
    (injected, below the relevance gate, over the budget, already injected in
    this session, quarantined), the tokens injected and the time taken -- or why
    nothing was injected. Read from .gm/logs/ledger.jsonl (local, never committed).

    \b
    Examples:
      rs-learn-host why
      rs-learn-host why --last 5 --session 3f2a
      rs-learn-host why --json
    """
    try:
        entries = prompt_ledger.read(session.project, last, session_id)
    except OSError as error:  # .gm/logs or the ledger is a link (never followed), a FIFO, unreadable
        said = f"{error.strerror}: {error.filename}" if error.filename else error.strerror or str(error)
        raise click.ClickException(f"cannot read the hook's ledger: {said}") from None
    if as_json:
        echo_json(entries)
        return
    if not entries:
        where = f" for session {session_id}" if session_id else ""
        click.echo(f"No hook run recorded{where} in {session.project / '.gm' / 'logs' / 'ledger.jsonl'}.")
        return
    click.echo("\n\n".join(render(entry) for entry in entries))


def render(entry: dict[str, Any]) -> str:
    """One ledger entry for a person."""
    lines = [_heading(entry)]
    if entry.get("event") == "session-start":
        lines.append(f"  the session was {entry.get('source')}ed: {entry.get('forgotten')} injected memories "
                     "may be injected again")
        return "\n".join(lines)
    prompt = entry.get("prompt")
    said = f": {entry['text']!r}" if isinstance(entry.get("text"), str) else ""
    if isinstance(prompt, dict):
        lines.append(f"  prompt {prompt.get('sha256', '?')} ({prompt.get('chars', '?')} characters){said}")
    else:  # the time budget ended the run before its event was read
        lines.append("  prompt not read")
    if isinstance(entry.get("note"), str):
        lines.append(f"  note: {entry['note']}")
    if entry.get("query") is not None:
        used = " and ".join(entry.get("recalled_with") or []) or "nothing"
        lines.append(f"  query {entry['query']!r}; recalled with the {used}")
    gate = _gate(entry.get("evidence"))
    if gate:
        lines.append(gate)
    candidates = [c for c in entry.get("candidates") or [] if isinstance(c, dict)]
    shown = [c for c in candidates if c.get("decision") in ("injected", "stale")]
    if shown:
        count = f"{len(shown)} memor{'y' if len(shown) == 1 else 'ies'}"
        lines.append(f"  injected {count}, {entry.get('tokens', 0)} tokens:")
        lines += [line for c in shown for line in _candidate(c, "")]
    else:
        said = {"timeout": "timed out", "error": "failed"}.get(str(entry.get("outcome")), "nothing injected")
        lines.append(f"  {said}: {entry.get('reason') or 'no reason recorded'}")
    left = [c for c in candidates if c not in shown]
    if left:
        lines.append("  left out:")
        lines += [line for c in left for line in _candidate(c, WHY_NOT.get(str(c.get("decision")), "?"))]
    return "\n".join(lines)


def _gate(evidence: Any) -> str:
    """Which of the prompt's words opened the relevance gate, with their weights ("" when unknown)."""
    if not isinstance(evidence, dict) or not isinstance(evidence.get("words"), dict):
        return ""
    words = {str(k): v for k, v in evidence["words"].items() if isinstance(v, int | float)}
    opened = evidence.get("opened_by")
    coverage = f"coverage {_number(evidence.get('coverage'))}"
    if isinstance(opened, dict) and opened:
        said = ", ".join(f"{word} {_number(weight)}" for word, weight in opened.items())
        return f"  gate opened by {said} ({coverage} of {_number(sum(words.values()))})"
    said = ", ".join(f"{word} {_number(weight)}" for word, weight in words.items()) or "none"
    return f"  gate closed ({coverage}); the prompt's words: {said}"


def _heading(entry: dict[str, Any]) -> str:
    session = entry.get("session") or "no session id"
    timing = f", {entry['ms']:g} ms" if isinstance(entry.get("ms"), int | float) else ""
    path = f" ({entry['path']}{timing})" if entry.get("path") else ""
    return f"{entry.get('ts', '?')}  session {session}{path}"


def _candidate(candidate: dict[str, Any], why_not: str) -> list[str]:
    stale = " (may be stale)" if candidate.get("decision") == "stale" else ""
    stale += f" (captured {candidate['captured']})" if candidate.get("captured") else ""
    excerpt = candidate.get("excerpt")
    text = f"  {excerpt}" if isinstance(excerpt, str) else ""
    head = f"    {candidate.get('id')} {_number(candidate.get('score'))}{stale}{text}"
    origin = candidate.get("origin")
    head += f"  [from: {origin.get('label')}]" if isinstance(origin, dict) and origin.get("label") else ""
    scores = (f"cosine {_number(candidate.get('cosine'))} (vector {_number(candidate.get('vector'))}), "
              f"bm25 {_number(candidate.get('bm25'))} (keyword {_number(candidate.get('keyword'))}), "
              f"fused {_number(candidate.get('fused'))}")
    if candidate.get("lift"):
        scores = scores.replace(", fused", f", lift +{_number(candidate.get('lift'))}, fused")
    if candidate.get("recency") not in (None, 1, 1.0):
        scores += f", recency x{_number(candidate.get('recency'))}"
    return [head, f"      {why_not + ': ' if why_not else ''}{scores}"]


def _number(value: Any) -> str:
    return f"{value:.3f}" if isinstance(value, int | float) else "?"
