"""``rs-learn-host approve`` and ``rs-learn-host quarantined``: what the guest held back (issue 28).

A memory or archived block that reads as an instruction aimed at the agent is stored quarantined:
never injected by the hook, never written into a skill. ``quarantined`` lists them, ``approve ID``
releases one. Each is one ``dispatch`` call (``list_quarantined``, ``approve``).
"""

from __future__ import annotations

from typing import Any

import click

from host_harness.targets.session import Session, echo_json


@click.command()
@click.argument("ident", metavar="ID")
@click.option("-n", "--namespace", help="The store (default: default, then every known discipline).")
@click.option("--json", "as_json", is_flag=True, help="Print the result as JSON.")
@click.pass_obj
def approve(session: Session, ident: str, namespace: str | None, as_json: bool) -> None:
    """Release the quarantined memory or archived block ID (mem-… or r7).

    \b
    Examples:
      rs-learn-host quarantined
      rs-learn-host approve mem-1708d46337c3cf4c-63
    """
    body: dict[str, Any] = {"id": ident, **({"namespace": namespace} if namespace else {})}
    data = session.dispatch("approve", body)
    if as_json:
        echo_json(data)
    elif data["was"]:
        click.echo(f"{data['id']} approved (was quarantined: {data['was']})")
    else:
        click.echo(f"{data['id']} approved (it was not quarantined)")


@click.command()
@click.option("-n", "--namespace", help="One store (default: the default store and every known discipline).")
@click.option("--json", "as_json", is_flag=True, help="Print the list as JSON.")
@click.pass_obj
def quarantined(session: Session, namespace: str | None, as_json: bool) -> None:
    """List the quarantined memories and archived blocks, newest first, with the reason.

    \b
    Example:
      rs-learn-host quarantined --json
    """
    data = session.dispatch("list_quarantined", {"namespace": namespace} if namespace else {})
    if as_json:
        echo_json(data)
        return
    if not data["total"]:
        click.echo("Nothing is quarantined.")
    for memory in data["memories"]:
        where = "" if memory["namespace"] == "default" else f" [{memory['namespace']}]"
        click.echo(f"{memory['id']}{where}: {memory['reason']}\n    {memory['text']}")
    for block in data["blocks"]:
        click.echo(f"{block['id']}: {block['reason']}\n    {block['label']}")


def notes(data: dict[str, Any]) -> None:
    """Tell the person (on stderr) what a store redacted or quarantined."""
    if data.get("redacted"):
        kinds = ", ".join(f"{kind} x{n}" for kind, n in data["redacted"].items())
        click.echo(f"secrets redacted: {kinds}", err=True)
    if data.get("quarantined"):
        click.echo(f"quarantined: {data['quarantined']} (see rs-learn-host quarantined)", err=True)
