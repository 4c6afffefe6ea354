"""``rs-learn-host export`` and ``import``: memories as JSON lines, through the component.

The guest owns the memory format: ``export`` pages through a store with the ``export`` verb and
``import`` sends batches to the ``import`` verb (one transaction each), so ids, deduplication,
disciplines and the keyword index follow exactly the rules of ``memorize``.

Import checks every line first (a JSON object with a ``text`` string, valid Unicode; blank lines
are skipped), so a damaged file imports nothing, and every bad line is named ``FILE:LINE: reason``.
A line that is whole but cannot be stored as it is -- over :data:`MAX_LINE_BYTES`, a text over the
engine's 64 KiB (``--split`` cuts it into memories that fit instead), a bad ``created`` date -- is
named and skipped, and the rest goes in (the command then exits 1). Running the import again after
fixing the line stores only what is missing (ids are content-addressed).
"""

from __future__ import annotations

import itertools
import json
import re
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any

import click

from host_harness.cli.importing import (
    ImportOptions,
    Totals,
    import_existing,
    known_disciplines,
    settle_disciplines,
)
from host_harness.contract import section
from host_harness.integrations.importers import KINDS
from host_harness.targets.session import Session, echo_json

PAGE = 500
BATCH = 500
MAX_BATCH_BYTES = 1_800_000  # under the guest's 2 MiB body limit
MAX_LINE_BYTES = MAX_BATCH_BYTES  # a line must fit in one batch
MAX_REPORTED = 20  # bad lines named before "... and N more"
MAX_DEPTH: int = section("requests").MAX_DEPTH
MAX_LINE_DEPTH = MAX_DEPTH - 2  # the component reads bodies MAX_DEPTH deep; {"memories": [...]} takes 2
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
@click.argument("source", required=False)
@click.option("--from", "kind", type=click.Choice(KINDS),
              help="Read memories people already keep (SOURCE: a file or folder; default: this project's).")
@click.option("-n", "--namespace", help="The store of lines that name none (default: the project store).")
@click.option("--batch", type=click.IntRange(1, 5000), default=BATCH, show_default=True,
              help="Memories per transaction.")
@click.option("--split", is_flag=True,
              help="Store a text over 64 KiB as several memories (cut at paragraphs) instead of skipping it.")
@click.option("--dry-run", is_flag=True, help="Show what would be stored; store nothing.")
@click.option("--ids", "with_ids", is_flag=True,
              help="Print the id of every memory stored, one a line (the summary goes to stderr).")
@click.option("--json", "as_json", is_flag=True, help="Print the counts as JSON.")
@click.option("--reviewed", is_flag=True,
              help="You read SOURCE and vouch for it: the prompt hook injects its memories (without this "
                   "they wait for `approve`, or are shown with their origin: docs/memory.md#origin).")
@click.pass_context
def import_(ctx: click.Context, source: str | None, kind: str | None, namespace: str | None, batch: int,
            split: bool, dry_run: bool, with_ids: bool, as_json: bool, reviewed: bool) -> None:
    """Store the memories of SOURCE (JSON lines, or - for stdin); already stored ones are skipped.

    Each line is an object with a "text"; optional: namespace, created (epoch ms or ISO-8601),
    source, importance, context, embedder + vector from `export --vectors`, supersedes,
    superseded_by, files, and forgotten ({"ts", "reason"}: a tombstone, honoured by time).
    A line that cannot be stored (a text over 64 KiB, a bad date) is named and skipped; the rest
    goes in, and the command exits 1.

    With --from, SOURCE is what people already keep: claude-md (a CLAUDE.md), agents-md (an
    AGENTS.md), cursor-rules (.cursor/rules/*.mdc) or claude-memory (Claude Code's auto-memory
    folder); one memory per bullet or paragraph, the headings above it kept as its context.

    A discipline the import creates is enabled (recall searches it); an existing disabled one
    stays disabled, and the import says how to enable it.

    \b
    Examples:
      rs-learn-host import memories.jsonl
      rs-learn-host -p ../other-checkout export | rs-learn-host import -
      rs-learn-host import --split --ids notes.jsonl > stored-ids.txt
      rs-learn-host import --from claude-md --reviewed    # ./CLAUDE.md, which you wrote
      rs-learn-host import --from cursor-rules --dry-run  # .cursor/rules/
    """
    session: Session = ctx.obj
    where = source or (f"--from {kind}" if kind else "-")
    origin = {"kind": "imported", "file": where, "reviewed": reviewed}
    options = ImportOptions(namespace, dry_run, as_json, with_ids, split, origin)
    if kind is not None:
        import_existing(session, kind, Path(source) if source else None, options)
        return
    if source is None:
        raise click.UsageError("Missing argument 'SOURCE' (a JSON lines file, - for stdin, or use --from).")
    stream = click.File("rb").convert(source, None, ctx)
    import_lines(session, stream, batch, options)


def import_lines(session: Session, source: IO[bytes], batch: int, options: ImportOptions) -> None:
    """Import JSON lines (every line checked first), batch by batch; skip (and name) what cannot be stored."""
    lines, skipped = checked_lines(source)
    name = getattr(source, "name", "-")
    totals = Totals(len(lines) + len(skipped))
    totals.skipped += skipped
    before = known_disciplines(session)
    progress = Progress(len(lines))
    started = time.perf_counter()
    for first, chunk in batches(lines, batch):
        body = options.body([json.loads(raw) for _, raw in chunk])
        try:
            data = session.dispatch("import", body)
        except click.ClickException as error:
            progress.done()
            raise click.ClickException(_at_line(error.format_message(), name, chunk)) from None
        totals.add(data, lambda index: f"{name}:{chunk[index][0]}")  # noqa: B023 (used at once)
        progress.show(first + len(chunk))
    progress.done()
    seconds = time.perf_counter() - started
    notes = settle_disciplines(session, before, totals.namespaces, options.dry_run)
    if options.as_json:
        echo_json(totals.as_json(options) | {"seconds": round(seconds, 3)} | ({"disciplines": notes} if notes
                                                                             else {}))
    else:
        totals.show_skipped()
        rate = f" ({totals.lines / seconds:,.0f} lines/s)" if seconds > 0 and totals.lines else ""
        would = "dry run: would import" if options.dry_run else "imported"
        forgot = f", forgotten {totals.forgotten:,}" if totals.forgotten else ""
        skips = f", skipped {len(totals.skipped):,}" if totals.skipped else ""
        summary = (f"{would} {totals.imported:,}, already stored {totals.deduped:,}, "
                   f"embedded {totals.embedded:,}{forgot}{skips} of {totals.lines:,} lines "
                   f"in {seconds:.1f} s{rate}{totals.screened()}")
        totals.show(summary, notes, options.with_ids)
    if totals.skipped:
        raise click.exceptions.Exit(1)


def checked_lines(source: IO[bytes]) -> tuple[list[tuple[int, bytes]], list[dict[str, Any]]]:
    """Every non-blank line ``(number, raw)``, and the lines too long to read (skipped, never held).

    Each line kept is a JSON object with a ``text`` string; each too long one is ``{"where":
    "FILE:LINE", "reason"}``.

    Every line is checked; when any is damaged, nothing is returned: a ``ClickException`` names each
    bad line as ``FILE:LINE: reason`` (the first :data:`MAX_REPORTED`, then how many more).
    """
    name = getattr(source, "name", "-")
    out: list[tuple[int, bytes]] = []
    bad: list[str] = []
    too_long: list[dict[str, Any]] = []
    for number, raw, size in read_lines(source, MAX_LINE_BYTES):
        if size > MAX_LINE_BYTES:
            reason = f"the line is {size:,} bytes; a line may hold at most {MAX_LINE_BYTES:,}"
            too_long.append({"where": f"{name}:{number}", "reason": reason})
            continue
        problem = line_problem(number, raw)
        if problem is not None:
            bad.append(f"{name}:{number}: {problem}")
        elif raw.strip():
            out.append((number, raw))
    if bad:
        more = f"\n... and {len(bad) - MAX_REPORTED} more" if len(bad) > MAX_REPORTED else ""
        count = f"{len(bad)} bad lines" if len(bad) > 1 else "1 bad line"
        raise click.ClickException("\n".join(bad[:MAX_REPORTED]) + more + f"\n{count}: nothing was imported")
    return out, too_long


def read_lines(source: IO[bytes], limit: int) -> Iterator[tuple[int, bytes, int]]:
    """``(number, line, size)``; a line over ``limit`` bytes (newline aside) comes as ``b""``, never held."""
    for number in itertools.count(1):
        raw = source.readline(limit + 1)
        if not raw:
            return
        size = len(raw) - raw.endswith(b"\n")
        if size > limit:  # too long: skip the rest of the line, a piece at a time
            for piece in iter(lambda: source.readline(1 << 20), b""):
                size += len(piece) - piece.endswith(b"\n")
                if piece.endswith(b"\n"):
                    break
            raw = b""
        yield number, raw, size


def line_problem(number: int, raw: bytes) -> str | None:
    """Why one line cannot be read (``None`` when it can, or when it is blank)."""
    if not raw.strip():
        return None
    try:
        value = json.loads(raw.decode("utf-8-sig" if number == 1 else "utf-8"))
    except UnicodeDecodeError as error:
        return f"not UTF-8: {error}"
    except RecursionError:
        return f"nested too deeply (over a thousand levels); a line may nest at most {MAX_LINE_DEPTH} levels"
    except ValueError as error:
        return f"not JSON: {error}"
    if not isinstance(value, dict) or not isinstance(value.get("text"), str):
        return 'expected a JSON object with a "text" string'
    levels = nesting(value)
    if levels > MAX_LINE_DEPTH:
        return f"nested {levels} levels deep; a line may nest at most {MAX_LINE_DEPTH} levels"
    try:
        json.dumps(value, ensure_ascii=False).encode("utf-8")
    except UnicodeEncodeError as error:
        lone = error.object[error.start : error.end].encode("unicode-escape").decode("ascii")
        return f"not valid Unicode: a lone surrogate {lone} (a \\u escape that is half of a pair)"
    return None


def nesting(value: Any) -> int:
    """How many arrays and objects deep ``value`` nests (without recursion)."""
    deepest, stack = 0, [(value, 1)]
    while stack:
        item, level = stack.pop()
        if isinstance(item, (dict, list)):
            deepest = max(deepest, level)
            stack.extend((child, level + 1) for child in (item.values() if isinstance(item, dict) else item))
    return deepest


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
