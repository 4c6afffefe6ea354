"""Issue 44 item 8 rows: the web view (``rs-learn-host ui``) and ``list --stale`` at 10k memories.

The store: a copy of the bench's 10k store (the realistic corpus) with :data:`CITING` more memories
imported that cite project files (``src/m<j>.py``, :data:`FILES` of them), of which the files of
every other one changed since (:data:`CITING` / 2 stale memories). Measured, through the component:

* the Overview (every count, the stale count of each store included) and a listing of the stale
  memories (the first page, as the page asks), each the view's own code over its worker;
* a search (recall, each hit completed) while an Overview runs: how long the search waits;
* ``rs-learn-host list --stale --all`` as a user runs it (a new process, the component loaded from
  the compile cache).

``python -m bench.ui`` runs only these rows (the 10k store is built first when ``make bench`` has
not kept one).
"""

from __future__ import annotations

import argparse
import asyncio
import hashlib
import json
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Coroutine
from pathlib import Path
from typing import Any

from bench import corpus, scale
from host_harness.mcp.worker import GuestWorker
from host_harness.services import HostServices
from host_harness.targets.base import BaseGuest
from host_harness.targets.component import WasmGuest
from host_harness.targets.native import NativeGuest
from host_harness.targets.runtime import Runtime
from host_harness.ui import memories
from host_harness.ui.backend import Backend
from host_harness.ui.overview import overview
from host_harness.vectors import IndexPolicy

Row = Callable[..., None]
SIZE = 10000
CITING = 1000
FILES = 200
ROUNDS = 3


def stale_project(base: Path, dest: Path) -> Path:
    """A copy of ``base`` with :data:`CITING` memories citing project files, half of them stale now."""
    shutil.copytree(base, dest)
    paragraphs = corpus.base()
    items = []
    for i in range(CITING):
        path = f"src/m{i % FILES}.py"
        recorded = hashlib.sha256(f"version {i % 2}\n".encode()).hexdigest()  # odd ones: changed since
        text = f"{corpus.memory(SIZE + i, paragraphs)} (see {path})"
        items.append({"text": text, "files": {path: recorded}})
    (dest / "src").mkdir()
    for j in range(FILES):
        (dest / "src" / f"m{j}.py").write_text("version 0\n", encoding="utf-8")
    services = HostServices(dest, index_policy=IndexPolicy(None))
    guest = NativeGuest(services)
    envelope = json.loads(guest.dispatch("import", json.dumps({"memories": items})))
    guest.close()
    services.close()
    if not envelope["ok"]:
        raise SystemExit(f"import failed: {envelope['error']}")
    return dest


def _worker(runtime: Runtime, project: Path, cache: Path) -> tuple[GuestWorker, Backend]:
    opened: list[tuple[HostServices, BaseGuest]] = []

    def open_guest() -> BaseGuest:
        if not opened:
            services = HostServices(project, index_policy=IndexPolicy(cache))
            opened.append((services, WasmGuest(runtime, services)))
        return opened[0][1]

    def close() -> None:
        for services, guest in opened:
            guest.close()
            services.close()

    worker = GuestWorker(open_guest, close)
    worker.start()
    return worker, Backend(worker, opened[0][0])


async def _seconds(work: Callable[[], Coroutine[Any, Any, object]]) -> float:
    """Seconds ``work()`` takes, run as a request is: a task of its own (its own context)."""
    start = time.perf_counter()
    await asyncio.create_task(work())
    return time.perf_counter() - start


async def _measure(backend: Backend) -> dict[str, list[float]]:
    stale = memories.Filters({"show": "stale"})
    search = memories.Filters({"q": "default encoding of the file"})
    out: dict[str, list[float]] = {"overview": [], "stale": [], "search": [], "search during": []}
    for _ in range(ROUNDS):
        out["overview"].append(await _seconds(lambda: overview(backend)))
        out["stale"].append(await _seconds(lambda: memories.page(backend, stale)))
        out["search"].append(await _seconds(lambda: memories.page(backend, search)))
        running = asyncio.ensure_future(overview(backend))
        await asyncio.sleep(0.05)  # the Overview is under way
        out["search during"].append(await _seconds(lambda: memories.page(backend, search)))
        await running
    return out


def _cli_stale(project: Path, cache: Path) -> float:
    env = scale.environment(cache, "auto", project)
    start = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "host_harness", "list", "--stale", "--all", "--json"],
                          env=env, capture_output=True, check=True)
    seconds = time.perf_counter() - start
    found = len(json.loads(done.stdout)["memories"])
    if found != CITING // 2:
        raise SystemExit(f"list --stale found {found} memories, not {CITING // 2}")
    return seconds


def _span(samples: list[float]) -> str:
    return f"{min(samples):.2f}–{max(samples):.2f} s"


def bench_ui(row: Row, runtime: Runtime, base: Path, tmp: Path, cache: Path) -> None:
    """The rows of this module's docstring, on a copy of ``base`` (the 10k store)."""
    print(f"the web view at {SIZE // 1000}k (+{CITING} citing files, {CITING // 2} stale), wasm")
    project = stale_project(base, tmp / "ui-10k")
    worker, backend = _worker(runtime, project, cache)
    try:
        times = asyncio.run(_measure(backend))
    finally:
        worker.close()
    where = f"at {SIZE // 1000}k, wasm, {ROUNDS} runs"
    row(f"ui Overview {where}", _span(times["overview"]), "<= 1 s")
    row(f"ui Memories, stale only {where}", _span(times["stale"]), "<= 1 s")
    row(f"ui search {where}", _span(times["search"]))
    row(f"ui search while an Overview runs {where}", _span(times["search during"]))
    cli = [_cli_stale(project, cache) for _ in range(ROUNDS)]
    row(f"list --stale --all (a new process) at {SIZE // 1000}k", _span(cli))


def main() -> None:
    """``python -m bench.ui``: only these rows."""
    from bench import stores
    from bench.common import ROWS, WASM, private_cache, row

    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--store", type=Path,
                        help=f"a project of {SIZE} corpus memories (default: the bench's)")
    args = parser.parse_args()
    base = args.store or stores.store(SIZE)[0]
    runtime = Runtime.load(WASM)
    with tempfile.TemporaryDirectory(prefix="rs-learn-bench-ui-") as tmp:
        bench_ui(row, runtime, base, Path(tmp), private_cache(stores.cache()))
    runtime.close()
    print("\n| measure | value | target |\n|---|---:|---|")
    for name, value, target in ROWS:
        print(f"| {name.strip()} | {value} | {target} |")


if __name__ == "__main__":
    main()
