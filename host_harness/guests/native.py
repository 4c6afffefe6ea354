"""``NativeGuest``: the guest package run in-process under CPython.

This is the ``native`` target of the one-suite-two-targets tests (and the CLI's
hidden ``--native`` dev switch): ``guest.engine.Engine`` talks to the very same
:class:`HostServices` that the component's imports are bound to, under the same
per-call transaction rules (:class:`host_harness.base.BaseGuest`). Engine errors
become :class:`GuestError` with the engine's message, exactly the text the
component returns as ``err``.

``guest.engine`` is imported when a ``NativeGuest`` is made, not at module
import: the wasm path of the harness never loads the guest's model.
"""

from __future__ import annotations

from typing import Any

from guest.errors import EngineError
from host_harness.errors import GuestError
from host_harness.guests.base import BaseGuest
from host_harness.services import HostServices


class NativeGuest(BaseGuest):
    """``guest.engine.Engine`` over ``services``, in this process."""

    def __init__(self, services: HostServices) -> None:
        from guest.engine import Engine  # deferred: loads the model

        super().__init__(services)
        self.engine = Engine(services)

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
