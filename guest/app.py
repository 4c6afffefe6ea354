"""The component's adapter: the only module that imports ``wit_world``.

It turns the WIT imports into a :class:`guest.host.Host`, builds the engine once
(at build time, so the model lands in the snapshot) and translates engine errors
into ``Err`` at the boundary. No exception may escape an export: it would trap
the instance.
"""

from __future__ import annotations

import wit_world
from componentize_py_types import Err

from guest.engine import Engine
from guest.errors import EngineError
from guest.host import HostError


class WitHost:
    """The six WIT imports behind the engine's ``Host`` protocol."""

    def kv_get(self, ns: str, key: str) -> bytes | None:
        """``host-kv-get``."""
        return wit_world.host_kv_get(ns, key)

    def kv_put(self, ns: str, key: str, value: bytes) -> None:
        """``host-kv-put``; an ``err`` becomes :class:`HostError`."""
        try:
            wit_world.host_kv_put(ns, key, value)
        except Err as err:
            raise HostError(str(err.value)) from None

    def kv_query(self, ns: str, q: str, limit: int) -> list[tuple[str, bytes]]:
        """``host-kv-query``."""
        return [(e.key, e.value) for e in wit_world.host_kv_query(ns, q, limit)]

    def vec_search(self, ns: str, query: list[float], k: int) -> list[tuple[str, float]]:
        """``host-vec-search``."""
        return [(h.key, h.score) for h in wit_world.host_vec_search(ns, query, k)]

    def log(self, level: int, msg: str) -> None:
        """``host-log``."""
        wit_world.host_log(level, msg)

    def now_ms(self) -> int:
        """``host-now-ms``."""
        return wit_world.host_now_ms()


ENGINE = Engine(WitHost())


def _err(error: Exception) -> Err[str]:
    return Err(str(error))


class WitWorld(wit_world.WitWorld):
    """The exports of the ``rs-learn`` world."""

    def version(self) -> str:
        """Engine version."""
        return ENGINE.version()

    def recall(self, query: str, limit: int) -> list[wit_world.RecallHit]:
        """Hybrid recall; errors become ``Err``."""
        try:
            hits = ENGINE.recall_text(query, limit)
        except (EngineError, HostError) as error:
            raise _err(error) from None
        return [wit_world.RecallHit(h.id, h.text, h.score, h.namespace) for h in hits]

    def memorize(self, text: str, namespace: str) -> str:
        """Store one memory; errors become ``Err``."""
        try:
            return ENGINE.memorize_text(text, namespace).id
        except (EngineError, HostError) as error:
            raise _err(error) from None

    def dispatch(self, verb: str, body: str) -> str:
        """Serve one spool verb; always returns an envelope."""
        return ENGINE.dispatch(verb, body)
