"""``HostServices``: the six host imports over the router, the stores and the vector indexes.

It implements the guest's :class:`guest.host.Host` protocol directly, so the
native target passes it to ``Engine`` as is, and the wasm binding
(``host_harness.component``) wraps the same methods. Each import runs in the call's transaction
(``transaction.py``) on the store its namespace routes to (``stores.py``).

Unusable disciplines: when the guest asks for ``host/enabled-disciplines`` (the
fan-out of a recall or the hook), an enabled discipline whose store cannot be
opened -- not a database (a git-LFS pointer), corrupt, newer than this build,
behind a link -- is left out of the list, logged as a warning and named in
:attr:`HostServices.warnings`, which ``dispatch`` adds to its envelope. The other
stores are recalled. A store named explicitly (``@name``) still fails the call. A hook's vector
search that answered nothing because its index is being rebuilt (``host_harness/vectors/search.py``)
is named there too.
"""

from __future__ import annotations

import json
import logging
from collections import deque
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from host_harness.config import ProjectContext, Settings, StoreChoice
from host_harness.services.clock import wall_clock_ms
from host_harness.services.guestlog import LEVELS, MAX_LOG_RECORDS, LogRecord, guest_log, parse_log_event
from host_harness.services.stores import Stores
from host_harness.services.transaction import describe
from host_harness.store import (
    DEFAULT_BUSY_TIMEOUT_MS,
    HOST_NS,
    Project,
    SqliteKV,
    check_name,
    contains,
    is_busy,
)
from host_harness.vectors import IndexPolicy

U64_MAX = 2**64 - 1


class HostServices(Stores):
    """The host side of one project: the ``Host`` protocol plus per-call transactions.

    ``project`` is the run's :class:`~host_harness.config.ProjectContext` (its configuration and store
    read already), or a folder whose ``.gm/config.json`` is read here, once; ``store`` overrides the
    choice either names.
    """

    def __init__(
        self,
        project: ProjectContext | Project | Path | str,
        *,
        scope: Mapping[str, Any] | None = None,
        clock: Callable[[], int] = wall_clock_ms,
        busy_timeout_ms: int = DEFAULT_BUSY_TIMEOUT_MS,
        store_factory: Callable[[Path, int], SqliteKV] = SqliteKV,
        index_policy: IndexPolicy | None = None,
        store: StoreChoice | None = None,
    ) -> None:
        if isinstance(project, ProjectContext):
            root, settings = Project(project.root), project.settings
            store = store if store is not None else project.store_choice()
        else:
            root = project if isinstance(project, Project) else Project(Path(project))
            settings = Settings.read(root.root)
        super().__init__(root, scope, busy_timeout_ms, store_factory, index_policy, store, settings)
        self.clock = clock
        self.logs: deque[LogRecord] = deque(maxlen=MAX_LOG_RECORDS)

    def kv_get(self, ns: str, key: str) -> bytes | None:
        """``host-kv-get``."""
        with self._op("kv_get", store=not self.router.is_reserved(ns)):
            check_name(ns, "namespace")
            if self.router.is_reserved(ns):
                check_name(key, "key")
                if ns == HOST_NS and key == "enabled-disciplines":
                    return self._enabled_disciplines()
                return self.router.host_value(ns, key)
            route = self.router.route(ns)
            return self._store(route.db)[0].get(route.ns, key)

    def kv_put(self, ns: str, key: str, value: bytes) -> None:
        """``host-kv-put``: an empty value deletes; errors raise :class:`HostError`."""
        with self._op("kv_put"):
            route = self.router.route(ns)
            self._store(route.db)[0].put(route.ns, key, value)

    def kv_get_many(self, ns: str, keys: Sequence[str]) -> list[bytes | None]:
        """``host-kv-get`` of several keys (contract v2: one crossing), in order.

        A SQLite store reads them in one statement; services whose ``kv_get`` is another (a
        subclass's, a test's counter) are asked key by key.
        """
        if getattr(self.kv_get, "__func__", None) is not HostServices.kv_get:
            return [self.kv_get(ns, key) for key in keys]
        return self.read_many(ns, keys)

    def read_many(self, ns: str, keys: Sequence[str]) -> list[bytes | None]:
        """:meth:`kv_get` of each key, in order; the keys of a SQLite store in one statement."""
        if len(keys) < 2 or self.router.is_reserved(ns):
            return [HostServices.kv_get(self, ns, key) for key in keys]
        with self._op("kv_get"):
            check_name(ns, "namespace")
            route = self.router.route(ns)
            store = self._store(route.db)[0]
            if isinstance(store, SqliteKV):
                return store.get_many(route.ns, keys)
            return [store.get(route.ns, key) for key in keys]

    def kv_put_many(self, ns: str, items: Sequence[tuple[str, bytes]]) -> None:
        """``host-kv-put`` of several entries, in order; every key is checked before any is written."""
        with self._op("kv_put"):
            check_name(ns, "namespace")
            for key, _ in items:
                check_name(key, "key")
        for key, value in items:
            self.kv_put(ns, key, value)

    def kv_query(self, ns: str, q: str, limit: int) -> list[tuple[str, bytes]]:
        """``host-kv-query``."""
        with self._op("kv_query"):
            check_name(ns, "namespace")
            if self.router.is_reserved(ns):
                folded = q.casefold()
                entries = [(k, v) for k, v in self.router.host_entries(ns) if contains(k, v, folded)]
                return entries[:limit] if limit else entries
            route = self.router.route(ns)
            return self._store(route.db)[0].query(route.ns, q, limit)

    def vec_search(self, ns: str, query: list[float], k: int) -> list[tuple[str, float]]:
        """``host-vec-search``."""
        with self._op("vec_search"):
            check_name(ns, "namespace")
            if self.router.is_reserved(ns):
                return []
            route = self.router.route(ns)
            return self._store(route.db)[1].search(route.ns, query, k)

    def log(self, level: int, msg: str) -> None:
        """``host-log``: to the ``rs_learn.guest`` logger and :attr:`logs` (never fails fast)."""
        self.logs.append(LogRecord(level, msg, parse_log_event(msg)))
        guest_log.log(LEVELS.get(level, logging.WARNING), "%s", msg)

    def now_ms(self) -> int:
        """``host-now-ms`` from :attr:`clock`, clamped to ``u64``."""
        with self._op("now_ms", store=False):
            return min(max(int(self.clock()), 0), U64_MAX)

    def _enabled_disciplines(self) -> bytes:
        """``host/enabled-disciplines`` without the disciplines whose store cannot be opened."""
        usable = []
        for name in self.project.enabled_disciplines():
            db = self.project.discipline_db(name)
            try:
                if not self.store.is_postgresql and (db.exists() or db.is_symlink()):
                    self._store(db)[0].probe()
            except Exception as error:
                if is_busy(error):
                    raise  # locked is not broken: the call fails (and is not silently partial)
                self._drop_store(db)
                where, why = db.relative_to(self.project.root), describe(error)
                self.warn(f"discipline {name!r} skipped: its store {where} cannot be used ({why})")
                continue
            usable.append(name)
        return json.dumps(usable, separators=(",", ":")).encode("utf-8")
