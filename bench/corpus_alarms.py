"""False alarms on the bench corpus (issue 46, item 3): ordinary text redacted or quarantined.

``make eval`` and ``python -m bench.corpus_alarms`` run the guest's redaction
(:func:`guest.screening.redact.redact`) and injection screening
(:func:`guest.screening.injection.reason`) over every paragraph of the bench corpus
(``bench/corpus.py``: the standard library's docstrings and comments, 33,011 paragraphs on
CPython 3.11) and print how many each changes or flags. Both may touch at most 0.1 % (the exit
status is 1 beyond that); on 2026-12-07 redaction changed 10 (test passwords and cookies in
the standard library's docs) and screening flagged none. The suite keeps a sample of its own
(every 100th paragraph, written by ``scripts/gen_corpus_sample.py``) and holds it to no change: the
whole corpus took 211 s of the suite.
"""

from __future__ import annotations

import argparse
import sys
import time
from typing import Any

from bench import corpus
from guest.screening.injection import reason
from guest.screening.redact import redact


def evaluate(texts: tuple[str, ...] | None = None) -> dict[str, Any]:
    """Paragraphs redaction changes and screening flags, with the first three of each."""
    texts = corpus.base() if texts is None else texts
    started = time.perf_counter()
    changed = [t for t in texts if redact(t)[0] != t]
    redacted_s = time.perf_counter() - started
    started = time.perf_counter()
    flagged = [t for t in texts if reason(t)]
    screened_s = time.perf_counter() - started
    limit = len(texts) // 1000
    return {"paragraphs": len(texts), "limit": limit, "redacted": len(changed), "quarantined": len(flagged),
            "redacted_examples": changed[:3], "quarantined_examples": flagged[:3],
            "redact_s": round(redacted_s, 1), "screen_s": round(screened_s, 1),
            "ok": len(changed) <= limit and len(flagged) <= limit}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.parse_args()
    r = evaluate()
    print(f"bench corpus: {r['paragraphs']:,} paragraphs (at most {r['limit']} may change)")
    print(f"  redaction changed    {r['redacted']:>6} ({r['redact_s']} s)")
    print(f"  screening flagged    {r['quarantined']:>6} ({r['screen_s']} s)")
    for text in r["redacted_examples"] + r["quarantined_examples"]:
        print(f"    e.g. {text[:100]!r}")
    if not r["ok"]:
        sys.exit(1)


if __name__ == "__main__":
    main()
