"""``rs-learn-host learn`` and ``rs-learn-host skills list``."""

from __future__ import annotations

import sys
from typing import Any

import click

from host_harness.fs.skills import authored_skills, discover, managed_skills, shadowing, skill_table
from host_harness.targets.session import Session, echo_json


@click.command()
@click.argument("memory")
@click.option("--context", help="Where the lesson comes from.")
@click.option("--skill", "skill_name", metavar="NAME", help="Also create or update the managed skill NAME.")
@click.option("--update", is_flag=True, help="Update an existing managed skill instead of creating it.")
@click.option("--description", help="The skill's one-line description (with --skill).")
@click.option("--body", type=click.File("r", encoding="utf-8"), help="Skill body file (- for stdin).")
@click.option("--json", "as_json", is_flag=True, help="Print the whole result as JSON.")
@click.pass_obj
def learn(
    session: Session,
    memory: str,
    context: str | None,
    skill_name: str | None,
    update: bool,
    description: str | None,
    body: Any,
    as_json: bool,
) -> None:
    """Store a reusable lesson MEMORY; optionally create or update a managed skill.

    A skill this command cannot write -- --update of a skill that does not exist, a name an
    authored skill already has -- is refused before anything is stored (exit 1). A lesson stored
    without its skill (it reads as an instruction to the agent and is quarantined) is said on
    stderr; the exit status is then 0, since the lesson is stored.

    \b
    Examples:
      rs-learn-host learn "Run migrations before the tests: the fixtures need the schema."
      rs-learn-host learn "Deploys need a checklist." --skill deploy --description "How" --body deploy.md
    """
    request: dict[str, Any] = {"memory": sys.stdin.read() if memory == "-" else memory}
    if context:
        request["context"] = context
    if skill_name:
        if not description or body is None:
            raise click.UsageError("--skill needs --description and --body")
        refuse_unwritable(session, skill_name, update)
        request["skill"] = {
            "action": "update" if update else "create",
            "name": skill_name,
            "description": description,
            "body": body.read(),
        }
    data = session.dispatch("learn", request)
    if as_json:
        echo_json(data)
    elif data.get("isError"):  # the lesson is stored (the guest stores it first): say what was not done
        click.echo(f"warning: {data['text']}", err=True)
    else:
        click.echo(data["text"])


def refuse_unwritable(session: Session, raw_name: str, update: bool) -> None:
    """Refuse, before the lesson is stored, a skill the guest would not write (so nothing is half done).

    Names are compared as the guest reads them (its ``names`` verb: kebab-case, folded).
    """
    root = session.project
    name, *authored = session.dispatch("names", {"skills": [raw_name, *authored_skills(root)]})["skills"]
    if name and name in authored:
        raise click.ClickException(f'an authored skill named "{name}" exists and authored skills always win; '
                                   "choose another name (nothing was stored)")
    if update and name and name not in managed_skills(root):
        raise click.ClickException(f'managed skill "{name}" does not exist, so it cannot be updated; '
                                   "leave out --update to create it (nothing was stored)")


@click.group()
def skills() -> None:
    """Managed and authored skills."""


@skills.command("list")
@click.option("--json", "as_json", is_flag=True, help="Print the list as JSON.")
@click.pass_obj
def list_skills(session: Session, as_json: bool) -> None:
    """List managed and authored skills, and which one wins.

    Authored skills (.gm/skills/, .claude/skills/) always win over a managed skill
    (.gm/managed-skills/) of the same name.

    \b
    Example:
      rs-learn-host skills list --json
    """
    found = discover(session.project)
    fold = shadowing(found)
    claimed = set(session.dispatch("names", {"skills": fold})["skills"]) if fold else set()
    rows = skill_table(session.project, found, claimed)
    if as_json:
        echo_json(rows)
        return
    if not rows:
        click.echo("No skills.")
    for row in rows:
        state = "" if row["wins"] else "  (shadowed by an authored skill)"
        click.echo(f"{row['name']:<40} {row['kind']:<8} {row['path']}{state}")
