"""Where a recalled memory's score comes from, channel by channel, and whether it has any evidence.

A hit's score is its *fused* score -- ``vector_weight`` times its cosine min-max normalised over the
recall's candidate pool, plus ``keyword_weight`` times its BM25 score normalised likewise (0 outside
a channel's candidates) -- times its recency factor (1 unless ``recency_weight`` is set). Within one
answer the scores order the hits; across queries they compare nothing (each pool's best is worth 1
in its channel). :class:`Channels` carries every part, as ``explain`` shows it and the hook's
ledger records it (``docs/memory.md``).

*No evidence at all* (:func:`evident`): no query term matched the memory and its cosine is below
:data:`MIN_COSINE`. Min-max normalisation gives the pool's worst vector candidate 0 and every
other one a share of the vector weight, so without this floor a store of ten memories answered any
query with all ten; ``recall`` leaves such candidates out (their slots go to the next ones).
"""

from __future__ import annotations

import struct
from dataclasses import dataclass

# Static embeddings are anisotropic: a query and an unrelated memory have a raw cosine of 0.76-0.82
# (the median of random pairs across the eval's sets). Below this floor a candidate is less like the
# query than most unrelated text is: no evidence (measured: docs/decisions.md D100).
MIN_COSINE = 0.75


def f32(value: float) -> float:
    """Round to float32, the precision of the WIT ``recall-hit.score``."""
    return float(struct.unpack("<f", struct.pack("<f", value))[0])


@dataclass(frozen=True)
class Channels:
    """One hit's channel scores.

    ``cosine`` and ``bm25`` raw, ``vector`` and ``keyword`` normalised (0..1 over the pool),
    ``lift`` what a named subject or time window added, ``fused`` their weighted sum plus the lift,
    ``recency`` and ``stale`` the factors applied to it: ``score = fused x recency x stale``.
    """

    cosine: float = 0.0
    bm25: float = 0.0
    vector: float = 0.0
    keyword: float = 0.0
    fused: float = 0.0
    recency: float = 1.0
    lift: float = 0.0
    stale: float = 1.0

    def as_json(self) -> dict[str, float]:
        """The parts as a JSON object, each rounded to float32 (as the score is)."""
        return {
            "cosine": f32(self.cosine),
            "bm25": f32(self.bm25),
            "vector": f32(self.vector),
            "keyword": f32(self.keyword),
            "fused": f32(self.fused),
            "recency": f32(self.recency),
            "lift": f32(self.lift),
            "stale": f32(self.stale),
        }


NONE = Channels()


def evident(matched: bool, cosine: float, floor: float = MIN_COSINE) -> bool:
    """Whether a candidate has any evidence: a matched query term, or a cosine at the floor or above."""
    return matched or cosine >= floor
