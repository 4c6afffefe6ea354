"""LongMemEval-S, development split: session-level retrieval, read from ``../shared/datasets/lme-dev``.

The protocol (``../shared/datasets/README.md``): each question is its own project; every turn is
one memory -- variant ``A`` the user's turns only (as the published retrieval results), ``B`` the
user's and the assistant's -- dated by its session's date plus one second per turn index; the
question is asked at its own date (the store's clock). Sessions are ranked and scored by
``bench/sessions.py``; the answer turns are the ``has_answer`` ones. Abstention questions
(``_abs``) are left out.

The engine never sees ``has_answer`` or a session id: it stores a turn's text at its date, and
the keys that name a turn's session stay here, on the evaluator's side. A turn longer than the
engine's text limit (a few assistant turns) is cut at that limit, on a character boundary.
"""

from __future__ import annotations

import calendar
import json
import re
from pathlib import Path
from typing import Any

from bench.project import Memory, Project, Prompt
from bench.sessions import Asked
from guest.memory.limits import MAX_TEXT_BYTES

VARIANTS = {"A": ("user",), "B": ("user", "assistant")}
ROLES = {"A": "user turns", "B": "user and assistant turns"}
TURN_STEP_MS = 1000
WHEN = re.compile(r"^(\d{4})/(\d{2})/(\d{2}) \(\w+\) (\d{2}):(\d{2})$")


def parse_when(text: str) -> int:
    """Epoch milliseconds (UTC) of a LongMemEval date such as ``"2023/05/20 (Sat) 02:21"``."""
    m = WHEN.match(text.strip())
    if not m:
        raise ValueError(f"not a LongMemEval date: {text!r}")
    return calendar.timegm((*(int(g) for g in m.groups()), 0)) * 1000


def clipped(text: str) -> str:
    """``text`` cut to :data:`MAX_TEXT_BYTES` of UTF-8 on a character boundary."""
    data = text.encode("utf-8")
    return text if len(data) <= MAX_TEXT_BYTES else data[:MAX_TEXT_BYTES].decode("utf-8", "ignore")


def key(session: int, turn: int) -> str:
    """The evaluator's name of a turn: its session's index in the haystack, and its own."""
    return f"{session}#{turn}"


def question(data: dict[str, Any], roles: tuple[str, ...]) -> Asked:
    """One question as a project (its turns of ``roles``), and the indexes of its gold sessions."""
    memories, answer_turns = [], set()
    gold_ids = set(data["answer_session_ids"])
    gold = {str(i) for i, sid in enumerate(data["haystack_session_ids"]) if sid in gold_ids}
    for s, (date, turns) in enumerate(zip(data["haystack_dates"], data["haystack_sessions"], strict=True)):
        start = parse_when(date)
        for t, turn in enumerate(turns):
            if turn["role"] not in roles or not turn["content"].strip():
                continue
            memories.append(Memory(key(s, t), clipped(turn["content"]), start + t * TURN_STEP_MS))
            if turn.get("has_answer"):
                answer_turns.add(key(s, t))
    prompt = Prompt(str(data["question"]), frozenset(answer_turns), str(data["question_type"]))
    project = Project(str(data["question_id"]), memories, [prompt], [], parse_when(data["question_date"]))
    return project, [gold]


def load(root: Path, variant: str) -> list[Asked]:
    """Every question of ``root/lme-dev`` but the abstention ones, as (project, gold sessions)."""
    roles = VARIANTS[variant]
    files = sorted(p for p in (root / "lme-dev").glob("*.json") if not p.stem.endswith("_abs"))
    return [question(json.loads(p.read_text(encoding="utf-8")), roles) for p in files]


def available(root: Path) -> bool:
    """Whether ``root/lme-dev`` holds the questions."""
    return any((root / "lme-dev").glob("*.json"))


def session_of(turn_key: str) -> str:
    """The haystack index of the session a turn key names."""
    return turn_key.split("#", 1)[0]
