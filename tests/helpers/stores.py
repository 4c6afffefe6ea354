"""What a project's store holds, whichever it is: its SQLite file's bytes, or its PostgreSQL rows.

Tests that check "nothing changed" or "nothing was created" compare :func:`store_digest` before
and after, so they hold the SQLite store (byte-identical file) and the PostgreSQL store (identical
rows of the project) to the same promise.
"""

from __future__ import annotations

import contextlib
import hashlib
import sqlite3
from pathlib import Path

from helpers.files import digest_if_any
from host_harness.config import resolve_store
from host_harness.store import Project


def store_digest(project: Path, discipline: str = "") -> str | None:
    """A digest of the store's contents (``None`` when it does not exist or holds nothing)."""
    choice = resolve_store(project)
    if not choice.is_postgresql:
        place = Project(project)
        path = place.discipline_db(discipline) if discipline else place.db_path
        return digest_if_any(path)
    rows = pg_rows(project, discipline)
    if not rows:
        return None
    digest = hashlib.sha256()
    for ns, key, value in rows:
        digest.update(ns.encode() + b"\0" + key.encode() + b"\0" + len(value).to_bytes(8, "little") + value)
    return digest.hexdigest()


def store_rows(project: Path, discipline: str = "") -> list[tuple[str, str, bytes]]:
    """``(ns, key, value)`` of a store, by namespace and key: the logical content, whichever the store."""
    if resolve_store(project).is_postgresql:
        return pg_rows(project, discipline)
    place = Project(project)
    path = place.discipline_db(discipline) if discipline else place.db_path
    with contextlib.closing(sqlite3.connect(path)) as conn:
        rows = conn.execute("SELECT ns, key, value FROM kv ORDER BY ns, key").fetchall()
    return [(ns, key, bytes(value)) for ns, key, value in rows]


def pg_rows(project: Path, discipline: str = "") -> list[tuple[str, str, bytes]]:
    """``(ns, key, value)`` of a PostgreSQL project's store, by namespace and key."""
    import psycopg

    choice = resolve_store(project)
    assert choice.url is not None
    with psycopg.connect(choice.url) as conn:
        rows = conn.execute("SELECT ns, key, value FROM rs_learn_kv WHERE project = %s AND discipline = %s"
                            " ORDER BY ns, key", (choice.project_id, discipline)).fetchall()
    return [(ns, key, bytes(value)) for ns, key, value in rows]


def store_exists(project: Path, discipline: str = "") -> bool:
    """Whether the store has been written (a file, or rows)."""
    return store_digest(project, discipline) is not None


def nothing_written(project: Path) -> bool:
    """No store and no file written: no ``.gm/`` at all (SQLite), or only the store's config (PostgreSQL)."""
    gm = project / ".gm"
    if not resolve_store(project).is_postgresql:
        return not gm.exists()
    return not pg_rows_of_project(project) and sorted(p.name for p in gm.iterdir()) == ["config.json"]


def pg_rows_of_project(project: Path) -> int:
    """How many rows the PostgreSQL project holds, every store included."""
    import psycopg

    choice = resolve_store(project)
    assert choice.url is not None
    with psycopg.connect(choice.url) as conn:
        if conn.execute("SELECT to_regclass('rs_learn_kv')").fetchone()[0] is None:
            return 0  # a database no store was ever written to has no table yet
        return int(conn.execute("SELECT count(*) FROM rs_learn_kv WHERE project = %s",
                                (choice.project_id,)).fetchone()[0])


def every_store_rows(project: Path) -> dict[str, list[tuple[str, str, bytes]]]:
    """The rows of every store of the project (``''``: the project store), by store."""
    choice = resolve_store(project)
    if choice.is_postgresql:
        import psycopg

        assert choice.url is not None
        with psycopg.connect(choice.url) as conn:
            names = [row[0] for row in conn.execute(
                "SELECT DISTINCT discipline FROM rs_learn_kv WHERE project = %s ORDER BY 1",
                (choice.project_id,))]
        return {name: pg_rows(project, name) for name in names}
    place = Project(project)
    names = [""] * place.db_path.exists() + [name for name in place.discipline_dirs()
                                              if place.discipline_db(name).exists()]
    return {name: store_rows(project, name) for name in names}


def ledger_tokens(project: Path) -> list[str]:
    """The claim tokens in the exec spool's replay ledger (the SQLite file, or the PostgreSQL table)."""
    choice = resolve_store(project)
    if choice.is_postgresql:
        import psycopg

        assert choice.url is not None
        with psycopg.connect(choice.url) as conn:
            return [row[0] for row in conn.execute(
                "SELECT token FROM rs_learn_ledger WHERE project = %s ORDER BY token", (choice.project_id,))]
    with contextlib.closing(sqlite3.connect(project / ".gm" / "exec-spool" / "ledger.db")) as conn:
        return [row[0] for row in conn.execute("SELECT token FROM answers ORDER BY token")]
