"""The injection ledger: one JSON line per prompt-submit hook run, what ``rs-learn-host why`` reads.

``<project>/.gm/logs/ledger.jsonl`` -- local state, never committed (``.gm/logs/`` is in
``.gm/.gitignore``) -- is appended without following links (``host_harness/fs/confine.py``); when
it passes :data:`MAX_LEDGER_BYTES` it becomes ``ledger.jsonl.1`` (replacing the previous one), so
the ledger never holds more than twice that. A line (``docs/hooks.md`` lists every field)::

    {"v": 1, "ts": "2026-12-02T10:11:12.345Z", "session": "abc123", "event": "prompt",
     "path": "warm", "prompt": {"sha256": "3f2a…", "chars": 57}, "outcome": "injected",
     "query": "staging server port", "recalled_with": ["prompt"],
     "candidates": [{"id", "namespace", "decision", "score", "cosine", "bm25", "vector",
                     "keyword", "fused", "recency", "lift", "stale", "excerpt"}, …],
     "evidence": {"coverage": 0.62, "passed": true},
     "injected": ["mem-…"], "tokens": 61, "ms": 48.2}

The prompt is kept only as its digest and length, unless the hook runs with ``--log-prompts``
(``$RS_LEARN_LOG_PROMPTS``): then ``text`` holds it as the guest returned it, its secrets redacted.
A run that injected nothing says why in ``reason``; one that never reached the guest (auto-recall
turned off, a failure) has no candidates.
"""

from __future__ import annotations

import hashlib
import json
import time
from pathlib import Path
from typing import Any

from host_harness.fs import confine

PARTS = (".gm", "logs", "ledger.jsonl")
MAX_LEDGER_BYTES = 1024 * 1024
VERSION = 1


def stamp(now: float | None = None) -> str:
    """``now`` (default: the wall clock) as UTC ISO 8601 with milliseconds."""
    now = time.time() if now is None else now
    return time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(now)) + f".{int(now * 1000) % 1000:03d}Z"


def digest(prompt: str) -> dict[str, Any]:
    """What the ledger keeps of a prompt by default: its sha256 (16 hex) and its length."""
    data = prompt.encode("utf-8", "surrogatepass")
    return {"sha256": hashlib.sha256(data).hexdigest()[:16], "chars": len(prompt)}


def append(project: Path, entry: dict[str, Any]) -> None:
    """Append ``entry`` as one line (``OSError`` when it cannot be written; the caller logs it)."""
    line = json.dumps({"v": VERSION, **entry}, ensure_ascii=False, separators=(",", ":"))
    confine.append_file(project, PARTS, line.encode("utf-8", "backslashreplace") + b"\n", MAX_LEDGER_BYTES)


def read(project: Path, last: int = 0, session: str | None = None) -> list[dict[str, Any]]:
    """The ledger's entries, oldest first: the last ``last`` (0: all), of ``session`` only if given.

    ``session`` matches an entry whose session id equals it or starts with it. Lines that are not
    JSON objects (a write cut short) are skipped.
    """
    entries: list[dict[str, Any]] = []
    for name in (PARTS[-1] + ".1", PARTS[-1]):
        try:
            raw = confine.read_file(project, (*PARTS[:-1], name), 4 * MAX_LEDGER_BYTES)
        except FileNotFoundError:
            raw = None
        for line in (raw or b"").splitlines():
            try:
                entry = json.loads(line)
            except ValueError:
                continue
            if isinstance(entry, dict) and _of(entry, session):
                entries.append(entry)
    return entries[-last:] if last else entries


def _of(entry: dict[str, Any], session: str | None) -> bool:
    if session is None:
        return True
    ident = entry.get("session")
    return isinstance(ident, str) and ident.startswith(session)


def nothing_reason(candidates: list[dict[str, Any]], evidence: Any = None) -> str:
    """Why a run injected nothing: the relevance gate's answer, or its candidates' decisions."""
    if isinstance(evidence, dict) and isinstance(evidence.get("why"), str):
        return f"the relevance gate: {evidence['why']}"
    if not candidates:
        return "no memory has any evidence for this prompt"
    counts: dict[str, int] = {}
    for candidate in candidates:
        decision = str(candidate.get("decision"))
        counts[decision] = counts.get(decision, 0) + 1
    return "no candidate was injected: " + ", ".join(f"{n} {DECIDED.get(d, d)}" for d, n in counts.items())


DECIDED = {
    "injected": "injected",
    "stale": "injected (may be stale)",
    "budget": "over the budget",
    "gate": "below the relevance gate",
    "limit": "beyond the limit",
    "quarantined": "quarantined",
    "seen": "already injected in this session",
}
