"""``archive_search``: keywords, scores, excerpts and result texts (seed 002, Go's ``recallSearch``).

Keywords (Go's ``recallTokens``). The query is lower-cased rune by rune like
``strings.ToLower`` (:func:`guest.gostrings.go_lower`: ``İ`` gives ``i``, ``Σ`` gives
``σ``), then cut on every rune that is not ``a``-``z``, ``0``-``9`` or ``à``-``ÿ``
(U+00E0..U+00FF -- taken literally, so ``÷`` U+00F7 is a keyword rune while ``ß``
U+00DF and every Greek letter are separators); pieces of fewer than two runes are
dropped and the rest de-duplicated (a repeated word counts once).

Bounded work (issue 25). Only the first :data:`MAX_TERMS` distinct keywords of a query count
(in the order the query gives them); the answer's text says which were left out. The seed put no
bound, but a keyword costs a scan of every large block's keyword text (by the host, which is what
dominates a search: ~0.35 s per keyword absent from 52 blocks of 1.9 MB), and an 8 KiB query holds
~2,700 words: minutes during which the watcher and its warm hooks wait. Every query of at most
:data:`MAX_TERMS` distinct keywords -- the golden log's longest has four -- scores exactly as before.

Score (Go's ``strings.Contains`` on the lower-cased texts): for each keyword, two points
when the block's label contains it and one point when its content contains it, as a
*substring* (``port`` matches ``export``). Blocks without a point are left out. Best
score first; ties newest first (higher sequence). 5 results by default, 20 at most.

A keyword is made of keyword runes only, so a substring match can only fall inside one
maximal run of keyword runes of the lower-cased text. :func:`term_text` keeps exactly
those runs (of two runes or more, de-duplicated, space-separated) and is computed once,
at archive time; ``keyword in term_text(text)`` is then the same as Go's
``strings.Contains(strings.ToLower(text), keyword)``. For speed on large blocks it
lower-cases with :func:`fold` (``str.lower()`` after mapping ``İ`` to ``i``), which
agrees with ``go_lower`` on every keyword rune (``tests/guest/test_archive.py`` checks every
code point).
"""

from __future__ import annotations

import heapq
import math
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from itertools import compress, repeat
from operator import contains

from guest.archive.store import Block, Chunk, Entry
from guest.strings.gostrings import FIELD_RE, go_lower, trim_space

DEFAULT_LIMIT = 5
MAX_LIMIT = 20
MAX_TERMS = 8  # distinct keywords a search uses (bounded work, see the module docstring)
EXCERPT_RUNES = 160
LABEL_RUNES = 70
_TERM_RE = re.compile("[a-z0-9\u00e0-\u00ff]{2,}")

HEADER = "Archived blocks matching the query (recall one by its id):"
NO_RESULTS = "No archived block matches the query."
EMPTY_EXCERPT = "(empty)"


@dataclass(frozen=True)
class Result:
    """One search result."""

    entry: Entry
    score: int

    def as_dict(self) -> dict[str, object]:
        """The result as the envelope shows it."""
        e = self.entry
        return {"id": e.id, "label": e.label, "score": self.score, "excerpt": e.excerpt}


def fold(text: str) -> str:
    """Lower-case ``text`` fast; equal to :func:`go_lower` on every keyword rune."""
    return text.replace("\u0130", "i").lower()


def query_keywords(query: str) -> list[str]:
    """Every distinct keyword of ``query``, in the order the query gives them."""
    return list(dict.fromkeys(_TERM_RE.findall(go_lower(query))))


def query_terms(query: str) -> list[str]:
    """The keywords a search of ``query`` uses, sorted: its first :data:`MAX_TERMS` distinct ones."""
    return sorted(query_keywords(query)[:MAX_TERMS])


def left_out_text(keywords: list[str]) -> str:
    """The line a result text ends with when ``keywords`` (all of a query's) passed :data:`MAX_TERMS`."""
    left = keywords[MAX_TERMS:]
    shown = ", ".join(left[:5]) + (f" and {len(left) - 5} more" if len(left) > 5 else "")
    return f"(Only the first {MAX_TERMS} distinct keywords were used; left out: {shown}.)"


def term_text(text: str) -> str:
    """The distinct maximal keyword-rune runs of ``text`` lower-cased, space-separated, in order."""
    return " ".join(dict.fromkeys(_TERM_RE.findall(fold(text))))


def score(terms: list[str], entry: Entry) -> int:
    """Two points per keyword in the label, one per keyword in the content."""
    return sum(2 for t in terms if t in entry.label_terms) + sum(1 for t in terms if t in entry.content_terms)


def search(
    terms: list[str],
    chunks: Iterable[Chunk],
    limit: int,
    has_term: Callable[[int, str], bool] | None = None,
) -> list[Result]:
    """The ``limit`` best entries for ``terms``: score descending, then newest first (:func:`score`).

    ``chunks`` may be a stream: only the ``limit`` best entries so far are kept. An entry whose
    keyword text lives out of the index (the chunk's ``split`` list) gets its content points
    from ``has_term(seq, term)``.
    """
    best: list[tuple[int, int, int, Entry]] = []  # a min-heap of the best (score, seq, -arrival)
    arrival = 0
    for chunk in chunks:
        columns = chunk.columns
        scores = [0] * len(chunk)
        for weight, column in ((2, columns["label_terms"]), (1, columns["content_terms"])):
            for term in terms:  # only the hits cost Python work: the scan is C-level map()
                for i in compress(range(len(scores)), map(contains, column, repeat(term))):
                    scores[i] += weight
        locked, seqs = set(chunk.locked), columns["seq"]
        if chunk.split and has_term is not None:
            split = set(chunk.split) - locked
            for i, seq in enumerate(seqs):
                if seq in split:
                    scores[i] += sum(1 for term in terms if has_term(seq, term))
        for i in compress(range(len(scores)), scores):
            if seqs[i] in locked:
                continue
            arrival += 1
            item = (scores[i], seqs[i], -arrival, chunk.entry(i))
            if len(best) < limit:
                heapq.heappush(best, item)
            elif item[:3] > best[0][:3]:
                heapq.heapreplace(best, item)
    ranked = sorted(best, key=lambda r: r[:3], reverse=True)
    return [Result(entry, points) for points, _, _, entry in ranked]


def entry_of(block: Block) -> Entry:
    """A block's search entry: label, excerpt and the keyword texts a search scans."""
    return Entry(block.seq, block.label, excerpt(block.content), term_text(go_lower(block.label)),
                 term_text(block.content))


def limit_of(value: object) -> int:
    """The result count for a request's ``limit``, like Go's ``int(v.(float64))``.

    Numbers are truncated toward zero (2.9 -> 2, -1.5 -> -1); zero or negative gives
    the default, more than 20 gives 20. Anything that is not a JSON number (a string,
    a boolean, null) is ignored: the default. Out-of-range values saturate (Go's
    conversion is implementation-defined there; this is what arm64 does), NaN is 0.
    """
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return DEFAULT_LIMIT
    if isinstance(value, float):
        if math.isnan(value):
            return DEFAULT_LIMIT
        if math.isinf(value):
            return MAX_LIMIT if value > 0 else DEFAULT_LIMIT
        value = int(value)
    if value <= 0:
        return DEFAULT_LIMIT
    return min(value, MAX_LIMIT)


def excerpt(content: str, runes: int = EXCERPT_RUNES) -> str:
    """A one-line excerpt, like Go's ``recallSnippet``: white space collapsed, ``runes`` runes, ``…``."""
    words: list[str] = []
    size = -1
    for match in FIELD_RE.finditer(content):  # stop early: blocks may be megabytes long
        words.append(match.group())
        size += len(words[-1]) + 1
        if size > runes:
            break
    line = " ".join(words)
    if len(line) > runes:
        return trim_space(line[:runes]) + "…"
    return line


def derived_label(content: str) -> str:
    """A label for a block archived without one: its first non-blank line, 70 runes at most."""
    for line in content.split("\n"):
        head = " ".join(FIELD_RE.findall(line))
        if head:
            return trim_space(head[:LABEL_RUNES]) + "…" if len(head) > LABEL_RUNES else head
    return EMPTY_EXCERPT


def results_text(results: list[Result]) -> str:
    """The tool text: a header, then two lines per block (id and label, excerpt)."""
    if not results:
        return NO_RESULTS
    lines = [HEADER]
    for r in results:
        lines.append(f"- {r.entry.id} — {r.entry.label}")
        lines.append(f"  {r.entry.excerpt or EMPTY_EXCERPT}")
    return "\n".join(lines)
