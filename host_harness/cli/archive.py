"""``rs-learn-host archive``: the verbatim archive from the command line (issue #5).

Each subcommand is one ``dispatch`` call (``archive``, ``archive_recall``,
``recall_search``) -- the path the exec spool uses. ``rs-learn-host recall-search``
is ``archive search`` under the seed's tool name.
"""

from __future__ import annotations

import json
import sys
from typing import IO

import click

from host_harness.cli.spec import default_of
from host_harness.contract import field, section
from host_harness.targets.session import Session, echo_json

NAMESPACE_HELP = "default or a discipline (each store has its own ids)."
MAX_BODY_BYTES: int = section("requests").MAX_BODY_BYTES
MAX_CONTENT_BYTES: int = section("archive.verbs").MAX_CONTENT_BYTES


@click.group("archive")
def archive() -> None:
    """Archive text blocks verbatim under short ids (r1, r2, ...) and bring them back.

    \b
    Examples:
      rs-learn-host archive put --label "build log" build.log
      git diff | rs-learn-host archive put --label "diff before the refactor" -
      rs-learn-host archive get r7 > block.txt
      rs-learn-host archive search "refactor diff" --limit 3
    """


PUT_HELP = f"""Archive the content of SOURCE (a file, or - for stdin) verbatim and print its id.

    The content must be UTF-8, at most {MAX_CONTENT_BYTES:,} bytes ({MAX_CONTENT_BYTES / 2**20:.2f} MiB);
    it is stored byte for byte (line endings included).

    \b
    Examples:
      rs-learn-host archive put --label "nginx config" /etc/nginx/nginx.conf
      pytest -q 2>&1 | rs-learn-host archive put --label "failing tests" -
    """


@archive.command("put", help=PUT_HELP)  # the guest's limit, read from contract.json
@click.argument("source", type=click.File("rb"))
@click.option("-l", "--label", help="A one-line title (default: the first non-blank line).")
@click.option("-n", "--namespace", default="default", show_default=True, help=NAMESPACE_HELP)
@click.option("--json", "as_json", is_flag=True, help="Print the result as JSON.")
@click.pass_obj
def put(session: Session, source: IO[bytes], label: str | None, namespace: str, as_json: bool) -> None:
    """Archive SOURCE verbatim and print its id (the help is :data:`PUT_HELP`)."""
    raw, name = source.read(), getattr(source, "name", "-")
    try:
        content = raw.decode("utf-8")
    except UnicodeDecodeError as error:
        raise click.ClickException(f"{name} is not UTF-8 text: {error}") from None
    body: dict[str, str] = {"content": content, "namespace": namespace}
    if label is not None:
        body["label"] = label
    check_size(name, len(raw), len(json.dumps(body, ensure_ascii=False).encode("utf-8")))
    data = session.dispatch("archive", body)
    if as_json:
        echo_json(data)
    else:
        click.echo(data["id"])


def check_size(name: str, size: int, request: int) -> None:
    """Refuse content the archive cannot take, saying so about the *content* and its real limit."""
    if size > MAX_CONTENT_BYTES:
        raise click.ClickException(f"{name}: the content is {size:,} bytes; an archived block holds at most "
                                   f"{MAX_CONTENT_BYTES:,} bytes ({MAX_CONTENT_BYTES / 2**20:.2f} MiB)")
    if request > MAX_BODY_BYTES:  # escapes (quotes, backslashes, control characters) made it larger
        raise click.ClickException(f"{name}: the content is {size:,} bytes, {request:,} once escaped for the "
                                   f"request, whose limit is {MAX_BODY_BYTES:,}: archive it in parts")


def asked_id(block_id: str) -> str:
    """The id ``block_id`` names, as the guest writes ids (``r7`` for `` R007``), once the guest took it.

    The guest reads an id by Go's rule (``guest/archive/store.py``: trim Go's white space, drop one
    ``r`` then one ``R``, trim, ASCII digits); Go's white space is white space to Python too, so for
    an id the guest accepted this shorter reading finds the same number.
    """
    return f"r{int(block_id.strip().removeprefix('r').removeprefix('R').strip())}"


@archive.command("get")
@click.argument("block_id", metavar="ID")
@click.option("-n", "--namespace", default="default", show_default=True, help=NAMESPACE_HELP)
@click.option("--json", "as_json", is_flag=True, help="Print the block and its label as JSON.")
@click.pass_obj
def get(session: Session, block_id: str, namespace: str, as_json: bool) -> None:
    """Print archived block ID exactly as it was archived (r7, R7 and 7 all work).

    \b
    Examples:
      rs-learn-host archive get r7
      rs-learn-host archive get r7 > restored.txt
      rs-learn-host archive get r2 --namespace frontend --json
    """
    data = session.dispatch("archive_recall", {"id": block_id, "namespace": namespace})
    if as_json:
        echo_json(data)
        return
    if data.get("renumbered") or data["id"] != asked_id(block_id):
        click.echo(data["text"].split("\n", 1)[0], err=True)  # "[r2 — label, recalled verbatim; r1 on ...]"
    sys.stdout.buffer.write(data["content"].encode("utf-8"))
    sys.stdout.buffer.flush()


@archive.command("search")
@click.argument("query")
@click.option("-l", "--limit", type=int, default=None,
              help=f"Results (default {default_of('recall_search', 'limit')}, at most "
              f"{field('recall_search', 'limit')['maximum']}).")
@click.option("-n", "--namespace", default="default", show_default=True, help=NAMESPACE_HELP)
@click.option("--json", "as_json", is_flag=True, help="Print the results as JSON.")
@click.pass_obj
def search(session: Session, query: str, limit: int | None, namespace: str, as_json: bool) -> None:
    """Find archived blocks by the keywords of QUERY; best first, newest first on ties.

    A block scores two points per keyword found in its label and one per keyword found
    in its content (as a substring, case-insensitive); keywords shorter than two
    characters are ignored.

    The seed calls this tool recall_search; `rs-learn-host recall-search` is the same command.

    \b
    Examples:
      rs-learn-host archive search "nginx upstream"
      rs-learn-host recall-search "failing tests" --limit 1 --json
    """
    body: dict[str, object] = {"query": query, "namespace": namespace}
    if limit is not None:
        body["limit"] = limit
    data = session.dispatch("recall_search", body)
    if as_json:
        echo_json(data)
    else:
        click.echo(data["text"])

