"""What a git driver shows the component, and the three-way rules every bucket shares.

The host serves a driver's view read-only under ``git/`` (see ``host_harness/git/services.py`` and
``docs/host-contract.md``): the ``host`` fact ``git`` (mode and path), ``git/buckets``,
``git/changed/<bucket>`` -- the keys where ours and theirs differ, with which sides hold each and
which side still equals the base -- and the other two stores as ``git/base/<bucket>`` and
``git/theirs/<bucket>``. "Ours" is the store itself (plain bucket names): the merge writes there.

The rule for one key, given that ours and theirs differ (:func:`take`): if one side still equals
the base, the other side's change wins (a value, or a deletion); otherwise both changed it and the
bucket's own rule decides (:class:`Report` collects what it decided).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from guest.errors import InvalidRequest
from guest.host import HOST_NS, Host

GIT = "git"
MISSING: Any = object()  # a field or key absent from one side


@dataclass(frozen=True)
class State:
    """One key where ours and theirs differ."""

    base: bool
    ours: bool
    theirs: bool
    same: str | None  # "ours" / "theirs": that side still equals the base; None: both changed it


def take(state: State) -> str | None:
    """``"theirs"`` when only theirs changed the key, ``"ours"`` when only ours did, else ``None``."""
    if state.same == "ours":
        return "theirs"
    if state.same == "theirs":
        return "ours"
    return None


def pick(base: Any, ours: Any, theirs: Any) -> tuple[Any, bool]:
    """The three-way value of one field and whether it is a true conflict (then ours is returned)."""
    if ours == theirs or base == theirs:
        return ours, False
    if base == ours:
        return theirs, False
    return ours, True


@dataclass
class Report:
    """What a merge did, by capability; ``undecided`` counts conflicts no rule could settle."""

    sections: dict[str, dict[str, Any]] = field(default_factory=dict)
    conflicts: list[str] = field(default_factory=list)
    undecided: int = 0
    notes: list[str] = field(default_factory=list)  # what the user may want to know (not conflicts)

    def count(self, section: str, what: str, n: int = 1) -> None:
        """Add ``n`` to a counter."""
        counters = self.sections.setdefault(section, {})
        counters[what] = counters.get(what, 0) + n

    def add(self, section: str, what: str, item: Any) -> None:
        """Append ``item`` to a list."""
        self.sections.setdefault(section, {}).setdefault(what, []).append(item)

    def conflict(self, message: str, undecided: bool = False) -> None:
        """Note a conflict (``undecided``: the merge cannot settle it and must exit non-zero)."""
        self.conflicts.append(message)
        self.undecided += undecided

    def note(self, message: str) -> None:
        """Note something the rules decided that the user may not expect."""
        self.notes.append(message)

    def as_json(self) -> dict[str, Any]:
        """The ``git_merge`` answer."""
        return {**self.sections, "conflicts": self.conflicts, "undecided": self.undecided,
                "notes": self.notes}


class Sides:
    """The driver's view, read through the host."""

    def __init__(self, host: Host, mode: str) -> None:
        self.host = host
        raw = host.kv_get(HOST_NS, GIT)
        fact = json.loads(raw) if raw else None
        if not isinstance(fact, dict) or fact.get("mode") != mode:
            command = "merge-driver" if mode == "merge" else mode
            raise InvalidRequest(
                f"this verb runs only inside `rs-learn-host git {command}` (the host serves no git view here)"
            )
        self.path = str(fact.get("path", ""))

    def buckets(self) -> dict[str, dict[str, int]]:
        """Every bucket of any side, with its key counts (``base``, ``ours``, ``theirs``, ``changed``)."""
        return {key: json.loads(raw) for key, raw in self.host.kv_query(f"{GIT}/buckets", "", 0)}

    def changed(self, bucket: str) -> dict[str, State]:
        """The keys of ``bucket`` where ours and theirs differ."""
        out = {}
        for key, raw in self.host.kv_query(f"{GIT}/changed/{bucket}", "", 0):
            value = json.loads(raw)
            out[key] = State(bool(value["base"]), bool(value["ours"]), bool(value["theirs"]), value["same"])
        return out

    def get(self, side: str, bucket: str, key: str) -> bytes | None:
        """A value of ``side`` (``ours``, ``base`` or ``theirs``)."""
        return self.host.kv_get(bucket if side == "ours" else f"{GIT}/{side}/{bucket}", key)

    def all(self, side: str, bucket: str) -> list[tuple[str, bytes]]:
        """Every entry of a bucket of ``side``, by key."""
        return self.host.kv_query(bucket if side == "ours" else f"{GIT}/{side}/{bucket}", "", 0)
