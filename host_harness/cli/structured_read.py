"""``rs-learn-host records`` read commands: ``list``, ``show``, ``retrieve``, ``reconcile`` (issue #4).

Also the rendering they share with the write commands: one summary line per record, and a
checklist's items as an indented tree with status marks (``[ ]`` pending, ``[~]`` in progress,
``[x]`` done, ``[-]`` skipped). The commands are attached to the ``records`` group by
``host_harness/cli/structured.py``.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import click

from host_harness.cli.spec import verb_option
from host_harness.targets.session import Session, echo_json

MARKS = {"pending": "[ ]", "in_progress": "[~]", "done": "[x]", "skipped": "[-]"}
KINDS = {"checklist": "checklist", "todo": "todo", "note": "session_note"}
JSON_HELP = "Print the result as JSON."


def tree_lines(items: list[dict[str, Any]]) -> list[str]:
    """A checklist's items as an indented tree with status marks (siblings by ordinal, then id)."""
    kids: dict[str | None, list[dict[str, Any]]] = {}
    for item in items:
        kids.setdefault(item.get("parentId"), []).append(item)
    lines: list[str] = []

    def visit(parent: str | None, depth: int) -> None:
        siblings = sorted(kids.get(parent, []), key=lambda i: (i["ordinal"], int(i["id"].split("-")[1])))
        for item in siblings:
            due = f"  (due {item['due']})" if item.get("due") else ""
            tags = "".join(f" #{t}" for t in item.get("tags", []))
            mark = MARKS.get(item["status"], "[?]")
            lines.append(f"{'    ' * depth}  {mark} {item['title']}{tags}{due}  {item['id']}")
            visit(item["id"], depth + 1)

    visit(None, 0)
    return lines


def iso(ms: int) -> str:
    """Epoch milliseconds as an ISO-8601 UTC time (seconds)."""
    return datetime.fromtimestamp(ms / 1000, UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def summary(record: dict[str, Any]) -> str:
    """One line: id, kind, status and the facts that matter for the kind."""
    facts = [record["status"]]
    if record["kind"] == "todo" and record.get("priority"):
        facts.append(f"p{record['priority']}")
    if record["kind"] == "checklist":
        done = sum(i["status"] == "done" for i in record.get("items", []))
        facts.append(f"{done}/{len(record.get('items', []))}")
    if record.get("due"):
        facts.append(f"due {record['due']}")
    tags = "".join(f" #{t}" for t in record.get("tags", []))
    return f"{record['id']:<6} {record['kind']:<12} [{', '.join(facts)}] {record['title']}{tags}"


@click.command("list")
@click.argument("query", required=False)
@click.option("--kind", "kinds", multiple=True, type=click.Choice(sorted(KINDS)), help="Only this kind.")
@click.option("--tag", "tags", multiple=True, help="Only records with this tag (repeat: all of them).")
@click.option("--status", "statuses", multiple=True, help="Only this status (repeat for more).")
@click.option("--archived", is_flag=True, help="Include archived records.")
@verb_option("query_records", "limit", "-l", "--limit", low=1,
             help="At most this many (default: defaultLimit).")
@click.option("--json", "as_json", is_flag=True, help=JSON_HELP)
@click.pass_obj
def list_records(
    session: Session,
    query: str | None,
    kinds: tuple[str, ...],
    tags: tuple[str, ...],
    statuses: tuple[str, ...],
    archived: bool,
    limit: int | None,
    as_json: bool,
) -> None:
    """List records best first for QUERY, or newest first without one.

    \b
    Examples:
      rs-learn-host records list
      rs-learn-host records list "login test" --kind todo --kind note
      rs-learn-host records list --tag ci --archived --json
    """
    body: dict[str, Any] = {"query": query, "includeArchived": archived}
    if kinds:
        body["kinds"] = [KINDS[k] for k in kinds]
    if tags:
        body["tags"] = list(tags)
    if statuses:
        body["status"] = list(statuses)
    if limit is not None:
        body["limit"] = limit
    if session.scope is None:  # unscoped: say whether records of other scopes exist (D18 rule 2)
        body["countHidden"] = True
    data = session.dispatch("query_records", body)
    if as_json:
        echo_json(data)
        return
    if not data["hits"]:
        click.echo("No records found.")
    for hit in data["hits"]:
        click.echo(summary(hit["record"]))
        for line in tree_lines(hit["record"].get("items", [])):
            click.echo(line)
    hidden = data.get("hiddenByScope", 0)
    if hidden:
        records = "1 record" if hidden == 1 else f"{hidden} records"
        click.echo(f"({records} in a scope not shown: without a scope option `records` shows unscoped and "
                   "global records only; pass theirs, e.g. `records --project-id ID list`, or set "
                   "RS_LEARN_SCOPE_PROJECT)")


@click.command("show")
@click.argument("record_id")
@click.option("--json", "as_json", is_flag=True, help=JSON_HELP)
@click.pass_obj
def show(session: Session, record_id: str, as_json: bool) -> None:
    """Show one record; a checklist as an indented tree of its items.

    Item marks: [ ] pending, [~] in progress, [x] done, [-] skipped.

    \b
    Example:
      rs-learn-host records show cl-1
    """
    record = session.dispatch("get_record", {"id": record_id})
    if as_json:
        echo_json(record)
        return
    click.echo(summary(record))
    text = record.get("description") or record.get("content")
    if text:
        click.echo(f"  {text}")
    created, updated = iso(record["createdAt"]), iso(record["updatedAt"])
    click.echo(f"  version {record['version']}, created {created}, updated {updated}")
    for line in tree_lines(record.get("items", [])):
        click.echo(line)


@click.command("retrieve")
@click.argument("query", required=False)
@verb_option("retrieve_memory", "limit", "-l", "--limit", low=1, help="At most this many records.")
@verb_option("retrieve_memory", "maxTokens", "--max-tokens", help="Token budget (default: maxContextTokens).")
@click.option("--json", "as_json", is_flag=True, help=JSON_HELP)
@click.pass_obj
def retrieve(
    session: Session, query: str | None, limit: int | None, max_tokens: int | None, as_json: bool
) -> None:
    """Print the records for QUERY as the text block an agent's prompt would receive.

    \b
    Example:
      rs-learn-host records retrieve "what is left before the release?" --max-tokens 400
    """
    body: dict[str, Any] = {"query": query}
    if limit is not None:
        body["limit"] = limit
    if max_tokens is not None:
        body["maxTokens"] = max_tokens
    data = session.dispatch("retrieve_memory", body)
    if as_json:
        echo_json(data)
    else:
        click.echo(data["text"] or "No records found.")


@click.command("reconcile")
@click.option("--json", "as_json", is_flag=True, help=JSON_HELP)
@click.pass_obj
def reconcile(session: Session, as_json: bool) -> None:
    """Rebuild the keyword index and note vectors from the stored records.

    \b
    Example:
      rs-learn-host records reconcile
    """
    data = session.dispatch("reconcile_index", {})
    if as_json:
        echo_json(data)
        return
    for key, value in data.items():
        click.echo(f"{key}: {value}")


READ_COMMANDS = [list_records, show, retrieve, reconcile]
