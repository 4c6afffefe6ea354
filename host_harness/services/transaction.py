"""``Transactions``: one export call's transactions over every store it touches, and its failures.

:meth:`Transactions.begin` starts an export call; every database the call touches is opened in a
transaction (see ``host_harness.store.kv``); :meth:`Transactions.commit` commits all of them when
the call succeeded and :meth:`Transactions.rollback` rolls all of them back otherwise. Outside
``begin()``/``commit()`` each operation is its own transaction (handy in tests). Commits are per
file: if the second of two databases fails to commit, the first has already committed (SQLite
cannot join files that were not ATTACHed first).

A call starts as a reader (``begin()``): its transactions are deferred, so it neither waits behind
nor blocks another process's writer. Its first put that changes something takes the write lock; if
another connection holds it, the put fails at once, :attr:`Transactions.write_lock_busy` is set and
the caller runs the call again under ``begin(write_lock=True)`` (the write lock of every store it
touches), which waits its turn. Every lock wait of the call, over both attempts and every store,
draws on one budget of ``busy_timeout_ms``; and once a store operation has failed, the call's later
store operations fail at once instead of each waiting again.

Failures: storage errors (locked beyond the busy timeout, corrupt file, disk full, a lost database
connection, a harness bug) are recorded in :attr:`Transactions.failures` as well as raised as
:class:`host_harness.errors.HostError`; the guest wrapper then fails the whole call even if the guest
swallowed the error or got a neutral answer. A call that failed only because a store stayed locked
by other writers for its whole busy timeout answers ``busy: ...`` (retry it), every other failure
``internal: host failure: ...`` (:meth:`Transactions.failure`). Contract errors (bad namespace or
key, a write to ``host``) are :class:`StoreError`: the guest hears about them through
``host-kv-put``'s ``err`` and decides.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, TypeAlias

from host_harness.config import StoreChoice
from host_harness.errors import HostError, HostFailure, StoreError, disk_full_message, is_disk_full
from host_harness.fs import effects
from host_harness.services.answers import AnswerLedger
from host_harness.services.guestlog import guest_log
from host_harness.store import LockBudget, Project, SqliteKV, WriteLockBusy, is_busy

if TYPE_CHECKING:  # imported when a PostgreSQL store is chosen: a hook on SQLite does not pay for them
    from host_harness.store.pg.kv import PgKV

Store: TypeAlias = "SqliteKV | PgKV"


class Transactions:
    """The per-call transactions of the stores a call touches, and what its failures say."""

    # the store side sets these (``host_harness/services/stores.py``)
    store: StoreChoice
    busy_timeout_ms: int
    ledger: AnswerLedger | None

    def __init__(self) -> None:
        self.failures: list[str] = []
        self._busy_only = False  # every failure of the call so far was a lock wait given up
        self._disk_full = False  # a failure of the call so far was a full disk
        # what the last call left out (an unusable discipline store), and what the store's choice warns of
        self.warnings: list[str] = list(self.store.warnings)
        self.write_lock_busy = False  # a put of this call found the write lock taken: run it again
        self._touched: dict[Path, Store] = {}
        self._in_call = False
        self._write_lock = False
        self._budget: LockBudget | None = None

    def begin(self, *, write_lock: bool = False, retry: bool = False) -> None:
        """Start an export call: clear the failures; stores join as they are touched.

        ``write_lock=False`` starts every store as a reader (upgraded by its first change);
        ``True`` takes each store's write lock when the call first touches it. ``retry``
        marks the second attempt of the same call: it keeps what is left of the lock budget.
        """
        if self._in_call:
            self.rollback()
        self.failures = []
        self._busy_only = False
        self._disk_full = False
        self.warnings = list(self.store.warnings)  # standing ones (a password in a committed config)
        self.write_lock_busy = False
        if not retry or self._budget is None:
            self._budget = LockBudget(self.busy_timeout_ms)
        self._write_lock = write_lock
        self._in_call = True

    def commit(self, *, token: str | None = None, answer: str | None = None) -> None:
        """Commit every store the call touched; on a failure roll back the rest and raise.

        With a ledger, a ``token`` and the call's ``answer``: a call that changed a store records
        the answer in that store's transaction (committed last, atomically with its writes); a call
        that changed nothing but asks for a file write records it on its own after the commits.
        """
        stores = list(self._touched.values())
        ledger = self.ledger if token is not None and answer is not None else None
        carried = standalone = False
        try:
            if ledger is not None and token is not None and answer is not None:
                changed = [kv for kv in stores if kv.changed]
                if changed:
                    carrier = changed[-1]
                    for sql, params in ledger.statements(token, answer):
                        carrier.execute_attached(sql, params)
                    stores = [kv for kv in stores if kv is not carrier] + [carrier]
                    carried = True
                else:
                    standalone = effects.pending(answer)
            for kv in stores:
                kv.commit()
            if ledger is not None and token is not None and answer is not None:
                if carried:
                    ledger.recorded()
                if standalone:
                    ledger.record(token, answer)
        except Exception as error:
            self.rollback()
            if is_busy(error):
                message = busy_message(self.busy_timeout_ms, f"commit: {describe(error)}")
                raise HostFailure(message) from error
            if is_disk_full(error):
                raise HostFailure(disk_full_message(f"commit: {describe(error)}")) from error
            raise HostFailure(f"internal: host failure: commit failed: {describe(error)}") from error
        self._end()

    def rollback(self) -> None:
        """Roll back every store the call touched."""
        try:
            for kv in self._touched.values():
                try:
                    kv.rollback()
                except Exception as error:  # keep rolling back the others; the connection is suspect
                    self.record_failure("rollback", error)
                    kv.close()
        finally:
            self._end()

    def failure(self) -> str | None:
        """Return a message for the failures recorded during the call, or ``None``.

        ``busy: ...`` when every failure was a lock wait given up (nothing changed: retry the call),
        else ``internal: host failure: ...``.
        """
        if not self.failures:
            return None
        if self._busy_only:
            return busy_message(self.busy_timeout_ms, "; ".join(self.failures))
        if self._disk_full:
            return disk_full_message("; ".join(self.failures))
        return "internal: host failure: " + "; ".join(self.failures)

    def record_failure(self, where: str, error: BaseException) -> None:
        """Remember that a host import failed, so that the current call fails."""
        message = f"{where}: {describe(error)}"
        self._busy_only = is_busy(error) and (self._busy_only or not self.failures)
        self._disk_full = self._disk_full or is_disk_full(error)
        self.failures.append(message)
        guest_log.error("host import failed: %s", message)

    def warn(self, warning: str) -> None:
        """Say in the call's envelope (``warnings``, once) and in the log what the call left out."""
        if warning not in self.warnings:
            self.warnings.append(warning)
            guest_log.warning("%s", warning)

    def _end(self) -> None:
        self._touched = {}
        self._in_call = False

    def _named(self, error: Exception) -> Exception:
        """``error`` as the call says it (the store side names a store file that is not a database)."""
        return error

    def _op(self, where: str, store: bool = True) -> _Op:
        """Run one import: contract errors pass through, anything else is recorded and raised.

        A store operation after the call has failed (or found the write lock taken) fails at
        once: the call is lost anyway, and each lookup would otherwise wait out the busy timeout.
        """
        return _Op(self, where, store)


class _Op:
    """:meth:`Transactions._op`'s context: a plain class, as every host import enters one."""

    __slots__ = ("services", "store", "where")

    def __init__(self, services: Transactions, where: str, store: bool) -> None:
        self.services, self.where, self.store = services, where, store

    def __enter__(self) -> None:
        services = self.services
        if self.store and services._in_call and (services.failures or services.write_lock_busy):
            reason = "the write lock is taken" if services.write_lock_busy else services.failures[0]
            raise HostError(f"host failure in {self.where}: the call already failed ({reason})")

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None, _tb: object) -> None:
        services, where = self.services, self.where
        if error is None:
            if not services._in_call and services._touched:
                services.commit()
            return
        if isinstance(error, StoreError):
            if not services._in_call:
                services.rollback()
            return
        if isinstance(error, WriteLockBusy):
            services.write_lock_busy = True
            if not services._in_call:
                services.rollback()
            raise HostError(f"host failure in {where}: {error}") from error
        if not isinstance(error, Exception):
            return  # KeyboardInterrupt, SystemExit, GeneratorExit: as they are
        named = services._named(error)
        services.record_failure(where, named)
        if not services._in_call:
            services.rollback()
        raise HostError(f"host failure in {where}: {describe(named)}") from named


def busy_message(timeout_ms: int, details: str) -> str:
    """The ``busy:`` answer of a call that could not get a store's write lock in time."""
    return (f"busy: other writers kept the store locked for this call's whole busy timeout "
            f"({timeout_ms} ms); nothing was changed: retry the call ({details})")


class UnusableStore(Exception):
    """A store file that SQLite cannot read as a database (``file is not a database``, ``malformed``)."""

    def __init__(self, project: Project, db: Path, error: Exception) -> None:
        name = project.store_name(db)
        which = f"the store of discipline {name!r}" if name else "the project store"
        try:
            where: Path = db.relative_to(project.root)
        except ValueError:
            where = db
        super().__init__(f"{which} ({where}) is not a usable SQLite database ({error}): move the file "
                         "aside, or restore it from git")


def describe(error: BaseException) -> str:
    """A failure as the call's message says it: the error's type and text (an unusable store's text)."""
    return str(error) if isinstance(error, UnusableStore) else f"{type(error).__name__}: {error}"
