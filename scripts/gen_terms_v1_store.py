"""Regenerate ``tests/data/golden/terms_v1_store.json``: a memory store as an engine before issue 29 wrote it.

Terms version 1 (``guest/memory/rules.py``) is what every store written before issue 29 holds:
stats without ``terms``, keyword terms without word forms or facet terms. The golden file keeps
such a store's rows, written by the *old* engine itself, so that ``tests/guest/test_terms_versions.py``
can check that today's engine keeps reading and writing it by its rules and moves it to the
current version on ``reindex {"rebuild": true}``. Run it with an old checkout first on the path
(``git worktree add /tmp/old 4352451``, the last commit of ``main`` before issue 29)::

    PYTHONPATH=/tmp/old .venv/bin/python scripts/gen_terms_v1_store.py /tmp/old

It refuses an engine that already knows terms versions.
"""

from __future__ import annotations

import base64
import contextlib
import json
import sqlite3
import subprocess
import sys
import tempfile
from pathlib import Path

OUT = Path(__file__).resolve().parent.parent / "tests" / "data" / "golden" / "terms_v1_store.json"
START_MS = 1_790_000_000_000  # 2026-09-21, 14:13:20 UTC
STEP_MS = 3_600_000
TEXTS = (
    "Melanie: I ran a charity race for mental health last Saturday.",
    "Caroline: Melanie told me the race was hard but fun.",
    "Melanie: my children broke the vase while they were painting.",
    "Deploy: production goes out through ArgoCD after the canary is green.",
    "The retry policy lives in `src/retry.py` and backs off exponentially.",
    "Caroline: I went to an LGBTQ support group yesterday.",
    *(  # past the pending list (32 documents): most postings are sealed in heads
        f"Standup {n}: the {('build', 'deploy', 'review', 'release')[n % 4]} took {n} minutes; "
        f"{('Melanie', 'Caroline', 'Deploy', 'the team')[n % 4]} wrote the notes."
        for n in range(1, 37)
    ),
)


def main() -> None:
    """Memorize :data:`TEXTS` an hour apart with the engine on the path; write the store's rows."""
    from guest.memory import records

    if hasattr(records, "TERMS_VERSION"):
        raise SystemExit("this engine knows terms versions: put an engine before issue 29 first on the path")
    old = Path(sys.argv[1])
    commit = subprocess.run(["git", "rev-parse", "HEAD"], cwd=old, capture_output=True, text=True,
                            check=True).stdout.strip()
    write(OUT, commit, START_MS, STEP_MS, TEXTS)


def write(out: Path, commit: str, start_ms: int, step_ms: int, texts: tuple[str, ...]) -> None:
    """Memorize ``texts`` ``step_ms`` apart from ``start_ms`` with the engine on the path; write the rows."""
    from host_harness.services import HostServices, ManualClock
    from host_harness.targets.native import NativeGuest

    with tempfile.TemporaryDirectory() as tmp:
        clock = ManualClock(start_ms)
        services = HostServices(Path(tmp), clock=clock)
        guest = NativeGuest(services)
        for text in texts:
            envelope = json.loads(guest.dispatch("memorize", json.dumps({"text": text})))
            assert envelope["ok"], envelope
            clock.advance(step_ms)
        guest.close()
        services.close()
        with contextlib.closing(sqlite3.connect(Path(tmp) / ".gm" / "rs-learn.db")) as conn:
            rows = conn.execute("SELECT ns, key, value FROM kv ORDER BY ns, key").fetchall()
    stored = [{"ns": ns, "key": key, "b64": base64.b64encode(bytes(value)).decode("ascii")}
              for ns, key, value in rows if not ns.startswith("host")]
    golden = {"commit": commit, "start_ms": start_ms, "step_ms": step_ms, "texts": list(texts),
              "rows": stored}
    out.write_text(json.dumps(golden, indent=1) + "\n", encoding="utf-8")
    print(f"{out}: {len(stored)} rows from {commit[:12]}")

if __name__ == "__main__":
    main()
