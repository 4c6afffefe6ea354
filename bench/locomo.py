"""LoCoMo-dev: five long conversations as five projects, read from ``../shared/datasets/locomo-dev``.

The protocol (``../shared/datasets/README.md``): each conversation is its own project; every turn
is memorized as ``"<speaker>: <text>"`` (plus `` [shares <blip_caption>]`` when the turn shares an
image) in session order; every question of categories 1-4 is recalled with limit 10, and a hit
is a turn whose ``dia_id`` is in the question's ``evidence``.

What this module adds to the README, all pure (no engine):

* **Evidence ids** are normalised (:func:`evidence_ids`): ``"D:11:26"`` -> ``D11:26``,
  ``"D8:6; D9:17"`` -> two ids, white space dropped. An id that names no turn of the conversation
  (``"D"``, ``"D10:19"`` where session 10 has 16 turns) is *unresolved*: counted, reported, and left
  out of the question's gold set. A question left with no gold turn is skipped (two have an empty
  ``evidence``), so 760 of the 762 questions of categories 1-4 are scored.
* **Time**: a session's ``session_N_date_time`` (``"1:56 pm on 8 May, 2023"``, read as UTC) is when
  its turns were said: turn ``i`` of the session gets that time plus ``i`` seconds
  (:data:`TURN_STEP_MS`). The questions are asked one day after the last turn (:data:`ASK_AFTER_MS`).
* **Foreign prompts**: a conversation's foreign prompts are the scored questions of the other four.
"""

from __future__ import annotations

import calendar
import json
import re
from pathlib import Path

from bench.project import Memory, Project, Prompt

CATEGORIES = (1, 2, 3, 4)
CATEGORY_NAMES = {1: "multi-hop", 2: "temporal", 3: "open-domain", 4: "single-hop"}
TURN_STEP_MS = 1000
ASK_AFTER_MS = 86_400_000
MONTHS = {name.lower(): i for i, name in enumerate(calendar.month_name) if name}
WHEN = re.compile(r"^\s*(\d{1,2}):(\d{2})\s*([ap]m)\s+on\s+(\d{1,2})\s+([A-Za-z]+),?\s+(\d{4})\s*$", re.I)
ID = re.compile(r"^D:?(\d+):(\d+)$")
SESSION = re.compile(r"^session_(\d+)$")


def parse_when(text: str) -> int:
    """Epoch milliseconds (UTC) of a LoCoMo session time such as ``"1:56 pm on 8 May, 2023"``."""
    m = WHEN.match(text)
    month = MONTHS.get(m.group(5).lower(), 0) if m else 0
    if not m or not month:
        raise ValueError(f"not a LoCoMo session time: {text!r}")
    hour, minute = int(m.group(1)) % 12, int(m.group(2))
    if m.group(3).lower() == "pm":
        hour += 12
    stamp = (int(m.group(6)), month, int(m.group(4)), hour, minute, 0)
    return calendar.timegm(stamp) * 1000


def evidence_ids(raw: str) -> list[str]:
    """The well-formed ids in one ``evidence`` entry (``"D:1:3"``, ``"D8:6; D9:17"``, ``" D1:3 "``).

    A piece that is not ``D<session>:<turn>`` after normalisation is returned as it is, for the
    caller to count as unresolved.
    """
    out = []
    for piece in re.split(r"[;,]", raw):
        compact = re.sub(r"\s+", "", piece)
        if not compact:
            continue
        m = ID.match(compact)
        out.append(f"D{int(m.group(1))}:{int(m.group(2))}" if m else compact)
    return out


def turn_text(turn: dict[str, str]) -> str:
    """A turn as memorized: ``"<speaker>: <text>"``, plus `` [shares <caption>]`` for an image."""
    text = f"{turn['speaker']}: {turn['text']}"
    return f"{text} [shares {turn['blip_caption']}]" if turn.get("blip_caption") else text


def conversation(name: str, data: dict[str, object]) -> tuple[Project, list[str]]:
    """One conversation as a project (no foreign prompts yet) and its unresolved evidence ids."""
    sessions = sorted((int(m.group(1)), key) for key in data if (m := SESSION.match(key)))
    memories = []
    for number, key in sessions:
        turns = data[key]
        assert isinstance(turns, list)
        start = parse_when(str(data[f"session_{number}_date_time"]))
        memories += [Memory(str(t["dia_id"]).strip(), turn_text(t), start + i * TURN_STEP_MS)
                     for i, t in enumerate(turns)]
    known = {m.key for m in memories}
    own, unresolved = [], []
    records = data["qa"]
    assert isinstance(records, list)
    for record in records:
        if record["category"] not in CATEGORIES:
            continue
        ids = [i for raw in record["evidence"] for i in evidence_ids(str(raw))]
        unresolved += [f"{name}/{i}" for i in ids if i not in known]
        gold = frozenset(i for i in ids if i in known)
        if gold:
            own.append(Prompt(str(record["question"]), gold, str(record["category"])))
    asked = max(m.ts_ms for m in memories) + ASK_AFTER_MS
    return Project(name, memories, own, [], asked), unresolved


def load(root: Path) -> tuple[list[Project], list[str]]:
    """The conversations of ``root/locomo-dev`` (each with the others' questions as foreign prompts)."""
    base = root / "locomo-dev"
    projects, unresolved = [], []
    for path in sorted(base.glob("*.json"), key=lambda p: p.stem):
        project, missing = conversation(path.stem, json.loads(path.read_text(encoding="utf-8")))
        projects.append(project)
        unresolved += missing
    for project in projects:
        project.foreign = [Prompt(p.text, frozenset(), f"{other.name}/{p.group}")
                           for other in projects if other is not project for p in other.own]
    return projects, unresolved


def session_of(turn_key: str) -> str:
    """The session of a turn id (``D3:5`` -> ``3``), for the session-level roll-up."""
    return turn_key[1:].split(":", 1)[0]


def by_session(projects: list[Project]) -> list[tuple[Project, list[set[str]]]]:
    """Each conversation with the sessions that hold each own question's evidence."""
    return [(p, [{session_of(k) for k in prompt.relevant} for prompt in p.own]) for p in projects]


def available(root: Path) -> bool:
    """Whether ``root/locomo-dev`` holds the conversations."""
    return any((root / "locomo-dev").glob("*.json"))
