"""``rs-learn-host records``: structured memory (checklists, todos, session notes) for people (issue #4).

Every subcommand is one ``dispatch`` call of a structured-memory verb -- the path the spool uses.
The scope is trusted configuration, so it comes from the command line (``--actor``,
``--conversation``, ``--project-id``, ``--thread``, ``--global``, or ``RS_LEARN_SCOPE_*``) and the
host serves it to the guest; it is never part of a request body. Without any scope option the
records are unscoped (seen only by unscoped callers).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from typing import Any

import click

from host_harness.cli.spec import field_help, field_type
from host_harness.cli.structured_read import JSON_HELP, READ_COMMANDS, summary, tree_lines
from host_harness.contract import field
from host_harness.targets.session import Session, echo_json

UPDATE_VERBS = {"cl": "update_checklist", "td": "update_todo", "nt": "update_session_note"}
# Each kind's statuses, from the guest's verb spec (issue 46): "checklist: open|done|archived; ...".
STATUS_HELP = "; ".join(
    f"{verb.removeprefix('update_').replace('_', ' ')}: {'|'.join(field(verb, 'status')['enum'])}"
    for verb in UPDATE_VERBS.values()) + "."


def _scope_option(flag: str, env: str, what: str) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    return click.option(flag, envvar=env, show_envvar=True, help=f"Trusted scope: {what}.")


SCOPE_OPTIONS = (
    _scope_option("--actor", "RS_LEARN_SCOPE_ACTOR", "the actor (agent or person) id"),
    _scope_option("--conversation", "RS_LEARN_SCOPE_CONVERSATION", "the conversation id"),
    _scope_option("--project-id", "RS_LEARN_SCOPE_PROJECT", "the project id"),
    _scope_option("--thread", "RS_LEARN_SCOPE_THREAD", "the thread id"),
    click.option(
        "--global",
        "is_global",
        is_flag=True,
        envvar="RS_LEARN_SCOPE_GLOBAL",
        show_envvar=True,
        help="Trusted scope: create records every scope sees.",
    ),
)


def scope_options(command: Callable[..., Any]) -> Callable[..., Any]:
    """Add the trusted-scope options (``records``, ``mcp``); read them with :func:`trusted_scope`."""
    for option in reversed(SCOPE_OPTIONS):
        command = option(command)
    return command


def trusted_scope(
    actor: str | None, conversation: str | None, project_id: str | None, thread: str | None, is_global: bool
) -> dict[str, Any] | None:
    """The scope the options name, or ``None`` (unscoped) when they name none."""
    ids = {"actorId": actor, "conversationId": conversation, "projectId": project_id, "threadId": thread}
    return {**ids, "global": is_global} if any(ids.values()) or is_global else None


def with_scope(command: Callable[..., Any]) -> Callable[..., Any]:
    """Add the trusted-scope options; ``command`` receives them as one ``scope`` (:func:`trusted_scope`)."""

    @functools.wraps(command)
    def run(*args: Any, actor: str | None, conversation: str | None, project_id: str | None,
            thread: str | None, is_global: bool, **kwargs: Any) -> Any:
        scope = trusted_scope(actor, conversation, project_id, thread, is_global)
        return command(*args, scope=scope, **kwargs)

    return scope_options(run)


@click.group("records")
@with_scope
@click.pass_obj
def records(session: Session, scope: dict[str, Any] | None) -> None:
    """Checklists, todos and session notes that survive across tasks (structured memory).

    \b
    Examples:
      rs-learn-host records --project-id app create todo "Fix the flaky login test" --priority 4 --tag ci
      rs-learn-host records --project-id app create checklist "Release 0.2" --item "Bump version"
      rs-learn-host records --project-id app add-item cl-1 "Write the changelog"
      rs-learn-host records --project-id app list "login test"
      rs-learn-host records --project-id app show cl-1
    """
    session.scope = scope


@records.group("create")
def create() -> None:
    """Create a checklist, a todo or a session note."""


def _common(body: dict[str, Any], tags: Sequence[str], due: str | None = None) -> dict[str, Any]:
    if tags:
        body["tags"] = list(tags)
    if due is not None:
        body["due"] = due
    return body


def _created(session: Session, verb: str, body: dict[str, Any], as_json: bool) -> None:
    data = session.dispatch(verb, body)
    if as_json:
        echo_json(data)
    else:
        click.echo(data["id"])


@create.command("checklist")
@click.argument("title")
@click.option("--item", "items", multiple=True, help="A top-level item (repeat for more).")
@click.option("--description", help="Free text.")
@click.option("--tag", "tags", multiple=True, help="A tag (repeat for more).")
@click.option("--due", help="ISO-8601 date or date-time.")
@click.option("--json", "as_json", is_flag=True, help=JSON_HELP)
@click.pass_obj
def create_checklist(
    session: Session,
    title: str,
    items: tuple[str, ...],
    description: str | None,
    tags: tuple[str, ...],
    due: str | None,
    as_json: bool,
) -> None:
    """Create a checklist titled TITLE and print its id.

    \b
    Example:
      rs-learn-host records create checklist "Release 0.2" --item "Bump version" --item "Tag" --tag release
    """
    body = _common({"title": title, "items": [{"title": item} for item in items]}, tags, due)
    if description is not None:
        body["description"] = description
    _created(session, "create_checklist", body, as_json)


@create.command("todo")
@click.argument("title")
@click.option("--priority", type=int, help=field_help("create_todo", "priority"))
@click.option("--description", help="Free text.")
@click.option("--tag", "tags", multiple=True, help="A tag (repeat for more).")
@click.option("--due", help="ISO-8601 date or date-time.")
@click.option("--json", "as_json", is_flag=True, help=JSON_HELP)
@click.pass_obj
def create_todo(
    session: Session,
    title: str,
    priority: int | None,
    description: str | None,
    tags: tuple[str, ...],
    due: str | None,
    as_json: bool,
) -> None:
    """Create a todo titled TITLE and print its id.

    \b
    Example:
      rs-learn-host records create todo "Fix the flaky login test" --priority 4 --tag ci --due 2026-12-01
    """
    body = _common({"title": title}, tags, due)
    if priority is not None:
        body["priority"] = priority
    if description is not None:
        body["description"] = description
    _created(session, "create_todo", body, as_json)


@create.command("note")
@click.argument("content")
@click.option("--title", help="Default: the first line of CONTENT.")
@click.option("--importance", type=float, help=field_help("create_session_note", "importance"))
@click.option("--tag", "tags", multiple=True, help="A tag (repeat for more).")
@click.option("--json", "as_json", is_flag=True, help=JSON_HELP)
@click.pass_obj
def create_note(
    session: Session,
    content: str,
    title: str | None,
    importance: float | None,
    tags: tuple[str, ...],
    as_json: bool,
) -> None:
    """Create a session note with CONTENT and print its id.

    \b
    Example:
      rs-learn-host records create note "The staging DB password rotates monthly." --importance 0.8
    """
    body = _common({"content": content}, tags)
    if title is not None:
        body["title"] = title
    if importance is not None:
        body["importance"] = importance
    _created(session, "create_session_note", body, as_json)


@records.command("add-item")
@click.argument("checklist_id")
@click.argument("title")
@click.option("--parent", help="The parent item id (default: a top-level item).")
@click.option("--ordinal", type=int, help=field_help("add_checklist_item", "ordinal"))
@click.option("--tag", "tags", multiple=True, help="A tag (repeat for more).")
@click.option("--due", help="ISO-8601 date or date-time.")
@click.option("--json", "as_json", is_flag=True, help=JSON_HELP)
@click.pass_obj
def add_item(
    session: Session,
    checklist_id: str,
    title: str,
    parent: str | None,
    ordinal: int | None,
    tags: tuple[str, ...],
    due: str | None,
    as_json: bool,
) -> None:
    """Add an item titled TITLE to checklist CHECKLIST_ID and print its id.

    \b
    Example:
      rs-learn-host records add-item cl-1 "Collect the entries" --parent it-2
    """
    body = _common({"checklistId": checklist_id, "title": title, "parentId": parent}, tags, due)
    if ordinal is not None:
        body["ordinal"] = ordinal
    data = session.dispatch("add_checklist_item", body)
    if as_json:
        echo_json(data)
    else:
        click.echo(data["item"]["id"])


def _update_body(values: dict[str, Any], tags: tuple[str, ...]) -> dict[str, Any]:
    body = {key: value for key, value in values.items() if value is not None}
    if tags:
        body["tags"] = list(tags)
    if body.get("due") == "none":
        body["due"] = None
    return body


@records.command("update")
@click.argument("record_id")
@click.option("--title", help=field_help("update_todo", "title"))
@click.option("--status", help=STATUS_HELP)
@click.option("--tag", "tags", multiple=True, help="Replace the tags (repeat for more).")
@click.option("--due", help="ISO-8601 date or date-time; none clears it.")
@click.option("--priority", type=int, help=f"Todos: {field_help('update_todo', 'priority')}")
@click.option("--description", help="Checklists and todos.")
@click.option("--content", help="Session notes.")
@click.option("--importance", type=float,
              help=f"Session notes: {field_help('update_session_note', 'importance')}")
@click.option("--version", type=int, help="Fail (conflict) unless the record is at this version.")
@click.option("--json", "as_json", is_flag=True, help=JSON_HELP)
@click.pass_obj
def update(session: Session, /, record_id: str, tags: tuple[str, ...], as_json: bool, **values: Any) -> None:
    """Change fields of record RECORD_ID (cl-, td- or nt-); print its new version.

    \b
    Examples:
      rs-learn-host records update td-1 --status done
      rs-learn-host records update cl-1 --title "Release 0.2.1" --version 3
    """
    verb = UPDATE_VERBS.get(record_id.partition("-")[0])
    if verb is None:
        raise click.BadParameter(
            "must start with cl-, td- or nt- (items: use update-item)", param_hint="RECORD_ID"
        )
    data = session.dispatch(verb, {"id": record_id, **_update_body(values, tags)})
    if as_json:
        echo_json(data)
    else:
        click.echo(f"{data['id']} version {data['version']}")


@records.command("update-item")
@click.argument("checklist_id")
@click.argument("item_id")
@click.option("--title", help=field_help("update_checklist_item", "title"))
@click.option("--status", type=field_type("update_checklist_item", "status"),
              help=field_help("update_checklist_item", "status"))
@click.option("--parent", help="New parent item id; none moves it to the top level.")
@click.option("--ordinal", type=int, help="Position among its siblings.")
@click.option("--tag", "tags", multiple=True, help="Replace the tags (repeat for more).")
@click.option("--due", help="ISO-8601 date or date-time; none clears it.")
@click.option("--version", type=int, help="Fail (conflict) unless the item is at this version.")
@click.option("--json", "as_json", is_flag=True, help=JSON_HELP)
@click.pass_obj
def update_item(
    session: Session,
    /,
    checklist_id: str,
    item_id: str,
    parent: str | None,
    tags: tuple[str, ...],
    as_json: bool,
    **values: Any,
) -> None:
    """Change item ITEM_ID of checklist CHECKLIST_ID, then show the checklist.

    \b
    Examples:
      rs-learn-host records update-item cl-1 it-2 --status done
      rs-learn-host records update-item cl-1 it-4 --parent it-2
    """
    body = {"checklistId": checklist_id, "itemId": item_id, **_update_body(values, tags)}
    if parent is not None:
        body["parentId"] = None if parent == "none" else parent
    data = session.dispatch("update_checklist_item", body)
    if as_json:
        echo_json(data)
        return
    click.echo(summary(data["checklist"]))
    for line in tree_lines(data["checklist"]["items"]):
        click.echo(line)


@records.command("delete")
@click.argument("record_id")
@click.option("--hard", is_flag=True, help="Remove for good (default: soft delete, purged by retention).")
@click.option("--checklist", help="The checklist of an item id (it-...).")
@click.option("--version", type=int, help="Fail (conflict) unless the record is at this version.")
@click.option("--json", "as_json", is_flag=True, help=JSON_HELP)
@click.pass_obj
def delete(
    session: Session, record_id: str, hard: bool, checklist: str | None, version: int | None, as_json: bool
) -> None:
    """Delete record RECORD_ID (or an item with its subtree).

    \b
    Examples:
      rs-learn-host records delete td-1
      rs-learn-host records delete nt-3 --hard
      rs-learn-host records delete it-4 --checklist cl-1
    """
    body: dict[str, Any] = {"id": record_id, "hard": hard}
    if checklist is not None:
        body["checklistId"] = checklist
    if version is not None:
        body["version"] = version
    data = session.dispatch("delete_record", body)
    if as_json:
        echo_json(data)
    else:
        click.echo(f"{data['id']} deleted ({data['deleted']})")


for _command in READ_COMMANDS:
    records.add_command(_command)
