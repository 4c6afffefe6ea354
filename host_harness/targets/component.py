"""``WasmGuest``: the built component behind the harness's export-call rules.

The linker gets exactly the six ``host-*`` functions of the world -- never WASI
(no ``add_wasip2``, no ``define_unknown_imports_as_traps``): a component that
imported anything else would fail to instantiate, which keeps the sandbox claim
checkable.

Failure-in-import policy. A Python exception that escapes a host import
propagates out of the export call *and* kills the instance, so every import is
wrapped and never raises:

* ``host-kv-put`` has an error channel: contract errors (bad namespace, the
  read-only ``host`` namespace) come back as ``err(message)`` and the guest
  decides; a storage failure comes back as ``err`` too and is also recorded;
* ``host-kv-get``, ``-kv-query``, ``-vec-search``, ``-now-ms`` and ``-log`` have
  none: the failure is recorded on the services and the guest gets a neutral
  answer (``none``, ``[]``, ``0``). It may carry on, but the call is failed
  when it returns (rolled back; :class:`HostFailure`, or an error envelope from
  ``dispatch``), so a broken database never reads as an empty one.

Limits: each store may grow linear memory to :data:`MEMORY_LIMIT` (1 GiB;
``memory.grow`` fails beyond it), and each call has an epoch deadline of
``timeout_s`` seconds (see ``host_harness.runtime``). A trap -- deadline, memory,
a guest bug -- rolls the call back, drops the store and raises
:class:`GuestTrap`; the next call instantiates afresh (milliseconds).
"""

from __future__ import annotations

from typing import Any

from wasmtime import Store, WasmtimeError
from wasmtime.component import Func, Linker

from host_harness.errors import GuestError, GuestTrap, HostError, StoreError
from host_harness.services import HostServices
from host_harness.targets import codec
from host_harness.targets.base import BaseGuest
from host_harness.targets.runtime import Runtime, load_component

IMPORTS = ("host-kv-get", "host-kv-put", "host-kv-query", "host-vec-search", "host-log", "host-now-ms")
EXPORTS = ("version", "recall", "memorize", "dispatch")
MEMORY_LIMIT = 1 << 30
DEFAULT_TIMEOUT_S = 60.0
INTERRUPT = "wasm trap: interrupt"  # the epoch deadline passed

__all__ = ["IMPORTS", "GuestTrap", "HostImports", "Runtime", "WasmGuest", "load_component"]


class HostImports:
    """The six host imports as wasmtime-py callables over ``services``; none of them raises."""

    def __init__(self, services: HostServices) -> None:
        self.services = services

    def bind(self, linker: Linker) -> None:
        """Define exactly the six imports on ``linker``'s root."""
        funcs = (self.kv_get, self.kv_put, self.kv_query, self.vec_search, self.log, self.now_ms)
        with linker.root() as root:
            for name, func in zip(IMPORTS, funcs, strict=True):
                root.add_func(name, func)

    def _failed(self, where: str, error: Exception) -> None:
        """Record a failure unless the services already did (they record storage errors)."""
        if isinstance(error, StoreError) or not isinstance(error, HostError):
            self.services.record_failure(where, error)

    def kv_get(self, _store: Any, ns: str, keys: str) -> str:
        """Serve ``host-kv-get`` (a pack of keys -> a pack of values); a failure answers none."""
        wanted: list[str] = []
        try:
            wanted = codec.lift_keys(keys)
            return codec.lower_pack(self.services.kv_get_many(ns, wanted))
        except Exception as error:
            self._failed("host-kv-get", error)
            return codec.lower_pack([None] * len(wanted))

    def kv_put(self, _store: Any, ns: str, entries: str) -> str | None:
        """Serve ``host-kv-put`` (a pack of key, value, ...); every error answers ``err(message)``."""
        try:
            self.services.kv_put_many(ns, codec.lift_pairs(entries))
        except StoreError as error:  # the contract: the guest decides
            return codec.lower_unit_result(str(error))
        except Exception as error:
            self._failed("host-kv-put", error)
            return codec.lower_unit_result(str(error))
        return codec.lower_unit_result(None)

    def kv_query(self, _store: Any, ns: str, q: str, limit: int) -> str:
        """Serve ``host-kv-query`` (a pack of key, value, ...); a failure answers none and fails the call."""
        try:
            return codec.lower_pairs(self.services.kv_query(ns, q, limit))
        except Exception as error:
            self._failed("host-kv-query", error)
            return codec.lower_pack([])

    def vec_search(self, _store: Any, ns: str, query: str, k: int) -> str:
        """Serve ``host-vec-search`` (a blob of f32s -> a pack of key, score); a failure answers ``[]``."""
        try:
            return codec.lower_hits(self.services.vec_search(ns, codec.lift_floats(query), k))
        except Exception as error:
            self._failed("host-vec-search", error)
            return codec.lower_pack([])

    def log(self, _store: Any, level: int, msg: str) -> None:
        """Serve ``host-log``."""
        try:
            self.services.log(level, msg)
        except Exception as error:
            self._failed("host-log", error)

    def now_ms(self, _store: Any) -> int:
        """Serve ``host-now-ms``; a failure answers 0 and fails the call."""
        try:
            return codec.lower_u64(self.services.now_ms())
        except Exception as error:
            self._failed("host-now-ms", error)
            return 0


class WasmGuest(BaseGuest):
    """The component in a ``Store`` of its own, over ``services``."""

    def __init__(
        self,
        runtime: Runtime,
        services: HostServices,
        *,
        timeout_s: float = DEFAULT_TIMEOUT_S,
        memory_limit: int = MEMORY_LIMIT,
    ) -> None:
        super().__init__(services)
        self.runtime = runtime
        self.timeout_s = timeout_s
        self.memory_limit = memory_limit
        self.linker = Linker(runtime.engine)
        HostImports(services).bind(self.linker)
        self.instantiations = 0
        self._store: Store | None = None
        self._funcs: dict[str, Func] = {}

    def close(self) -> None:
        """Drop the store."""
        self._drop()

    def _drop(self) -> None:
        self._store = None
        self._funcs = {}

    def _instance(self) -> Store:
        if self._store is None:
            store = Store(self.runtime.engine)
            store.set_limits(memory_size=self.memory_limit)
            store.set_epoch_deadline(self.runtime.ticker.ticks(self.timeout_s))
            try:
                instance = self.linker.instantiate(store, self.runtime.component)
            except WasmtimeError as error:
                raise GuestError(f"cannot instantiate the component: {_reason(error)}") from error
            funcs = {}
            for name in EXPORTS:
                func = instance.get_func(store, name)
                if func is None:
                    raise GuestError(f"the component does not export {name!r}")
                funcs[name] = func
            self._store, self._funcs = store, funcs
            self.instantiations += 1
        return self._store

    def _call(self, name: str, *args: Any) -> Any:
        store = self._instance()
        self.runtime.ticker.start()
        store.set_epoch_deadline(self.runtime.ticker.ticks(self.timeout_s))
        try:
            return self._funcs[name](store, *args)
        except WasmtimeError as error:
            self._drop()
            raise GuestTrap(_trapped(name, args, _reason(error), self.timeout_s)) from error
        except BaseException:
            self._drop()
            raise

    def _version(self) -> str:
        return codec.lift_string(self._call("version"))

    def _memorize(self, text: str, namespace: str) -> str:
        return codec.lift_string_result(self._call("memorize", text, namespace))

    def _recall(self, query: str, limit: int) -> list[dict[str, Any]]:
        return codec.lift_recall_result(self._call("recall", query, limit))

    def _dispatch(self, verb: str, body: str) -> str:
        return codec.lift_string(self._call("dispatch", verb, body))


def _trapped(name: str, args: tuple[Any, ...], reason: str, timeout_s: float) -> str:
    """What a trap answers: past the deadline, a ``timeout:`` the caller can act on; else ``internal:``."""
    call = f"{name} {args[0]}" if name == "dispatch" and args else name
    if reason.startswith(INTERRUPT):
        return (f"timeout: the call ({call}) ran past its {timeout_s:g} s deadline and was stopped (the "
                f"component trapped: {reason}); nothing it wrote was kept -- retry it in smaller pieces "
                f"(import --batch, fewer ids)")
    return f"internal: the component trapped in {call}: {reason}"


def _reason(error: BaseException) -> str:
    """Return the trap's reason line (``wasm trap: interrupt`` ...), else the first line."""
    lines = [line.strip() for line in str(error).strip().splitlines() if line.strip()]
    for line in lines:
        if line.startswith("wasm trap:"):
            return line
    return lines[0] if lines else type(error).__name__
