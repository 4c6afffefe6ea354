"""A learned ranker over recall's own features, trained offline on the dev sets (issue 47 item 4).

``python -m bench.ranker`` asks every dev set through the native engine (the same rankings as the
component) for the hand-set ranking's top :data:`POOL` candidates of each question, with their
channel scores (``recall`` with ``explain``), and then:

1. **Features** of each candidate, all of them known to the guest at ranking time (:data:`FEATURES`):
   the normalised vector and keyword parts, the lift (named subject / time window), the raw cosine
   and BM25, whether a query term matched, how new it is among the candidates, how many of the
   hand-set top :data:`NEAR_TOP` were stored within :data:`NEAR_MS` of it (a sitting: the engine
   knows no sessions, only times) and its length. The captured kind is not among them: no dev set
   has captured memories, so nothing could be learned about it.
2. **Labels** from each set's judgements: Cranfield/CISI qrels (graded), LoCoMo-dev evidence turns,
   LongMemEval-S dev (variant A) turns of the gold sessions, the coding dev set's module notes.
3. **Training** (``--method``), a linear score ``w . x`` (plus two products), started at the hand-set
   weights (``.25 vector + .75 keyword + lift``): ``ascent`` (the default) is coordinate ascent on the
   headline measures themselves, each set weighing the same and a loss on any set counting
   :data:`GUARD` times; ``pairwise`` is a RankNet-style logistic loss over (relevant, not relevant)
   pairs of one question, pulled toward the hand-set weights (numpy, full batch).
4. **Honest comparison**: two-fold cross-validation over the questions of each set (every question
   is scored by a model that never saw it), repeated over :data:`SPLITS` random splits; per set the
   headline measure (:data:`HEADLINE`) of the hand-set order and of the learned one, their paired
   difference and its standard error (over questions). ``as w`` is the hand-set order re-made from
   the features, which must equal ``hand``.

The candidates are cached in ``build/ranker/`` under a name that changes with the guest's code
(``--fresh`` asks again): asking every set took ~20 min on the loaded 2-core machine, training and
cross-validating both methods from the cache ~6 min. The result (docs/decisions.md D275): no learned
model beats the hand-set weights on every set, so nothing ships to the guest.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import random
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import numpy as np

from bench import datasets, devset, lme, locomo, metrics, sessions, smart
from bench.project import Project, Prompt
from bench.runner import Targets, opened

POOL = 100  # candidates per question: the engine's largest limit, the pool sessions are ranked from
NEAR_TOP = 20  # ... of which the hand-set top this many count as a candidate's neighbours
NEAR_MS = 3_600_000  # stored within an hour: the same sitting
SPLITS = 5
NOISE = 2.0  # a gain counts when it exceeds this many standard errors of the paired difference
SEED = 47
SETS = ("cranfield", "cisi", "locomo", "lme", "dev")
HEADLINE = {"cranfield": "nDCG@10", "cisi": "nDCG@10", "locomo": "nDCG@10", "lme": "session nDCG@5",
            "dev": "nDCG@10"}
COLLECTED_FEATURES = ("vector", "keyword", "lift", "cosine", "log_bm25", "matched", "newness", "neighbours",
                      "log_chars")
FEATURES = (*COLLECTED_FEATURES, "vector_x_keyword", "cosine_x_matched")  # two products, made on load
HAND = {"vector": 0.25, "keyword": 0.75, "lift": 1.0}  # today's fused score (guest/memory/recall.py)
CACHE = Path("build/ranker")
COLLECTED = 1  # the version of what :func:`collect` keeps (a change asks the engine again)

Question = dict[str, Any]


# --- collecting: one record per question, its candidates in the hand-set order -------------------

def features(hits: list[dict[str, Any]]) -> list[list[float]]:
    """Each hit's feature vector (:data:`COLLECTED_FEATURES`), from the recall's answer alone."""
    times = [h["ts"] for h in hits]
    low, high = (min(times), max(times)) if times else (0, 0)
    top = times[:NEAR_TOP]
    rows = []
    for at, h in enumerate(hits):
        e = h["explain"]
        near = sum(abs(h["ts"] - t) <= NEAR_MS for t in top) - (at < NEAR_TOP)  # not itself
        rows.append([e["vector"], e["keyword"], e["lift"], e["cosine"], math.log1p(e["bm25"]),
                     float(e["bm25"] > 0), (h["ts"] - low) / (high - low) if high > low else 0.0,
                     near / NEAR_TOP, math.log1p(len(h["text"])) / 8])
    return rows


def asked(project: Project, targets: Targets, questions: list[tuple[str, Prompt]],
          evaluator: Callable[[str, Prompt, dict[str, str]], dict[str, Any]]) -> Iterator[Question]:
    """Each question of ``project`` recalled (top :data:`POOL`, explained), with what it is scored by."""
    with opened(project, targets, "native") as store:
        keys_of: dict[str, list[str]] = {}
        for key, memory_id in sorted(store.ids.items()):
            keys_of.setdefault(memory_id, []).append(key)
        for qid, prompt in questions:
            hits, _ = store.ask("recall", {"query": prompt.text, "limit": POOL, "explain": True})
            yield {"qid": qid, "group": prompt.group, "x": features(hits),
                   "keys": [keys_of.get(h["id"], []) for h in hits], **evaluator(qid, prompt, store.ids)}


def collect(name: str, root: Path, targets: Targets) -> list[Question]:
    """Every question of set ``name`` with its candidates, features and judgements."""
    out: list[Question] = []
    if name in ("cranfield", "cisi"):
        coll = datasets.cranfield(root) if name == "cranfield" else datasets.cisi(root)
        judged = [(qid, Prompt(text, frozenset(), "all"))
                  for qid, text in coll.queries if coll.qrels.get(qid)]
        out += asked(smart.as_project(coll), targets, judged, lambda qid, p, ids: {"gains": coll.qrels[qid]})
    elif name == "locomo":
        projects, _ = locomo.load(root)
        for project in projects:
            out += asked(project, targets, [(f"{project.name}/{i}", p) for i, p in enumerate(project.own)],
                         lambda qid, p, ids: {"gains": dict.fromkeys(p.relevant, 1.0)})
    elif name == "lme":
        for project, golds in lme.load(root, "A"):
            gold = golds[0]
            out += asked(project, targets, [(project.name, project.own[0])],
                         lambda qid, p, ids, g=gold: {"gold": sorted(g), "answer": sorted(p.relevant),
                                                 "gains": {k: 1.0 for k in ids if lme.session_of(k) in g}})
    elif name == "dev":
        dev = devset.cached(CACHE)
        out += asked(dev, targets, [(f"dev/{i}", p) for i, p in enumerate(dev.own)],
                     lambda qid, p, ids: {"gains": dict.fromkeys(p.relevant, 1.0)})
    for q in out:
        q["y"] = [max((q["gains"].get(k, 0.0) for k in keys), default=0.0) for keys in q["keys"]]
    return out


def cache_name(name: str, root: Path) -> Path:
    """Where set ``name``'s candidates are kept: named by the guest's code and :data:`COLLECTED`."""
    h = hashlib.sha256(f"{name}\n{root.resolve()}\n{COLLECTED}\n".encode())
    for path in sorted(Path("guest").rglob("*.py")):
        h.update(path.read_bytes())
    return CACHE / f"{name}-{h.hexdigest()[:12]}.json"


def loaded(name: str, root: Path, targets: Targets, fresh: bool) -> list[Question]:
    """Set ``name``'s questions, from the cache unless ``fresh`` (or it is absent)."""
    path = cache_name(name, root)
    if path.is_file() and not fresh:
        questions = list(json.loads(path.read_text(encoding="utf-8")))
    else:
        start = time.perf_counter()
        questions = collect(name, root, targets)
        print(f"  {name}: {len(questions)} questions asked in {time.perf_counter() - start:.0f} s",
              file=sys.stderr, flush=True)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(questions), encoding="utf-8")
    for q in questions:
        x = np.asarray(q["x"], dtype=float).reshape(-1, len(COLLECTED_FEATURES))
        q["x"] = np.column_stack([x, x[:, 0] * x[:, 1], x[:, 3] * x[:, 5]])
    return questions


# --- scoring a question's candidates in some order ---------------------------------------------------

def headline(name: str, q: Question, order: list[int]) -> dict[str, float]:
    """The set's measures of candidates ``order`` (indexes into the hand-set order)."""
    ranked = [k for i in order for k in q["keys"][i]]
    if name == "lme":
        s = sessions.scored(ranked, set(q["gold"]), frozenset(q["answer"]), lme.session_of)
        return {"main": s["ndcg5"], "r5": s["r5_any"], "r5_all": s["r5_all"]}
    gains = q["gains"]
    if name in ("cranfield", "cisi"):
        ranked = list(dict.fromkeys(ranked))
    return {"main": metrics.ndcg(ranked, gains, 10), "r10": metrics.recall_at(ranked, gains, 10),
            "hit10": metrics.hit_at(ranked, gains, 10)}


def order(x: np.ndarray, w: np.ndarray, top: int | None = None) -> list[int]:
    """Candidates by learned score, best first (the first ``top``); ties keep the hand-set order."""
    if len(x) == 0:
        return []
    return [int(i) for i in np.argsort(-(x @ w), kind="stable")[:top]]


def cut(name: str) -> int | None:
    """How many of the best candidates decide set ``name``'s measures (each candidate has a key)."""
    return None if name == "lme" else 10


# --- training ----------------------------------------------------------------------------------------

def hand_weights() -> np.ndarray:
    """Today's fused score as weights over :data:`FEATURES`."""
    return np.array([HAND.get(f, 0.0) for f in FEATURES])


def pairs(questions: list[Question], most: int = 400) -> tuple[np.ndarray, np.ndarray]:
    """(better - worse) feature differences of one question's candidate pairs, and each pair's weight.

    A question gives at most ``most`` pairs (sampled), and weighs 1 in all.
    """
    rnd = random.Random(SEED)
    diffs, weights = [], []
    for q in questions:
        x, y = q["x"], q["y"]
        if len(y) == 0:
            continue
        found = [(i, j) for i in range(len(y)) for j in range(len(y)) if y[i] > y[j]]
        if not found:
            continue
        if len(found) > most:
            found = rnd.sample(found, most)
        for i, j in found:
            diffs.append(x[i] - x[j])
            weights.append(1.0 / len(found))
    if not diffs:
        return np.zeros((0, len(FEATURES))), np.zeros(0)
    return np.asarray(diffs), np.asarray(weights)


def train(by_set: dict[str, list[Question]], l2: float, steps: int = 400) -> np.ndarray:
    """Pairwise logistic weights, each set weighing the same, pulled toward the hand-set weights."""
    hand = hand_weights()
    data = [pairs(qs) for qs in by_set.values()]
    data = [(d, w / w.sum()) for d, w in data if len(d)]
    w = hand.copy()
    rate = 2.0
    for _ in range(steps):
        grad = l2 * (w - hand)
        for d, weight in data:
            margin = d @ w
            grad -= (weight * (1.0 / (1.0 + np.exp(margin)))) @ d / len(data)
        w -= rate * grad
    return np.asarray(w)


GUARD = 4.0
STEPS = (0.5, 0.2, 0.05)  # coordinate ascent's moves, in units of the feature's weight scale


def ascend(by_set: dict[str, list[Question]], l2: float, rounds: int = 2) -> np.ndarray:
    """Coordinate ascent on the mean headline measure itself (RankLib's), from the hand-set weights.

    Each round tries, feature by feature, each move of :data:`STEPS` up and down and keeps the best
    that gains more than ``l2`` (a move must earn its keep: fewer changes, less overfitting).
    """
    x_cache = {name: [q["x"] for q in qs] for name, qs in by_set.items()}

    def means(w: np.ndarray) -> np.ndarray:
        return np.array([np.mean([headline(name, q, order(x, w, cut(name)))["main"]
                                  for q, x in zip(qs, x_cache[name], strict=True)])
                         for name, qs in by_set.items()])

    w = hand_weights()
    start = means(w)

    def value(w: np.ndarray) -> float:
        gains = means(w) - start  # a loss on any set costs GUARD times what it costs the mean
        return float(np.mean(gains) + GUARD * min(0.0, float(np.min(gains))))

    best = value(w)
    for _ in range(rounds):
        moved = False
        for f in range(len(FEATURES)):
            trials = []
            for step in STEPS:
                for sign in (1, -1):
                    t = w.copy()
                    t[f] += sign * step
                    trials.append((value(t), sign * step, t))
            got, _, t = max(trials, key=lambda r: (r[0], -abs(r[1])))
            if got > best + l2:
                w, best, moved = t, got, True
        if not moved:
            break
    return w


METHODS: dict[str, Callable[[dict[str, list[Question]], float], np.ndarray]] = {
    "pairwise": train, "ascent": ascend}
DEFAULT_L2 = {"pairwise": 0.01, "ascent": 0.0005}


def compare(by_set: dict[str, list[Question]], l2: float, method: str = "ascent",
            splits: int = SPLITS) -> dict[str, dict[str, Any]]:
    """Two-fold cross-validation over each set's questions, ``splits`` times: hand-set vs learned."""
    hand = hand_weights()
    rows: dict[str, dict[str, Any]] = {}
    base = {name: [headline(name, q, list(range(len(q["y"])))) for q in qs] for name, qs in by_set.items()}
    learned: dict[str, list[list[dict[str, float]]]] = {name: [] for name in by_set}
    weights = []
    for split in range(splits):
        rnd = random.Random(SEED + split)
        folds: dict[str, list[int]] = {}
        for name, qs in by_set.items():
            idx = list(range(len(qs)))
            rnd.shuffle(idx)
            folds[name] = idx
        scored: dict[str, list[dict[str, float]]] = {name: [{}] * len(qs) for name, qs in by_set.items()}
        for fold in (0, 1):
            train_set = {name: [qs[i] for n, i in enumerate(folds[name]) if n % 2 != fold]
                         for name, qs in by_set.items()}
            w = METHODS[method](train_set, l2)
            weights.append(w)
            for name, qs in by_set.items():
                for n, i in enumerate(folds[name]):
                    if n % 2 == fold:
                        scored[name][i] = headline(name, qs[i], order(qs[i]["x"], w))
        for name in by_set:
            learned[name].append(scored[name])
    for name in by_set:
        b = [r["main"] for r in base[name]]
        per_q = np.mean([[r["main"] for r in run] for run in learned[name]], axis=0)
        diff = per_q - np.asarray(b)
        extra = [k for k in base[name][0] if k != "main"]
        rows[name] = {
            "n": len(b), "hand": float(np.mean(b)), "learned": float(np.mean(per_q)),
            "as_weights": float(np.mean([headline(name, q, order(q["x"], hand))["main"]
                                         for q in by_set[name]])),
            "diff": float(np.mean(diff)), "se": float(np.std(diff, ddof=1) / math.sqrt(len(b))),
            **{f"hand_{k}": float(np.mean([r[k] for r in base[name]])) for k in extra},
            **{f"learned_{k}": float(np.mean([[r[k] for r in run] for run in learned[name]])) for k in extra},
        }
    rows["_weights"] = {"mean": np.mean(weights, axis=0).tolist(), "hand": hand.tolist(), "splits": splits}
    return rows


def table(rows: dict[str, dict[str, Any]], l2: float, method: str) -> str:
    """The comparison as a text table."""
    out = [f"learned ranker ({method}), 2-fold CV x {rows['_weights']['splits']} splits, l2 {l2:g}",
           f"{'set':<10} {'n':>4} {'measure':<15} {'hand':>6} {'as w':>6} {'learned':>8} {'diff':>7} "
           f"{'se':>6}  other"]
    for name, r in rows.items():
        if name.startswith("_"):
            continue
        other = "  ".join(f"{k[5:]} {r[k]:.3f}->{r['learned_' + k[5:]]:.3f}"
                          for k in r if k.startswith("hand_"))
        out.append(f"{name:<10} {r['n']:>4} {HEADLINE[name]:<15} {r['hand']:>6.3f} {r['as_weights']:>6.3f} "
                   f"{r['learned']:>8.3f} {r['diff']:>+7.3f} {r['se']:>6.3f}  {other}")
    short = [name for name, r in rows.items() if not name.startswith("_") and r["diff"] <= NOISE * r["se"]]
    out.append(f"beats the hand-set weights on every set (gain > {NOISE:g} se): "
               + ("yes" if not short else f"no ({', '.join(short)})"))
    w = rows["_weights"]
    out.append("weights (mean over folds) vs hand-set: " + ", ".join(
        f"{f} {m:+.3f} ({h:g})" for f, m, h in zip(FEATURES, w["mean"], w["hand"], strict=True)))
    return "\n".join(out)


def sitting_rows(by_set: dict[str, list[Question]], weights: tuple[float, ...] = (0.25, 0.5, 1.0)) -> str:
    """The hand-set weights plus the neighbours feature alone at a few fixed weights (nothing learned)."""
    out = ["hand-set weights + neighbours x w (no fitting; all questions):",
           f"{'w':>5} " + " ".join(f"{name:>10}" for name in by_set)]
    at = FEATURES.index("neighbours")
    for weight in (0.0, *weights):
        w = hand_weights()
        w[at] = weight
        means = [np.mean([headline(name, q, order(q["x"], w, cut(name)))["main"] for q in qs])
                 for name, qs in by_set.items()]
        out.append(f"{weight:>5g} " + " ".join(f"{m:>10.3f}" for m in means))
    return "\n".join(out)


def main() -> None:
    """Collect (or read) the candidates, cross-validate, print the table."""
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--datasets", type=Path, default=datasets.DATASETS_DIR)
    parser.add_argument("--sets", nargs="+", choices=SETS, default=list(SETS))
    parser.add_argument("--fresh", action="store_true", help="ask the engine again (ignore the cache)")
    parser.add_argument("--l2", type=float, action="append",
                        help="pairwise: the pull toward the hand-set weights; ascent: the least gain "
                        "a move needs")
    parser.add_argument("--method", choices=("ascent", "pairwise"), action="append")
    parser.add_argument("--splits", type=int, default=SPLITS)
    args = parser.parse_args()
    targets = Targets(Path("dist/rs_learn.wasm"))
    by_set = {}
    for name in args.sets:
        if name in ("cranfield", "cisi") and not datasets.available(args.datasets):
            print(f"skipped {name}: no datasets at {args.datasets}")
            continue
        present = {"locomo": locomo.available, "lme": lme.available}.get(name)
        if present is not None and not present(args.datasets):
            print(f"skipped {name}: no questions at {args.datasets}")
            continue
        by_set[name] = loaded(name, args.datasets, targets, args.fresh)
    for method in args.method or ["ascent"]:
        for l2 in args.l2 or [DEFAULT_L2[method]]:
            print(table(compare(by_set, l2, method, args.splits), l2, method), flush=True)
    print(sitting_rows(by_set))


if __name__ == "__main__":
    main()
