"""The git drivers: merge and textconv time at 1k and 10k memories.

A base store holds N memories, 20 archived blocks and 100 todos; each branch then memorizes 50
new texts, archives 5 blocks (numbers collide: renumbered) and edits 10 todos (5 of them the same
field: conflict notes). Measured: the merge driver and textconv in-process (warm component, both
targets; copies restored before each run); the same merge when theirs also deleted a memory
(``guest.memory.reindex.remove``: the last document moves into the hole); and the whole commands
as git runs them (a new process each time), next to ``rs-learn-host version`` as the cost of
starting at all. Wall-clock on whatever machine runs this: compare ratios within one run.

    python -m bench.git                  # sizes 1k and 10k
    python -m bench.git --sizes 1000
"""

from __future__ import annotations

import os
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

from bench.common import WASM, filled, populate, sentences, sized_main
from guest.memory.reindex import remove
from host_harness.git import driver
from host_harness.services import HostServices
from host_harness.targets.component import WasmGuest
from host_harness.targets.native import NativeGuest
from host_harness.targets.runtime import Runtime

ROWS: list[tuple[str, str]] = []
RUNS = 3
STORE = Path(".gm") / "rs-learn.db"


def row(name: str, value: str) -> None:
    """Record and print one result line."""
    ROWS.append((name, value))
    print(f"  {name:<58} {value:>18}", flush=True)


def run_verbs(project: Path, calls: list[tuple[str, dict[str, object]]]) -> None:
    """Dispatch ``calls`` natively, in one transaction."""
    services = HostServices(project)
    guest = NativeGuest(services)
    services.begin()
    for verb, body in calls:
        guest.engine.verbs[verb].handler(body)
    services.commit()
    guest.close()
    services.close()


def history(root: Path, size: int) -> None:
    """``base``, ``ours`` and ``theirs`` projects as described above."""
    base = root / "base"
    populate(base, sentences(size, 20, seed=size))
    blocks = [("archive", {"content": text * 20, "label": text[:40]}) for text in sentences(20, 12, 3)]
    run_verbs(base, blocks + [("create_todo", {"title": text[:100]}) for text in sentences(100, 8, 4)])
    for n, side in enumerate(("ours", "theirs")):
        shutil.copytree(base, root / side)
        calls: list[tuple[str, dict[str, object]]] = [
            ("memorize", {"text": text}) for text in sentences(50, 20, seed=100 + n)]
        calls += [("archive", {"content": f"{side} {t}", "label": side}) for t in sentences(5, 12, 200 + n)]
        calls += [("update_todo", {"id": f"td-{i}", "title": f"{side} edit {i}"}) for i in range(1, 6)]
        calls += [("update_todo", {"id": f"td-{i}", "priority": 3 if side == "ours" else 4})
                  for i in range(6 + 5 * n, 11 + 5 * n)]
        run_verbs(root / side, calls)
    shutil.copytree(root / "theirs", root / "theirs-deleting")
    services = HostServices(root / "theirs-deleting")
    services.begin()
    remove(services, "default", [services.kv_query("memories", "", 1)[0][0]])  # as a forget verb would
    services.commit()
    services.close()


def merge_ms(root: Path, theirs: str, make: driver.GuestMaker) -> list[float]:
    """Driver merges of ``theirs`` into a fresh copy of ``ours``, in ms."""
    samples = []
    for _ in range(RUNS):
        shutil.copy(root / "ours" / STORE, root / "work.db")
        start = time.perf_counter()
        base, other = root / "base" / STORE, root / theirs / STORE
        merged = driver.merge(base, root / "work.db", other, str(STORE), make)
        samples.append((time.perf_counter() - start) * 1000)
        assert merged.status == driver.CLEAN, merged.report
    return samples


def textconv_ms(root: Path, make: driver.GuestMaker) -> list[float]:
    """In-process textconv of ``ours``, in ms."""
    samples = []
    for _ in range(RUNS):
        start = time.perf_counter()
        driver.textconv(root / "ours" / STORE, make)
        samples.append((time.perf_counter() - start) * 1000)
    return samples


def command_ms(args: list[str], root: Path) -> list[float]:
    """Wall time of a whole ``rs-learn-host`` command (a new process), in ms."""
    env = {**os.environ, "RS_LEARN_WASM": str(WASM)}
    samples = []
    for _ in range(RUNS):
        shutil.copy(root / "ours" / STORE, root / "work.db")
        start = time.perf_counter()
        subprocess.run([sys.executable, "-m", "host_harness", *args], env=env, cwd=root, check=True,
                       capture_output=True)
        samples.append((time.perf_counter() - start) * 1000)
    return samples


def spread(samples: list[float]) -> str:
    """min / median / max."""
    return f"{min(samples):.0f} / {statistics.median(samples):.0f} / {max(samples):.0f} ms"


def measure(runtime: Runtime, sizes: list[int]) -> None:
    """Every row, per size."""
    makers: dict[str, driver.GuestMaker] = {
        "native": lambda services: NativeGuest(services),
        "wasm": lambda services: WasmGuest(runtime, services),
    }
    for size in sizes:
        with filled(size, history, "memories and their branches") as root:
            mb = (root / "ours" / STORE).stat().st_size / 1e6
            for target, make in makers.items():
                row(f"merge driver at {size} ({mb:.1f} MB), {target}", spread(merge_ms(root, "theirs", make)))
                row(f"  same, theirs also deleted a memory, {target}",
                    spread(merge_ms(root, "theirs-deleting", make)))
                row(f"textconv at {size}, {target}", spread(textconv_ms(root, make)))
            merge = ["git", "merge-driver", f"base/{STORE}", "work.db", f"theirs/{STORE}", "x.db"]
            row(f"`git merge-driver` command at {size}", spread(command_ms(merge, root)))
            row(f"`git textconv` command at {size}", spread(command_ms(["git", "textconv", "work.db"], root)))
            row("`version` command (process + component start)", spread(command_ms(["version"], root)))


def main() -> None:
    """Run the git-driver benchmark and print a table."""
    sized_main(__doc__ or "", "git-driver", "min / median / max", measure, ROWS, [1000, 10000])


if __name__ == "__main__":
    main()
