"""Writers from two checkouts on one PostgreSQL store: nothing lost, never "locked" (issue 13).

``--sqlite`` runs the same writers on one project's SQLite files instead (issue 25, item 11: waiting
writers are served in turn; a call that cannot get the lock answers ``busy:``); ``--busy-ms``
shortens every writer's busy timeout to show how long the longest wait is.

Eight writer processes (by default), half in each of two checkouts of one project (two folders
whose ``.gm/config.json`` name the same server and project id), memorize distinct facts through the
component for a while; every fifth call is a recall, so readers run beside the writers. Then every
id a writer was told it stored is looked up, and the store's count is compared with the number of
distinct ids. ``tests/host/test_pg_store.py`` runs it for 15 s; the issue's 60 s:

    python -m bench.pgsoak --seconds 60            # a throwaway server (host_harness/store/pg/cluster.py)
    python -m bench.pgsoak --seconds 60 --url postgresql://user:pw@host/db
    python -m bench.pgsoak --seconds 30 --restart-at 12   # a server restart mid-run: clear errors, no loss
    python -m bench.pgsoak --seconds 60 --sqlite --busy-ms 2000   # the SQLite files, 2 s busy timeout
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
WASM = ROOT / "dist" / "rs_learn.wasm"

WRITER = """
import json, sys, time
from pathlib import Path
from host_harness.targets.component import WasmGuest
from host_harness.targets.runtime import Runtime
from host_harness.services import HostServices
project, wasm, tag, seconds, out, busy_ms, min_calls = sys.argv[1:8]
services = HostServices(Path(project), busy_timeout_ms=int(busy_ms))
guest = WasmGuest(Runtime.load(wasm), services)
stored, errors, latencies = [], [], []
deadline = time.monotonic() + float(seconds)
i = 0
while i < int(min_calls) or time.monotonic() < deadline:
    i += 1
    if i % 5 == 0:
        verb, body = "recall", {"query": f"cache shard {i - 1} expiry", "limit": 3}
    else:
        text = f"Writer {tag} note {i}: cache shard {i} expires after {i % 97 + 5} minutes."
        verb, body = "memorize", {"text": text}
    start = time.perf_counter()
    envelope = json.loads(guest.dispatch(verb, json.dumps(body)))
    latencies.append((time.perf_counter() - start) * 1000)
    if not envelope["ok"]:
        errors.append(envelope["error"])
    elif verb == "memorize":
        stored.append(envelope["data"]["id"])
guest.close()
services.close()
Path(out).write_text(json.dumps({"stored": stored, "errors": errors, "latencies": latencies}))
"""


def checkout(root: Path, url: str, project_id: str) -> Path:
    """A folder configured like a checkout of the project: the shared store and project id."""
    root.mkdir(parents=True)
    (root / ".gm").mkdir()
    if url != "sqlite":
        (root / ".gm" / "config.json").write_text(json.dumps({"store": url, "project": project_id}))
    return root


def soak(url: str, seconds: float, writers: int = 8, checkouts: int = 2, wasm: Path = WASM,
         fault: Callable[[], None] | None = None, fault_at: float = 0.0,
         busy_ms: int = 10_000, min_calls: int = 0) -> dict[str, Any]:
    """Run the writers (``fault()`` after ``fault_at`` s); what they stored and were told, what is stored.

    Each writer calls for ``seconds`` and at least ``min_calls`` times, however slow the machine.
    """
    from host_harness.services import HostServices
    from host_harness.targets.native import NativeGuest

    project_id = f"soak-{uuid.uuid4().hex[:8]}"
    with tempfile.TemporaryDirectory() as tmp:
        roots = [checkout(Path(tmp) / f"checkout-{n}", url, project_id) for n in range(checkouts)]
        env = {**os.environ, "PYTHONPATH": str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", "")}
        outs = [Path(tmp) / f"writer-{n}.json" for n in range(writers)]
        procs = [subprocess.Popen([sys.executable, "-c", WRITER, str(roots[n % checkouts]), str(wasm), str(n),
                                   str(seconds), str(outs[n]), str(busy_ms), str(min_calls)],
                                  env=env, stderr=subprocess.PIPE)
                 for n in range(writers)]
        if fault is not None:
            time.sleep(fault_at)
            fault()
        crashed = []
        for proc in procs:
            _, err = proc.communicate(timeout=seconds + 300 + 30 * min_calls)
            if proc.returncode:
                crashed.append(err.decode("utf-8", "replace")[-2000:])
        results = [json.loads(out.read_text()) for out in outs if out.exists()]
        stored = [mid for result in results for mid in result["stored"]]
        errors = [error for result in results for error in result["errors"]]
        latencies = sorted(ms for result in results for ms in result["latencies"])
        services = HostServices(roots[-1])
        guest = NativeGuest(services)
        services.begin()
        missing = [mid for mid in stored if services.kv_get("memories", mid) is None]
        services.rollback()
        counted = json.loads(guest.dispatch("stats", "{}"))["data"]["memories"]
        guest.close()
        services.close()
    return {
        "writers": writers, "checkouts": checkouts, "seconds": seconds, "crashed": crashed,
        "calls": len(latencies), "memorized": len(stored), "distinct": len(set(stored)), "counted": counted,
        "missing": missing, "errors": errors, "locked": [e for e in errors if "locked" in e.lower()],
        "kinds": dict(Counter(error.split(":", 1)[0] for error in errors)),
        "max_ms": latencies[-1] if latencies else None,
        "p50_ms": statistics.median(latencies) if latencies else None,
        "p95_ms": latencies[int(0.95 * (len(latencies) - 1))] if latencies else None,
    }


def main() -> None:
    """``python -m bench.pgsoak``: print the soak's numbers (exit 1 if anything was lost or locked)."""
    formatter = argparse.RawDescriptionHelpFormatter
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=formatter)
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--writers", type=int, default=8)
    parser.add_argument("--url", help="a PostgreSQL + pgvector server (default: a throwaway one)")
    parser.add_argument("--restart-at", type=float, help="restart the throwaway server after these seconds")
    parser.add_argument("--sqlite", action="store_true", help="one project's SQLite files instead")
    parser.add_argument("--busy-ms", type=int, default=10_000, help="every writer's busy timeout")
    parser.add_argument("--min-calls", type=int, default=0,
                        help="each writer goes on past --seconds until it has made this many calls")
    args = parser.parse_args()
    if args.sqlite:
        report = soak("sqlite", args.seconds, args.writers, checkouts=1, busy_ms=args.busy_ms,
                      min_calls=args.min_calls)
    elif args.url:
        report = soak(args.url, args.seconds, args.writers, busy_ms=args.busy_ms, min_calls=args.min_calls)
    else:
        from host_harness.store.pg.cluster import Cluster

        with Cluster(durable=True) as cluster:
            url = cluster.create_database("rs_learn_soak")
            restart = cluster.restart if args.restart_at is not None else None
            report = soak(url, args.seconds, args.writers, fault=restart, fault_at=args.restart_at or 0.0,
                          min_calls=args.min_calls)
    rate = report["memorized"] / report["seconds"]
    print(f"{report['writers']} writers in {report['checkouts']} checkouts for {report['seconds']:.0f} s: "
          f"{report['calls']} calls, {report['memorized']} memorized ({rate:.0f}/s), store counts "
          f"{report['counted']}, missing {len(report['missing'])}, errors {len(report['errors'])} "
          f"(locked {len(report['locked'])}), crashed {len(report['crashed'])}, "
          f"call p50 {report['p50_ms']:.0f} ms / p95 {report['p95_ms']:.0f} ms / "
          f"max {report['max_ms']:.0f} ms, errors by kind {report['kinds']}")
    for error in report["errors"][:5] + report["crashed"][:2]:
        print("  ", error)
    lost = report["counted"] != report["distinct"]
    unclear = [e for e in report["errors"] if "PostgreSQL" not in e and "postgresql://" not in e
               and not e.startswith("busy:")]
    bad = report["missing"] or report["locked"] or report["crashed"] or lost or unclear
    bad = bad or (report["errors"] and args.restart_at is None)
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
