"""``PgLedger``: the exec spool's replay ledger as a table of the PostgreSQL store.

The same rules as the SQLite ledger (``host_harness/store/replay.py``): a call made for a spool
claim records its envelope under the claim's token *in the transaction that commits the call*, so
a watcher killed between the commit and the answer answers from the ledger on restart instead of
running the call twice. Here the ledger is ``rs_learn_ledger`` in the store's own database: the
statements run in the call's transaction through :meth:`PgKV.execute_attached`, and PostgreSQL
commits them with the call's writes.

Rows are keyed by the project and the spool folder (host name and absolute path), so the watchers
of two checkouts sharing one project never clear each other's claims.
"""

from __future__ import annotations

import socket
from collections.abc import Iterable
from pathlib import Path

from host_harness.store.pg.kv import PgSession

WHERE = "project = %s AND spool = %s"


class PgLedger:
    """``{claim token -> envelope}`` of one spool folder, in ``rs_learn_ledger``."""

    schema = ""  # nothing to attach: the table is created by the store's migrations

    def __init__(self, session: PgSession, path: Path) -> None:
        self.session = session
        self.path = path
        self.spool = f"{socket.gethostname()}:{path.parent.resolve()}"
        self.forget: set[str] = set()  # tokens of removed claims: deleted at the next recording

    def statements(self, token: str, envelope: str) -> list[tuple[str, tuple[object, ...]]]:
        """What recording ``token`` executes (in whatever transaction carries the call's writes)."""
        owner = (self.session.project, self.spool)
        out: list[tuple[str, tuple[object, ...]]] = []
        done = sorted(self.forget - {token})
        if done:
            out.append((f"DELETE FROM rs_learn_ledger WHERE {WHERE} AND token = ANY(%s)", (*owner, done)))
        out.append(("INSERT INTO rs_learn_ledger (project, spool, token, envelope) VALUES (%s, %s, %s, %s)"
                    " ON CONFLICT (project, spool, token) DO UPDATE SET envelope = excluded.envelope",
                    (*owner, token, envelope)))
        return out

    def recorded(self) -> None:
        """The statements of :meth:`statements` committed: the forgotten tokens are gone."""
        self.forget.clear()

    def record(self, token: str, envelope: str) -> None:
        """Record ``token`` in a transaction of its own (a call that changed no store)."""
        self.session.autonomous(self.statements(token, envelope))
        self.recorded()

    def lookup(self, token: str) -> str | None:
        """The envelope committed under ``token``, or ``None``."""
        rows = self.session.fetch_alone(f"SELECT envelope FROM rs_learn_ledger WHERE {WHERE} AND token = %s",
                                        (self.session.project, self.spool, token))
        return None if not rows else str(rows[0][0])

    def clear(self, keep: Iterable[str] = ()) -> None:
        """Delete every row of this spool but those of ``keep`` (after recovery: no other claim exists)."""
        self.session.autonomous([(f"DELETE FROM rs_learn_ledger WHERE {WHERE} AND NOT (token = ANY(%s))",
                                  (self.session.project, self.spool, sorted(set(keep))))])
        self.forget.clear()

    def close(self) -> None:
        """Nothing of its own to close (the store's session owns the connection)."""
