"""``Ledger``: the spool's replay ledger, so that a request's effects happen exactly once.

A watcher that dies after a call committed but before its answer reached ``out/<N>.json`` finds
the request's claim again when it restarts. Running it again would repeat its effects (a second
archived block, a second todo) and give a different answer (``"deduped": true`` for the text this
very request stored). So every claim carries a random token, and the call's envelope is recorded
under that token **in the same SQLite transaction as the call's writes**: the ledger is a local
file, ``.gm/exec-spool/ledger.db``, ATTACHed to each store connection of the watcher, and SQLite
commits the store and the ledger atomically (rollback-journal mode commits several attached files
through a super-journal). On restart a claim whose token is in the ledger is answered from it,
host effects (a managed skill's ``SKILL.md``) re-applied, never re-run.

Only calls that changed a store, or that ask the host for a file write, are recorded; a call that
wrote nothing can be run again with the same result. Rows are needed only while their claim
exists: the tokens of removed claims are deleted in the next recording transaction, and recovery
clears the rest. The ledger never touches the committed store (``.gm/exec-spool/`` is local
state). The CLI, the hook and an MCP server answer in the same process that ran the call, so they
need no ledger.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable
from pathlib import Path

from host_harness.store import sqlite_files

ALIAS = "ledger"
SCHEMA = "CREATE TABLE IF NOT EXISTS {alias}.answers (token TEXT PRIMARY KEY, envelope TEXT NOT NULL)"
BUSY_TIMEOUT_S = 10.0


class Ledger:
    """``{claim token -> envelope}`` in ``path``; recorded through a store connection or on its own."""

    def __init__(self, root: Path, path: Path) -> None:
        self.root = root
        self.path = path
        self.forget: set[str] = set()  # tokens of removed claims: deleted at the next recording
        self._conn: sqlite3.Connection | None = None

    @property
    def schema(self) -> str:
        """The statement that creates the table under the attachment alias."""
        return SCHEMA.format(alias=ALIAS)

    def statements(self, token: str, envelope: str) -> list[tuple[str, tuple[str, ...]]]:
        """What recording ``token`` executes (in whatever transaction carries the call's writes)."""
        done = sorted(self.forget - {token})
        out: list[tuple[str, tuple[str, ...]]] = []
        if done:
            marks = ", ".join("?" * len(done))
            out.append((f"DELETE FROM {ALIAS}.answers WHERE token IN ({marks})", tuple(done)))
        out.append((f"INSERT OR REPLACE INTO {ALIAS}.answers (token, envelope) VALUES (?, ?)",
                    (token, envelope)))
        return out

    def recorded(self) -> None:
        """The statements of :meth:`statements` committed: the forgotten tokens are gone."""
        self.forget.clear()

    def record(self, token: str, envelope: str) -> None:
        """Record ``token`` in a transaction of its own (a call that changed no store)."""
        conn = self._connection()
        conn.execute("BEGIN IMMEDIATE")
        try:
            for sql, params in self.statements(token, envelope):
                conn.execute(sql, params)
            conn.execute("COMMIT")
        except BaseException:
            conn.execute("ROLLBACK")
            raise
        self.recorded()

    def lookup(self, token: str) -> str | None:
        """The envelope committed under ``token``, or ``None``."""
        if not self.path.exists():
            return None
        row = self._connection().execute(
            f"SELECT envelope FROM {ALIAS}.answers WHERE token = ?", (token,)
        ).fetchone()
        return None if row is None else str(row[0])

    def clear(self, keep: Iterable[str] = ()) -> None:
        """Delete every row but those of ``keep`` (after recovery: no other claim exists)."""
        if not self.path.exists():
            return
        kept = sorted(set(keep))
        marks = ", ".join("?" * len(kept))
        where = f" WHERE token NOT IN ({marks})" if kept else ""
        self._connection().execute(f"DELETE FROM {ALIAS}.answers{where}", tuple(kept))
        self.forget.clear()

    def close(self) -> None:
        """Close the ledger's own connection."""
        if self._conn is not None:
            self._conn.close()
            self._conn = None

    def _connection(self) -> sqlite3.Connection:
        if self._conn is not None:
            sqlite_files.check_quick(self.root, self.path)  # nothing planted since it was opened
        else:
            sqlite_files.check_database(self.root, self.path, create=True)
            conn = sqlite3.connect(":memory:", isolation_level=None, timeout=BUSY_TIMEOUT_S)
            conn.execute(f"ATTACH DATABASE ? AS {ALIAS}", (str(self.path),))  # the same schema name
            conn.execute(f"PRAGMA {ALIAS}.journal_mode = DELETE").fetchone()
            conn.execute(self.schema)
            self._conn = conn
        return self._conn
