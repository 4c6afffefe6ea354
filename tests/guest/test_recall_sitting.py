"""Issue 47 (D280): a candidate whose sitting the other top candidates share is lifted.

Two memories stored minutes apart (one sitting) and a lone one stored a day earlier, all three with the
same evidence for the query: with the lift off they tie and come in id order; with it on the two of the
sitting come first (in id order), each lifted by ``weight x 1 / NEAR_TOP``, on both targets. The pure
function is checked against a brute-force ordering.
"""

from __future__ import annotations

import itertools
import random

import pytest
from envelopes import ok

from guest.memory.sitting import NEAR_TOP, lifted

HOUR = 3_600_000
# same length, one query word each (equal BM25); a lone note whose id sorts first, so the lift must
# overcome the id order
LONE = "xylophone tuning notes amber"
SITTING = ("xylophone tuning notes blue", "xylophone tuning notes cedar")


def ranked(guest, **body) -> list[tuple[str, float]]:
    hits = ok(guest, "recall", {"query": "xylophone", "mode": "keyword", "limit": 3, **body})
    return [(h["id"], h["score"]) for h in hits]


def test_two_memories_of_one_sitting_outrank_an_equally_scored_lone_one(guest, clock):
    now = clock.now_ms
    lone = ok(guest, "memorize", {"text": LONE, "ts": now - 24 * HOUR})["id"]
    pair = [ok(guest, "memorize", {"text": text, "ts": now - 600_000 * i})["id"]
            for i, text in enumerate(SITTING)]
    assert lone < min(pair)  # id order alone puts the lone one first

    off = ranked(guest, sitting_weight=0.0)
    assert [i for i, _ in off] == sorted([lone, *pair])
    assert len({score for _, score in off}) == 1  # equally scored

    on = ranked(guest, sitting_weight=0.5)
    assert [i for i, _ in on] == [*sorted(pair), lone]
    scores = dict(on)
    assert scores[pair[0]] == scores[pair[1]] == pytest.approx(off[0][1] + 0.5 / NEAR_TOP, abs=1e-6)
    assert scores[lone] == off[0][1]

    explained = ok(guest, "recall", {"query": "xylophone", "mode": "keyword", "limit": 3,
                                     "sitting_weight": 0.5, "explain": True})
    parts = {h["id"]: h["explain"] for h in explained}
    assert parts[pair[0]]["lift"] == pytest.approx(0.5 / NEAR_TOP) and parts[lone]["lift"] == 0.0
    assert [i for i, _ in ranked(guest, sitting_weight=0.5, limit=1)] == [min(pair)]  # not the limit's doing


def test_the_lift_is_the_brute_force_reordering_of_the_top():
    """Random candidates and times against a direct computation: the lifted head, then the rest."""
    rng = random.Random(47)
    weight = 0.5
    for _ in range(200):
        scores = sorted(((("ns", f"m{i:02d}"), round(rng.random(), 2)) for i in range(rng.randint(0, 30))),
                        key=lambda kv: (-kv[1], kv[0][1]))
        times = {key: rng.choice([0, 10, HOUR, 2 * HOUR + 1, 10 * HOUR, None]) for key, _ in scores}
        head, rest = scores[:NEAR_TOP], scores[NEAR_TOP:]
        known = [times[k] for k, _ in head if times[k] is not None]
        def near(key, known=known, times=times):
            return 0 if times[key] is None else sum(abs(times[key] - t) <= HOUR for t in known) - 1
        expected = sorted(((key, score + weight * near(key) / NEAR_TOP) for key, score in head),
                          key=lambda kv: (-kv[1], kv[0][1]))
        lifts: dict[tuple[str, str], float] = {}
        got = list(lifted(scores, times.get, weight, HOUR, lifts))
        assert [k for k, _ in got] == [k for k, _ in expected + rest]
        assert [s for _, s in got] == pytest.approx([s for _, s in expected + rest])
        assert all(lifts[k] > 0 for k in lifts)
        assert list(itertools.islice(lifted(scores, times.get, weight, HOUR, {}), 3)) == got[:3]
        if rest:  # the head never falls below what follows it
            assert min(s for _, s in got[:NEAR_TOP]) >= rest[0][1]
