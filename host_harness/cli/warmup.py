"""``rs-learn-host warmup``: compile the component now, so that no agent waits for it (issue 26)."""

from __future__ import annotations

import sys

import click

from host_harness.progress import Note, progress_for
from host_harness.targets.session import Session, echo_json


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
