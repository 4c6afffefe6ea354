"""``rs-learn-host git``: reviewable diffs and conflict-free merges of committed stores (issue #16)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import click

from host_harness.errors import GuestError
from host_harness.git.install import InstallError, command, install
from host_harness.git.stores import StoreRefused
from host_harness.integrations.edits import SetupError
from host_harness.targets import DEFAULT_WASM
from host_harness.targets.session import Session, echo_json


@click.group("git")
def git() -> None:
    """Let git diff and merge the stores in .gm/ (they are meant to be committed).

    \b
    Examples:
      rs-learn-host git install                 # once per clone (or --global once per machine)
      git diff .gm/rs-learn.db                  # memories, blocks and records as lines
      git merge feature                         # stores merge without conflicts
    """


@git.command("install")
@click.option("--global", "global_", is_flag=True, help="Write the drivers to ~/.gitconfig instead.")
@click.pass_obj
def install_(session: Session, global_: bool) -> None:
    """Add the .gitattributes line and configure both drivers (idempotent).

    The drivers run this rs-learn-host by its absolute path. Drivers written by
    an older version as `python -m rs_learn_host` (or `-m host_harness`), here or
    in ~/.gitconfig, are rewritten to run it, and each one is named.

    \b
    Examples:
      rs-learn-host git install
      rs-learn-host -p ~/code/app git install --global
    """
    from host_harness.cli.setup import installed_host

    wasm = None if session.wasm == DEFAULT_WASM else session.wasm.resolve()
    try:
        host = installed_host()
    except SetupError:
        host = None  # run without the command (python -m host_harness): the drivers run this interpreter
    try:
        changes = install(session.project, command(wasm, host), global_, host)
    except (InstallError, OSError) as error:
        raise click.ClickException(str(error)) from None
    for change in changes:
        click.echo(change if change.startswith("rewrote ") else f"set {change}")
    if not changes:
        click.echo("already installed")


@git.command("textconv")
@click.argument("file", type=click.Path(dir_okay=False, path_type=Path))
@click.pass_obj
def textconv(session: Session, file: Path) -> None:
    """Print the store FILE as text: one line per memory, archived block and record.

    Git runs this for `git diff`, `git log -p` and `git show`. A file that is not a sound
    store prints one line saying why (and the reason on stderr), so a diff still shows.

    \b
    Example:
      rs-learn-host git textconv .gm/rs-learn.db
    """
    from host_harness.git import driver  # the stores and numpy: not for --help

    try:
        text = driver.textconv(file, session.guest_for)
    except (StoreRefused, GuestError) as error:
        message = error.message if isinstance(error, GuestError) else str(error)
        click.echo(f"rs-learn textconv: {message}", err=True)
        text = f"# rs-learn textconv: not a readable store: {message}\n"
    sys.stdout.buffer.write(text.encode("utf-8"))
    sys.stdout.buffer.flush()


@git.command("merge-driver")
@click.argument("base", type=click.Path(dir_okay=False, path_type=Path))
@click.argument("ours", type=click.Path(dir_okay=False, path_type=Path))
@click.argument("theirs", type=click.Path(dir_okay=False, path_type=Path))
@click.argument("path", default="")
@click.option("--json", "as_json", is_flag=True, help="Print the merge report as JSON on stdout.")
@click.pass_obj
def merge_driver(session: Session, base: Path, ours: Path, theirs: Path, path: str, as_json: bool) -> None:
    """Three-way merge of a store: git runs it as `... git merge-driver %O %A %B %P`.

    Writes the merged store over OURS atomically. Exit status 0: merged; 1: merged, but a
    structured record has a conflict no rule decides (ours kept, both values in a conflict
    note); 2: refused -- a side is not a sound store -- and OURS is left untouched.

    \b
    Example:
      rs-learn-host git merge-driver base.db ours.db theirs.db .gm/rs-learn.db
    """
    from host_harness.git import driver
    from host_harness.git.theirs import theirs as merging

    try:
        merged = driver.merge(base, ours, theirs, path, session.guest_for, came=merging(Path.cwd()))
    except (StoreRefused, GuestError, OSError) as error:
        message = error.message if isinstance(error, GuestError) else str(error)
        click.echo(f"rs-learn merge driver: refused, {ours} left as it was: {message}", err=True)
        sys.exit(driver.REFUSED)
    if as_json:
        echo_json(merged.report)
    click.echo(f"rs-learn: merged {path or ours}: {summary(merged.report)}", err=True)
    for conflict in merged.report.get("conflicts", []):
        click.echo(f"rs-learn: conflict: {conflict}", err=True)
    for note in merged.report.get("notes", []):
        click.echo(f"rs-learn: note: {note}", err=True)
    sys.exit(merged.status)


def summary(report: dict[str, Any]) -> str:
    """One line: what the merge did."""
    parts = []
    for section in ("memories", "archive", "records", "other"):
        counts = report.get(section) or {}
        items = [f"{k} {len(v) if isinstance(v, list) else v}" for k, v in sorted(counts.items()) if v]
        if items:
            parts.append(f"{section} ({', '.join(items)})")
    return "; ".join(parts) or "nothing to merge"
