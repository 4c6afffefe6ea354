"""The memory verbs: ``memorize``, ``recall``, ``stats``, ``embed``."""

from __future__ import annotations

from typing import Any

from guest import requests
from guest.embed import StaticEmbedder
from guest.host import Host
from guest.memorize import Stored, memorize
from guest.recall import MODES, Hit, RecallOptions, recall
from guest.records import Stats, bucket
from guest.verbs import Verb

MAX_TEXT_BYTES = 64 * 1024
MAX_QUERY_BYTES = 8 * 1024
DEFAULT_LIMIT = 8
MAX_LIMIT = 100


class MemoryVerbs:
    """Validated memorize/recall over one host."""

    def __init__(self, host: Host, embedder: StaticEmbedder) -> None:
        self.host = host
        self.embedder = embedder

    def table(self) -> dict[str, Verb]:
        """The verbs this module serves."""
        return {
            "memorize": Verb(self.memorize),
            "recall": Verb(self.recall, "query"),
            "stats": Verb(self.stats, "namespace"),
            "embed": Verb(self.embed),
        }

    def store(self, body: dict[str, Any]) -> Stored:
        """Validate ``{text, namespace?}`` and memorize it."""
        text = requests.text(body, "text", MAX_TEXT_BYTES)
        namespace = requests.namespace(body) or "default"
        return memorize(self.host, self.embedder, text, namespace)

    def hits(self, body: dict[str, Any]) -> list[Hit]:
        """Validate ``{query, limit?, namespace?, mode?}`` and recall."""
        query = requests.text(body, "query", MAX_QUERY_BYTES)
        limit = requests.integer(body, "limit", DEFAULT_LIMIT, 1, MAX_LIMIT)
        namespace = requests.namespace(body) or "default"
        mode = requests.choice(body, "mode", "hybrid", MODES)
        return recall(self.host, self.embedder, query, limit, namespace, RecallOptions(mode=mode))

    def memorize(self, body: dict[str, Any]) -> dict[str, Any]:
        """``memorize``: ``{id, namespace, deduped}``."""
        stored = self.store(body)
        return {"id": stored.id, "namespace": stored.namespace, "deduped": stored.deduped}

    def recall(self, body: dict[str, Any]) -> list[dict[str, Any]]:
        """``recall``: the hits as objects."""
        return [
            {"id": h.id, "text": h.text, "score": h.score, "namespace": h.namespace} for h in self.hits(body)
        ]

    def embed(self, body: dict[str, Any]) -> dict[str, Any]:
        """``embed``: the vector of ``text``."""
        text = requests.text(body, "text", MAX_TEXT_BYTES)
        vector = self.embedder.embed(text)
        return {"embedder": self.embedder.id, "dims": len(vector), "vector": vector}

    def stats(self, body: dict[str, Any]) -> dict[str, Any]:
        """``stats``: how many memories a store holds and who embedded them."""
        namespace = requests.namespace(body) or "default"
        stats = Stats.decode(self.host.kv_get(bucket(namespace, "meta"), "stats"))
        return {
            "namespace": namespace,
            "memories": stats.docs,
            "embedder": stats.embedder or None,
            "current_embedder": self.embedder.id,
        }
