"""Spreading a recall over several sittings when the question asks for several (issue 47 item 3).

"How many model kits have I worked on or bought?", "the total amount I spent on the handbag and the
skincare", "every time I …": the answer is in several conversations, and a plain ranking fills the
top with turns of the one that matches best. For such a question (:data:`CUE`), each candidate's
score is multiplied by ``factor`` once for every better candidate already given out within
``window_ms`` of it in time (one sitting: the turns of a conversation are stored seconds apart), so
the best memory of the next sitting comes before the second-best of the first.

The candidates arrive best first (:meth:`guest.memory.fusion.Fusion.ranked`); a demoted one waits in
a heap until no later candidate can beat it (a score is only ever lowered, so a candidate whose
demoted score beats the next one's raw score is final). The order therefore never depends on how
many candidates are taken, and ties are broken by id as everywhere.

The first candidate of each sitting keeps its rank or rises; only a sitting's second and later
candidates move down, so a question answered in one conversation still finds it where it did.
"""

from __future__ import annotations

import bisect
import heapq
import re
from collections.abc import Callable, Iterable, Iterator

Key = tuple[str, str]  # (namespace, memory id)

CUE = re.compile(
    r"\b(?:how\s+(?:many|much|often)|in\s+total|total|combined|altogether|all\s+the\s+times?|"
    r"every\s+time|each\s+time|so\s+far|compared?\s+to)\b",
    re.IGNORECASE,
)


def asks_several(query: str) -> bool:
    """Whether ``query`` asks for something spread over several sittings (a count, a sum, every time)."""
    return CUE.search(query) is not None


def spread(ranked: Iterable[tuple[Key, float]], when: Callable[[Key], int | None], factor: float,
           window_ms: int) -> Iterator[tuple[Key, float]]:
    """``ranked`` (best first) re-ordered with each candidate demoted by the better ones near it in time.

    ``when``: a candidate's time (epoch ms; None: unknown, never demoted nor demoting).
    """
    given: list[int] = []  # the times of the candidates given out, sorted
    waiting: list[tuple[float, str, str, float, int]] = []  # (-score, id, namespace, raw, demotions)

    def near(ts: int | None) -> int:
        if ts is None:
            return 0
        return bisect.bisect_right(given, ts + window_ms - 1) - bisect.bisect_left(given, ts - window_ms + 1)

    def settle(bound: float | None) -> Iterator[tuple[Key, float]]:
        """Give out every waiting candidate no later one can beat (all of them when ``bound`` is None)."""
        while waiting and (bound is None or -waiting[0][0] > bound):
            score, key_id, namespace, raw, counted = heapq.heappop(waiting)
            key = (namespace, key_id)
            ts = when(key)
            now = near(ts)
            if now != counted:  # a candidate near it was given out meanwhile: demoted again
                heapq.heappush(waiting, (-(raw * factor**now), key_id, namespace, raw, now))
                continue
            if ts is not None:
                bisect.insort(given, ts)
            yield key, -score

    for key, raw in ranked:
        yield from settle(raw)
        counted = near(when(key))
        heapq.heappush(waiting, (-(raw * factor**counted), key[1], key[0], raw, counted))
    yield from settle(None)
