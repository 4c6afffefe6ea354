"""Store files as git hands them to a driver: checked, copied, listed and compared three ways.

Git gives a driver plain files (a blob in a temporary file, or the work-tree file). Nothing here
writes to them: each is checked read-only (:func:`check_store`), then copied with SQLite's backup
API (:func:`snapshot`, a consistent copy even if a writer is busy) into a scratch directory where
the component works. An empty file is an empty store (git passes one for a side that lacks the
file, e.g. no common ancestor).

:func:`compare` finds the keys where *ours* and *theirs* differ and, for each, which sides hold it
and which side still equals the base -- everything a three-way merge needs to know about a key
that git cannot tell. It runs in SQL over the copies, so the component only ever looks at what
changed, however big the stores are.
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote

from host_harness.store import MIGRATIONS


class StoreRefused(Exception):
    """A file is not a sound rs-learn store; the driver refuses to touch anything."""


def connect_ro(path: Path) -> sqlite3.Connection:
    """A read-only connection (it never creates, migrates or writes ``path``)."""
    return sqlite3.connect(f"file:{quote(str(path))}?mode=ro", uri=True, isolation_level=None)


def check_store(path: Path) -> None:
    """Raise :class:`StoreRefused` naming the problem unless ``path`` is an rs-learn store (or empty)."""
    try:
        if path.stat().st_size == 0:
            return
        conn = connect_ro(path)
    except (OSError, sqlite3.Error) as error:
        raise StoreRefused(f"{path}: cannot open: {error}") from None
    try:
        verdict = [row[0] for row in conn.execute("PRAGMA integrity_check")]
        if verdict != ["ok"]:
            raise StoreRefused(f"{path}: SQLite integrity check failed: {'; '.join(verdict[:3])}")
        version = int(conn.execute("PRAGMA user_version").fetchone()[0])
        if version > len(MIGRATIONS):
            newest = len(MIGRATIONS)
            raise StoreRefused(f"{path}: store schema {version} is newer than this rs-learn ({newest})")
        tables = {row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        columns = [row[1] for row in conn.execute("PRAGMA table_info(kv)")]
        if tables and columns != ["ns", "key", "value"]:
            raise StoreRefused(f"{path}: not an rs-learn store (no kv(ns, key, value) table)")
    except sqlite3.Error as error:
        raise StoreRefused(f"{path}: not a readable SQLite database: {error}") from None
    finally:
        conn.close()


def snapshot(source: Path, target: Path) -> None:
    """Copy the store ``source`` to ``target`` (created; parents too) with SQLite's backup API."""
    target.parent.mkdir(parents=True, exist_ok=True)
    if source.stat().st_size == 0:
        target.write_bytes(b"")
        return
    src, dst = connect_ro(source), sqlite3.connect(target)
    try:
        src.backup(dst)
    finally:
        src.close()
        dst.close()


def buckets(path: Path) -> dict[str, int]:
    """How many keys each bucket (namespace) of the store ``path`` holds."""
    conn = connect_ro(path)
    try:
        if not _has_kv(conn, "main"):
            return {}
        return dict(conn.execute("SELECT ns, count(*) FROM kv GROUP BY ns ORDER BY ns"))
    finally:
        conn.close()


@dataclass(frozen=True)
class KeyState:
    """One key where ours and theirs differ: which sides hold it, and which one still equals the base."""

    base: bool
    ours: bool
    theirs: bool
    same: str | None  # "ours" / "theirs": that side did not change it since the base; None: both did

    def as_json(self) -> dict[str, object]:
        """The form served to the component under ``git/changed/<bucket>``."""
        return {"base": self.base, "ours": self.ours, "theirs": self.theirs, "same": self.same}


def compare(base: Path, ours: Path, theirs: Path) -> dict[str, dict[str, KeyState]]:
    """Every ``bucket -> key -> state`` where ours and theirs hold different values (or only one holds it)."""
    conn = connect_ro(ours)
    try:
        conn.execute("ATTACH DATABASE ? AS base", (f"file:{quote(str(base))}?mode=ro",))
        conn.execute("ATTACH DATABASE ? AS theirs", (f"file:{quote(str(theirs))}?mode=ro",))
        conn.execute("CREATE TEMP TABLE empty_kv (ns TEXT, key TEXT, value BLOB, PRIMARY KEY (ns, key))")
        b, o, t = (f"{schema}.kv" if _has_kv(conn, schema) else "temp.empty_kv" for schema in
                   ("base", "main", "theirs"))
        rows = conn.execute(
            f"WITH k(ns, key) AS ("
            f" SELECT ns, key FROM {o} AS o WHERE NOT EXISTS (SELECT 1 FROM {t} AS t"
            f"  WHERE t.ns = o.ns AND t.key = o.key AND t.value = o.value)"
            f" UNION SELECT ns, key FROM {t} AS t WHERE NOT EXISTS (SELECT 1 FROM {o} AS o"
            f"  WHERE o.ns = t.ns AND o.key = t.key))"
            f" SELECT k.ns, k.key, b.value IS NOT NULL, o.value IS NOT NULL, t.value IS NOT NULL,"
            f"  b.value IS o.value, b.value IS t.value"
            f" FROM k LEFT JOIN {b} AS b ON b.ns = k.ns AND b.key = k.key"
            f" LEFT JOIN {o} AS o ON o.ns = k.ns AND o.key = k.key"
            f" LEFT JOIN {t} AS t ON t.ns = k.ns AND t.key = k.key ORDER BY k.ns, k.key"
        )
        out: dict[str, dict[str, KeyState]] = {}
        for ns, key, in_base, in_ours, in_theirs, base_is_ours, base_is_theirs in rows:
            same = "ours" if base_is_ours else "theirs" if base_is_theirs else None
            out.setdefault(ns, {})[key] = KeyState(bool(in_base), bool(in_ours), bool(in_theirs), same)
        return out
    finally:
        conn.close()


def _has_kv(conn: sqlite3.Connection, schema: str) -> bool:
    sql = f"SELECT 1 FROM {schema}.sqlite_master WHERE type = 'table' AND name = 'kv'"
    return conn.execute(sql).fetchone() is not None
