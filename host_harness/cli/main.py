"""``rs-learn-host``: the command line over the rs-learn component.

Each command is one process and one export call: open the project's stores,
call the component, commit (or roll back), close. Memorize and recall go
through ``dispatch`` -- the path the exec spool uses -- so both behave the same.
"""

from __future__ import annotations

import logging
import sys
from pathlib import Path
from typing import Any

import click

from host_harness import __version__
from host_harness.cli.archive import archive, search
from host_harness.cli.bulk import export, import_
from host_harness.cli.capture import HOOK_COMMANDS, capture, review
from host_harness.cli.correct import forget, list_, show, stale_note
from host_harness.cli.discipline import discipline
from host_harness.cli.doctor import doctor
from host_harness.cli.git import git
from host_harness.cli.hook import hook, is_hook, run_hook
from host_harness.cli.learn import learn, skills
from host_harness.cli.mcp import mcp
from host_harness.cli.setup import setup
from host_harness.cli.spec import verb_option
from host_harness.cli.spool import spool
from host_harness.cli.structured import records
from host_harness.cli.trust import approve, notes, quarantined
from host_harness.cli.ui import ui
from host_harness.cli.warmup import warmup
from host_harness.cli.why import why
from host_harness.config import redact
from host_harness.project import FROM_ENV, GIVEN, chosen
from host_harness.store import Project
from host_harness.targets import DEFAULT_WASM
from host_harness.targets.session import Session, echo_json


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.option(
    "-p", "--project", type=click.Path(exists=True, file_okay=False, path_type=Path), default=None,
    envvar="RS_LEARN_PROJECT", show_envvar=True,
    help="Project directory (its memory lives in .gm/). Default: the nearest folder at or above the "
    "working directory holding .gm/, else the git work tree's root, else the working directory.",
)
@click.option(
    "--wasm", type=click.Path(dir_okay=False, path_type=Path), default=DEFAULT_WASM, envvar="RS_LEARN_WASM",
    show_envvar=True, help="The rs-learn component.", show_default=True,
)
@click.option(
    "--store", envvar="RS_LEARN_STORE", show_envvar=True, metavar="sqlite|postgresql://…",
    help="Where the memory lives: the project's SQLite files (default) or a PostgreSQL + pgvector server "
    "(default: \"store\" in .gm/config.json, whose \"project\" names the project there).",
)
@click.option("--native", is_flag=True, hidden=True, help="Run the guest in-process (development).")
@click.option("-v", "--verbose", is_flag=True, help="Log the guest's info messages to stderr.")
@click.version_option(__version__, "-V", "--version", prog_name="rs-learn-host",
                      message="%(prog)s %(version)s", help="Print the version and exit.")
@click.pass_context
def cli(
    ctx: click.Context, project: Path | None, wasm: Path, store: str | None, native: bool, verbose: bool
) -> None:
    """Remember facts for coding agents and recall them later (rs-learn).

    \b
    Examples:
      rs-learn-host memorize "Use pnpm, not npm, in this repository."
      rs-learn-host recall "which package manager?" --limit 3
      rs-learn-host -p ~/code/app stats --json
    """
    logging.basicConfig(level=logging.INFO if verbose else logging.WARNING, format="%(name)s: %(message)s")
    from_env = ctx.get_parameter_source("project") is click.core.ParameterSource.ENVIRONMENT
    found = chosen(project, FROM_ENV if from_env else GIVEN)  # host_harness/project.py
    session = Session(found.root, wasm, native, store)
    session.found = found
    ctx.obj = session
    ctx.call_on_close(session.close)


@cli.command()
@click.argument("text")
@click.option("-n", "--namespace", default="default", show_default=True, help="default or a discipline.")
@click.option("-s", "--supersedes", "supersedes", multiple=True, metavar="ID",
              help="A memory this one replaces (repeatable): recall then shows only the new one.")
@click.option("--ts", type=int, default=None, help="When it was said, in epoch milliseconds (an old note).")
@click.option("--json", "as_json", is_flag=True, help="Print the result as JSON.")
@click.pass_obj
def memorize(session: Session, text: str, namespace: str, supersedes: tuple[str, ...], ts: int | None,
             as_json: bool) -> None:
    """Store TEXT (use - to read it from stdin) and print its id.

    Stored memories that the new one may contradict are named on stderr ("similar"): supersede
    them if the new fact replaces them.

    \b
    Examples:
      rs-learn-host memorize "The staging server runs on port 8080."
      rs-learn-host memorize --namespace frontend "The app is built with vite."
      rs-learn-host memorize "Use pnpm, not npm." --supersedes mem-3b1f0c2a9d8e7f65-28
      rs-learn-host memorize --ts 1759363200000 "Deploys went through Jenkins until October."
      git log -1 --format=%B | rs-learn-host memorize -
    """
    if text == "-":
        text = sys.stdin.read()
    typed = {"kind": "typed", "by": "user"}  # the user typed it (guest/memory/origin.py)
    body: dict[str, object] = {"text": text, "namespace": namespace, "origin": typed}
    if supersedes:
        body["supersedes"] = list(supersedes)
    if ts is not None:
        body["ts"] = ts
    data = session.dispatch("memorize", body)
    if as_json:
        echo_json(data)
    else:
        click.echo(f"{data['id']} (already stored)" if data.get("deduped") else data["id"])
        notes(data)
        for close in data.get("similar", []):
            click.echo(f"similar: {close['id']} ({close['score']:.2f}) {close['text']}", err=True)


@cli.command()
@click.argument("query")
@verb_option("recall", "limit", "-l", "--limit", low=1, help="Hits.")
@click.option("--explain", is_flag=True, help="Show where each score comes from (each channel's part).")
@click.option("--json", "as_json", is_flag=True, help="Print the hits as JSON.")
@click.option("--as-of", "as_of", metavar="WHEN", default=None,
              help="Read relative dates ('10 days ago', 'last week') from this time: an ISO date or "
                   "date-time (2026-10-02, 2026-10-02T15:00:00Z; UTC unless it says otherwise) or "
                   "epoch milliseconds. Default: now.")
@click.pass_obj
def recall(session: Session, query: str, limit: int, explain: bool, as_json: bool, as_of: str | None) -> None:
    """Print the memories that best match QUERY, best first.

    A score is 0.25 x the memory's cosine to QUERY plus 0.75 x its BM25 keyword
    score, each scaled to 0..1 over the candidates of this query: it orders one
    answer, it does not compare across queries. Memories with no evidence at all
    (no shared word, a cosine below the vector floor) are left out.

    \b
    Examples:
      rs-learn-host recall "staging server port"
      rs-learn-host recall "@frontend build tool" --limit 3 --json
      rs-learn-host recall "staging server port" --explain
      rs-learn-host recall "what did we decide 10 days ago" --as-of 2026-10-02
    """
    body: dict[str, Any] = {"query": query, "limit": limit, **({"explain": True} if explain else {})}
    if as_of is not None:
        body["as_of"] = int(as_of) if as_of.strip().isdigit() else as_of
    hits = session.dispatch("recall", body)
    if as_json:
        echo_json(hits)
        return
    if not hits:
        click.echo("No memories found.")
    for number, hit in enumerate(hits, start=1):
        fanned_out = hit["text"].startswith(f"[discipline:{hit['namespace']}] ")  # it names its store already
        where = "" if hit["namespace"] == "default" or fanned_out else f" [{hit['namespace']}]"
        held = " [quarantined]" if hit.get("quarantined") else ""
        stale = f" [may be stale: {stale_note(hit)}]" if hit.get("stale") else ""
        stale += f" [captured {hit['captured']}]" if hit.get("captured") else ""
        click.echo(f"{number}. ({hit['score']:.3f}) {hit['text']}{where}{held}{stale}  {hit['id']}")
        if explain:
            click.echo("   " + channels_line(hit["explain"]))


def channels_line(parts: dict[str, float]) -> str:
    """A hit's channel scores on one line (``recall --explain``)."""
    line = (f"cosine {parts['cosine']:.3f} -> vector {parts['vector']:.3f}; bm25 {parts['bm25']:.3f} -> "
            f"keyword {parts['keyword']:.3f}; fused {parts['fused']:.3f}")
    line += f"; lift +{parts['lift']:.3f}" if parts.get("lift") else ""
    line += f"; recency x{parts['recency']:.3f}" if parts["recency"] != 1 else ""
    return line + (f"; stale x{parts['stale']:.3f}" if parts.get("stale", 1) != 1 else "")


@cli.command()
@click.option("-n", "--namespace", default="default", show_default=True, help="default or a discipline.")
@click.option("--json", "as_json", is_flag=True, help="Print the statistics as JSON.")
@click.pass_obj
def stats(session: Session, namespace: str, as_json: bool) -> None:
    """Show how many memories a store holds, which embedder wrote them, where, and which project this is.

    The store line names the SQLite file or the PostgreSQL server (its password hidden). The
    project line says why that folder: -p, $RS_LEARN_PROJECT, ".gm found" (the nearest folder
    above holding .gm/), "git root" or "working directory".

    \b
    Example:
      rs-learn-host stats --namespace frontend
    """
    data = session.dispatch("stats", {"namespace": namespace})
    store = store_of(session, namespace)
    if as_json:
        echo_json({**data, "store": store, "project": session.found.as_json()})
        return
    for key, value in data.items():
        click.echo(f"{key}: {'-' if value is None else value}")
    where = (f"PostgreSQL {store['url']}, project {store['project']!r}" if store["kind"] == "postgresql"
             else f"SQLite {store['path']}")
    click.echo(f"store: {where}")
    click.echo(f"project: {session.found.root} ({session.found.reason})")


def store_of(session: Session, namespace: str) -> dict[str, str | None]:
    """Where ``namespace``'s memories live: ``{kind: sqlite, path}``, ``{kind: postgresql, url, project}``.

    A URL is shown with its password replaced by ``***``.
    """
    choice = session.open_services().store
    if choice.is_postgresql:
        return {"kind": "postgresql", "url": redact(str(choice.url)), "project": choice.project_id}
    project = Project(session.project)
    db = project.db_path if namespace == "default" else project.discipline_db(namespace)
    return {"kind": "sqlite", "path": str(db)}


@cli.command()
@click.option("-n", "--namespace", default="default", show_default=True, help="default or a discipline.")
@click.option("--rebuild", is_flag=True, help="Also rebuild the keyword index by the current rules.")
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON.")
@click.pass_obj
def reindex(session: Session, namespace: str, rebuild: bool, as_json: bool) -> None:
    """Re-embed a store written by another embedder; with --rebuild, rebuild its keyword index too.

    A store written by an older version keeps its keyword rules (stats: terms below current_terms)
    until --rebuild moves it to the current ones (version 5: no contraction fragments such as the s
    of it's, identifiers by their parts).

    \b
    Example:
      rs-learn-host reindex --rebuild
    """
    data = session.dispatch("reindex", {"namespace": namespace, "rebuild": rebuild})
    if as_json:
        echo_json(data)
        return
    line = f"{data['namespace']}: {data['memories']:,} memories, re-embedded {data['reembedded']:,}"
    if data["reembedded"] and data.get("previous_embedder"):
        line += f" (written by {data['previous_embedder']})"
    line += f"; embedder {data['embedder']}"
    if "rebuilt" in data:
        rebuilt = data["rebuilt"]
        line += f"; keyword index rebuilt: {rebuilt['memories']:,} memories, {rebuilt['terms']:,} terms"
    click.echo(line)


@cli.command()
@click.option("--json", "as_json", is_flag=True, help="Print the versions as JSON.")
@click.pass_obj
def version(session: Session, as_json: bool) -> None:
    """Show the engine, embedder, harness and wasmtime versions.

    \b
    Example:
      rs-learn-host version
    """
    from host_harness.targets.runtime import WASMTIME_VERSION

    data = dict(session.dispatch("version", {}))
    data.update({"harness": __version__, "wasmtime": WASMTIME_VERSION,
                 "target": "native" if session.native else str(session.wasm)})
    if as_json:
        echo_json(data)
        return
    for key, value in data.items():
        click.echo(f"{key}: {', '.join(value) if isinstance(value, list) else value}")


def main() -> None:
    """Entry point of ``rs-learn-host`` and ``python -m host_harness``."""
    if is_hook(sys.argv[1:]):  # a hook must never exit 2 (that blocks Claude Code): see cli/hook.py
        sys.exit(run_hook(cli, sys.argv[1:]))
    cli(prog_name="rs-learn-host")


# Command groups of other capabilities register here, one line each.
COMMAND_GROUPS: list[click.Command] = [learn, skills, archive, records, spool, hook, discipline, mcp, git]
COMMAND_GROUPS += [export, import_, approve, quarantined, setup, doctor]
COMMAND_GROUPS += [list_, show, forget, warmup, why, ui]
COMMAND_GROUPS += [capture, review]
for _command in HOOK_COMMANDS:  # capture's hooks (issue 34)
    hook.add_command(_command)
for _group in COMMAND_GROUPS:
    cli.add_command(_group)
cli.add_command(search, "recall-search")  # the seed's tool name for `archive search`
