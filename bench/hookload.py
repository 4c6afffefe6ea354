"""The warm hook while its server is busy: prompts during a long spool import (issue 25, item 1).

A ``spool --watch`` answers hooks on its warm socket. Here it is given a 5,000-item ``import`` (one
transaction through the component, seconds long) and, while that runs, hooks are sent one after
another, a pause apart, with the default 2 s budget: how many got an answer, and how long each took.
"""

from __future__ import annotations

import json
import statistics
import time
from collections.abc import Callable
from pathlib import Path

from bench.common import sentences

IMPORT_ITEMS = 5000
MAX_HOOKS = 12
PAUSE_S = 0.3


def bench_hook_during_import(row: Callable[..., None], project: Path, hook: Callable[[], bytes]) -> None:
    """Send hooks while the project's running watcher imports :data:`IMPORT_ITEMS` memories."""
    spool = project / ".gm" / "exec-spool"
    folder = spool / "in" / "import"
    folder.mkdir(parents=True, exist_ok=True)
    body = {"memories": [{"text": text} for text in sentences(IMPORT_ITEMS, 14, seed=25)]}
    (folder / ".busy.tmp").write_text(json.dumps(body), encoding="utf-8")
    (folder / ".busy.tmp").rename(folder / "busy.json")
    answer = spool / "out" / "busy.json"
    while (folder / "busy.json").exists():  # claimed: the import has started
        time.sleep(0.005)
    started = time.perf_counter()
    answered, latencies = 0, []
    while not answer.exists() and len(latencies) < MAX_HOOKS:
        start = time.perf_counter()
        out = hook()
        latencies.append((time.perf_counter() - start) * 1000)
        answered += bool(out.strip())
        time.sleep(PAUSE_S)
    while not answer.exists():
        time.sleep(0.01)
    took = time.perf_counter() - started
    imported = json.loads(answer.read_text(encoding="utf-8"))
    ok = imported.get("ok") is True  # (the guest's 60 s deadline can cut it short on a loaded machine)
    row(f"hook during a {IMPORT_ITEMS:,}-item spool import: answered / sent",
        f"{answered} / {len(latencies)}", f"all (the import took {took:.1f} s{'' if ok else ', and FAILED'})")
    median = f"{statistics.median(latencies):.0f} ms" if latencies else "-"
    row("  its median latency (default 2 s budget)", median)
