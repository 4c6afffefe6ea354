"""``rs-learn-host list``, ``show`` and ``forget``: read and correct what is remembered (issue 27).

Each goes through ``dispatch`` like every other command (``list_memories``, ``get_memory``,
``forget``); ``memorize --supersedes`` is in ``host_harness/cli/main.py``. ``list`` asks for pages
until it has shown ``--limit`` memories (or every one, with ``--all``); ``--json`` prints them with
the cursor to go on from.
"""

from __future__ import annotations

from typing import Any

import click

from host_harness.cli.spec import default_of
from host_harness.cli.structured_read import iso
from host_harness.contract import section
from host_harness.targets.session import Session, echo_json

NAMESPACE_HELP = "The store to look in (default: the project store, then every discipline)."
INCLUDE: list[str] = section("memory.listing").INCLUDE
MAX_PAGE: int = section("memory.listing").MAX_PAGE


def describe(memory: dict[str, Any]) -> str:
    """One memory on one line: id, time, text, and what is special about it."""
    notes = [f"under {memory['context']}"] if memory.get("context") else []
    if memory.get("origin"):
        notes.append(memory["origin"] + captured_note(memory))
    if provenance_note(memory):
        notes.append(provenance_note(memory))
    if memory.get("superseded_by"):
        notes.append(f"superseded by {memory['superseded_by']}")
    if memory.get("supersedes"):
        notes.append(f"supersedes {', '.join(memory['supersedes'])}")
    notes += [f"may be stale: {stale}" for stale in [stale_note(memory)] if stale]
    notes += [f"quarantined: {memory['quarantined']}"] if memory.get("quarantined") else []
    notes += [f"forgotten {forgotten}" for forgotten in [_forgotten(memory)] if forgotten]
    where = "" if memory["namespace"] == "default" else f" [{memory['namespace']}]"
    extra = f"  ({'; '.join(notes)})" if notes else ""
    return f"{memory['id']}  {iso(memory['ts'])}  {one_line(memory['text'])}{where}{extra}"


def provenance_note(memory: dict[str, Any]) -> str:
    """``from: tool output (untrusted)`` -- where a memory's text came from, and how far it is trusted."""
    provenance = memory.get("provenance")
    if not isinstance(provenance, dict):
        return ""
    return f"from: {provenance.get('label')} ({provenance.get('trust')})"


def captured_note(memory: dict[str, Any]) -> str:
    """`` directive, session 0b6f1c2e, 2026-12-02T09:12:00Z`` for a captured memory, else ``""``."""
    captured = memory.get("captured")
    if not isinstance(captured, dict):
        return ""
    session = str(captured.get("session"))[:8]
    return f" {captured.get('kind')}, session {session}, {iso(captured.get('at', 0))}"


def one_line(text: str) -> str:
    """``text`` on one line: every run of whitespace (a fenced block's newlines too) one space."""
    return " ".join(text.split())


def includes(values: tuple[str, ...]) -> list[str]:
    """``--include forgotten,superseded --include quarantined`` as one list (the guest checks the names)."""
    names = [name.strip() for value in values for name in value.split(",") if name.strip()]
    return list(dict.fromkeys(names))


@click.command("list")
@click.option("-n", "--namespace", default="default", show_default=True, help="default or a discipline.")
@click.option("-l", "--limit", type=click.IntRange(1, None), default=default_of("list_memories", "limit"),
              show_default=True, help="Show at most this many memories (pages of the guest's at most "
              f"{MAX_PAGE} are read in turn).")
@click.option("--all", "everything", is_flag=True, help="Show every memory (ignores --limit).")
@click.option("-q", "--query", help="Only memories whose text contains this (case-insensitive substring).")
@click.option("--include", multiple=True, metavar=",".join(INCLUDE),
              help="Also show these hidden memories (comma-separated, or repeat the option).")
@click.option("--stale", is_flag=True, help="Only memories whose cited files changed since they were stored.")
@click.option("--quarantined", "held", is_flag=True,
              help="Only memories held back from the agent (see `rs-learn-host approve`).")
@click.option("--captured", is_flag=True, help="Only memories captured from agent sessions (see `review`).")
@click.option("--cursor", help="Go on from the 'next' of an earlier --json listing.")
@click.option("--json", "as_json", is_flag=True, help="Print {namespace, memories, next} as JSON.")
@click.pass_obj
def list_(session: Session, namespace: str, limit: int, everything: bool, query: str | None,
          include: tuple[str, ...], stale: bool, held: bool, captured: bool, cursor: str | None,
          as_json: bool) -> None:
    """List stored memories, newest first (most recently stored or forgotten first).

    \b
    Examples:
      rs-learn-host list
      rs-learn-host list --query npm --include superseded
      rs-learn-host list --stale --all
      rs-learn-host list --namespace frontend --json
    """
    body: dict[str, Any] = {"namespace": namespace, "include": includes(include), "stale": stale,
                            "quarantined": held, **({"captured": True} if captured else {})}
    if query:
        body["query"] = query
    shown: list[dict[str, Any]] = []
    while everything or len(shown) < limit:
        page_size = MAX_PAGE if everything else min(MAX_PAGE, limit - len(shown))
        data = session.dispatch("list_memories", {**body, "limit": page_size,
                                                  **({"cursor": cursor} if cursor else {})})
        shown += data["memories"]
        cursor = data["next"]
        if cursor is None:
            break
    if as_json:
        echo_json({"namespace": namespace, "memories": shown, "next": cursor})
        return
    if not shown:
        click.echo("No memories found.")
    for memory in shown:
        click.echo(describe(memory))
    if cursor is not None:
        click.echo(f"… more: rs-learn-host list --cursor {cursor}" + ("" if namespace == "default" else
                                                                       f" --namespace {namespace}"))


@click.command()
@click.argument("memory_id", metavar="ID")
@click.option("-n", "--namespace", help=NAMESPACE_HELP)
@click.option("--json", "as_json", is_flag=True, help="Print the memory as JSON.")
@click.pass_obj
def show(session: Session, memory_id: str, namespace: str | None, as_json: bool) -> None:
    """Show one memory: its text, time, links, cited files, whether it is stale or forgotten.

    \b
    Example:
      rs-learn-host show mem-03a1bd30e5d2fbe6-58
    """
    body = {"id": memory_id, **({"namespace": namespace} if namespace else {})}
    memory = session.dispatch("get_memory", body)
    if as_json:
        echo_json(memory)
        return
    click.echo(memory["text"])
    click.echo(f"id: {memory['id']}\nnamespace: {memory['namespace']}\nstored: {iso(memory['ts'])}")
    for key in ("context", "origin", "supersedes", "superseded_by", "files"):
        if memory.get(key):
            value = memory[key]
            click.echo(f"{key}: {', '.join(value) if isinstance(value, list) else value}")
    if provenance_note(memory):
        click.echo(provenance_note(memory))
    if memory.get("supersede_waits"):
        click.echo(f"supersedes once approved: {', '.join(memory['supersede_waits'])}")
    if memory.get("captured"):
        captured = memory["captured"]
        click.echo(f"captured: {captured.get('kind')} from session {captured.get('session')} at "
                   f"{iso(captured.get('at', 0))}")
    if stale_note(memory):
        click.echo(f"stale: {stale_note(memory)}")
    if _forgotten(memory):
        click.echo(f"forgotten: {_forgotten(memory)}")


def stale_note(memory: dict[str, Any]) -> str:
    """``src/retry.py changed since`` for a stale memory, else ``""``."""
    return f"{', '.join(memory['stale']['files'])} changed since" if memory.get("stale") else ""


def _forgotten(memory: dict[str, Any]) -> str:
    """When (and why) a forgotten memory was forgotten, else ``""``."""
    if not memory.get("forgotten"):
        return ""
    why = memory["forgotten"].get("reason")
    return iso(memory["forgotten"]["ts"]) + (f": {why}" if why else "")


@click.command()
@click.argument("memory_ids", metavar="ID...", nargs=-1, required=True)
@click.option("-r", "--reason", help="Why (kept with the tombstone; shown by list --include forgotten).")
@click.option("-n", "--namespace", help=NAMESPACE_HELP)
@click.option("--json", "as_json", is_flag=True, help="Print {forgotten, missing} as JSON.")
@click.pass_obj
def forget(session: Session, memory_ids: tuple[str, ...], reason: str | None, namespace: str | None,
           as_json: bool) -> None:
    """Forget memories: never recalled or injected again; a tombstone keeps the decision.

    Git merges, a shared PostgreSQL store and imports honour it; memorizing the same text again
    brings the memory back. Exits 1 when an ID is not found (the others are forgotten).

    \b
    Examples:
      rs-learn-host forget mem-03a1bd30e5d2fbe6-58 --reason "we switched to pnpm"
      rs-learn-host list --query npm --json | jq -r '.memories[].id' | xargs rs-learn-host forget
    """
    body: dict[str, Any] = {"ids": list(memory_ids)}
    if reason is not None:
        body["reason"] = reason
    if namespace:
        body["namespace"] = namespace
    data = session.dispatch("forget", body)
    if as_json:
        echo_json(data)
    else:
        for memory_id in data["forgotten"]:
            click.echo(f"forgotten {memory_id}")
        for memory_id in data["missing"]:
            click.echo(f"not found: {memory_id}", err=True)
    if data["missing"]:
        raise click.exceptions.Exit(1)
