"""`python -m bench.archive`: archive_search over large blocks -- time and host memory.

Fills a temporary project with blocks of ~1.9 MB of varied words (through the native guest: the
store format is the same), then runs ``archive_search`` through the component in a fresh process
and reports the median time of 5 searches and the peak growth of the process's resident memory
during one search (``/proc/self/status`` VmHWM after resetting it). Three queries: one keyword absent
from every block, three keywords (one in every block), and as many distinct words as the 8 KiB query
limit holds (~2,200): a search uses only its first ``MAX_TERMS`` distinct keywords (issue 25; before,
each keyword cost a scan of every large block: 16 s for 200 words at 52 blocks). Before issue 11 every search
moved the whole index into the guest: ~80 bytes of host memory per archived byte, 57.7 s and
5.7 GiB at 40 such blocks (reported by the issue).

    python -m bench.archive                   # 8, 16 and 52 blocks
    python -m bench.archive --blocks 4 8      # other sizes
    python -m bench.archive --runs 1          # fewer timed runs per query
"""

from __future__ import annotations

import argparse
import itertools
import json
import random
import string
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from host_harness.services import HostServices
from host_harness.targets.native import NativeGuest

ROOT = Path(__file__).resolve().parent.parent
WASM = ROOT / "dist" / "rs_learn.wasm"
WORDS = ["deploy", "rollback", "canary", "kubernetes", "helm", "ingress", "latency", "budget", "alpha"]
BLOCK_CHARS = 1_900_000
MAX_QUERY_BYTES = 8 * 1024

MEASURE = r"""
import json, statistics, sys, time
from pathlib import Path
from host_harness.targets.component import WasmGuest
from host_harness.targets.runtime import Runtime
from host_harness.services import HostServices

def status(field):
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1]) * 1024
project, wasm, query, runs = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
guest = WasmGuest(Runtime.load(wasm), HostServices(Path(project)))
guest.dispatch("archive_search", json.dumps({"query": "warmup"}))
Path("/proc/self/clear_refs").write_text("5")  # reset the peak (VmHWM) to the current size
before = status("VmRSS")
body = json.dumps({"query": query, "limit": 20})
envelope = json.loads(guest.dispatch("archive_search", body))
growth = status("VmHWM") - before
times = []
for _ in range(runs):
    start = time.perf_counter()
    guest.dispatch("archive_search", body)
    times.append(time.perf_counter() - start)
ids = [r["id"] for r in envelope["data"]["results"]]
print(json.dumps({"growth": growth, "results": ids, "median_s": statistics.median(times) if times else None}))
"""


def block(seed: int, chars: int = BLOCK_CHARS) -> str:
    """``chars`` characters of varied words (deterministic)."""
    rng = random.Random(seed)
    words = (f"{rng.choice(WORDS)}{rng.randrange(10**6)}" for _ in range(chars // 8))
    return " ".join(words)[:chars]


def many_words(limit: int = MAX_QUERY_BYTES) -> str:
    """As many distinct words as a query of ``limit`` bytes holds (none of them in a block)."""
    words = ("q" + "".join(p) for n in (2, 3) for p in itertools.product(string.ascii_lowercase, repeat=n))
    query = next(words)
    for word in words:
        if len(query) + 1 + len(word) > limit:
            break
        query += " " + word
    return query


def fill(project: Path, blocks: int, start: int = 0) -> int:
    """Archive blocks ``start .. blocks-1``; return the bytes archived."""
    services = HostServices(project)
    guest = NativeGuest(services)
    size = 0
    for seed in range(start, blocks):
        content = block(seed)
        size += len(content.encode("utf-8"))
        body = json.dumps({"content": content, "label": f"log {seed}"})
        envelope = json.loads(guest.dispatch("archive", body))
        if not envelope["ok"]:
            raise SystemExit(envelope["error"])
    services.close()
    return size


def measure_search(project: Path, wasm: Path, query: str, runs: int = 0) -> dict[str, object]:
    """Search ``project``'s archive in a fresh process: peak memory growth, results, median time."""
    done = subprocess.run([sys.executable, "-c", MEASURE, str(project), str(wasm), query, str(runs)],
                          capture_output=True, text=True, timeout=900)
    if done.returncode != 0:
        raise RuntimeError(done.stderr)
    result: dict[str, object] = json.loads(done.stdout)
    return result


def main() -> None:
    """Grow one archive through the sizes asked for and time three queries at each."""
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--blocks", type=int, nargs="+", default=[8, 16, 52])
    parser.add_argument("--runs", type=int, default=5, help="timed searches per query (the median is shown)")
    args = parser.parse_args()
    many = many_words()
    queries = {"1 word": "nowhere", "3 words": "deploy4 latency nowhere",  # deploy4 is in every block
               f"{len(many.split()):,} words (8 KiB)": many}
    print(f"| blocks | archived | {' | '.join(queries)} | peak memory growth | results |")
    print("|---:|---:|" + "---:|" * len(queries) + "---:|---:|")
    with tempfile.TemporaryDirectory() as tmp:
        project, filled, archived = Path(tmp), 0, 0
        for blocks in sorted(args.blocks):
            started = time.perf_counter()
            archived += fill(project, blocks, filled)
            filled = blocks
            fill_s = time.perf_counter() - started
            got = {name: measure_search(project, WASM, query, runs=args.runs)
                   for name, query in queries.items()}
            times = " | ".join(f"{float(str(g['median_s'])):.2f} s" for g in got.values())
            three = got["3 words"]
            print(f"| {blocks} | {archived / 2**20:.1f} MiB | {times} | "
                  f"{int(str(three['growth'])) / 2**20:.1f} MiB | {len(list(three['results']))} "
                  f"(filled in {fill_s:.0f} s) |", flush=True)


if __name__ == "__main__":
    main()
