"""Session-level retrieval: rank a conversation's sessions by their first recalled turn, and score them.

What memory tools publish on LongMemEval-S (and on LoCoMo, rolled up): a question's *sessions* are
ranked by the first hit of each in one recall of :data:`POOL` turns, and scored with R@5 and R@10
-- ``any``: a gold session in the top k, the published figures' reading; ``all``: the share of the
gold sessions there -- the standard nDCG@5 (binary gains; the ideal puts every gold session first)
and turn-level R@10 over the turns that hold the answer (where the set marks them).

A set hands over each project with one gold-session set per own prompt and its ``session_of``
(turn key -> session); the engine sees neither.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from bench import metrics
from bench.project import Project, Prompt
from bench.runner import Outcome, Store, Targets, stores
from bench.variants import Variant, applied

POOL = 100  # turns recalled to rank sessions from (the engine's largest limit)
MEASURES = ("r5_any", "r10_any", "ndcg5", "r5_all", "r10_all", "turn_r10")
SessionOf = Callable[[str], str]
Asked = tuple[Project, list[set[str]]]  # a project, and the gold sessions of each own prompt


def scored(ranked_keys: list[str], gold: set[str], answer_turns: frozenset[str],
           session_of: SessionOf) -> dict[str, float]:
    """Session R@5 / R@10 (any, all), nDCG@5, and turn R@10 of one ranked list of turn keys."""
    ranked = list(dict.fromkeys(session_of(k) for k in ranked_keys))
    gains = dict.fromkeys(gold, 1.0)
    out = {
        "r5_any": metrics.hit_at(ranked, gains, 5), "r10_any": metrics.hit_at(ranked, gains, 10),
        "r5_all": metrics.recall_at(ranked, gains, 5), "r10_all": metrics.recall_at(ranked, gains, 10),
        "ndcg5": metrics.ndcg(ranked, gains, 5),
    }
    if answer_turns:
        out["turn_r10"] = metrics.recall_at(ranked_keys, dict.fromkeys(answer_turns, 1.0), 10)
    return out


def ranked_keys(store: Store, prompt: Prompt, variant: Variant) -> tuple[list[str], Any]:
    """The turn keys of one recall of :data:`POOL`, in rank order (turns with the same text: in key
    order), and what the call cost."""
    data, cost = store.ask("recall", {"query": prompt.text, "limit": POOL, **variant.recall})
    keys_of: dict[str, list[str]] = {}
    for turn_key, memory_id in sorted(store.ids.items()):
        keys_of.setdefault(memory_id, []).append(turn_key)
    return [k for hit in data for k in keys_of.get(hit["id"], [])], cost


def evaluate(projects: list[Asked], session_of: SessionOf, targets: Targets, target: str,
             variants: list[Variant]) -> dict[str, list[Outcome]]:
    """``{variant name: outcomes}``: every own prompt of every project, scored at the session level."""
    out: dict[str, list[Outcome]] = {v.name: [] for v in variants}
    for project, golds in projects:
        for store, variant in stores(project, targets, target, variants):
            with applied(variant):
                for prompt, gold in zip(project.own, golds, strict=True):
                    keys, cost = ranked_keys(store, prompt, variant)
                    out[variant.name].append({"project": project.name, "group": prompt.group,
                                              **scored(keys, gold, prompt.relevant, session_of),
                                              **cost._asdict()})
    return out


def summary(outcomes: list[Outcome]) -> dict[str, dict[str, float]]:
    """Each measure's mean, overall and per group (turn R@10: over the prompts with answer turns)."""
    def means(rows: list[Outcome]) -> dict[str, float]:
        out = {"n": float(len(rows))}
        for m in MEASURES:
            values = [r[m] for r in rows if m in r]
            out[m] = sum(values) / len(values) if values else 0.0
        return out

    groups = sorted({r["group"] for r in outcomes})
    return {"all": means(outcomes), **{g: means([r for r in outcomes if r["group"] == g]) for g in groups}}
