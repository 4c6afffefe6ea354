"""A lift for a candidate whose sitting the other top candidates share (issue 47, D280).

A conversation's turns, or a working session's notes, are stored minutes apart; when several of the
best candidates for a question come from one sitting, that sitting is probably what the question is
about, and a candidate of it that matched less well is more likely relevant than an equally-scored
lone one. Each of the best :data:`NEAR_TOP` candidates (by fused score) is lifted by
``weight x n / NEAR_TOP``, ``n`` the number of the *other* ones among them stored within
``window_ms`` of it, and those :data:`NEAR_TOP` are ordered again; later candidates keep their
place (each lifted score is at least its own, so every one of them stays at or above the
:data:`NEAR_TOP` + 1-th). The order therefore never depends on how many candidates are taken, and
ties are broken by id as everywhere.

This is the "neighbours" feature of the offline ranker (``bench/ranker.py``, D275), hand-set: it
needs only the stored times of candidates recall reads anyway, and no fitting. Where the question
asks for several sittings (:mod:`guest.memory.spread`), the two would pull against each other, so
recall applies the spread alone there.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable, Iterator

Key = tuple[str, str]  # (namespace, memory id)

NEAR_TOP = 20  # the candidates whose sittings count, and the only ones re-ordered


def lifted(ranked: Iterable[tuple[Key, float]], when: Callable[[Key], int | None], weight: float,
           window_ms: int, lifts: dict[Key, float],
           factor: Callable[[Key], float] = lambda key: 1.0) -> Iterator[tuple[Key, float]]:
    """``ranked`` (best first) with its first :data:`NEAR_TOP` lifted by their shared sittings.

    ``when``: a candidate's time (epoch ms; None: unknown, neither lifted nor lifting). Each lift
    (before ``factor``, the candidate's recency factor, which multiplies it as it does the rest of
    the score) goes in ``lifts``.
    """
    stream = iter(ranked)
    head = list(itertools.islice(stream, NEAR_TOP))
    times = [when(key) for key, _ in head]
    known = sorted(t for t in times if t is not None)
    out = []
    for (key, score), ts in zip(head, times, strict=True):
        near = 0 if ts is None else sum(abs(ts - t) <= window_ms for t in known) - 1  # not itself
        lift = weight * near / NEAR_TOP
        if lift:
            lifts[key] = lift
            score += lift * factor(key)
        out.append((key, score))
    out.sort(key=lambda kv: (-kv[1], kv[0][1], kv[0][0]))
    yield from out
    yield from stream
