"""Record slugs (seed 001's ``slug`` column): a short name made from the title.

A slug is the title in lowercase kebab-case (:func:`guest.text.slug.kebab`, at most
:data:`MAX_SLUG` characters; ``checklist``/``todo``/``note`` when the title has no
ASCII letter or digit), unique among the records of the same kind and the same
scope: a taken slug gets the first free suffix ``-2``, ``-3``, ... Every stored
record counts, archived and soft-deleted ones too, so a slug never names two
records at once. Slugs are deterministic (title and store content only) and
stable: set when a record is created (or hydrated, or backfilled by
``reconcile_index``), never changed by an update, so a slug an agent wrote down
keeps naming the same record after its title is edited.
"""

from __future__ import annotations

from typing import Any

from guest.host import Host
from guest.structured import store
from guest.text.slug import kebab

MAX_SLUG = 64
MAX_SUFFIX = 8  # "-9999999": the prefix a suffixed slug always shares with its base
FALLBACK = {"checklist": "checklist", "todo": "todo", "session_note": "note"}
Taken = dict[tuple[str, str], set[str]]  # (kind, scope as JSON) -> slugs in use


def base(kind: str, title: str) -> str:
    """The slug ``title`` asks for, before uniqueness."""
    return kebab(title, MAX_SLUG) or FALLBACK[kind]


def valid(slug: object) -> bool:
    """Whether ``slug`` is a well-formed slug (what :func:`base` could produce)."""
    return isinstance(slug, str) and bool(slug) and kebab(slug, MAX_SLUG) == slug


def scope_key(record: dict[str, Any]) -> tuple[str, str]:
    """The uniqueness group of a record: its kind and its scope."""
    return str(record.get("kind")), store.encode(record.get("scope")).decode("utf-8")


def taken_like(host: Host, record: dict[str, Any], wanted: str) -> set[str]:
    """Slugs in ``record``'s group that could collide with ``wanted`` or its suffixed forms."""
    stem = wanted[: MAX_SLUG - MAX_SUFFIX]
    group = scope_key(record)
    return {
        other["slug"]
        for other in store.scan(host, f'"slug":"{stem}')
        if scope_key(other) == group and isinstance(other.get("slug"), str)
    }


def first_free(wanted: str, taken: set[str]) -> str:
    """``wanted``, or ``wanted-2``, ``wanted-3``, ... (cut to fit) -- the first not in ``taken``."""
    if wanted not in taken:
        return wanted
    number = 2
    while True:
        suffix = f"-{number}"
        candidate = wanted[: MAX_SLUG - len(suffix)].rstrip("-") + suffix
        if candidate not in taken:
            return candidate
        number += 1


def assign(host: Host, record: dict[str, Any]) -> str:
    """A fresh unique slug for a record about to be stored (its kind, scope and title set)."""
    wanted = base(record["kind"], record["title"])
    return first_free(wanted, taken_like(host, record, wanted))


def backfill(host: Host, records: list[dict[str, Any]]) -> int:
    """Give every record without a valid slug one (in id order), in place and stored; how many."""
    taken: Taken = {}
    for record in records:
        if valid(record.get("slug")):
            taken.setdefault(scope_key(record), set()).add(record["slug"])
    done = 0
    for record in sorted(records, key=lambda r: (r["kind"], store.id_number(r["id"]))):
        if valid(record.get("slug")):
            continue
        group = taken.setdefault(scope_key(record), set())
        record["slug"] = first_free(base(record["kind"], str(record.get("title") or "")), group)
        group.add(record["slug"])
        store.save(host, record)  # not a change of the record's content: version stays
        done += 1
    return done
