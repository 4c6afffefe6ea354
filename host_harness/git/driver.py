"""The two git drivers over scratch copies: ``textconv`` (a store as text) and the 3-way ``merge``.

Both check every file first (:func:`host_harness.git.stores.check_store`) and never write to the
files git passes, except the merge result, which replaces ``%A`` atomically once it is complete and
passes ``PRAGMA integrity_check``. The component does the work (``git_text``, ``git_merge``): it
owns the store format. Tables other than ``kv`` (none today) are merged here, conservatively:
theirs' rows are added where ours has no row with that key.

Exit statuses of the merge driver (git treats any non-zero status as a conflict):
:data:`CLEAN` -- merged; :data:`UNDECIDED` -- merged and written, but a structured record holds a
conflict the rules cannot decide (ours kept, both values in a conflict note); :data:`REFUSED` --
nothing written (a side is not a sound store, or the merge failed).
"""

from __future__ import annotations

import json
import sqlite3
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import quote

from host_harness.envelope import Envelope
from host_harness.fs import write_atomic
from host_harness.git.services import GitServices, GitView
from host_harness.git.stores import StoreRefused, buckets, check_store, compare, snapshot
from host_harness.services import HostServices, wall_clock_ms
from host_harness.store import STORE_TABLES
from host_harness.targets.base import BaseGuest

CLEAN, UNDECIDED, REFUSED = 0, 1, 2
STORE = Path(".gm") / "rs-learn.db"
GuestMaker = Callable[[HostServices], BaseGuest]
Clock = Callable[[], int]


@dataclass(frozen=True)
class Merged:
    """The outcome of a merge that was written: the exit status and the component's report."""

    status: int
    report: dict[str, Any]


def textconv(path: Path, make_guest: GuestMaker, clock: Clock = wall_clock_ms) -> str:
    """The text projection of the store ``path`` (``git_text``)."""
    check_store(path)
    with tempfile.TemporaryDirectory(prefix="rs-learn-textconv-") as scratch:
        root = Path(scratch)
        snapshot(path, root / STORE)
        view = GitView("textconv", str(path), counts={"ours": buckets(root / STORE)})
        return str(_run(root, view, "git_text", make_guest, clock)["text"])


def merge(
    base: Path, ours: Path, theirs: Path, path: str, make_guest: GuestMaker, clock: Clock = wall_clock_ms,
    came: dict[str, Any] | None = None,
) -> Merged:
    """Merge ``theirs`` into ``ours`` (the common ancestor is ``base``); replace ``ours`` atomically.

    ``path`` is the file's path in the repository (for messages); ``clock`` dates conflict notes;
    ``came``: who wrote the branch merged in (:func:`host_harness.git.theirs.theirs`), the origin of
    the memories it adds.
    """
    for side, file in (("base", base), ("ours", ours), ("theirs", theirs)):
        try:
            check_store(file)
        except StoreRefused as error:
            raise StoreRefused(f"{side} ({path}): {error}") from None
    with tempfile.TemporaryDirectory(prefix="rs-learn-merge-") as scratch:
        root = Path(scratch) / "project"
        # The other two sides live inside the scratch project: the host opens stores only below it.
        sides = {side: root / ".gm" / "git" / f"{side}.db" for side in ("base", "theirs")}
        snapshot(ours, root / STORE)
        snapshot(base, sides["base"])
        snapshot(theirs, sides["theirs"])
        counts = {"ours": buckets(root / STORE), **{side: buckets(copy) for side, copy in sides.items()}}
        view = GitView("merge", path, sides, counts, compare(sides["base"], root / STORE, sides["theirs"]))
        report = _run(root, view, "git_merge", make_guest, clock, {"theirs": came or {"self": False}})
        report["tables"] = merge_tables(root / STORE, sides["theirs"])
        try:
            check_store(root / STORE)
        except StoreRefused as error:
            raise StoreRefused(f"the merged store is not sound, nothing written: {error}") from None
        write_atomic(ours, (root / STORE).read_bytes())
    return Merged(UNDECIDED if report.get("undecided") else CLEAN, report)


def merge_tables(store: Path, theirs: Path) -> dict[str, int]:
    """Add theirs' rows of each other table (not the store's own) where ours has none with their key."""
    if store.stat().st_size == 0 or theirs.stat().st_size == 0:
        return {}
    conn = sqlite3.connect(store, isolation_level=None)
    try:
        conn.execute("ATTACH DATABASE ? AS theirs", (f"file:{quote(str(theirs))}?mode=ro",))
        ours_sql = dict(conn.execute("SELECT name, sql FROM main.sqlite_master WHERE type = 'table'"))
        added: dict[str, int] = {}
        conn.execute("BEGIN IMMEDIATE")
        for name, sql in conn.execute("SELECT name, sql FROM theirs.sqlite_master WHERE type = 'table'"):
            if name in STORE_TABLES or name.startswith("sqlite_"):
                continue  # the store itself: merged through the component, digests kept by the host
            if name not in ours_sql:
                conn.execute(sql)
            elif ours_sql[name] != sql:
                raise StoreRefused(f"table {name!r} has another schema on each side")
            quoted = '"' + name.replace('"', '""') + '"'
            before = conn.total_changes
            conn.execute(f"INSERT OR IGNORE INTO main.{quoted} SELECT * FROM theirs.{quoted}")
            added[name] = conn.total_changes - before
        conn.execute("COMMIT")
        return added
    finally:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        conn.close()


def _run(root: Path, view: GitView, verb: str, make_guest: GuestMaker, clock: Clock,
         body: dict[str, Any] | None = None) -> dict[str, Any]:
    """One git verb through the component over ``root``; its data, or :class:`StoreRefused`."""
    services = GitServices(root, view, clock=clock)
    try:
        guest = make_guest(services)
        try:
            envelope = Envelope.parse(guest.dispatch(verb, json.dumps(body or {})))
        finally:
            guest.close()
    finally:
        services.close()
    if not envelope.ok or not isinstance(envelope.data, dict):
        raise StoreRefused(f"{verb} failed: {envelope.error or 'no data object'}")
    data: dict[str, Any] = envelope.data
    return data
