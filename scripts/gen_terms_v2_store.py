"""Regenerate ``tests/data/golden/terms_v2_store.json``: a store as an engine of terms version 2 wrote it.

Terms version 2 (``guest/memory/rules.py``) is what stores written between issues 29 and 32 hold:
facet terms whose file paths follow version 2's own extractor (``café/menü.py`` a subject,
``bin/run`` and ``Makefile`` none). The golden file keeps such a store's rows, written by the *old*
engine itself, so that ``tests/guest/test_terms_versions.py`` can check that today's engine keeps reading
and writing it by its rules and moves it to the current version on ``reindex {"rebuild": true}``.
Run it with an old checkout first on the path (4972049, the last commit before terms version 3)::

    git -C . archive 4972049 | tar -x -C /tmp/old
    PYTHONPATH=/tmp/old .venv/bin/python scripts/gen_terms_v2_store.py 4972049

It refuses an engine of another terms version.
"""

from __future__ import annotations

import sys
from pathlib import Path

from gen_terms_v1_store import write

OUT = Path(__file__).resolve().parent.parent / "tests" / "data" / "golden" / "terms_v2_store.json"
START_MS = 1_795_000_000_000  # 2026-11-18, 09:06:40 UTC
STEP_MS = 3_600_000
TEXTS = (
    "Deploy: run bin/run --prod after the Makefile target `release` passed.",
    "The menu logic lives in café/menü.py and is translated by hand.",
    "The retry policy lives in `src/retry.py` and backs off exponentially.",
    "Melanie: I ran a charity race for mental health last Saturday.",
    "See docs/api/v2 and setup.py for the public interface.",
)


def main() -> None:
    """Memorize :data:`TEXTS` an hour apart with the engine on the path; write the store's rows."""
    from guest.memory import records

    if getattr(records, "TERMS_VERSION", None) != 2:
        raise SystemExit("put an engine of terms version 2 first on the path (4972049)")
    write(OUT, sys.argv[1], START_MS, STEP_MS, TEXTS)

if __name__ == "__main__":
    main()
