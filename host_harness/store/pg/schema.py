"""The PostgreSQL store's schema: numbered migrations, applied once per database under a lock.

Every project shares these tables; ``project`` (the id from ``.gm/config.json``) and
``discipline`` (``''`` for the project store, else the discipline's name) are columns, so two
checkouts configured with one id read and write one memory.

* ``rs_learn_kv``: the key-value rows. ``ns`` is the routed namespace (the bucket inside a
  discipline), ``key`` compares by the ``C`` collation (UTF-8 byte order, like SQLite's BINARY),
  ``value`` is never empty. In a vector namespace (its first segment ends in ``vectors``) a value
  that is a little-endian f32 vector with finite components also fills ``dim`` and, unless it is
  the zero vector, ``vec`` (pgvector's ``vector``, kept in the row: storage ``MAIN``).
* An HNSW cosine index on ``vec::vector(384)`` (the embedder's dimension) for the rows with
  ``dim = 384`` (``m = 24, ef_construction = 128``: pgvector's defaults, 16 and 64, gave recall@10
  0.963 on the realistic corpus, these 0.987; docs/decisions.md D49), and a small index of the
  zero vectors (which a cosine index cannot hold).
* ``rs_learn_vector_counts``: rows per vector namespace (chooses exact or approximate search).
* ``rs_learn_projects``: one row per project; its ``generation`` is bumped by every write
  transaction (how a call that read first learns that another process wrote since).
* ``rs_learn_stores``: the stores (disciplines) a project has written.
* ``rs_learn_ledger``: the exec spool's replay ledger, one per project and spool folder.
* ``rs_learn_schema``: the migrations applied.

A migration runs in one transaction under an advisory lock, after re-reading the version: several
processes may connect to a new database at once. A database whose schema is newer than this
code is refused.
"""

from __future__ import annotations

from host_harness.config import redact
from host_harness.store.pg.driver import (
    LOCK_CLASS,
    Connection,
    PostgresError,
    describe,
    is_psycopg_error,
    sqlstate,
)

HNSW_DIM = 384
MIGRATIONS: list[list[str]] = [
    # 1: the tables and indexes
    [
        "CREATE EXTENSION IF NOT EXISTS vector",
        'CREATE TABLE IF NOT EXISTS rs_learn_projects (project text COLLATE "C" PRIMARY KEY,'
        " generation bigint NOT NULL)",
        'CREATE TABLE IF NOT EXISTS rs_learn_stores (project text COLLATE "C" NOT NULL,'
        ' discipline text COLLATE "C" NOT NULL, PRIMARY KEY (project, discipline))',
        'CREATE TABLE IF NOT EXISTS rs_learn_kv (project text COLLATE "C" NOT NULL,'
        ' discipline text COLLATE "C" NOT NULL, ns text COLLATE "C" NOT NULL, key text COLLATE "C" NOT NULL,'
        " value bytea NOT NULL CHECK (length(value) > 0), dim integer, vec vector,"
        " PRIMARY KEY (project, discipline, ns, key))",
        "ALTER TABLE rs_learn_kv ALTER COLUMN vec SET STORAGE MAIN",
        "CREATE INDEX IF NOT EXISTS rs_learn_kv_zero ON rs_learn_kv (project, discipline, ns, dim, key)"
        " WHERE dim IS NOT NULL AND vec IS NULL",
        f"CREATE INDEX IF NOT EXISTS rs_learn_kv_hnsw_{HNSW_DIM} ON rs_learn_kv"
        f" USING hnsw ((vec::vector({HNSW_DIM})) vector_cosine_ops) WITH (m = 24, ef_construction = 128)"
        f" WHERE dim = {HNSW_DIM}",
        'CREATE TABLE IF NOT EXISTS rs_learn_vector_counts (project text COLLATE "C" NOT NULL,'
        ' discipline text COLLATE "C" NOT NULL, ns text COLLATE "C" NOT NULL, entries bigint NOT NULL,'
        " PRIMARY KEY (project, discipline, ns))",
        'CREATE TABLE IF NOT EXISTS rs_learn_ledger (project text COLLATE "C" NOT NULL, spool text NOT NULL,'
        " token text NOT NULL, envelope text NOT NULL, PRIMARY KEY (project, spool, token))",
    ],
]
INSUFFICIENT_PRIVILEGE = "42501"
NO_EXTENSION = ("58P01", "0A000")  # undefined_file, feature_not_supported


def version(conn: Connection) -> int:
    """The schema version of the database (0: no rs-learn tables yet)."""
    if conn.execute("SELECT to_regclass('rs_learn_schema') IS NOT NULL").fetchone()[0] is not True:
        return 0
    return int(conn.execute("SELECT coalesce(max(version), 0) FROM rs_learn_schema").fetchone()[0])


def migrate(conn: Connection, url: str) -> int:
    """Bring the database to the current schema (nothing to do when it is); return the version."""
    try:
        current = version(conn)
        if current == len(MIGRATIONS):
            return current
        if current < len(MIGRATIONS):
            with conn.transaction():
                conn.execute("SELECT pg_advisory_xact_lock(%s, 0)", (LOCK_CLASS,))
                conn.execute("CREATE TABLE IF NOT EXISTS rs_learn_schema (version integer PRIMARY KEY)")
                current = version(conn)  # another process may have migrated meanwhile
                for number in range(current + 1, len(MIGRATIONS) + 1):
                    for statement in MIGRATIONS[number - 1]:
                        conn.execute(statement)
                    conn.execute("INSERT INTO rs_learn_schema (version) VALUES (%s)", (number,))
                    current = number
    except Exception as error:
        if not is_psycopg_error(error):
            raise
        raise PostgresError(_explain(error, url)) from None
    if current > len(MIGRATIONS):
        raise PostgresError(f"the rs-learn schema of {redact(url)} is version {current}, newer than this "
                            f"rs-learn ({len(MIGRATIONS)}): upgrade rs-learn")
    return current


def _explain(error: BaseException, url: str) -> str:
    state = sqlstate(error)
    where = redact(url)
    if state == INSUFFICIENT_PRIVILEGE and "extension" in str(error):
        return (f"{where} has no pgvector extension and this role may not create it: have the database's "
                "owner run CREATE EXTENSION vector")
    if state in NO_EXTENSION and "vector" in str(error):
        return f"the PostgreSQL server of {where} has no pgvector extension installed: {describe(error, url)}"
    return f"cannot set up the rs-learn tables in {where}: {describe(error, url)}"
