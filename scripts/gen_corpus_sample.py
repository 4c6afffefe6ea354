"""Regenerate ``tests/data/corpus_sample.txt``: every 100th paragraph of the bench corpus.

``python -m bench.corpus_alarms`` (in ``make eval``) redacts and screens all 33,011 paragraphs of the
bench corpus (``bench/corpus.py``: the standard library's docstrings and comments); the suite keeps
this sample and holds it to no change (``tests/guest/test_redact.py``, ``tests/guest/test_quarantine.py``).
The paragraphs hold blank lines, so they are joined by the record separator on a line of its own.
Run it from the checkout's root after the corpus changed::

    .venv/bin/python scripts/gen_corpus_sample.py
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench import corpus  # noqa: E402 (the checkout's root is on the path now)

OUT = ROOT / "tests" / "data" / "corpus_sample.txt"
EVERY = 100  # every 100th paragraph: 331 of 33,011
SEPARATOR = "\n\x1e\n"  # never in a paragraph (tests/helpers/secret_corpus.py splits on it)


def main() -> None:
    """Write the sample and say how many paragraphs it holds."""
    sample = corpus.base()[::EVERY]
    OUT.write_text(SEPARATOR.join(sample) + "\n", encoding="utf-8")
    print(f"{len(sample)} paragraphs written to {OUT.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
