"""Lifts: a candidate about the subject a query names, or from the time it names, ranks higher.

A recall's fused score (:mod:`guest.memory.fusion`, 0..1) gains ``subject_weight`` when the memory
has a subject the query names (``What did Melanie say ...`` and ``Melanie: ...``; a label, a file
path, an identifier in backticks: :mod:`guest.memory.facets`) and ``time_weight`` when it was stored
in the window of days the query's time expression names (``yesterday``, ``in May``, ``on 2 October``:
:mod:`guest.strings.when`). Both default to 0.5 (``docs/quality.md``: LoCoMo-dev questions about one
of two speakers have 96 % of their evidence among that speaker's turns).

Nothing here reads a record per candidate. Stores of terms version 2 index every memory's facet
terms, so :func:`plan` reads the postings of the query's candidate subjects (``@melanie``) and of the
date terms covering its window (``~2026-05``): the documents they hold are the keyword candidates
to lift. A vector candidate is known by its memory id only, so the fusion lifts only the
``limit`` best vector candidates, by their records (which it reads anyway to rank them), with the
same facets (:meth:`Lift.of_record`); a memory that is also a keyword candidate is lifted through
its document. A store of terms version 1 has no facet terms: its candidates are never lifted.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from guest.host import Host, bucket
from guest.index import keywords
from guest.index.pending import Pending
from guest.memory import facets
from guest.memory.records import Memory, Stats
from guest.strings import dates, when

DocKey = tuple[str, int]
MAX_DATE_TERMS = 40  # a window needing more facet terms to cover is not lifted


@dataclass(frozen=True)
class Lift:
    """What one recall lifts: documents by their facet postings, records by their facets."""

    subject_weight: float
    time_weight: float
    subjects: frozenset[str]  # the subjects the query could name
    window: when.Window | None
    docs: dict[DocKey, float]  # the lift of each keyword document it covers (others: none)
    stores: dict[str, int]  # namespaces of terms version 2 and later (their vector candidates may be
    # lifted), with their version
    most: float  # the largest lift any candidate can get

    def value(self, subject: bool, timed: bool) -> float:
        """The lift of a memory with (or without) a named subject, in (or out of) the window."""
        out = 0.0
        if subject:
            out += self.subject_weight
        if timed:
            out += self.time_weight
        return out

    def of_record(self, memory: Memory, namespace: str) -> float:
        """A vector candidate's lift, from its record in ``namespace`` (the same facets its terms hold)."""
        version = self.stores.get(namespace, 0)
        subject = (bool(self.subjects) and version >= 2
                   and not self.subjects.isdisjoint(facets.subjects(memory.text, version)))
        timed = self.window is not None and self.window.holds(memory.ts)
        return self.value(subject, timed)


def plan(
    host: Host, query: str, stores: list[tuple[str, Stats, Pending]], subject_weight: float,
    time_weight: float, now_ms: int,
) -> Lift | None:
    """The lift of one recall over ``stores`` (namespace, stats, pending list); ``None``: nothing to lift.

    ``now_ms``: the time the query's relative dates are read from (the request's ``as_of``, or now).
    """
    versioned = [(ns, listed) for ns, stats, listed in stores if stats.terms >= 2 and stats.docs]
    versions = {ns: stats.terms for ns, stats, _ in stores if stats.terms >= 2 and stats.docs}
    names = facets.named(query) if subject_weight > 0 and versioned else []
    window = when.window(query, now_ms) if time_weight > 0 and versioned else None
    cover = dates.cover(window.first, window.end, MAX_DATE_TERMS) if window is not None else None
    if not names and not cover:
        return None
    named: set[DocKey] = set()
    timed: set[DocKey] = set()
    for namespace, listed in versioned:
        terms_ns = bucket(namespace, "terms")
        for name in names:
            found = keywords.postings(host, terms_ns, facets.term(name), listed)
            named.update((namespace, doc) for doc, _, _ in found)
        for term in cover or ():
            timed.update((namespace, doc) for doc, _, _ in keywords.postings(host, terms_ns, term, listed))
    if not named and not timed:
        return None
    lift = Lift(subject_weight, time_weight, frozenset(names) if named else frozenset(),
                window if timed else None, {}, versions, 0.0)
    docs = {doc: lift.value(doc in named, doc in timed) for doc in sorted(named | timed)}
    return replace(lift, docs=docs, most=lift.value(bool(named), bool(timed)))
