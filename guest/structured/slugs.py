"""Record slugs (seed 001's ``slug`` column): a short name made from the title.

A slug is the title in lowercase kebab-case (:func:`guest.strings.slug.kebab`, at most
:data:`MAX_SLUG` characters; ``checklist``/``todo``/``note`` when the title has no
ASCII letter or digit), unique among the records of the same kind and the same
scope: a taken slug gets the next suffix ``-2``, ``-3``, ... not handed out yet. Every stored
record counts, archived and soft-deleted ones too, so a slug never names two
records at once; a hard delete frees it. Slugs are deterministic (title and store
content only) and stable: set when a record is created (or hydrated, or given one
by ``reconcile_index``), never changed by an update, so a slug an agent wrote
down keeps naming the same record after its title is edited.

Taken slugs are found in a derived index, ``records-slugs``: key
``<kind>|<scope JSON>|<slug>`` -> the record id, plus ``<kind>|<scope JSON>|<base>|#``
-> the next suffix to try for that base (so the thousandth "Fix bug" does not probe
a thousand keys). :func:`move` keeps it in step with every write;
:func:`rebuild` recomputes it from the records (``reconcile_index``).
"""

from __future__ import annotations

from typing import Any

from guest.host import Host
from guest.strings.slug import kebab
from guest.structured import store

SLUGS = "records-slugs"
MAX_SLUG = 64
FALLBACK = {"checklist": "checklist", "todo": "todo", "session_note": "note"}


def base(kind: str, title: str) -> str:
    """The slug ``title`` asks for, before uniqueness."""
    return kebab(title, MAX_SLUG) or FALLBACK[kind]


def valid(slug: object) -> bool:
    """Whether ``slug`` is a well-formed slug (what :func:`base` could produce)."""
    return isinstance(slug, str) and bool(slug) and kebab(slug, MAX_SLUG) == slug


def group(record: dict[str, Any]) -> str:
    """The uniqueness group of a record: its kind and its scope, as a key prefix."""
    return f"{record.get('kind')}|{store.encode(record.get('scope')).decode('utf-8')}|"


def with_suffix(wanted: str, number: int) -> str:
    """``wanted-<number>``, ``wanted`` cut so that the whole fits :data:`MAX_SLUG`."""
    suffix = f"-{number}"
    return wanted[: MAX_SLUG - len(suffix)].rstrip("-") + suffix


def first_free(wanted: str, taken: set[str]) -> str:
    """``wanted``, or ``wanted-2``, ``wanted-3``, ... -- the first not in ``taken``."""
    number = 2
    candidate = wanted
    while candidate in taken:
        candidate, number = with_suffix(wanted, number), number + 1
    return candidate


def assign(host: Host, record: dict[str, Any]) -> str:
    """A fresh unique slug for a record about to be stored (its kind, scope and title set)."""
    prefix = group(record)
    wanted = base(record["kind"], record["title"])
    if host.kv_get(SLUGS, prefix + wanted) is None:
        return wanted
    hint_key = f"{prefix}{wanted}|#"
    hint = host.kv_get(SLUGS, hint_key)
    number = int(hint) if hint is not None and hint.isdigit() else 2
    while host.kv_get(SLUGS, prefix + with_suffix(wanted, number)) is not None:
        number += 1
    host.kv_put(SLUGS, hint_key, str(number + 1).encode("ascii"))
    return with_suffix(wanted, number)


def move(host: Host, old: dict[str, Any] | None, new: dict[str, Any] | None) -> None:
    """Keep the index in step with a write of ``old`` -> ``new`` (either may be ``None``)."""
    before = group(old) + old["slug"] if old is not None and valid(old.get("slug")) else None
    after = group(new) + new["slug"] if new is not None and valid(new.get("slug")) else None
    if before is not None and before != after:
        host.kv_put(SLUGS, before, b"")
    if after is not None and before != after:
        host.kv_put(SLUGS, after, str((new or {}).get("id")).encode("utf-8"))


def backfill(host: Host, records: list[dict[str, Any]]) -> int:
    """Give every record without a valid, unique slug one (id order), stored in place; how many.

    A record keeps its slug unless an earlier record of its group holds the same one (records
    written by another tool); the content does not change, so the version does not either.
    """
    taken: dict[str, set[str]] = {}
    done = 0
    for record in sorted(records, key=lambda r: (str(r["kind"]), store.id_number(str(r["id"])))):
        seen = taken.setdefault(group(record), set())
        slug = record.get("slug")
        if not valid(slug) or slug in seen:
            record["slug"] = first_free(base(record["kind"], str(record.get("title") or "")), seen)
            store.save(host, record)
            done += 1
        seen.add(record["slug"])
    return done


def rebuild(host: Host, records: list[dict[str, Any]]) -> None:
    """Recompute the index from ``records`` (slugs already unique); write only what differs."""
    wanted = {group(r) + r["slug"]: str(r["id"]).encode("utf-8") for r in records if valid(r.get("slug"))}
    for key, value in host.kv_query(SLUGS, "", 0):
        if key.endswith("|#"):
            continue  # suffix hints stay: they only say where to start looking
        if wanted.get(key) != value:
            host.kv_put(SLUGS, key, wanted.get(key, b""))
        wanted.pop(key, None)
    for key, value in sorted(wanted.items()):
        host.kv_put(SLUGS, key, value)
