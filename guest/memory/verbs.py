"""The memory verbs: memorize, recall, stats, embed, auto_recall, reindex, export and import."""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

from guest import requests
from guest.host import Host, ReadOnce, bucket
from guest.memory import autorecall, bulk, disciplines, rules
from guest.memory.limits import DEFAULT_LIMIT, MAX_LIMIT, MAX_QUERY_BYTES, MAX_TEXT_BYTES, MODES
from guest.memory.memorize import Stored, memorize
from guest.memory.recall import Hit, RecallOptions, recall
from guest.memory.records import Stats
from guest.memory.reindex import rebuild, reindex
from guest.text import keywords, when
from guest.text.embed import StaticEmbedder, to_json
from guest.text.postings import PostingsCache
from guest.text.screen import Screen, quarantine
from guest.verbs import Rendered, Verb

MAX_PROMPT_BYTES = 1024 * 1024
MAX_AHEAD_MS = 86_400_000  # a memorize's ``ts`` may be a day ahead of the host clock, no more
DEFAULT_BUDGET_TOKENS = 1500
DEFAULT_HIT_TOKENS = 200
STRATEGIES = ("auto", "derived", "full", "both")


class MemoryVerbs:
    """Validated memorize/recall over one host."""

    def __init__(self, host: Host, embedder: StaticEmbedder) -> None:
        self.host = host
        self.embedder = embedder
        self.postings = PostingsCache()  # sealed postings chunks this instance has read

    def table(self) -> dict[str, Verb]:
        """The verbs this module serves."""
        return {
            "memorize": Verb(self.memorize),
            "recall": Verb(self.recall, "query"),
            "stats": Verb(self.stats, "namespace"),
            "embed": Verb(self.embed),
            "auto_recall": Verb(self.auto_recall, "prompt"),
            "reindex": Verb(self.reindex, "namespace"),
            "export": Verb(lambda body: bulk.export_page(self.host, body), "namespace"),
            "import": Verb(lambda body: bulk.import_batch(self.host, self.embedder, body), "memories"),
        }

    def store(
        self, body: dict[str, Any], source: str = "memorize", screen: Screen | None = None,
        suspect: str | None = None, **extra: Any,
    ) -> Stored:
        """Validate ``{text, namespace?, ts?}`` (``@name`` sigil allowed), screen it and memorize it.

        Its secrets are redacted (``screen`` counts them); it is stored quarantined when it reads
        as an instruction aimed at the agent, or for ``suspect`` (a reason found elsewhere). ``ts``
        (epoch milliseconds, from 1970 to a day ahead of the host clock) dates an old note.
        """
        text = requests.text(body, "text", MAX_TEXT_BYTES)
        if body.get("ts") is not None:
            extra["ts"] = requests.as_integer(body["ts"], "ts", 0, self.host.now_ms() + MAX_AHEAD_MS)
        target = disciplines.for_write(self.host, text, disciplines.requested(body))
        text = requests.text({"text": target.text}, "text", MAX_TEXT_BYTES)
        text = (screen or Screen(self.host)).text(text, "text", MAX_TEXT_BYTES)
        reason = quarantine(text) or suspect
        namespace = target.namespaces[0]
        return memorize(self.host, self.embedder, text, namespace, source, quarantine=reason, **extra)

    def hits(self, body: dict[str, Any]) -> list[Hit]:
        """Validate ``{query, limit?, namespace?, mode?, recency_weight?, ...}`` and recall."""
        query = requests.text(body, "query", MAX_QUERY_BYTES)
        limit = requests.integer(body, "limit", DEFAULT_LIMIT, 0, MAX_LIMIT) or DEFAULT_LIMIT  # 0: default
        options = RecallOptions(
            mode=requests.choice(body, "mode", "hybrid", MODES),
            recency_weight=requests.number(body, "recency_weight", 0.0, 0.0, 10.0),
            recency_half_life_days=requests.number(body, "recency_half_life_days", 30.0, 0.01, 36_500.0),
        )
        target = disciplines.for_read(self.host, query, disciplines.requested(body))
        query = requests.text({"query": target.text}, "query", MAX_QUERY_BYTES)
        hits = recall(self.host, self.embedder, query, limit, target.namespaces, options, self.postings)
        if target.explicit:
            return hits
        return [replace(h, text=disciplines.label(h.text, h.namespace, True)) for h in hits]

    def memorize(self, body: dict[str, Any]) -> dict[str, Any]:
        """``memorize``: ``{id, namespace, deduped}``, ``redacted`` and ``quarantined`` when so."""
        screen = Screen(self.host)
        stored = self.store(body, screen=screen)
        answer = {"id": stored.id, "namespace": stored.namespace, "deduped": stored.deduped}
        if stored.quarantined:
            answer["quarantined"] = stored.quarantined
        return screen.report(answer)

    def recall(self, body: dict[str, Any]) -> list[dict[str, Any]]:
        """``recall``: the hits as objects."""
        return [_hit(h) for h in self.hits(body)]

    def auto_recall(self, body: dict[str, Any]) -> dict[str, Any]:
        """``auto_recall``: the context the prompt-submit hook injects (``""`` when nothing is relevant)."""
        prompt = requests.text(body, "prompt", MAX_PROMPT_BYTES)
        budget = requests.integer(body, "budget_tokens", DEFAULT_BUDGET_TOKENS, 50, 100_000)
        limit = requests.integer(body, "limit", DEFAULT_LIMIT, 1, MAX_LIMIT)
        per_hit = requests.integer(body, "max_hit_tokens", DEFAULT_HIT_TOKENS, 10, 10_000)
        strategy = requests.choice(body, "strategy", "auto", STRATEGIES)
        gate = requests.boolean(body, "gate", True)
        cleaned = autorecall.clean(prompt)  # markup an agent injected cannot choose a discipline
        host = ReadOnce(self.host)  # ranking words and recalling read the same stats, list and heads
        target = disciplines.for_read(host, cleaned, disciplines.requested(body))

        listed = {}
        versions = {}
        for ns in target.namespaces:
            counts = Stats.decode(host.kv_get(bucket(ns, "meta"), "stats"))
            listed[ns] = keywords.read_pending(host, bucket(ns, "terms"), counts.docs, counts.tokens)
            versions[ns] = counts.terms

        def df(word: str) -> int:
            return sum(
                keywords.document_frequency(host, bucket(ns, "terms"), rules.term(word, version), listed[ns])
                for ns, version in versions.items()
            )

        derived = autorecall.derive(target.text, df)
        options = RecallOptions()
        short = autorecall.is_short(derived.cleaned)
        use_full = strategy == "full" or (strategy in ("auto", "both") and short)
        use_derived = strategy == "derived" or strategy == "both" or (strategy == "auto" and not short)
        lists = []
        if use_derived and derived.query:
            lists.append(recall(host, self.embedder, derived.query, limit, target.namespaces, options,
                                self.postings))
        if use_full and derived.cleaned:
            lists.append(recall(host, self.embedder, derived.cleaned, limit, target.namespaces, options,
                                self.postings))
        hits = [h for h in autorecall.merge(*lists) if not h.quarantined][:limit]  # never injected
        if gate:
            hits = [h for h in hits if autorecall.relevant(h)]
        hits = [replace(h, text=disciplines.label(h.text, h.namespace, not target.explicit)) for h in hits]
        dated = autorecall.Dated(self.host.now_ms(), when.asks_when(target.text))
        context, shown = autorecall.render(hits, budget, per_hit, dated)
        return {"context": context, "query": derived.query, "hits": [_hit(h) for h in shown]}

    def reindex(self, body: dict[str, Any]) -> dict[str, Any]:
        """``reindex {namespace?, rebuild?}``: re-embed a store written by another embedder.

        With ``rebuild: true`` the keyword index (doc numbers, postings, stats) is rebuilt first, by
        the current terms version's rules (:mod:`guest.memory.rules`).
        """
        namespace = requests.namespace(body) or disciplines.DEFAULT
        upgrade = requests.boolean(body, "rebuild", False)
        rebuilt = rebuild(self.host, namespace, upgrade=True) if upgrade else None
        report = reindex(self.host, self.embedder, namespace)
        return report if rebuilt is None else {**report, "rebuilt": rebuilt}

    def embed(self, body: dict[str, Any]) -> Rendered:
        """``embed``: ``{embedder, dims, vector}``, the vector of ``text`` (rendered by ``to_json``)."""
        text = requests.text(body, "text", MAX_TEXT_BYTES)
        vector = self.embedder.embed(text)
        head = json.dumps({"embedder": self.embedder.id, "dims": len(vector)}, ensure_ascii=False)
        return Rendered(f'{head[:-1]}, "vector": {to_json(vector)}}}')

    def stats(self, body: dict[str, Any]) -> dict[str, Any]:
        """``stats``: how many memories a store holds, who embedded them, its terms version."""
        namespace = requests.namespace(body) or disciplines.DEFAULT
        stats = Stats.decode(self.host.kv_get(bucket(namespace, "meta"), "stats"))
        return {
            "namespace": namespace,
            "memories": stats.docs,
            "embedder": stats.embedder or None,
            "current_embedder": self.embedder.id,
            "terms": stats.terms,
            "current_terms": rules.CURRENT,
        }


def _hit(hit: Hit) -> dict[str, Any]:
    out = {"id": hit.id, "text": hit.text, "score": hit.score, "namespace": hit.namespace, "ts": hit.ts}
    return {**out, "quarantined": hit.quarantined} if hit.quarantined else out
