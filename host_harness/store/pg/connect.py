"""Connecting to the PostgreSQL store: a new connection, its schema migrated, ``vector`` registered."""

from __future__ import annotations

from host_harness.config import redact
from host_harness.store.pg import schema
from host_harness.store.pg.driver import CONNECT_TIMEOUT_S, Connection, PostgresError, describe, psycopg


def connect(url: str, timeout_s: float = CONNECT_TIMEOUT_S) -> Connection:
    """A new autocommit connection to ``url``, its schema migrated and the ``vector`` type registered."""
    module = psycopg()
    try:
        conn = module.connect(url, autocommit=True, connect_timeout=max(2, int(timeout_s)),
                              application_name="rs-learn")
    except module.Error as error:
        raise PostgresError(f"cannot connect to {redact(url)}: {describe(error, url)}") from None
    try:
        schema.migrate(conn, url)
        from pgvector.psycopg import register_vector

        register_vector(conn)
    except BaseException:
        conn.close()
        raise
    return conn
