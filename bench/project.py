"""What an evaluation set is made of: projects of timed memories, own prompts and foreign prompts.

A :class:`Project` is one fresh store: its memories (each with a key of the set's own, e.g. a
LoCoMo ``dia_id``, and the time it was memorized), the prompts that are about it (each with the
keys of its relevant memories, and a group such as a LoCoMo category) and the prompts that are not
(taken from elsewhere: anything injected for them is a false alarm).
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field


@dataclass(frozen=True)
class Memory:
    """One memory: its key in the set, its text, and when it is memorized (epoch ms)."""

    key: str
    text: str
    ts_ms: int


@dataclass(frozen=True)
class Prompt:
    """A question or prompt, the keys of the memories relevant to it, and its group."""

    text: str
    relevant: frozenset[str]
    group: str


@dataclass
class Project:
    """One store's memories and the prompts asked of it at ``asked_ms``."""

    name: str
    memories: list[Memory]
    own: list[Prompt]
    foreign: list[Prompt] = field(default_factory=list)
    asked_ms: int = 0


def digest(project: Project) -> str:
    """A short sha256 of a project's memories and prompts (to compare sets across machines)."""
    h = hashlib.sha256()
    for memory in project.memories:
        h.update(f"m\t{memory.key}\t{memory.ts_ms}\t{memory.text}\n".encode())
    for kind, prompts in (("own", project.own), ("foreign", project.foreign)):
        for prompt in prompts:
            h.update(f"{kind}\t{prompt.group}\t{sorted(prompt.relevant)}\t{prompt.text}\n".encode())
    return h.hexdigest()[:12]


def to_json(project: Project) -> str:
    """A project as JSON (for a cache: :func:`from_json` reads it back equal)."""
    return json.dumps({
        "name": project.name, "asked_ms": project.asked_ms,
        "memories": [[m.key, m.text, m.ts_ms] for m in project.memories],
        **{kind: [[p.text, sorted(p.relevant), p.group] for p in prompts]
           for kind, prompts in (("own", project.own), ("foreign", project.foreign))},
    })


def from_json(text: str) -> Project:
    """The project :func:`to_json` wrote."""
    data = json.loads(text)
    own, foreign = ([Prompt(t, frozenset(r), g) for t, r, g in data[kind]] for kind in ("own", "foreign"))
    return Project(data["name"], [Memory(k, t, ts) for k, t, ts in data["memories"]], own, foreign,
                   data["asked_ms"])
