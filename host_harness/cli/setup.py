"""``rs-learn-host setup AGENT``: wire rs-learn into Claude Code, Codex, Cursor, Gemini CLI or VS Code.

The files each agent reads and what goes in them are in ``host_harness/integrations/agents.py``;
this module plans the edits, shows or applies them, and warms the compile cache so the agent's first
start does not wait for the component to compile.
"""

from __future__ import annotations

import os
import shlex
import sys
from pathlib import Path

import click

from host_harness.fs import confine
from host_harness.integrations.agents import AGENTS, SCOPES, plan
from host_harness.integrations.edits import SetupError, home
from host_harness.integrations.legacy import Fix, fix_git
from host_harness.targets.session import Session

HOST_NAMES = ("rs-learn-host", "rs-learn-host.exe")


@click.command("setup")
@click.argument("agent", type=click.Choice(AGENTS))
@click.option("--scope", type=click.Choice(SCOPES), default="project", show_default=True,
              help="This project's files, or the agent's settings for every project of this user.")
@click.option("--dry-run", is_flag=True, help="Print what would change (a diff); write nothing.")
@click.option("--remove", is_flag=True, help="Take rs-learn's entries out again (the rest stays).")
@click.option("--no-warmup", is_flag=True, help="Do not compile the component now (the first start will).")
@click.pass_obj
def setup(session: Session, agent: str, scope: str, dry_run: bool, remove: bool, no_warmup: bool) -> None:
    """Add rs-learn to AGENT's configuration: MCP server, and hooks for Claude Code.

    Merges into the existing files (other servers and hooks stay; only the lines
    of rs-learn's entries change, JSON keeps its layout and Codex's TOML its
    comments), writes each one atomically, keeps the previous version in the
    cache (~/.cache/rs-learn/setup-backups/<the file's absolute path>, out of
    git's sight), and adds the project's local state to .gitignore. Running it
    again changes nothing. The entries run this installation of rs-learn-host by
    its absolute path.

    \b
    Examples:
      rs-learn-host setup claude-code               # .claude/settings.json + .mcp.json
      rs-learn-host setup codex --scope user        # ~/.codex/config.toml
      rs-learn-host setup cursor --dry-run          # show the diff only
      rs-learn-host setup gemini --remove
    """
    try:
        host = installed_host()
        wiring = plan(agent, scope, session.project, host, remove)
    except SetupError as error:
        raise click.ClickException(str(error)) from None
    changed: list[object] = [edit for edit in wiring.edits if edit.changes]
    for edit in wiring.edits:
        shown = _shown(edit.path, session.project)
        if dry_run:
            click.echo(edit.diff(shown) if edit.changes else f"{shown}: unchanged\n", nl=False)
            for fix in edit.rewrote:
                click.echo(f"{shown}: would rewrite {fix} (it runs a Python package)")
            continue
        if not edit.changes:
            click.echo(f"{shown}: unchanged")
            continue
        try:
            backup = edit.apply()
        except OSError as error:
            raise click.ClickException(f"{shown}: not written: {error}") from None
        verb = "removed" if remove else "wrote"
        kept = f" (previous version: {_shown(backup, session.project)})" if backup else ""
        click.echo(f"{shown}: {verb} {edit.what}{kept}")
        for fix in edit.rewrote:
            click.echo(f"{shown}: rewrote {fix} (it ran a Python package; now the command)")
    if not remove:
        changed += _git_drivers(session.project, host, dry_run)
        changed += _memory_folder(session.project, scope, dry_run)
    for warning in wiring.warnings:  # a dry run warns as the run would
        click.echo(f"warning: {warning}", err=True)
    if dry_run:
        click.echo("dry run: nothing written" if changed else "already set up: nothing would change")
        return
    if not changed:
        click.echo("already set up: nothing changed" if not remove else "nothing to remove")
    for note in wiring.notes if changed else []:
        click.echo(note)
    if not remove and not no_warmup:
        warm_up(session.wasm)


def _git_drivers(project: Path, host: Path, dry_run: bool) -> list[Fix]:
    """The git drivers (the project's, the user's) that run a Python package, rewritten (or shown)."""
    try:
        fixes = fix_git(project, host, dry_run)
    except OSError as error:
        raise click.ClickException(str(error)) from None
    for fix in fixes:
        click.echo(f"{'would rewrite' if dry_run else 'rewrote'} {fix} (a Python package; now the command)")
    return fixes


def _memory_folder(project: Path, scope: str, dry_run: bool) -> list[Path]:
    """The project's ``.gm/``, made in project scope (the hooks recall and capture only where it is).

    In user scope nothing is made: the line to run in a project is printed instead.
    """
    gm = project / ".gm"
    if gm.is_dir():
        return []
    if scope == "user":
        click.echo(f"note: hooks and capture work in a project that has a .gm/ folder; {project} has "
                   f"none: run `mkdir {shlex.quote(str(gm))}` (or `rs-learn-host setup AGENT` there) to "
                   "start its memory")
        return []
    if dry_run:
        click.echo(".gm/: would be created (the project's memory: recall and capture need it)")
        return [gm]
    try:
        with confine.directory(project, (".gm",), create=True):  # with its .gitignore and .gitattributes
            pass
    except OSError as error:
        raise click.ClickException(f".gm/: not created: {error}; run `mkdir {shlex.quote(str(gm))}`") \
            from None
    click.echo(".gm/: created (the project's memory, with its .gitignore: commit it; recall and capture "
               "need it)")
    return [gm]


def installed_host() -> Path:
    """The ``rs-learn-host`` running now: ``sys.argv[0]`` resolved, else the script beside the interpreter."""
    started = Path(sys.argv[0])
    if started.name in HOST_NAMES and started.is_file():
        return started.resolve()
    for name in HOST_NAMES:
        beside = Path(sys.executable).parent / name
        if beside.is_file() and os.access(beside, os.X_OK):
            return beside.absolute()
    raise SetupError(f"cannot tell where rs-learn-host is installed (started as {sys.argv[0]}, Python "
                     f"{sys.executable}): run setup through the rs-learn-host command")


def warm_up(wasm: Path) -> None:
    """Compile the component into the cache now (as ``warmup``), so an agent's first start finds it ready."""
    from host_harness.progress import progress_for
    from host_harness.warmup import warmup

    if not wasm.is_file():
        raise click.ClickException(f"component not found: {wasm} (run `make wasm`, or pass --wasm)")
    show = progress_for(sys.stderr)
    try:
        done = warmup(wasm, progress=show)
    finally:
        show.clear()
    click.echo("component already compiled" if done.was_cached
               else f"component compiled in {done.seconds:.1f} s")


def _shown(path: Path, project: Path) -> str:
    """``path`` relative to the project when it is inside, else with ``~`` for the home folder."""
    try:
        return str(path.relative_to(project.resolve()))
    except ValueError:
        pass
    return "~/" + str(path.relative_to(home())) if path.is_relative_to(home()) else str(path)
