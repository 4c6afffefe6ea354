"""The component's adapter: the only module that imports ``wit_world``.

It turns the WIT imports into a :class:`guest.host.Host`, builds the engine once
(at build time, so the model lands in the snapshot) and translates engine errors
into ``Err`` at the boundary. No exception may escape an export: it would trap
the instance.
"""

from __future__ import annotations

from array import array
from collections.abc import Sequence

import wit_world
from componentize_py_types import Err

from guest.engine import Engine
from guest.errors import EngineError
from guest.host import HostError, pack, pack_keys, pairs, unpack


class WitHost:
    """The six WIT imports behind the engine's ``Host`` protocol (contract v2: packs, see ``guest.host``)."""

    def kv_get(self, ns: str, key: str) -> bytes | None:
        """``host-kv-get`` of one key."""
        return self.kv_get_many(ns, (key,))[0]

    def kv_get_many(self, ns: str, keys: Sequence[str]) -> list[bytes | None]:
        """``host-kv-get``: every key in one crossing."""
        if not keys:
            return []
        values = unpack(wit_world.host_kv_get(ns, pack_keys(keys)))
        if len(values) != len(keys):
            raise HostError(f"host-kv-get answered {len(values)} values for {len(keys)} keys")
        return values

    def kv_put(self, ns: str, key: str, value: bytes) -> None:
        """``host-kv-put`` of one entry; an ``err`` becomes :class:`HostError`."""
        self.kv_put_many(ns, ((key, value),))

    def kv_put_many(self, ns: str, items: Sequence[tuple[str, bytes]]) -> None:
        """``host-kv-put``: every entry in one crossing; an ``err`` becomes :class:`HostError`."""
        if not items:
            return
        entries: list[bytes | None] = []
        for key, value in items:
            entries.append(key.encode("utf-8"))
            entries.append(value)
        try:
            wit_world.host_kv_put(ns, pack(entries))
        except Err as err:
            raise HostError(str(err.value)) from None

    def kv_query(self, ns: str, q: str, limit: int) -> list[tuple[str, bytes]]:
        """``host-kv-query``."""
        return pairs(wit_world.host_kv_query(ns, q, limit))

    def vec_search(self, ns: str, query: list[float], k: int) -> list[tuple[str, float]]:
        """``host-vec-search``: the query as a blob of f32s, the hits as a pack of key, score."""
        blob = array("f", query).tobytes().decode("latin-1")  # wasm32 is little-endian
        found = pairs(wit_world.host_vec_search(ns, blob, k))
        scores = array("f", b"".join(score for _, score in found))
        return list(zip([key for key, _ in found], scores.tolist(), strict=True))

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
