"""Retrieval metrics: nDCG@k, recall@k, hit@k."""

from __future__ import annotations

import math


def ndcg(ranked: list[str], gains: dict[str, float], k: int = 10) -> float:
    """Normalised discounted cumulative gain at ``k`` (linear gains)."""
    dcg = sum(gains.get(d, 0.0) / math.log2(i + 2) for i, d in enumerate(ranked[:k]))
    ideal = sorted(gains.values(), reverse=True)[:k]
    idcg = sum(g / math.log2(i + 2) for i, g in enumerate(ideal))
    return dcg / idcg if idcg else 0.0


def recall_at(ranked: list[str], gains: dict[str, float], k: int = 10) -> float:
    """Share of the relevant documents found in the top ``k``."""
    return len(set(ranked[:k]) & set(gains)) / len(gains) if gains else 0.0


def hit_at(ranked: list[str], gains: dict[str, float], k: int = 10) -> float:
    """1 when any relevant document is in the top ``k``."""
    return 1.0 if set(ranked[:k]) & set(gains) else 0.0
