"""Exact BM25 top-k over the persisted postings, without scoring every posting.

:func:`scores` is the reference: every posting of every query term, summed term by term in
sorted order. :func:`search` returns exactly its best ``k`` -- the same documents in the same
order with the same floats -- by MaxScore-style pruning (Turtle & Flood), done term at a time
because a Python loop over postings is what costs in the component:

1. Each term gets an upper bound of what it can add to a score: the largest of its chunks'
   bounds (from the chunk directory: largest tf, smallest length; see
   :mod:`guest.index.postings`) and of its head's postings.
2. Terms are scored fully, highest bound first (the rare terms), into partial sums (a document
   not summed yet joins only if this term and the later ones can lift it to ``theta``). After each,
   the threshold ``theta`` -- a lower bound of the k-th best final score -- is raised by
   completing the :data:`REFINE` best partial sums with the other terms' postings. Once the
   bounds of the terms left add up to less than ``theta``, no document outside the partial sums
   can make the top ``k``: the common terms that are left are never scanned.
3. For each remaining term, only documents that can still reach ``theta`` are looked up, in the
   chunks that may hold them (a chunk whose bound cannot lift a document is not even read).
4. The documents that may tie with the k-th best get their exact sums, in sorted term order
   as :func:`scores` adds them, and are ranked by ``(-score, doc)``.

Comparisons against bounds keep a relative slack (:data:`SLACK`) far above the rounding of a
few additions, so a document is dropped only when it is certainly below the k-th best: ties
with it are kept and ordered by document number, as in :func:`scores`. Every chunk read is
checked against its directory crc; on a mismatch (a directory left stale) the search falls back
to :func:`scores`.
"""

from __future__ import annotations

import math
import zlib
from bisect import bisect_left, bisect_right
from collections import Counter
from collections.abc import Callable
from itertools import compress

from guest.host import Host
from guest.index.pending import Pending, joined
from guest.index.postings import (
    HEAD,
    Postings,
    PostingsCache,
    chunk_key,
    directory_key,
    document_count,
    head_postings,
    parse_directory,
    unpack,
)

K1 = 1.5
B = 0.75
SLACK = 1e-9
REFINE = 200  # best partial sums completed to raise the threshold after each fully scored term
REFINE_GAIN = 8  # ... when the postings left unread outnumber this many lookups per completed sum
SMALL = 4096  # fewer postings than this in all: score them all (in sorted term order)
SCAN = 8  # _complete scans a term's postings when more than df / SCAN documents are alive
SAMPLE = 512  # values sampled to find the k-th largest of a long list (kth_largest)
SAMPLE_MARGIN = 16  # sample values kept above the cut beyond the expected number


def scores(
    query: list[str], postings_of: Callable[[str], list[tuple[int, int, int]]], docs: int, tokens: int
) -> dict[int, float]:
    """BM25 score of every document matching ``query`` (terms in sorted order: same sums everywhere)."""
    if docs <= 0 or not query:
        return {}
    avg = max(tokens / docs, 1.0)
    out: dict[int, float] = {}
    for term, qtf in sorted(Counter(query).items()):
        plist = postings_of(term)
        if not plist:
            continue
        idf = math.log(1.0 + (docs - len(plist) + 0.5) / (len(plist) + 0.5)) * qtf
        for doc, tf, length in plist:
            out[doc] = out.get(doc, 0.0) + idf * tf * (K1 + 1.0) / (tf + K1 * (1.0 - B + B * length / avg))
    return out


class _Stale(Exception):
    """A chunk's bytes do not match its directory entry."""


class _Contributions(dict[int, float]):
    """One term's BM25 contribution by posting code (``tf | length << 16``), computed on first use.

    The same expression as :func:`scores`, so the same floats.
    """

    def __init__(self, idf: float, avg: float) -> None:
        super().__init__()
        self.idf, self.avg = idf, avg

    def __missing__(self, code: int) -> float:
        idf, avg, tf, length = self.idf, self.avg, code & 0xFFFF, code >> 16
        value = idf * tf * (K1 + 1.0) / (tf + K1 * (1.0 - B + B * length / avg))
        self[code] = value
        return value


class _Term:
    """One query term's postings: chunks (read on demand), head, bounds, first documents.

    Chunk ``full`` is the head. ``firsts`` and ``chunks`` list the first document and number of
    every chunk that holds postings, in document order (:meth:`groups` bisects them).
    """

    def __init__(self, host: Host, ns: str, term: str, head: bytes, df: int, idf: float, avg: float,
                 cache: PostingsCache | None, trusted: bool) -> None:
        self.host, self.ns, self.term, self.cache, self.df = host, ns, term, cache, df
        self.full = full = HEAD.unpack_from(head)[0]
        self.value = _Contributions(idf, avg)
        self.parts: dict[int, Postings] = {full: head_postings(head)}
        self.crcs: list[int | None] = []
        self.bounds: list[float] = []
        self.firsts: list[int] = []
        self.chunks: list[int] = []
        entries = parse_directory(host.kv_get(ns, directory_key(term)), full) if full and trusted else []
        for n, (first, crc, tf, length) in enumerate(entries):
            self.crcs.append(crc)
            self.bounds.append(self.value[tf | length << 16] if tf else 0.0)
            if tf:  # tf 0: a chunk that holds no postings (damaged)
                self.firsts.append(first)
                self.chunks.append(n)
        for n in range(len(entries), full + 1):  # no entry (or the head): read it, bound it exactly
            self.crcs.append(None)
            docs, codes = self.postings(n)
            self.bounds.append(max(map(self.value.__getitem__, codes), default=0.0))
            if docs:
                self.firsts.append(docs[0])
                self.chunks.append(n)
        self.bound = max(self.bounds)

    def postings(self, n: int) -> Postings:
        """Chunk ``n`` (``full``: the head) as ``(docs, codes)``."""
        found = self.parts.get(n)
        if found is None:
            found = self.parts[n] = self._read(n)
        return found

    def _read(self, n: int) -> Postings:
        crc = self.crcs[n] if n < len(self.crcs) else None
        key = (self.ns, self.term, n)
        if crc is not None and self.cache is not None:
            cached = self.cache.get(key, crc)
            if cached is not None:
                return cached
        blob = self.host.kv_get(self.ns, chunk_key(self.term, n)) or b""
        if crc is not None and zlib.crc32(blob) != crc:
            raise _Stale(f"{self.term}#{n}")
        found = unpack(blob)  # torn: no postings, as everywhere else
        if crc is not None and self.cache is not None:
            self.cache.put(key, crc, found)
        return found

    def groups(self, docs: list[int]) -> list[tuple[int, list[int]]]:
        """``docs`` (ascending) split by the chunk that may hold them: ``(chunk number, docs)``.

        Chunk ``-1``: the documents before the term's first posting, which no chunk holds. One
        bisect per chunk rather than one per document.
        """
        firsts, end = self.firsts, len(docs)
        start = bisect_left(docs, firsts[0]) if firsts else end
        out = [(-1, docs[:start])] if start else []
        while start < end:
            i = bisect_right(firsts, docs[start]) - 1
            stop = bisect_left(docs, firsts[i + 1], start) if i + 1 < len(firsts) else end
            out.append((self.chunks[i], docs[start:stop]))
            start = stop
        return out

    def add_to(self, acc: dict[int, float], docs: list[int]) -> None:
        """Add this term's contribution to those of ``docs`` (ascending, all in ``acc``) it is in."""
        for n, group in self.groups(docs):
            if n >= 0:
                self._add_found(acc, n, group)

    def _add_found(self, acc: dict[int, float], n: int, docs: list[int]) -> None:
        """Add chunk ``n``'s contribution to those of ``docs`` (ascending, all in ``acc``) it holds."""
        held, codes = self.postings(n)
        value = self.value
        for doc in docs:
            i = bisect_left(held, doc)
            if i < len(held) and held[i] == doc:
                acc[doc] += value[codes[i]]

    def add_to_alive(self, acc: dict[int, float], alive: set[int]) -> None:
        """Add this term's contribution to the documents of ``alive`` (all in ``acc``) it is in.

        Reads every chunk; a C-level set intersection finds the documents, so bytecode runs only
        for those the term holds (:func:`_complete` uses it when most of the term would be read).
        """
        value = self.value
        for n in self.chunks:
            docs, codes = self.postings(n)
            for doc in alive.intersection(docs):
                acc[doc] += value[codes[bisect_left(docs, doc)]]

    def add_all(self, acc: dict[int, float], theta: float = 0.0, later: float = 0.0) -> None:
        """Add this term's contribution to every document it is in that can still make the top k.

        ``theta``: a lower bound of the k-th best score; ``later``: what the terms not added yet can
        add at most. A document not in ``acc`` holds none of the terms added so far, so it cannot
        make it when this term adds less than ``theta - later``: a chunk whose bound is below that
        adds to the documents already in ``acc`` only (looked up, and read only if one falls in its
        range), and a chunk that is read brings in only the new documents it gives at least that.
        Documents left out may enter ``acc`` later with a partial sum that is too low, which only
        ever lowers thresholds; final sums are recomputed (``_exact``).
        """
        value = self.value
        present: list[int] | None = None
        low = (theta - later) * (1.0 - SLACK)
        shared = bool(acc)  # documents of earlier terms, which a chunk's documents may be among
        for i, n in enumerate(self.chunks):
            if self.bounds[n] * (1.0 + SLACK) + later < theta:
                if present is None:
                    present = sorted(acc)
                start = bisect_left(present, self.firsts[i])
                stop = bisect_left(present, self.firsts[i + 1]) if i + 1 < len(self.firsts) else len(present)
                if start < stop:
                    self._add_found(acc, n, present[start:stop])
                continue
            docs, codes = self.postings(n)
            values = list(map(value.__getitem__, codes))
            # C-level passes over the chunk (map, zip, compress, dict and set building); bytecode
            # runs only for the documents already in acc (s + v, or v + s: the same IEEE sum)
            if low > 0.0:  # a document new to acc needs at least ``low`` from this term
                kept = dict(compress(zip(docs, values, strict=True), map(low.__le__, values)))
                for doc in acc.keys() & docs if shared else ():
                    kept[doc] = acc[doc] + values[bisect_left(docs, doc)]
                acc.update(kept)
            elif shared:
                kept = dict(zip(docs, values, strict=True))
                for doc in kept.keys() & acc.keys():
                    kept[doc] += acc[doc]
                acc.update(kept)
            else:  # the first term: its chunks hold distinct documents
                acc.update(zip(docs, values, strict=True))


def search(
    host: Host, ns: str, query: list[str], docs: int, tokens: int, k: int,
    cache: PostingsCache | None = None, trusted: bool = True, extra: Pending | None = None,
) -> list[tuple[int, float]]:
    """The ``k`` best ``(doc, score)`` of :func:`scores` over the postings in bucket ``ns``.

    ``extra``: the pending list, whose postings follow each term's head's (the newest documents).
    """
    if docs <= 0 or not query or k <= 0:
        return []
    avg = max(tokens / docs, 1.0)
    terms: list[_Term] = []
    counted = sorted(Counter(query).items())
    stored = host.kv_get_many(ns, [term for term, _ in counted])  # every head in one crossing
    try:
        for (term, qtf), value in zip(counted, stored, strict=True):
            head = joined(value, extra, term)
            if not head or len(head) < HEAD.size:
                continue
            df = document_count(head)
            if df == 0:
                continue
            idf = math.log(1.0 + (docs - df + 0.5) / (df + 0.5)) * qtf
            if not idf > 0.0:  # counts out of step (a damaged store): bounds would not hold
                raise _Stale("idf")
            terms.append(_Term(host, ns, term, head, df, idf, avg, cache, trusted))
        return _best(terms, k)
    except _Stale:
        found = scores(query, lambda term: every_posting(host, ns, term, extra), docs, tokens)
        return sorted(found.items(), key=lambda p: (-p[1], p[0]))[:k]


def idf_mass(host: Host, ns: str, query: list[str], docs: int, extra: Pending | None = None) -> float:
    """What ``query`` can score on a document of average length that holds each of its terms once.

    Each term's idf (times its count in the query), as :func:`search` weighs it; a term no document
    holds counts as the rarest (``df`` 0): a match on the query's common words is then a small share
    of the query's evidence, however few words the query has.
    """
    mass = 0.0
    counted = sorted(Counter(query).items())
    for (term, qtf), value in zip(counted, host.kv_get_many(ns, [term for term, _ in counted]), strict=True):
        head = joined(value, extra, term)
        df = document_count(head) if head and len(head) >= HEAD.size else 0
        mass += math.log(1.0 + (docs - df + 0.5) / (df + 0.5)) * qtf
    return mass


def every_posting(host: Host, ns: str, term: str, extra: Pending | None = None) -> list[tuple[int, int, int]]:
    """Every ``(doc, tf, doc_length)`` posting of ``term`` (a torn value holds none)."""
    raw = joined(host.kv_get(ns, term), extra, term)
    if not raw:
        return []
    parts = [unpack(host.kv_get(ns, chunk_key(term, n)) or b"") for n in range(HEAD.unpack_from(raw)[0])]
    parts.append(head_postings(raw))
    return [(doc, code & 0xFFFF, code >> 16)
            for docs, codes in parts for doc, code in zip(docs, codes, strict=True)]


def _best(terms: list[_Term], k: int) -> list[tuple[int, float]]:
    """The exact best ``k`` over ``terms`` (sorted by term)."""
    if not terms:
        return []
    if len(terms) == 1:
        return _best_of_one(terms[0], k)
    if sum(term.df for term in terms) <= SMALL:  # pruning would cost more than it saves
        acc: dict[int, float] = {}
        for term in terms:  # in sorted order: the sums are exactly those of scores()
            term.add_all(acc)
        return _top(acc, k)
    order = sorted(terms, key=lambda t: (-t.bound, t.term))
    rest = [0.0] * (len(order) + 1)  # rest[j]: what terms j.. can add at most (with slack)
    for j in range(len(order) - 1, -1, -1):
        rest[j] = (rest[j + 1] + order[j].bound) * (1.0 + SLACK)
    acc = {}
    theta = 0.0
    j = 0
    while j < len(order) and not (j and rest[j] < theta):
        order[j].add_all(acc, theta, rest[j + 1])
        j += 1
        left = order[j:]
        if left and len(acc) >= k:
            unread = sum(term.df for term in left)
            if unread > REFINE_GAIN * REFINE * len(left):  # worth completing the best partial sums
                theta = max(theta, _refine(acc, left, k))
            elif unread > len(acc):  # worth sorting the partial sums
                theta = max(theta, kth_largest(list(acc.values()), k) * (1.0 - SLACK))
    candidates = list(acc) if j == len(order) else _complete(acc, order, j, rest, theta, k)
    return _exact(candidates, acc, terms, k)


def _best_of_one(term: _Term, k: int) -> list[tuple[int, float]]:
    """The best ``k`` postings of one term: chunks by bound, best first, until none can make it."""
    acc: dict[int, float] = {}
    best: list[float] = []  # the k best contributions so far
    value = term.value
    for n in sorted(term.chunks, key=lambda n: (-term.bounds[n], n)):
        if len(best) == k and term.bounds[n] * (1.0 + SLACK) < best[0]:
            break
        docs, codes = term.postings(n)
        values = list(map(value.__getitem__, codes))
        acc.update(zip(docs, values, strict=True))
        best = sorted(best + values)[-k:]
    return _top(acc, k)


def _top(acc: dict[int, float], k: int) -> list[tuple[int, float]]:
    """The best ``k`` of exact sums, by ``(-score, doc)``."""
    if len(acc) > k:
        cut = kth_largest(list(acc.values()), k)
        found = [(doc, acc[doc]) for doc in compress(acc, map(cut.__le__, acc.values()))]
    else:
        found = list(acc.items())
    found.sort(key=lambda p: (-p[1], p[0]))
    return found[:k]


def kth_largest(values: list[float], k: int) -> float:
    """``sorted(values)[-k]`` (``1 <= k <= len(values)``), without sorting all of a long list.

    A sorted sample of every ``step``-th value gives a cut a little below the ``k``-th largest;
    only the values above it are sorted (C-level filter and sort: no bytecode per value). When
    fewer than ``k`` values pass the cut (a skewed list) the whole list is sorted.
    """
    if len(values) <= 4 * SAMPLE:
        return sorted(values)[-k]
    step = len(values) // SAMPLE
    sample = sorted(values[::step])
    above = k // step + SAMPLE_MARGIN  # sample values kept above the cut: ~k // step expected
    if above < len(sample):
        cut = sample[-1 - above]
        kept = sorted(filter(cut.__le__, values))
        if len(kept) >= k:
            return kept[-k]
    return sorted(values)[-k]


def _refine(acc: dict[int, float], rest: list[_Term], k: int) -> float:
    """A lower bound of the k-th best score: the best partial sums completed with ``rest``."""
    best: list[int] = list(acc)
    if len(best) > REFINE:
        cutoff = kth_largest(list(acc.values()), REFINE)
        best = list(compress(acc, map(cutoff.__le__, acc.values())))
    if len(best) < k:
        return 0.0
    best.sort()
    totals = {doc: acc[doc] for doc in best}
    for term in rest:
        term.add_to(totals, best)
    ranked = sorted(totals.values(), reverse=True)
    return ranked[k - 1] * (1.0 - SLACK)


def _complete(
    acc: dict[int, float], order: list[_Term], j: int, rest: list[float], theta: float, k: int
) -> list[int]:
    """Add terms ``order[j:]`` to the documents that can still reach ``theta``; those documents."""
    need = theta - rest[j]
    alive = sorted(compress(acc, map(need.__le__, acc.values())))  # stays sorted: kept in chunk order
    for index in range(j, len(order)):
        term = order[index]
        need = theta - rest[index + 1]
        if len(alive) * SCAN >= term.df:  # many documents alive: scan the term instead of looking them up
            term.add_to_alive(acc, set(alive))
            alive = list(compress(alive, map(need.__le__, map(acc.__getitem__, alive))))
        else:
            alive = _look_up(term, acc, alive, need)
        if len(alive) >= k:
            kth = kth_largest(list(map(acc.__getitem__, alive)), k)
            theta = max(theta, kth * (1.0 - SLACK))
    return alive


def _look_up(term: _Term, acc: dict[int, float], alive: list[int], need: float) -> list[int]:
    """Add ``term`` to the ``alive`` documents (ascending) that it can lift to ``need``; those that reach it.

    A document whose sum plus the bound of the chunk that may hold it is below ``need`` is dropped
    unread; the others are looked up by bisection.
    """
    out: list[int] = []
    value = term.value
    for n, group in term.groups(alive):
        if n < 0:
            out += [doc for doc in group if acc[doc] >= need]
            continue
        reach = need - term.bounds[n] * (1.0 + SLACK)
        group = [doc for doc in group if acc[doc] >= reach]
        if not group:
            continue
        docs, codes = term.postings(n)
        for doc in group:
            i = bisect_left(docs, doc)
            if i < len(docs) and docs[i] == doc:
                acc[doc] += value[codes[i]]
            if acc[doc] >= need:
                out.append(doc)
    return out


def _exact(
    candidates: list[int], acc: dict[int, float], terms: list[_Term], k: int
) -> list[tuple[int, float]]:
    """The best ``k`` of ``candidates`` (whose ``acc`` sums are complete) with :func:`scores`' floats."""
    if len(candidates) > k:
        sums = list(map(acc.__getitem__, candidates))
        cut = kth_largest(sums, k) * (1.0 - SLACK)
        candidates = list(compress(candidates, map(cut.__le__, sums)))
    candidates = sorted(candidates)
    totals = dict.fromkeys(candidates, 0.0)
    for term in terms:  # in sorted term order, each from 0.0: the sums of scores()
        term.add_to(totals, candidates)
    exact = list(totals.items())
    exact.sort(key=lambda p: (-p[1], p[0]))
    return exact[:k]
