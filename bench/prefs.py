"""The preferences dev set: rules and preferences asked about in other words (issue 47 item 2).

``bench/data/prefs_devset.json``, written by hand for development: each project is a store of
rules and preferences ("Always use pnpm, never npm, in this repo.") among ordinary notes; each own
prompt asks about one rule without quoting it ("Which package manager should I use to install
dependencies?"), and the relevant memory is that rule; the foreign prompts ask every project about
nothing it holds. Measured as the other project sets (:mod:`bench.runner`): recall nDCG@10 / R@10 /
hit@10, and the hook's own-hit and false alarms. Memories are memorized one minute apart.

``bench/data/prefs_asked.json`` (the row ``prefs_asked``), a second set of the same form written
before the lexicon's second version was measured: three stores (a backend team, a mobile team, one
person's own preferences), 52 questions, many by a category the rule never names ("Which HTTP client
library", "any seating preference?"), and notes naming the same tools without a rule.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from bench.project import Memory, Project, Prompt

DATA = Path(__file__).resolve().parent / "data" / "prefs_devset.json"
FILES = {"prefs": DATA, "prefs_asked": DATA.with_name("prefs_asked.json")}  # a row each
START_MS = 1_790_000_000_000
STEP_MS = 60_000


def load(path: Path = DATA) -> list[Project]:
    """The set's projects, each asked its own prompts and every foreign one."""
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    foreign = [Prompt(text, frozenset(), "foreign") for text in data["foreign"]]
    projects = []
    for entry in data["projects"]:
        memories = [Memory(key, text, START_MS + i * STEP_MS)
                    for i, (key, text) in enumerate(entry["memories"])]
        own = [Prompt(text, frozenset(keys), "rule") for text, keys in entry["own"]]
        asked = START_MS + (len(memories) + 1) * STEP_MS
        projects.append(Project(entry["name"], memories, own, list(foreign), asked))
    return projects


def meta(projects: list[Project]) -> str:
    """The set's size, for the table's heading."""
    return (f"{len(projects)} projects, {sum(len(p.memories) for p in projects)} memories, "
            f"{sum(len(p.own) for p in projects)} paraphrased rule questions, "
            f"{len(projects[0].foreign) if projects else 0} foreign prompts per project")
