"""Fusing the two channels' candidates into one ranking, resolving doc numbers only as it needs.

The keyword channel speaks document numbers, the vector channel memory ids. A memory's fused
score is ``v + k``: its vector part ``v`` (``vector_weight`` times its min-max normalised cosine,
0 outside the vector pool) plus its keyword part ``k`` (the same for BM25). Knowing which
document is which memory used to take one ``docs`` lookup per keyword candidate -- 50 host calls
per recall, most of them for candidates ranked far below the answer.

:class:`Fusion` produces the ranking best first and exactly as sorting every fused score would
(``(-score, id, namespace)``), but learns the memory behind a candidate only when the order
depends on it:

* a keyword candidate (document ``d``) not yet looked up can score at most ``k(d)`` plus the
  best vector part still unaccounted for;
* a vector candidate ``x`` whose record is not read yet can score at most ``v(x)`` plus the
  best keyword part not yet looked up.

A candidate whose score is known is given out once it beats every such bound; otherwise the
candidate with the highest bound is settled: a document by its ``docs`` entry (its id), a memory
by its record (its ``doc``; collapse needs the record anyway). Each bound is computed with the
same float additions as the score it bounds, so rounding cannot reorder anything.

With a :class:`~guest.memory.lift.Lift` a memory's score is ``v + (k + l)``: ``l``, its lift, is
folded into the keyword part of each document the lift covers, and added to the vector part of the
``reach`` best vector candidates of lifted stores once their record is read (a memory that is both
is lifted once, through its document); until then such a candidate's bound counts the largest lift.

Matching a vector candidate through its record's ``doc`` trusts that the ``docs`` map and the
records agree, as every writer keeps them. When a disagreement shows (two documents naming one
memory, a record naming a document whose entry names another memory), the ranking is made again
with every document looked up first (``eager``), which is exactly the old ranking.
"""

from __future__ import annotations

import heapq
from collections.abc import Iterator
from typing import Any, TypeVar

from guest.host import Host, bucket
from guest.memory.channels import Channels
from guest.memory.lift import Lift
from guest.memory.records import Memory

Key = tuple[str, str]  # (namespace, memory id)
DocKey = tuple[str, int]  # (namespace, document number)
T = TypeVar("T")


class Disagreement(Exception):
    """The ``docs`` map and the records of a store disagree: rank eagerly."""

    def __init__(self, namespace: str) -> None:
        super().__init__(namespace)
        self.namespace = namespace


def minmax(hits: list[tuple[T, float]]) -> list[tuple[T, float]]:
    """Scale scores to 0..1 over the pool (all 1 when they are equal)."""
    if not hits:
        return []
    low = min(s for _, s in hits)
    span = max(s for _, s in hits) - low
    return [(key, (s - low) / span if span > 0 else 1.0) for key, s in hits]


class Fusion:
    """The fused ranking of one recall's candidates (see the module docstring)."""

    def __init__(
        self,
        host: Host,
        vectors: list[tuple[Key, float]],
        words: list[tuple[DocKey, float]],
        weights: tuple[float, float],
        eager: bool = False,
        lift: Lift | None = None,
        reach: int = 0,
        norms: tuple[dict[Key, float], dict[DocKey, float]] | None = None,
    ) -> None:
        """``weights``: (vector, keyword); ``eager``: look every document up first, trust no record.

        ``lift``: what to lift, ``reach``: how many of the best vector candidates its records may lift.
        ``norms``: each candidate's normalised channel score, 0..1, in its channel's order (calibrated
        against the store's background); min-max over the pool when None.
        """
        self.host, self.eager, self.lift = host, eager, lift
        self.cosines, self.bm25 = dict(vectors), dict(words)  # the raw scores, for explain
        if norms is None:
            self.vnorm, self.knorm = dict(minmax(vectors)), dict(minmax(words))
        else:
            self.vnorm, self.knorm = norms
        self.vpart = {key: weights[0] * s for key, s in self.vnorm.items()}
        self.kpart = {doc: weights[1] * s for doc, s in self.knorm.items()}
        self.lifted: set[Key] = set()  # vector candidates lifted by their record
        self.lifts: dict[Key, float] = {}  # the lift of each candidate given one (explain)
        self.most = 0.0
        if lift is not None:
            self.kpart = {doc: k + lift.docs[doc] if doc in lift.docs else k for doc, k in self.kpart.items()}
            ranked = sorted(self.vpart, key=lambda x: (-self.vpart[x], x))
            self.lifted = {x for x in ranked[:reach] if x[0] in lift.stores}
            self.most = lift.most
        self.ids: dict[DocKey, Key | None] = {}  # documents looked up
        self.docs: dict[Key, DocKey] = {}  # ... and the memories they name
        self.records: dict[Key, Memory | None] = {}
        self.read_docs: dict[DocKey, bytes | None] = {}  # ``docs`` entries read ahead (see _read_ahead)
        self.read_records: dict[Key, bytes | None] = {}  # ``memories`` records read ahead
        self.settled: set[Key] = set()  # vector candidates whose score is known
        self.known: list[tuple[float, str, str]] = []  # heap of (-score, id, namespace), not given out
        self.open_docs: list[DocKey] = []
        self.open_vectors: list[Key] = []
        self.open_lifted: list[Key] = []
        if eager:
            self._rank_all()
        else:
            self.open_docs = sorted(self.kpart, key=lambda d: (-self.kpart[d], d))
            self.open_vectors = sorted(self.vpart, key=lambda x: (-self.vpart[x], x))
            self.open_lifted = [x for x in self.open_vectors if x in self.lifted]

    def _rank_all(self) -> None:
        """Every document looked up, the scores summed as they always were: no record is trusted."""
        scores = {key: 0.0 + v for key, v in self.vpart.items()}
        for doc, k in self.kpart.items():
            key = self._entry(doc)
            if key is not None:
                self.docs[key] = doc
                scores[key] = scores.get(key, 0.0) + k
                self._lifted_doc(key, doc)
        for key in sorted(self.lifted - set(self.docs)):  # lifted by their record, not a document
            record = self.memory(key)
            if record is not None and self.lift is not None:
                self.lifts[key] = lifted = self.lift.of_record(record, key[0])
                scores[key] = self.vpart[key] + lifted
        self.settled = set(scores)
        self.known = [(-score, key[1], key[0]) for key, score in scores.items()]
        heapq.heapify(self.known)

    @property
    def matched(self) -> set[Key]:
        """The memories known to be keyword candidates."""
        return set(self.docs)

    def ranked(self, limit: int) -> Iterator[tuple[Key, float]]:
        """The best ``limit`` candidates as ``(key, fused score)``, best first."""
        given = 0
        while given < limit:
            doc, vector = self._open_doc(), self._open_vector()
            k = self.kpart[doc] if doc is not None else 0.0  # the best keyword part not looked up
            v = self.vpart[vector] if vector is not None else 0.0  # the best vector part not read
            lifted = self._open_lifted()
            if lifted is not None and self.vpart[lifted] + self.most > v:  # ... with its lift
                vector, v = lifted, self.vpart[lifted] + self.most
            top = -self.known[0][0] if self.known else -1.0
            if top > k + v or (doc is None and vector is None):  # no open candidate can reach it
                if not self.known:
                    return
                score, key_id, namespace = heapq.heappop(self.known)
                given += 1
                yield (namespace, key_id), -score
            elif vector is None or (doc is not None and k >= v):  # settle the side that weighs more
                assert doc is not None
                self._look_up(doc)
            else:
                self._read(vector)

    def channels(self, key: Key, recency: float = 1.0) -> Channels:
        """The channel scores of candidate ``key`` (its fused score as :meth:`ranked` has it)."""
        doc = self.docs.get(key)
        vector = self.vpart.get(key)
        keyword = self.kpart[doc] if doc is not None else None  # with its document's lift
        if vector is not None and keyword is not None:
            fused = vector + keyword
        elif vector is not None and key in self.lifts:  # lifted by its record
            fused = vector + self.lifts[key]
        else:
            fused = 0.0 + (vector if vector is not None else keyword if keyword is not None else 0.0)
        return Channels(
            self.cosines.get(key, 0.0),
            self.bm25[doc] if doc is not None else 0.0,
            self.vnorm.get(key, 0.0),
            self.knorm[doc] if doc is not None else 0.0,
            fused,
            recency,
            self.lifts.get(key, 0.0),
        )

    def matches(self, key: Key) -> bool:
        """Whether candidate ``key``, once given out, is a keyword candidate (a query term matched it)."""
        return key in self.docs

    def memory(self, key: Key) -> Memory | None:
        """The record of ``key`` (read once); checks it against the document that named it."""
        if key not in self.records:
            if key not in self.read_records:
                later = self.open_vectors if not self.eager else sorted(self.lifted)
                _read_ahead(self.host, key, later, self.read_records, self.records, "memories", str)
            raw = self.read_records.pop(key)
            self.records[key] = Memory.decode(raw) if raw is not None else None
        record = self.records[key]
        doc = self.docs.get(key)
        if not self.eager and record is not None and doc is not None and record.doc != doc[1]:
            raise Disagreement(key[0])
        return record

    def _open_doc(self) -> DocKey | None:
        while self.open_docs and self.open_docs[0] in self.ids:
            self.open_docs.pop(0)
        return self.open_docs[0] if self.open_docs else None

    def _open_vector(self) -> Key | None:
        while self.open_vectors and self.open_vectors[0] in self.settled:
            self.open_vectors.pop(0)
        return self.open_vectors[0] if self.open_vectors else None

    def _open_lifted(self) -> Key | None:
        while self.open_lifted and self.open_lifted[0] in self.settled:
            self.open_lifted.pop(0)
        return self.open_lifted[0] if self.open_lifted else None

    def _look_up(self, doc: DocKey) -> Key | None:
        """Learn which memory keyword candidate ``doc`` is; its score is then known."""
        key = self._entry(doc)
        if key is None:  # no entry: not a memory (as a lookup has always treated it)
            return None
        if key in self.docs or key in self.settled:
            raise Disagreement(doc[0])  # two documents name one memory, or its record names another
        self.docs[key] = doc
        self._lifted_doc(key, doc)
        if key in self.vpart:
            self.settled.add(key)
            self._push(key, self.vpart[key] + self.kpart[doc])
        else:
            self._push(key, 0.0 + self.kpart[doc])
        return key

    def key_of(self, doc: DocKey) -> Key | None:
        """The memory the ``docs`` map names for ``doc`` (looked up once)."""
        return self.ids[doc] if doc in self.ids else self._entry(doc)

    def _entry(self, doc: DocKey) -> Key | None:
        """The memory the ``docs`` map names for ``doc`` (noted in :attr:`ids`)."""
        if doc not in self.read_docs:
            later = self.open_docs if not self.eager else list(self.kpart)
            _read_ahead(self.host, doc, later, self.read_docs, self.ids, "docs", _doc_key)
        raw = self.read_docs.pop(doc)
        self.ids[doc] = key = (doc[0], raw.decode("utf-8")) if raw is not None else None
        return key

    def _read(self, key: Key) -> None:
        """Learn vector candidate ``key``'s keyword part from its record's document number."""
        record = self.memory(key)
        doc = (key[0], record.doc) if record is not None else None
        if doc is not None and doc in self.kpart:
            if doc in self.ids or self._look_up(doc) != key:
                raise Disagreement(key[0])
            return  # settled by the look-up
        self.settled.add(key)
        if key in self.lifted and record is not None and self.lift is not None:
            self.lifts[key] = lifted = self.lift.of_record(record, key[0])
            self._push(key, self.vpart[key] + lifted)
        else:
            self._push(key, 0.0 + self.vpart[key])

    def _lifted_doc(self, key: Key, doc: DocKey) -> None:
        """Note the lift of a keyword candidate's document (folded into its keyword part)."""
        if self.lift is not None and doc in self.lift.docs:
            self.lifts[key] = self.lift.docs[doc]

    def _push(self, key: Key, score: float) -> None:
        heapq.heappush(self.known, (-score, key[1], key[0]))


READ_AHEAD = 8  # candidates read per crossing: the ones the lazy ranking is likely to ask for next


def _doc_key(number: int) -> str:
    return f"{number:010d}"


def _read_ahead(host: Host, first: Any, later: list[Any], into: dict[Any, bytes | None], done: Any,
                bucket_name: str, key_of: Any) -> None:
    """Read ``first`` and the next unread of ``later`` (up to :data:`READ_AHEAD`), one crossing per store.

    Contract v2 batches reads: a recall that looks candidates up one by one crossed the boundary once
    per candidate (~40 times at 10k memories); reading a few ahead in the order the ranking opens them
    costs a few extra host reads and saves most crossings.
    """
    wanted = [first]
    for item in later:
        if len(wanted) >= READ_AHEAD:
            break
        if item != first and item not in into and item not in done:
            wanted.append(item)
    stores: dict[str, list[Any]] = {}
    for item in wanted:
        stores.setdefault(item[0], []).append(item)
    for namespace, items in stores.items():
        values = host.kv_get_many(bucket(namespace, bucket_name), [key_of(item[1]) for item in items])
        into.update(zip(items, values, strict=True))
