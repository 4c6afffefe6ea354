"""The SQLite store's schema: numbered migrations under ``PRAGMA user_version``.

Each migration is a list of idempotent statements, plus an optional data step
(:data:`BACKFILL`) run after them in the same transaction. A new file gets them all; an
existing file is migrated by its first write, inside that write's transaction
(:func:`apply_migrations`), so a read never changes a committed file. A file whose schema is
newer than this code is refused. The normative description is the host contract, section 10.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable

from host_harness.errors import StoreError
from host_harness.store import digest

MIGRATIONS: list[list[str]] = [
    # 1: the key-value table; keys are compared by BINARY collation = UTF-8 byte order.
    [
        "CREATE TABLE IF NOT EXISTS kv ("
        " ns TEXT NOT NULL, key TEXT NOT NULL, value BLOB NOT NULL,"
        " PRIMARY KEY (ns, key)) WITHOUT ROWID"
    ],
    # 2: content digests of the vector namespaces, NULLed by triggers on foreign writes.
    digest.SCHEMA,
]
# The tables of the store itself (the rest of a file is other tools' business, e.g. a merge's).
STORE_TABLES = ("kv", "kv_digest")
# Data steps of a migration, run after its statements (same transaction).
BACKFILL: dict[int, Callable[[sqlite3.Connection], None]] = {2: digest.backfill}


def schema_version(conn: sqlite3.Connection) -> int:
    """The file's schema version; a schema newer than this code is refused."""
    version = int(conn.execute("PRAGMA user_version").fetchone()[0])
    if version > len(MIGRATIONS):
        raise StoreError(f"database schema {version} is newer than this rs-learn ({len(MIGRATIONS)})")
    return version


def apply_migrations(conn: sqlite3.Connection) -> int:
    """Apply the pending migrations inside the caller's open transaction; return the schema version."""
    version = schema_version(conn)  # read under the lock: another process may have migrated
    for number in range(version + 1, len(MIGRATIONS) + 1):
        for statement in MIGRATIONS[number - 1]:
            conn.execute(statement)
        if number in BACKFILL:
            BACKFILL[number](conn)
        conn.execute(f"PRAGMA user_version = {number}")
    return len(MIGRATIONS)


def migrate(conn: sqlite3.Connection) -> int:
    """Apply the pending :data:`MIGRATIONS` in a transaction of their own; return the schema version.

    Writes nothing when current.
    """
    version = schema_version(conn)
    if version == len(MIGRATIONS):
        return version
    conn.execute("BEGIN IMMEDIATE")
    try:
        apply_migrations(conn)
        conn.execute("COMMIT")
    except BaseException:
        conn.execute("ROLLBACK")
        raise
    return len(MIGRATIONS)
