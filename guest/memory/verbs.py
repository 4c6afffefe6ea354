"""The memory verbs: memorize, recall, stats, embed, auto_recall, reindex, export, import, list, forget."""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

from guest import requests
from guest.errors import InvalidRequest
from guest.host import Host, ReadOnce, bucket
from guest.index import keywords
from guest.index.postings import PostingsCache
from guest.memory import (
    autorecall,
    bulk,
    correct,
    decisions,
    disciplines,
    listing,
    lookup,
    origin,
    relevance,
    rules,
    tombstones,
    topics,
)
from guest.memory.limits import DEFAULT_LIMIT, MAX_LIMIT, MAX_QUERY_BYTES, MAX_TEXT_BYTES, MODES
from guest.memory.memorize import Known, Stored, memorize
from guest.memory.recall import Hit, RecallOptions, recall
from guest.memory.records import Stats
from guest.memory.reindex import rebuild, reindex
from guest.memory.similar import similar
from guest.screening.redact import redact
from guest.screening.screen import Screen, quarantine
from guest.strings import dates, when
from guest.text.embed import StaticEmbedder, to_json
from guest.verbs import Rendered, Verb

MAX_PROMPT_BYTES = 1024 * 1024
MAX_AHEAD_MS = 86_400_000  # a memorize's ``ts`` may be a day ahead of the host clock, no more
DEFAULT_BUDGET_TOKENS = 1500
MIN_BUDGET_TOKENS = 50  # the hooks' --budget range (host_harness/contract.json)
MAX_BUDGET_TOKENS = 100_000
DEFAULT_HIT_TOKENS = 200
STRATEGIES = ("auto", "derived", "full", "both")
UNTRUSTED_ROUNDS = 3  # recalls at most, each 4x as wide, leaving out the untrusted ones met before


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
            "list_memories": Verb(lambda body: listing.list_memories(self.host, body), "query"),
            "get_memory": Verb(lambda body: listing.get_memory(self.host, body), "id"),
            "forget": Verb(self.forget, "ids"),
        }

    def target(self, body: dict[str, Any], screen: Screen | None = None) -> tuple[str, str]:
        """Validate ``{text, namespace?}`` (``@name`` sigil allowed) and screen the text.

        The text to store -- its secrets redacted (``screen`` counts them) -- and its store.
        """
        text = requests.text(body, "text", MAX_TEXT_BYTES)
        target = disciplines.for_write(self.host, text, disciplines.requested(body))
        text = requests.text({"text": target.text}, "text", MAX_TEXT_BYTES)
        return (screen or Screen(self.host)).text(text, "text", MAX_TEXT_BYTES), target.namespaces[0]

    def when(self, body: dict[str, Any]) -> int | None:
        """The body's ``ts``: epoch milliseconds from 1970 to a day ahead of the host clock, or None."""
        if body.get("ts") is None:
            return None
        return requests.as_integer(body["ts"], "ts", 0, self.host.now_ms() + MAX_AHEAD_MS)

    def store(
        self, body: dict[str, Any], source: str = "memorize", screen: Screen | None = None,
        suspect: str | None = None, **extra: Any,
    ) -> Stored:
        """Validate ``{text, namespace?, ts?}`` (``@name`` sigil allowed), screen it and memorize it.

        Its secrets are redacted (``screen`` counts them); it is stored quarantined when it reads
        as an instruction aimed at the agent, or for ``suspect`` (a reason found elsewhere). ``ts``
        (epoch milliseconds, from 1970 to a day ahead of the host clock) dates an old note.
        """
        text, namespace = self.target(body, screen)
        ts = self.when(body)
        reason = quarantine(text) or suspect
        return memorize(self.host, self.embedder, text, namespace, source, quarantine=reason, ts=ts, **extra)

    def hits(self, body: dict[str, Any]) -> list[Hit]:
        """Validate ``{query, limit?, namespace?, mode?, recency_weight?, ...}`` and recall."""
        query = requests.text(body, "query", MAX_QUERY_BYTES)
        limit = requests.integer(body, "limit", DEFAULT_LIMIT, 0, MAX_LIMIT) or DEFAULT_LIMIT  # 0: default
        options = RecallOptions(
            mode=requests.choice(body, "mode", "hybrid", MODES),
            recency_weight=requests.number(body, "recency_weight", 0.0, 0.0, 10.0),
            recency_half_life_days=requests.number(body, "recency_half_life_days", 30.0, 0.01, 36_500.0),
            sitting_weight=requests.number(body, "sitting_weight", RecallOptions.sitting_weight, 0.0, 10.0),
            as_of=reference_time(body),
        )
        target = disciplines.for_read(self.host, query, disciplines.requested(body))
        query = requests.text({"query": target.text}, "query", MAX_QUERY_BYTES)
        hits = recall(self.host, self.embedder, query, limit, target.namespaces, options, self.postings)
        if target.explicit:
            return hits
        return [replace(h, text=disciplines.label(h.text, h.namespace, True)) for h in hits]

    def memorize(self, body: dict[str, Any]) -> dict[str, Any]:
        """``memorize``: ``{id, namespace, deduped}`` (and what applies of the fields below).

        ``redacted``, ``quarantined`` (:mod:`guest.screening.screen`), ``supersedes`` and ``similar``. Every
        id of ``supersedes`` is checked before anything is stored (:mod:`guest.memory.correct`); one
        whose memory is more trusted than the new one (:mod:`guest.memory.origin`) is not replaced
        until the new one is approved: ``supersede_waits`` lists those.
        """
        screen = Screen(self.host)
        text, namespace = self.target(body, screen)
        ts = self.when(body)
        replaced = lookup.ids(body, "supersedes", required=False)
        known = Known.read(self.host, namespace, text)  # the id and the record: computed and read once
        old = correct.superseded(self.host, namespace, replaced, known.id)
        vector, close = None, []
        if known.raw is None:
            # Before anything is written: a vector search after a vector write in the same call makes
            # the host bring its persisted index up to date first (measured: most of the memorize).
            vector = self.embedder.embed(text)
            close = similar(self.host, self.embedder, namespace, text, vector, set(replaced))
        reason = quarantine(text)
        stored = memorize(self.host, self.embedder, text, namespace, quarantine=reason, vector=vector,
                          ts=ts, known=known, origin=origin.typed(body))
        waiting: list[str] = []
        if old and stored.record is not None:
            waiting = correct.link_trusted(self.host, namespace, stored.record, old)
        out: dict[str, Any] = {"id": stored.id, "namespace": stored.namespace, "deduped": stored.deduped}
        if stored.quarantined:
            out["quarantined"] = stored.quarantined
        if replaced:
            out["supersedes"] = [key for key in replaced if key not in waiting]
        if waiting:
            out["supersede_waits"] = waiting
        if close:
            out["similar"] = close
        return screen.report(out)

    def forget(self, body: dict[str, Any]) -> dict[str, Any]:
        """``forget {ids, reason?, namespace?}``: ``{forgotten, missing}`` (:mod:`guest.memory.correct`).

        The ``reason`` is stored, so it is screened for secrets like a memory's text.
        """
        memory_ids = lookup.ids(body, "ids")
        screen = Screen(self.host)
        reason = None
        if body.get("reason") is not None:
            reason = screen.text(requests.text(body, "reason", tombstones.MAX_REASON_BYTES))
        return screen.report(correct.forget(self.host, memory_ids, reason, lookup.stores(self.host, body)))

    def recall(self, body: dict[str, Any]) -> list[dict[str, Any]]:
        """``recall``: the hits as objects; with ``explain: true`` each carries its channel scores."""
        explain = requests.boolean(body, "explain", False)
        return [_hit(h, explain) for h in self.hits(body)]

    def auto_recall(self, body: dict[str, Any]) -> dict[str, Any]:
        """``auto_recall``: the context the prompt-submit hook injects (``""`` when nothing is relevant).

        Besides the context: the hits shown, every candidate with its channel scores and decision
        (:mod:`guest.memory.decisions`), the tokens injected, what was recalled with; the prompt
        when ``log_prompt`` asks for it (the hook's ledger). The ids of ``exclude`` (already
        injected in this session) are not injected again.

        ``untrusted``: ``hold`` (default) or ``labelled``, what becomes of a memory of an untrusted
        origin (:mod:`guest.memory.origin`; the hook passes ``untrusted_recall`` of ``.gm/config.json``).

        The prompt is redacted first, whatever ``.gm/config.json`` says (:func:`redact`, the
        stored text's redaction): every field of the answer derived from it -- ``query``,
        ``evidence`` (``unknown_names``, ``why``), ``prompt`` -- goes to the hook's ledger, which
        never holds a secret; and a secret is no evidence (:func:`autorecall.clean` drops its marker).
        """
        prompt = redact(requests.text(body, "prompt", MAX_PROMPT_BYTES))[0]
        budget = requests.integer(body, "budget_tokens", DEFAULT_BUDGET_TOKENS, MIN_BUDGET_TOKENS,
                                  MAX_BUDGET_TOKENS)
        limit = requests.integer(body, "limit", DEFAULT_LIMIT, 1, MAX_LIMIT)
        per_hit = requests.integer(body, "max_hit_tokens", DEFAULT_HIT_TOKENS, 10, 10_000)
        strategy = requests.choice(body, "strategy", "auto", STRATEGIES)
        gate = requests.boolean(body, "gate", True)
        exclude = decisions.excluded(body)
        log_prompt = requests.boolean(body, "log_prompt", False)
        untrusted = requests.choice(body, "untrusted", origin.HOLD, (origin.HOLD, origin.LABELLED))
        cleaned = autorecall.clean(prompt)  # markup an agent injected cannot choose a discipline
        host = ReadOnce(self.host)  # ranking words and recalling read the same stats, list and heads
        target = disciplines.for_read(host, cleaned, disciplines.requested(body))

        listed, versions, docs = {}, {}, 0
        for ns in target.namespaces:
            counts = Stats.decode(host.kv_get(bucket(ns, "meta"), "stats"))
            listed[ns] = keywords.read_pending(host, bucket(ns, "terms"), counts.docs, counts.tokens)
            versions[ns] = counts.terms
            docs += counts.docs

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
        # Memories held for their origin take no slot of the limit: when a recall meets some, it is
        # asked again without them, for more (the verdict keeps ``limit`` of the others).
        skipped: set[str] = set()
        for round_ in range(UNTRUSTED_ROUNDS):
            wide = min(MAX_LIMIT, limit * 4**round_)
            lists, used, asked = [], [], []
            for name, text, wanted in (("query", derived.query, use_derived),
                                       ("prompt", derived.cleaned, use_full)):
                if wanted and text:
                    lists.append(recall(host, self.embedder, text, wide, target.namespaces, options,
                                        self.postings, exclude | skipped))
                    used.append(name)
                    asked.append(text)
            merged = autorecall.merge(*lists)
            more = {h.id for h in merged if untrusted == origin.HOLD and decisions.is_untrusted(h)} - skipped
            if not more:
                break
            skipped |= more
        merged = [replace(h, seen=False) if h.id in skipped and h.id not in exclude else h for h in merged]
        # a hit's evidence: its text, its context (an imported note's heading), what its chain's
        # superseded memory said (the one that matched); a memory seen this session is evidence too
        held = {(h.namespace, h.id): _evidence(host, h) for h in merged if not h.quarantined}
        evidence = relevance.assess(asked, held.values(), df, docs)
        dated = autorecall.Dated(self.host.now_ms(), when.asks_when(target.text))
        verdict = decisions.decide(merged, limit, gate, budget, per_hit, not target.explicit,
                                   closed=gate and not evidence.passed, dated=dated,
                                   covers=lambda h: evidence.covers(held.get((h.namespace, h.id), "")),
                                   untrusted=untrusted)
        out = {"context": verdict.context, "query": derived.query, "hits": [_hit(h) for h in verdict.shown],
               "candidates": [decisions.candidate(h, d) for h, d in verdict.candidates],
               "tokens": verdict.tokens, "recalled_with": used, "evidence": evidence.as_json()}
        if log_prompt:
            out["prompt"] = prompt  # redacted above
        return out

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


def _evidence(host: Host, hit: Hit) -> str:
    """The text that speaks for ``hit``: its own, its context, its superseded memory's that matched."""
    parts = [hit.text, rules.context_text(hit.context or ""),
             " ".join(topics.terms(hit.text, hit.captured == "directive"))]  # what a rule is about
    if hit.via and (old := lookup.record(host, hit.namespace, hit.via)) is not None:
        parts += [old.text, rules.context_text(old.context or "")]
    return "\n".join(part for part in parts if part)


def reference_time(body: dict[str, Any]) -> int | None:
    """The body's ``as_of``: when the query is asked (relative dates are read from it), or None (now).

    Epoch milliseconds, or an ISO 8601 date or date-time (UTC unless it says otherwise), from 1970
    to the year 9999.
    """
    value = body.get("as_of")
    if value is None:
        return None
    if isinstance(value, str):
        found = dates.parse_iso(value)
        if found is None:
            shown = value if len(value) <= 40 else value[:40] + "…"
            raise InvalidRequest(f"field 'as_of' must be an ISO date or date-time (2026-10-02, "
                                 f"2026-10-02T15:00:00Z) or epoch milliseconds, got {shown!r}")
        return found
    return requests.as_integer(value, "as_of", 0, dates.LAST_MS)


def _hit(hit: Hit, explain: bool = False) -> dict[str, Any]:
    out: dict[str, Any] = {"id": hit.id, "text": hit.text, "score": hit.score, "namespace": hit.namespace,
                           "ts": hit.ts}
    if hit.stale:
        out["stale"] = {"files": list(hit.stale)}
    if hit.quarantined:
        out["quarantined"] = hit.quarantined
    if hit.captured:
        out["captured"] = hit.captured
    if explain:
        out["explain"] = hit.channels.as_json()
    return out
