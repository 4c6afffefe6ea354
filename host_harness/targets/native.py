"""``NativeGuest``: the guest package run in-process under CPython.

This is the ``native`` target of the one-suite-two-targets tests (and the CLI's
hidden ``--native`` dev switch): ``guest.engine.Engine`` talks to the very same
:class:`HostServices` that the component's imports are bound to, under the same
per-call transaction rules (:class:`host_harness.base.BaseGuest`). Engine errors
become :class:`GuestError` with the engine's message, exactly the text the
component returns as ``err``. It is the one module of the harness that imports the guest's code
(``tests/host/test_layout.py``): the host's own :class:`host_harness.errors.HostError` reaches the engine
as the guest's ``guest.host.HostError`` with the same message (:class:`GuestHost`), which is what
the component's guest makes of an ``err``.

``guest.engine`` is imported when a ``NativeGuest`` is made, not at module
import: the wasm path of the harness never loads the guest's model.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from guest import host as guest_host
from guest.errors import EngineError
from host_harness.errors import GuestError, HostError
from host_harness.services import HostServices
from host_harness.targets.base import BaseGuest


class GuestHost(guest_host.HostWrapper):
    """``services`` as the engine's ``Host``: the six imports, failing as the guest's ``HostError``.

    Each import is a plain ``try`` around the call (free in CPython 3.11 when nothing is raised): a
    closure or a generic ``*args`` wrapper per call cost ~0.5 us, on every host call of the native
    target the bench compares the component with.
    """

    def kv_get(self, ns: str, key: str) -> bytes | None:
        """``host-kv-get``."""
        try:
            return self.inner.kv_get(ns, key)
        except HostError as error:
            raise guest_host.HostError(str(error)) from error

    def kv_put(self, ns: str, key: str, value: bytes) -> None:
        """``host-kv-put``."""
        try:
            self.inner.kv_put(ns, key, value)
        except HostError as error:
            raise guest_host.HostError(str(error)) from error

    def kv_get_many(self, ns: str, keys: Sequence[str]) -> list[bytes | None]:
        """``host-kv-get`` of several keys."""
        try:
            return self.inner.kv_get_many(ns, keys)
        except HostError as error:
            raise guest_host.HostError(str(error)) from error

    def kv_put_many(self, ns: str, items: Sequence[tuple[str, bytes]]) -> None:
        """``host-kv-put`` of several entries."""
        try:
            self.inner.kv_put_many(ns, items)
        except HostError as error:
            raise guest_host.HostError(str(error)) from error

    def kv_query(self, ns: str, q: str, limit: int) -> list[tuple[str, bytes]]:
        """``host-kv-query``."""
        try:
            return self.inner.kv_query(ns, q, limit)
        except HostError as error:
            raise guest_host.HostError(str(error)) from error

    def vec_search(self, ns: str, query: list[float], k: int) -> list[tuple[str, float]]:
        """``host-vec-search``."""
        try:
            return self.inner.vec_search(ns, query, k)
        except HostError as error:
            raise guest_host.HostError(str(error)) from error

    def log(self, level: int, msg: str) -> None:
        """``host-log``."""
        try:
            self.inner.log(level, msg)
        except HostError as error:
            raise guest_host.HostError(str(error)) from error

    def now_ms(self) -> int:
        """``host-now-ms``."""
        try:
            return self.inner.now_ms()
        except HostError as error:
            raise guest_host.HostError(str(error)) from error


class NativeGuest(BaseGuest):
    """``guest.engine.Engine`` over ``services``, in this process."""

    def __init__(self, services: HostServices) -> None:
        from guest.engine import Engine  # deferred: loads the model

        super().__init__(services)
        self.engine = Engine(GuestHost(services))

    def close(self) -> None:
        """Nothing to release: the engine lives as long as this object."""

    def _version(self) -> str:
        return self.engine.version()

    def _memorize(self, text: str, namespace: str) -> str:
        try:
            return self.engine.memorize_text(text, namespace).id
        except EngineError as error:
            raise GuestError(str(error)) from None

    def _recall(self, query: str, limit: int) -> list[dict[str, Any]]:
        try:
            hits = self.engine.recall_text(query, limit)
        except EngineError as error:
            raise GuestError(str(error)) from None
        return [{"id": h.id, "text": h.text, "score": float(h.score), "namespace": h.namespace} for h in hits]

    def _dispatch(self, verb: str, body: str) -> str:
        return self.engine.dispatch(verb, body)
