"""recall: hybrid retrieval (vector channel + keyword channel), fused, near-duplicates collapsed.

Fusion is a weighted sum of each channel's min-max normalised score over its
candidate pool (0.25 vector, 0.75 keyword): measured better than reciprocal-rank
fusion on Cranfield and CISI (see ``docs/quality.md``); ``scaling="background"`` calibrates each
channel against its store instead (:meth:`_Channels.calibrated`); :mod:`guest.memory.fusion` ranks
the candidates without looking up every keyword candidate's memory id. A candidate about a
subject the query names, or stored in the window of days it names, is lifted
(:mod:`guest.memory.lift`). A store's query terms follow its own terms version
(:mod:`guest.memory.rules`). Ties are broken by memory id, so native and wasm runs rank identically.

A candidate with no evidence at all -- no query term, a cosine below the vector floor
(:mod:`guest.memory.channels`) -- is left out, and its slot goes to the next one. So is, from the
``limit``, a memory the caller excludes (the hook's "already injected this session"): it comes back
marked ``seen``, so that the caller can say why it left it out.

Curation (``docs/correcting.md``): a superseded candidate stands for the newest memory of its chain
(:func:`guest.memory.lookup.head`), as a group of near-duplicates stands for its newest member;
forgotten memories are not in the indexes at all. A hit whose cited files changed since it was
stored is marked ``stale`` and its score multiplied by
:data:`guest.memory.freshness.STALE_FACTOR` before the final order.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field, replace
from typing import Any, TypeVar

from guest.host import WARN, Host, bucket
from guest.index import keywords, postings, topk
from guest.index.pending import Pending
from guest.index.postings import PostingsCache
from guest.memory import freshness, lookup, origin, rules, sitting, spread
from guest.memory.channels import MIN_COSINE as VECTOR_FLOOR
from guest.memory.channels import NONE, Channels, evident, f32
from guest.memory.fusion import Disagreement, DocKey, Fusion, Key
from guest.memory.lift import plan
from guest.memory.records import Memory, Stats
from guest.screening.screen import held
from guest.text.embed import StaticEmbedder, cosine, unpack

JOIN_WINDOW = 4  # a near-duplicate joins a group from at most this many candidates below it
LIFT_REACH = 10  # how many of the best vector candidates a lift reaches through their records
TAIL = 400  # each channel's candidates read when the head falls short of the limit (4 x the largest)
T = TypeVar("T")


@dataclass(frozen=True)
class Hit:
    """One recalled memory, with the evidence behind its score."""

    id: str
    text: str
    score: float
    namespace: str
    cosine: float = 0.0  # raw cosine to the query (0 when not a vector candidate)
    matched: bool = False  # at least one query term matched (keyword channel)
    stale: tuple[str, ...] = ()  # cited project files that changed or vanished since it was stored
    quarantined: str | None = None  # why the memory is quarantined: never injected by auto_recall
    channels: Channels = field(default=NONE, compare=False)  # where the score comes from (explain)
    seen: bool = False  # excluded by the caller: not counted in the limit
    via: str | None = None  # the superseded memory that matched the query, when the hit is its chain's head
    ts: int = 0  # when it was memorized (epoch ms)
    context: str | None = field(default=None, compare=False)  # where an imported note stood (a heading)
    captured: str | None = None  # the kind, for a memory captured from an agent's session (guest/capture/)
    provenance: dict[str, Any] | None = field(default=None, compare=False)  # guest/memory/origin.py: shown()


@dataclass(frozen=True)
class RecallOptions:
    """Tunable recall behaviour; the defaults are the measured best."""

    mode: str = "hybrid"
    vector_weight: float = 0.25
    keyword_weight: float = 0.75
    candidates: int = 50
    duplicate_cosine: float = 0.97
    duplicate_jaccard: float = 0.8
    recency_weight: float = 0.0
    recency_half_life_days: float = 30.0
    min_cosine: float = VECTOR_FLOOR  # a candidate no query term matched needs this cosine at least
    subject_weight: float = 0.5  # lift of a memory about a subject the query names (hybrid mode)
    time_weight: float = 0.5  # lift of a memory from the window of days the query names (hybrid)
    as_of: int | None = None  # the time relative dates and recency are read from (epoch ms; None: now)
    scaling: str = "pool"  # "pool": min-max over the candidates; "background": against each store's
    keyword_power: float = 1.0  # "background": the keyword share of the query's idf mass to this power
    spread_factor: float = 1.0  # a question asking for several (:mod:`guest.memory.spread`): demotion per
    spread_window_ms: int = 3_600_000  # ... better memory given out within this time of a candidate
    spread_always: bool = False  # spread every question, not only those asking for several (measuring)
    sitting_weight: float = 0.0  # lift per share of the top candidates from a candidate's sitting
    sitting_window_ms: int = 3_600_000  # ... stored within this time of it (:mod:`guest.memory.sitting`)


def recall(
    host: Host,
    embedder: StaticEmbedder,
    query: str,
    limit: int,
    namespaces: list[str],
    options: RecallOptions,
    cache: PostingsCache | None = None,
    exclude: frozenset[str] = frozenset(),
) -> list[Hit]:
    """The best ``limit`` memories for ``query`` over the stores of ``namespaces``, merge-ranked.

    Each channel's head candidates from every store are pooled and min-max normalised together, so
    scores from different stores are comparable; the order never depends on ``limit`` (a larger one
    extends the list: :class:`_Channels`). ``cache`` keeps postings chunks between calls (a
    long-lived instance passes its own). Memories whose id is in ``exclude`` do not count in the
    ``limit``; those met on the way come back too, in rank order, marked ``seen``.
    """
    lists = _Channels(host, embedder, query, namespaces, options, cache)
    lift = None
    if options.mode == "hybrid":
        now = host.now_ms() if options.as_of is None else options.as_of
        lift = plan(host, query, lists.stores, options.subject_weight, options.time_weight, now)
    try:
        norms = lists.calibrated() if options.scaling == "background" else None
        fusion = Fusion(host, lists.vectors, lists.words, lists.weights, lift=lift, reach=LIFT_REACH,
                        norms=norms)
        groups, boosts, sittings = _best(host, embedder, fusion, lists, limit, options, exclude)
    except Disagreement as disagreement:
        host.log(WARN, f"store {disagreement.namespace!r}: its docs map and records disagree; "
                 "run reindex with rebuild")
        fusion = Fusion(host, lists.vectors, lists.words, lists.weights, eager=True, lift=lift,
                        reach=LIFT_REACH, norms=norms)
        groups, boosts, sittings = _best(host, embedder, fusion, lists, limit, options, exclude)
    hits, counted = [], 0
    for group in groups:
        m, key = group.kept, (group.kept.namespace, group.kept.id)
        counted += m.id not in exclude
        if counted > limit:  # a near-duplicate that joined an excluded group took its place
            break
        keys = [key] if group.via is None else [key, group.via]
        stale = tuple(freshness.changed(host, m.files)) if m.files else ()
        source = group.via or group.key
        deep = source in lists.deep  # from the tail
        parts = lists.channels(source) if deep else fusion.channels(source, boosts.get(source, 1.0))
        if source in sittings:  # the shared sitting's lift is a lift like the subject's
            parts = replace(parts, fused=parts.fused + sittings[source], lift=parts.lift + sittings[source])
        cosines, matched = (lists.cosines, lists.matched) if deep else (fusion.cosines, fusion.matched)
        hits.append(Hit(
            m.id,
            m.text,
            group.score * freshness.STALE_FACTOR if stale else group.score,
            m.namespace,
            max(cosines.get(k, 0.0) for k in keys),
            any(k in matched for k in keys),
            stale,
            held(m.extra or {}, m.text),
            channels=replace(parts, stale=freshness.STALE_FACTOR) if stale else parts,
            seen=m.id in exclude,
            via=group.via[1] if group.via else None,
            ts=m.ts,
            context=m.context,
            captured=captured_kind(m.extra) if m.extra else None,
            provenance=origin.shown(m.extra),
        ))
    hits.sort(key=lambda h: -h.score)  # stable: only a stale hit moves (below equal fresh ones)
    return [replace(hit, score=f32(hit.score)) for hit in hits]


class _Channels:
    """One recall's candidates, channel by channel: the scored head and, when it falls short, the tail.

    The *head* is the ``options.candidates`` best of each channel over all stores (each store asked
    for that many): fusion normalises and ranks it (:class:`guest.memory.fusion.Fusion`). Only when
    the head gives fewer than ``limit`` hits and a channel had more to give, the *tail* is read: the
    :data:`TAIL` best of each channel, less the head's memories, in rank order (keyword first at each
    rank), each with score 0 -- after every head candidate, whatever its channel scores. Both sizes
    are fixed, so a recall's order never depends on its ``limit`` (and the host's approximate vector
    search is always asked the same question): ``limit`` only says how far down the list to go.
    """

    def __init__(self, host: Host, embedder: StaticEmbedder, query: str, namespaces: list[str],
                 options: RecallOptions, cache: PostingsCache | None) -> None:
        self.host, self.embedder, self.options, self.cache = host, embedder, options, cache
        self.query = query
        self.weights = (options.vector_weight, options.keyword_weight)
        self.head = options.candidates
        self.vector = embedder.embed(query) if options.mode != "keyword" else []
        self.stores: list[tuple[str, Stats, Pending]] = []
        self.raw: dict[str, bytes | None] = {}
        self.terms: dict[str, list[str]] = {}
        self.fuller = False  # some channel of some store may hold more than the head
        self.background: dict[str, float] = {}  # each store's background cosine (:meth:`calibrated`)
        vectors: list[tuple[Key, float]] = []
        words: list[tuple[DocKey, float]] = []
        for namespace in namespaces:
            raw = host.kv_get(bucket(namespace, "meta"), "stats")
            stats = Stats.decode(raw)
            if stats.docs == 0:
                continue
            rules.check(namespace, stats.terms)
            listed = keywords.read_pending(host, bucket(namespace, "terms"), stats.docs, stats.tokens)
            self.stores.append((namespace, stats, listed))
            self.raw[namespace] = raw
            self.terms[namespace] = rules.words(query, stats.terms) if options.mode != "vector" else []
            near, found = self._search(namespace, stats, listed, self.head)
            self.background[namespace] = max(near[-1][1] if near else VECTOR_FLOOR, VECTOR_FLOOR)
            vectors += near
            words += found
            deeper = len(near) >= self.head and near[-1][1] >= options.min_cosine  # close ones past the head
            self.fuller |= deeper or len(found) >= self.head
        self.vectors = sorted(vectors, key=_order)[: self.head]
        self.words = sorted(words, key=_order)[: self.head]
        self.deep: set[Key] = set()  # the tail's memories given out
        self.cosines: dict[Key, float] = {}  # the tail's vector candidates
        self.bm25: dict[Key, float] = {}  # the tail's keyword candidates (their memories)
        self.matched: set[Key] = set()

    def calibrated(self) -> tuple[dict[Key, float], dict[DocKey, float]]:
        """Each head candidate's channel scores against its store's background, 0..1 (not min-max).

        Keyword: BM25 over the query's idf mass in that store (:func:`guest.index.topk.idf_mass`), so
        a match on one common word of a longer question is worth that word's small share of it.
        Vector: how far the cosine stands above the store's background -- the cosine of the
        ``candidates``-th nearest memory, at least :data:`VECTOR_FLOOR` -- towards 1.
        """
        mass = {namespace: topk.idf_mass(self.host, bucket(namespace, "terms"), self.terms[namespace],
                                         stats.docs, listed)
                for namespace, stats, listed in self.stores if self.terms[namespace]}
        power = self.options.keyword_power
        knorm = {doc: min(1.0, score / mass[doc[0]]) ** power if mass.get(doc[0], 0.0) > 0.0 else 0.0
                 for doc, score in self.words}
        vnorm = {key: max(0.0, min(1.0, (score - self.background[key[0]]) / (1.0 - self.background[key[0]])))
                 for key, score in self.vectors}
        return vnorm, knorm

    def _search(self, namespace: str, stats: Stats, listed: Pending,
                k: int) -> tuple[list[tuple[Key, float]], list[tuple[DocKey, float]]]:
        """The ``k`` best candidates of each channel of one store."""
        near: list[tuple[Key, float]] = []
        if any(self.vector):
            found = vector_channel(self.host, self.embedder, self.vector, namespace, stats, k)
            near = [((namespace, key), score) for key, score in found]
        words: list[tuple[DocKey, float]] = []
        if self.terms[namespace]:
            hits = keyword_channel(self.host, self.terms[namespace], namespace, stats, k, self.cache,
                                   self.raw[namespace], listed)
            words = [((namespace, doc), score) for doc, score in hits]
        return near, words

    def tail(self, fusion: Fusion) -> Iterator[tuple[Key, float]]:
        """The tail's candidates with evidence, in rank order, once the head is all given out."""
        if not self.fuller:
            return
        size = max(TAIL, self.head)
        vectors: list[tuple[Key, float]] = []
        words: list[tuple[DocKey, float]] = []
        for namespace, stats, listed in self.stores:
            near, found = self._search(namespace, stats, listed, size)
            vectors += near
            words += found
        vectors, words = sorted(vectors, key=_order)[:size], sorted(words, key=_order)[:size]
        head = set(fusion.docs) | set(fusion.cosines)  # every head document is looked up by now
        head_docs = set(fusion.kpart)
        self.cosines = dict(vectors)
        keyed: list[tuple[Key, float]] = []
        for doc, score in words:
            key = fusion.key_of(doc) if doc not in head_docs else None
            if key is not None and key not in head:
                keyed.append((key, score))
                self.bm25[key] = score
        self.matched = set(self.bm25)
        for rank in range(max(len(keyed), len(vectors))):
            for key, from_words in ((keyed[rank][0] if rank < len(keyed) else None, True),
                                    (vectors[rank][0] if rank < len(vectors) else None, False)):
                if key is None or key in head or key in self.deep:
                    continue
                if from_words or self.cosines[key] >= self.options.min_cosine or key in self.matched:
                    self.deep.add(key)
                    yield key, 0.0

    def channels(self, key: Key) -> Channels:
        """A tail candidate's channel scores: its raw ones; no share of the head's (its score is 0)."""
        return Channels(self.cosines.get(key, 0.0), self.bm25.get(key, 0.0))


def _order(candidate: tuple[tuple[str, T], float]) -> tuple[float, T, str]:
    """Best first, ties by key (the same order whichever store was asked first)."""
    (namespace, key), score = candidate
    return (-score, key, namespace)


def _best(
    host: Host,
    embedder: StaticEmbedder,
    fusion: Fusion,
    lists: _Channels,
    limit: int,
    options: RecallOptions,
    exclude: frozenset[str] = frozenset(),
) -> tuple[list[_Group], dict[Key, float], dict[Key, float]]:
    """The ``limit`` best groups of the candidates with evidence; recency factors; sitting lifts.

    The head's scores are boosted by recency if asked, and its best lifted by their shared sittings
    (:mod:`guest.memory.sitting`) unless the question is spread over sittings; the groups of
    excluded memories met on the way come too.
    """
    ranked: Iterable[tuple[Key, float]] = fusion.ranked(len(lists.vectors) + len(lists.words))
    boosts: dict[Key, float] = {}
    if options.recency_weight:
        ranked = _recency(host, fusion, list(ranked), options, boosts)
    floor = options.min_cosine
    evidenced: Iterable[tuple[Key, float]] = (
        (key, score) for key, score in ranked
        if evident(fusion.matches(key), fusion.cosines.get(key, 0.0), floor))
    sittings: dict[Key, float] = {}
    if options.spread_factor < 1.0 and (options.spread_always or spread.asks_several(lists.query)):
        evidenced = spread.spread(evidenced, lambda key: _time(fusion, key), options.spread_factor,
                                  options.spread_window_ms)
    elif options.sitting_weight:
        evidenced = sitting.lifted(evidenced, lambda key: _time(fusion, key), options.sitting_weight,
                                   options.sitting_window_ms, sittings, lambda key: boosts.get(key, 1.0))
    tail = (candidate for candidate in lists.tail(fusion))  # read only if the head falls short
    groups = _groups(host, embedder, fusion, itertools.chain(evidenced, tail), limit, options, exclude)
    return groups, boosts, sittings


def _time(fusion: Fusion, key: Key) -> int | None:
    """When candidate ``key`` was memorized (None: no record)."""
    memory = fusion.memory(key)
    return memory.ts if memory is not None else None


def _recency(
    host: Host, fusion: Fusion, ranked: list[tuple[Key, float]], options: RecallOptions,
    boosts: dict[Key, float],
) -> list[tuple[Key, float]]:
    """Boost recent memories: ``score * (1 + w * 0.5 ** (age / half_life))``; the factors go in ``boosts``."""
    now = host.now_ms() if options.as_of is None else options.as_of
    half_life = options.recency_half_life_days * 86_400_000
    out = []
    for key, score in ranked:
        memory = fusion.memory(key)
        if memory is not None:
            boosts[key] = boost = 1.0 + options.recency_weight * 0.5 ** (max(now - memory.ts, 0) / half_life)
            out.append((key, score * boost))
    return sorted(out, key=lambda kv: (-kv[1], kv[0][1], kv[0][0]))


def vector_channel(
    host: Host, embedder: StaticEmbedder, vector: list[float], namespace: str, stats: Stats, k: int
) -> list[tuple[str, float]]:
    """Cosine hits from the host's vector index (none when the store's embedder differs)."""
    if stats.embedder and stats.embedder != embedder.id:
        host.log(WARN, f"store {namespace!r} was embedded by {stats.embedder}; run reindex")
        return []
    return host.vec_search(bucket(namespace, f"vectors/{embedder.id}"), vector, k)


def keyword_channel(
    host: Host,
    terms: list[str],
    namespace: str,
    stats: Stats,
    k: int,
    cache: PostingsCache | None = None,
    raw_stats: bytes | None = None,
    extra: Pending | None = None,
) -> list[tuple[int, float]]:
    """BM25 hits as ``(doc number, score)``, best first (``extra``: the pending list, if read)."""
    trusted = postings.guard_ok(host, bucket(namespace, "meta"), raw_stats)
    ns = bucket(namespace, "terms")
    if extra is None:
        extra = keywords.read_pending(host, ns, stats.docs, stats.tokens)
    return keywords.bm25(host, ns, terms, stats.docs, stats.tokens, k, cache, trusted, extra)


def collapse(
    host: Host,
    embedder: StaticEmbedder,
    fusion: Fusion,
    ranked: Iterable[tuple[Key, float]],
    limit: int,
    options: RecallOptions,
) -> list[tuple[Memory, float]]:
    """:func:`_groups` as ``(memory kept, score)``, best first."""
    return [(group.kept, group.score) for group in _groups(host, embedder, fusion, ranked, limit, options)]


def _groups(
    host: Host,
    embedder: StaticEmbedder,
    fusion: Fusion,
    ranked: Iterable[tuple[Key, float]],
    limit: int,
    options: RecallOptions,
    exclude: frozenset[str] = frozenset(),
) -> list[_Group]:
    """Group near-duplicates; the most trusted, then newest memory of a group takes its best rank.

    (Trust by origin, :mod:`guest.memory.origin`: a near-copy from a tool's output or an unreviewed
    file, "We use npm, not pnpm", never hides the rule the user typed, "We use pnpm, not npm".)

    Two memories are near-duplicates when their embeddings are close (cosine >=
    ``duplicate_cosine``) *and* they share most of their terms (Jaccard >=
    ``duplicate_jaccard``): mean-pooled static embeddings of texts on one topic
    are often 0.97 apart while saying different things (measured on Cranfield:
    87% of abstracts have such a neighbour), so cosine alone would drop real hits.
    Candidates are loaded lazily, best first. A candidate joins a group only when it ranks at most
    :data:`JOIN_WINDOW` candidates below the group's first member, so the walk stops that far past
    the group that fills the ``limit``: what a group keeps never depends on the ``limit``. The term
    overlap is tested first: it needs only the text, and it fails for almost every pair, so a
    vector is fetched only for the rare pair that passes it.

    A group whose kept memory is in ``exclude`` does not count in the ``limit`` (it is still a
    group: a near-duplicate of an excluded memory joins it instead of taking its place).

    A superseded candidate is replaced by the head of its chain (dropped when the chain ends in a
    forgotten memory), which then takes that rank; the candidate's key is kept as the group's
    ``via``, the evidence that the head is about the query.
    """
    groups: list[_Group] = []
    seen: set[Key] = set()
    full = False  # the limit is reached: later candidates may only join a group
    for at, (key, score) in enumerate(ranked):
        if full and at > groups[-1].at + JOIN_WINDOW:
            break
        memory = fusion.memory(key)
        if memory is None:
            continue
        via = None
        if memory.superseded_by is not None:
            memory = lookup.head(memory, _loader(fusion, key[0]))
            if memory is None:
                continue
            key, via = (key[0], memory.id), key
        if key in seen:
            continue
        seen.add(key)
        words = set(keywords.terms(memory.text))
        vector: list[float] | None = None
        for group in groups:
            if at > group.at + JOIN_WINDOW or not _overlaps(words, group.words, options.duplicate_jaccard):
                continue
            if vector is None:
                vector = _vector(host, embedder, key)
            if group.vector is None:
                group.vector = _vector(host, embedder, group.key)
            if vector and group.vector and cosine(vector, group.vector) >= options.duplicate_cosine:
                if _rank(memory) > _rank(group.kept):
                    group.kept = memory
                break
        else:
            if full:
                continue
            groups.append(_Group(key, words, memory, score, via, at))
            full = _counted(groups, exclude) == limit
    return groups


def _loader(fusion: Fusion, namespace: str) -> Callable[[str], Memory | None]:
    """Read records of ``namespace``'s store through ``fusion`` (once each)."""
    return lambda memory_id: fusion.memory((namespace, memory_id))


def _counted(groups: list[_Group], exclude: frozenset[str]) -> int:
    """How many of ``groups`` count in the limit (those whose kept memory is not excluded)."""
    return len(groups) if not exclude else sum(group.kept.id not in exclude for group in groups)


class _Group:
    """A group of near-duplicates: its first member's key, terms and (once needed) vector."""

    __slots__ = ("at", "kept", "key", "score", "vector", "via", "words")

    def __init__(self, key: Key, words: set[str], kept: Memory, score: float, via: Key | None = None,
                 at: int = 0) -> None:
        self.key, self.words, self.kept, self.score, self.via = key, words, kept, score, via
        self.at = at  # the first member's place among the candidates walked
        self.vector: list[float] | None = None


def _rank(memory: Memory) -> tuple[int, int, str]:
    """Which near-duplicate a group keeps: the most trusted, then the newest (ties by id)."""
    return origin.trust(memory.extra), memory.ts, memory.id


def _vector(host: Host, embedder: StaticEmbedder, key: Key) -> list[float]:
    raw = host.kv_get(bucket(key[0], f"vectors/{embedder.id}"), key[1])
    return unpack(raw) if raw else []


def _overlaps(a: set[str], b: set[str], jaccard: float) -> bool:
    """Jaccard overlap of two term sets >= ``jaccard`` (two empty sets overlap)."""
    shared = len(a & b)
    union = len(a) + len(b) - shared
    return union == 0 or shared / union >= jaccard


def captured_kind(extra: dict[str, Any]) -> str | None:
    """The kind of a memory captured from an agent's session (``directive``, ``lesson``), else ``None``."""
    captured = extra.get("captured")
    kind = captured.get("kind") if isinstance(captured, dict) else None
    return kind if isinstance(kind, str) else None
