"""Issue 47 item 3: a question asking for several (a count, a total, every time) spreads over sittings.

The engine knows no sessions, only when each memory was stored; a conversation's turns are seconds
apart. The spread is off by default until ``make eval`` measures it (rows ``spread .5``, ``spread .7``,
``spread .5 always``): these tests pin what it does when on (pure functions: no target).
"""

from __future__ import annotations

import itertools
import random

from guest.memory.spread import asks_several, spread


def test_what_asks_for_several():
    assert all(asks_several(q) for q in ("How many model kits have I worked on?", "What is the total amount?",
                                         "How much have I made from selling eggs?", "every time I deploy",
                                         "How often did we roll back?"))
    assert not any(asks_several(q) for q in ("Which model kit did I paint?", "Where do I keep my sneakers?"))


def test_the_lazy_spread_is_the_greedy_one_whatever_is_taken():
    """Against a brute-force greedy pick: the same order and scores, for random candidates and times."""
    rng = random.Random(47)
    window, factor = 3_600_000, 0.5
    for _ in range(200):
        scores = sorted(((("ns", f"m{i:02d}"), round(rng.random(), 2)) for i in range(rng.randint(0, 25))),
                        key=lambda kv: (-kv[1], kv[0][1]))
        times = {key: rng.choice([0, 10, 20, 10_000_000, 10_000_005, 30_000_000, None]) for key, _ in scores}
        left, given, expected = dict(scores), [], []
        while left:
            def demoted(key, given=given, left=left, times=times):
                ts = times[key]
                return left[key] * factor ** (0 if ts is None else sum(abs(g - ts) < window for g in given))
            best = min(left, key=lambda key: (-demoted(key), key[1]))
            expected.append((best, demoted(best)))
            if times[best] is not None:
                given.append(times[best])
            del left[best]
        assert list(spread(scores, times.get, factor, window)) == expected
        assert list(itertools.islice(spread(scores, times.get, factor, window), 3)) == expected[:3]
