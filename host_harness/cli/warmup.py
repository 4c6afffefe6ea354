"""``rs-learn-host warmup``: compile the component now, so that no agent waits for it (issue 26)."""

from __future__ import annotations

import sys
from typing import TextIO

import click

from host_harness.targets.session import Session, echo_json

BAR_WIDTH = 24
NOTE_EVERY_S = 10.0  # off a terminal, a line this often while the compile runs


class Bar:
    """A one-line progress bar on a terminal: filled by what this compile took here before, else a bouncer."""

    def __init__(self, out: TextIO) -> None:
        self.out = out
        self.shown = False

    def __call__(self, elapsed_s: float, expected_s: float | None) -> None:
        """Redraw the line for ``elapsed_s`` seconds so far."""
        if expected_s:
            filled = min(BAR_WIDTH - 1, int(BAR_WIDTH * elapsed_s / expected_s))
            bar = "#" * filled + "-" * (BAR_WIDTH - filled)
            when = f"{elapsed_s:.0f} s of about {expected_s:.0f} s"
        else:
            at = int(elapsed_s * 4) % (2 * BAR_WIDTH - 6)
            at = at if at < BAR_WIDTH - 3 else 2 * BAR_WIDTH - 6 - at
            bar = " " * at + "<=>" + " " * (BAR_WIDTH - 3 - at)
            when = f"{elapsed_s:.0f} s"
        self.out.write(f"\rcompiling the component [{bar}] {when} ")
        self.out.flush()
        self.shown = True

    def clear(self) -> None:
        """Remove the line."""
        if self.shown:
            self.out.write("\r\033[K")
            self.out.flush()


class Note:
    """Off a terminal: one plain line when the compile starts, then one every ``every_s`` seconds."""

    def __init__(self, out: TextIO, every_s: float = NOTE_EVERY_S) -> None:
        self.out = out
        self.every_s = every_s
        self.shown = False
        self.next_s = every_s

    def __call__(self, elapsed_s: float, expected_s: float | None) -> None:
        """Say that the compile runs (and how long it took here before), then how long it has run."""
        about = f"about {expected_s:.0f} s" if expected_s else ""
        if not self.shown:
            when = f", {about}" if about else ""
            self.out.write(f"compiling the component (once after an install or upgrade{when})...\n")
            self.shown = True
        elif elapsed_s >= self.next_s:
            self.out.write(f"  still compiling: {elapsed_s:.0f} s{f' of {about}' if about else ''}\n")
            self.next_s = (elapsed_s // self.every_s + 1) * self.every_s
        else:
            return
        self.out.flush()

    def clear(self) -> None:
        """Nothing to remove."""


def progress_for(out: TextIO) -> Bar | Note:
    """A bar on a terminal, one plain line otherwise."""
    return Bar(out) if out.isatty() else Note(out)


@click.command("warmup")
@click.option("--json", "as_json", is_flag=True, help="Print what was done as JSON.")
@click.pass_obj
def warmup(session: Session, as_json: bool) -> None:
    """Compile the component now, so that no agent waits for it.

    Wasmtime compiles the component once per version (tens of seconds on a
    small machine) and keeps the result in the cache ($RS_LEARN_CACHE_DIR,
    default ~/.cache/rs-learn); every later start loads it in milliseconds.
    Without this, the first hook or MCP tool call after an install or upgrade
    waits for that compile. `setup` runs it. Running it again is instant.

    \b
    Examples:
      rs-learn-host warmup
      rs-learn-host warmup --json
    """
    from wasmtime import WasmtimeError

    from host_harness.warmup import warmup as precompile

    wasm = session.require_wasm()
    show = Note(sys.stderr) if as_json else progress_for(sys.stderr)
    try:
        done = precompile(wasm, progress=show)
    except WasmtimeError as error:
        raise click.ClickException(f"cannot compile {wasm}: {error}") from None
    finally:
        show.clear()
    if as_json:
        echo_json({"artifact": str(done.artifact), "wasCached": done.was_cached,
                   "seconds": round(done.seconds, 3)})
    elif done.was_cached:
        click.echo(f"already compiled: {done.artifact}")
    else:
        click.echo(f"compiled the component in {done.seconds:.1f} s: {done.artifact}")
