"""The bench's data sets (``bench/data/``), read as files: the tests import nothing from ``bench/``."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

DATA = Path(__file__).resolve().parent.parent.parent / "bench" / "data"


def jsonl(name: str) -> list[dict[str, Any]]:
    """The records of ``bench/data/<name>``, one JSON object a line (blank lines skipped)."""
    lines = (DATA / name).read_text(encoding="utf-8").splitlines()
    return [json.loads(line) for line in lines if line.strip()]
