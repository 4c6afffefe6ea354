"""``rs-learn-host discipline``: list, enable and disable disciplines."""

from __future__ import annotations

from typing import Any

import click

from host_harness.errors import StoreError
from host_harness.fs import confine
from host_harness.store import DISCIPLINES, Project
from host_harness.store.enabled_list import BadName, EnabledList, check_name
from host_harness.targets.session import Session, echo_json


def _name(ctx: click.Context, _param: click.Parameter, value: str) -> str:
    session: Session = ctx.obj

    def secret_kind(name: str) -> str | None:  # the guest's redaction rules (its `names` verb)
        kind: str | None = session.dispatch("names", {"disciplines": [name]})["disciplines"][0]
        return kind

    try:
        return check_name(value, secret_kind)
    except BadName as error:
        raise click.BadParameter(str(error)) from None


@click.group("discipline")
def discipline() -> None:
    """Disciplines: separate memory stores under .gm/disciplines/<name>/.

    A text starting with @NAME goes to discipline NAME only when the project knows
    it (its folder exists or enabled.txt lists it); otherwise the @ is ordinary
    text. Recall without a sigil searches the project store plus every
    discipline listed in .gm/disciplines/enabled.txt.

    \b
    Examples:
      rs-learn-host discipline list
      rs-learn-host discipline create notes     # @notes works; recall does not search it by default
      rs-learn-host discipline enable frontend
      rs-learn-host discipline disable frontend
    """


@discipline.command("list")
@click.option("--counts/--no-counts", default=True, show_default=True,
              help="Count each store's memories (loads the component).")
@click.option("--json", "as_json", is_flag=True, help="Print the list as JSON.")
@click.pass_obj
def list_(session: Session, counts: bool, as_json: bool) -> None:
    """Show every discipline, whether it is enabled, and how many memories it holds.

    \b
    Example:
      rs-learn-host discipline list --json
    """
    project = Project(session.project)
    enabled = EnabledList(project).names()
    stored = set(session.stored_disciplines())  # files, or a PostgreSQL store's rows
    rows: list[dict[str, Any]] = []
    for name in sorted((set(project.known_disciplines()) | stored) - {"default"}):  # the project store
        rows.append({"name": name, "enabled": name in enabled, "store": name in stored, "memories": None})
    if counts:
        _count(session, rows)
    if as_json:
        echo_json(rows)
        return
    if not rows:
        click.echo("No disciplines. Create one with `rs-learn-host discipline create NAME` (or enable NAME).")
        return
    width = max(len(row["name"]) for row in rows)
    for row in rows:
        state = "enabled " if row["enabled"] else "disabled"
        memories = "" if row["memories"] is None else f"  {row['memories']} memories"
        click.echo(f"{row['name']:<{width}}  {state}{memories}")


def _count(session: Session, rows: list[dict[str, Any]]) -> None:
    """Fill ``memories`` from the guest's ``stats`` (0 for a store that does not exist yet)."""
    for row in rows:
        if not row["store"]:
            row["memories"] = 0
            continue
        try:
            row["memories"] = session.dispatch("stats", {"namespace": row["name"]})["memories"]
        except click.ClickException as error:
            click.echo(f"warning: cannot count memories: {error.format_message()}", err=True)
            return


@discipline.command("create")
@click.argument("name", callback=_name)
@click.pass_obj
def create(session: Session, name: str) -> None:
    """Create the folder of discipline NAME, so that a leading @NAME selects it.

    Its store is created by the first memory written to it. Git keeps no empty
    folders: until then, other clones do not know NAME (enable it to share it).

    \b
    Example:
      rs-learn-host discipline create notes
    """
    project = Project(session.project)
    try:
        project.check_case(name)
        existed = name in project.discipline_dirs()
        with confine.directory(project.root, (".gm", DISCIPLINES, name), create=True):
            pass  # made without following a link below the project
    except (StoreError, OSError) as error:
        raise click.ClickException(str(error)) from None
    click.echo(f"{name} already exists" if existed else f"created {name}")


@discipline.command("enable")
@click.argument("name", callback=_name)
@click.pass_obj
def enable(session: Session, name: str) -> None:
    """Add NAME to .gm/disciplines/enabled.txt (recall then searches it by default).

    \b
    Example:
      rs-learn-host discipline enable frontend
    """
    try:
        changed = EnabledList(Project(session.project)).enable(name)
    except BadName as error:
        raise click.ClickException(str(error)) from None
    click.echo(f"enabled {name}" if changed else f"{name} is already enabled")


@discipline.command("disable")
@click.argument("name", callback=_name)
@click.pass_obj
def disable(session: Session, name: str) -> None:
    """Remove NAME from .gm/disciplines/enabled.txt; its memories stay in its store.

    \b
    Example:
      rs-learn-host discipline disable frontend
    """
    changed = EnabledList(Project(session.project)).disable(name)
    click.echo(f"disabled {name}" if changed else f"{name} was not enabled")
