"""``rs-learn-host export`` and ``import``: memories as JSON lines, through the component.

The guest owns the memory format: ``export`` pages through a store with the ``export`` verb and
``import`` sends batches to the ``import`` verb (one transaction each), so ids, deduplication,
disciplines and the keyword index follow exactly the rules of ``memorize``.

Import checks every line first (a JSON object with a ``text`` string; blank lines are skipped),
so a damaged file imports nothing. A batch the engine refuses (say, a bad ``created`` date) stops
the import with the line named; the batches before it stay imported, and running the import again
after fixing the line stores only what is missing (ids are content-addressed).
"""

from __future__ import annotations

import json
import re
import sys
import time
from collections.abc import Iterator
from typing import IO, Any

import click

from host_harness.guests.session import Session, echo_json

PAGE = 500
BATCH = 500
MAX_BATCH_BYTES = 1_800_000  # under the guest's 2 MiB body limit
ITEM_RE = re.compile(r"memories\[(\d+)\]")


@click.command("export")
@click.option("-n", "--namespace", help="Export one store (default: the project store and every discipline).")
@click.option("--vectors", is_flag=True, help="Include the vectors (base64 float32): import skips embedding.")
@click.option("-o", "--output", type=click.File("w", encoding="utf-8"), default="-", show_default=True,
              help="Where to write the JSON lines.")
@click.pass_obj
def export(session: Session, namespace: str | None, vectors: bool, output: IO[str]) -> None:
    """Write every memory as one JSON line: id, namespace, text, created, source, embedder.

    Supersede links and cited files come along; forgotten memories follow, each with "forgotten"
    (when and why), so that an import elsewhere forgets them too.

    \b
    Examples:
      rs-learn-host export > memories.jsonl
      rs-learn-host export --namespace frontend --vectors -o frontend.jsonl
    """
    names = [namespace] if namespace else ["default", *session.stored_disciplines()]
    for name in names:
        for forgotten in (False, True):  # the memories, then the tombstones of forgotten ones
            start: int | None = 0
            while start is not None:
                body = {"namespace": name, "start": start, "limit": PAGE,
                        "vectors": vectors and not forgotten, "forgotten": forgotten}
                data = session.dispatch("export", body)
                for memory in data["memories"]:
                    output.write(json.dumps(memory, ensure_ascii=False) + "\n")
                start = data["next"]


@click.command("import")
@click.argument("source", type=click.File("rb"))
@click.option("-n", "--namespace", help="The store of lines that name none (default: the project store).")
@click.option("--batch", type=click.IntRange(1, 5000), default=BATCH, show_default=True,
              help="Memories per transaction.")
@click.option("--json", "as_json", is_flag=True, help="Print the counts as JSON.")
@click.pass_obj
def import_(session: Session, source: IO[bytes], namespace: str | None, batch: int, as_json: bool) -> None:
    """Store the memories of SOURCE (JSON lines, or - for stdin); already stored ones are skipped.

    Each line is an object with a "text"; optional: namespace, created (epoch ms or ISO-8601),
    source, importance, context, embedder + vector from `export --vectors`, supersedes,
    superseded_by, files, and forgotten ({"ts", "reason"}: a tombstone, honoured by time).

    \b
    Examples:
      rs-learn-host import memories.jsonl
      rs-learn-host -p ../other-checkout export | rs-learn-host import -
    """
    lines = checked_lines(source)
    name = getattr(source, "name", "-")
    totals = {"lines": len(lines), "imported": 0, "deduped": 0, "embedded": 0, "forgotten": 0}
    progress = Progress(len(lines))
    started = time.perf_counter()
    for first, chunk in batches(lines, batch):
        body: dict[str, Any] = {"memories": [json.loads(raw) for _, raw in chunk]}
        if namespace:
            body["namespace"] = namespace
        try:
            data = session.dispatch("import", body)
        except click.ClickException as error:
            progress.done()
            raise click.ClickException(_at_line(error.format_message(), name, chunk)) from None
        for key in ("imported", "deduped", "embedded", "forgotten"):
            totals[key] += int(data.get(key, 0))
        progress.show(first + len(chunk))
    progress.done()
    seconds = time.perf_counter() - started
    if as_json:
        echo_json(totals | {"seconds": round(seconds, 3)})
        return
    rate = f" ({totals['lines'] / seconds:,.0f} lines/s)" if seconds > 0 and totals["lines"] else ""
    forgot = f", forgotten {totals['forgotten']:,}" if totals["forgotten"] else ""
    click.echo(f"imported {totals['imported']:,}, already stored {totals['deduped']:,}, "
               f"embedded {totals['embedded']:,}{forgot} of {totals['lines']:,} lines "
               f"in {seconds:.1f} s{rate}")


def checked_lines(source: IO[bytes]) -> list[tuple[int, bytes]]:
    """``(line number, raw line)`` of every non-blank line, each a JSON object with a ``text`` string."""
    name = getattr(source, "name", "-")
    out = []
    for number, raw in enumerate(source, start=1):
        if not raw.strip():
            continue
        try:
            value = json.loads(raw.decode("utf-8-sig" if number == 1 else "utf-8"))
        except UnicodeDecodeError as error:
            raise click.ClickException(f"{name}:{number}: not UTF-8: {error}") from None
        except ValueError as error:
            raise click.ClickException(f"{name}:{number}: not JSON: {error}") from None
        if not isinstance(value, dict) or not isinstance(value.get("text"), str):
            raise click.ClickException(f"{name}:{number}: expected a JSON object with a \"text\" string")
        out.append((number, raw))
    return out


def batches(lines: list[tuple[int, bytes]], size: int) -> Iterator[tuple[int, list[tuple[int, bytes]]]]:
    """``(index of the first line, lines)`` chunks of at most ``size`` lines and ~1.8 MB of JSON."""
    chunk: list[tuple[int, bytes]] = []
    first = used = 0
    for index, line in enumerate(lines):
        if chunk and (len(chunk) == size or used + len(line[1]) > MAX_BATCH_BYTES):
            yield first, chunk
            chunk, first, used = [], index, 0
        chunk.append(line)
        used += len(line[1]) + 2
    if chunk:
        yield first, chunk


def _at_line(message: str, name: str, chunk: list[tuple[int, bytes]]) -> str:
    """Turn ``memories[i]`` of a batch error into the file's line number."""
    match = ITEM_RE.search(message)
    if match is None or int(match.group(1)) >= len(chunk):
        return message
    rest = message[: match.start()] + message[match.end() :].lstrip(": ")
    return f"{name}:{chunk[int(match.group(1))][0]}: {rest}"


class Progress:
    """One progress line on stderr, rewritten in place; only when stderr is a terminal."""

    def __init__(self, total: int) -> None:
        self.total = total
        self.started = time.perf_counter()
        self.shown = False
        self.enabled = sys.stderr.isatty()

    def show(self, count: int) -> None:
        """Rewrite the line."""
        if not self.enabled:
            return
        elapsed = max(time.perf_counter() - self.started, 1e-9)
        sys.stderr.write(f"\rimporting: {count:,} of {self.total:,} lines ({count / elapsed:,.0f}/s)")
        sys.stderr.flush()
        self.shown = True

    def done(self) -> None:
        """End the line."""
        if self.shown:
            sys.stderr.write("\n")
            self.shown = False
