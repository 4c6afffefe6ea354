"""``make eval``'s tables (Markdown, one row per variant) and its JSON figures."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from bench.locomo import CATEGORY_NAMES
from bench.smart import MODES, REFERENCE, STRATEGIES

SETS = ("cranfield", "cisi")
CHANNELS = {
    "vector": "rs-learn vector channel (static int8)",
    "keyword": "rs-learn keyword channel (BM25+stem)",
    "hybrid": "rs-learn hybrid recall (fused)",
}
COST_COLUMNS = [(kind, verb, target)  # the cross-check's columns, in order
                for kind, verb in (("cpu", "recall"), ("cpu", "hook"), ("wall", "recall"))
                for target in ("native", "wasm")]
STRATEGY_LABELS = {
    "derived": "2-6 word derived query only",
    "full": "full prompt only",
    "both": "derived + full prompt when short (merged)",
    "auto": "full prompt when short (<= 200 words), else derived (default)",
}


def table(header: list[str], rows: list[list[str]]) -> str:
    """A Markdown table: the first column left-aligned, the others right-aligned."""
    lines = ["| " + " | ".join(header) + " |", "|---|" + "---:|" * (len(header) - 1)]
    return "\n".join(lines + ["| " + " | ".join(row) + " |" for row in rows])


def f3(value: float) -> str:
    """A figure as the tables print it (``.498``: three decimals)."""
    return f"{value:.3f}"


def smart(results: dict[str, Any], target: str) -> str:
    """The Cranfield / CISI tables (the default engine), as ``make eval`` has always printed them."""
    out = [f"Recall quality ({target} target; @10; nDCG / R / hit)\n"]
    rows = [[CHANNELS[m]] + [f3(results[c][m][x]) for c in SETS for x in ("ndcg", "recall", "hit")]
            for m in MODES]
    rows += [[name, f3(ref["cranfield"]), "", "", f3(ref["cisi"]), "", ""] for name, ref in REFERENCE.items()]
    out.append(table(["system", "Cranfield nDCG", "R", "hit", "CISI nDCG", "R", "hit"], rows))
    out.append("\nAuto-recall (prompt-submit hook) query strategies, nDCG@10, no relevance gate:\n")
    out.append(table(["strategy", "Cranfield", "CISI"],
                     [[STRATEGY_LABELS[s]] + [f3(results[c][f"hook:{s}"]["ndcg"]) for c in SETS]
                      for s in STRATEGIES]))
    transformer = REFERENCE["all-MiniLM-L6-v2 transformer (reference)"]
    gaps = {c: results[c]["hybrid"]["ndcg"] - transformer[c] for c in SETS}
    out.append(f"\nhybrid - transformer nDCG@10: Cranfield {gaps['cranfield']:+.3f}, "
               f"CISI {gaps['cisi']:+.3f}")
    for coll in SETS:
        r = results[coll]
        same, total = int(r["pruning"]["same"]), int(r["pruning"]["queries"])
        out.append(f"{coll}: pruned keyword top 10 / 50 = exhaustive BM25 on {same} of {total} queries"
                   + ("" if same == total else "  <- DIFFERENT"))
        beats = r["hybrid"]["ndcg"] > max(r["vector"]["ndcg"], r["keyword"]["ndcg"])
        out.append(f"{coll}: hybrid beats both channels alone: {'yes' if beats else 'NO'}")
    return "\n".join(out)


def locomo(summaries: dict[str, dict[str, Any]]) -> str:
    """LoCoMo-dev: recall per category and overall, then the hook, one row per variant."""
    rows = []
    for name, s in summaries.items():
        for group in [g for g in s["recall"] if g != "all"] + ["all"]:
            r = s["recall"][group]
            label = "all" if group == "all" else f"{group} {CATEGORY_NAMES.get(int(group), '')}".strip()
            rows.append([name, label, str(r["n"]), f3(r["ndcg"]), f3(r["recall"]), f3(r["hit"])])
    recall = table(["variant", "category", "questions", "nDCG@10", "R@10", "hit@10"], rows)
    return ("LoCoMo-dev recall (limit 10, binary gains)\n\n" + recall
            + "\n\nLoCoMo-dev hook (auto_recall, budget 1500 tokens)\n\n" + hook(summaries)
            + "\n\n" + session(summaries))


def session(summaries: dict[str, dict[str, Any]]) -> str:
    """The replayed sessions: tokens injected with each prompt alone and in one session (nothing twice)."""
    rows = []
    for name, s in summaries.items():
        r = s["session"]
        if not r["prompts"]:
            continue
        rows.append([name, str(r["sessions"]), str(r["prompts"]), f"{r['tokens_alone']:.0f}",
                     f"{r['tokens']:.0f}", f"{r['saved']:.1%}", f3(r["gold_alone"] / r["prompts"]),
                     f3(r["gold"] / r["prompts"])])
    header = ["variant", "sessions", "prompts", "tokens alone", "tokens in session", "saved",
              "gold in context alone", "in session"]
    return ("Replayed sessions (each project's first 50 own prompts in turn as one session: a memory is "
            "injected once)\n\n" + table(header, rows))


def hook(summaries: dict[str, dict[str, Any]]) -> str:
    """The hook's figures: own-hit, own-injected, foreign false alarms, mean tokens, per variant."""
    rows = [[name, f3(h["own_hit"]), f3(h["own_injected"]), f3(h["foreign_alarm"]),
             f3(h["unrelated_alarm"]) if h.get("unrelated") else "-",
             f"{h['tokens_own']:.0f}", f"{h['tokens_foreign']:.0f}", f"{s['ms']['hook_cpu_p50']:.1f}"]
            for name, s in summaries.items() for h in [s["hook"]]]
    return table(["variant", "own-hit", "own-injected", "foreign false alarms", "unrelated false alarms",
                  "tokens own", "tokens foreign", "CPU ms p50"], rows)


SESSION_COLUMNS = [("r5_any", "R@5"), ("r10_any", "R@10"), ("ndcg5", "nDCG@5"), ("r5_all", "R@5 all"),
                   ("r10_all", "R@10 all"), ("turn_r10", "turn R@10")]
CATEGORIES = {str(k): v for k, v in CATEGORY_NAMES.items()}


def sessions(title: str, summaries: dict[str, dict[str, Any]], names: dict[str, str] | None = None) -> str:
    """Session-level figures: one row per variant, then the default variant per group."""
    header = ["variant", "n", *[label for _, label in SESSION_COLUMNS]]
    def cells(figures: dict[str, float]) -> list[str]:
        return [f"{figures['n']:.0f}", *[f3(figures[m]) for m, _ in SESSION_COLUMNS]]

    rows = [[name, *cells(s["all"])] for name, s in summaries.items()]
    default = summaries.get("default") or next(iter(summaries.values()))
    groups = [[(names or {}).get(g, g), *cells(f)] for g, f in default.items() if g != "all"]
    return (f"{title}\n\n" + table(header, rows) + "\n\nBy type (default variant)\n\n"
            + table(["type", *header[1:]], groups))


def devset(summaries: dict[str, dict[str, Any]], meta: dict[str, Any]) -> str:
    """The dev set's recall and hook figures, one row per variant."""
    rows = [[name, f3(r["ndcg"]), f3(r["recall"]), f3(r["hit"]), f"{s['ms']['recall_cpu_p50']:.1f}"]
            for name, s in summaries.items() for r in [s["recall"]["all"]]]
    head = (f"Dev set (standard-library notes; seed {meta['seed']}, digest {meta['digest']}: "
            f"{meta['memories']} memories of {meta['modules']} modules, {meta['own']} own prompts, "
            f"{meta['foreign']} foreign prompts from {meta['foreign_modules']} other modules, "
            f"{meta.get('unrelated', 0)} unrelated prompts: CISI's queries)\n\n")
    recall = table(["variant", "nDCG@10", "R@10", "hit@10", "CPU ms p50"], rows)
    return (head + recall + "\n\nDev set hook (auto_recall, budget 1500 tokens)\n\n" + hook(summaries)
            + "\n\n" + session(summaries))


def prefs(summaries: dict[str, dict[str, Any]], meta: str, path: str = "prefs_devset.json") -> str:
    """A preferences set's recall and hook figures, one row per variant."""
    rows = [[name, f3(r["ndcg"]), f3(r["recall"]), f3(r["hit"])]
            for name, s in summaries.items() for r in [s["recall"]["all"]]]
    return (f"Preferences and rules asked in other words, {path} ({meta})\n\n"
            + table(["variant", "nDCG@10", "R@10", "hit@10"], rows)
            + "\n\nPreferences hook (auto_recall, budget 1500 tokens)\n\n" + hook(summaries))


def everything(results: dict[str, Any], variants: list[str]) -> str:
    """Every variant on every set that ran: the ablation table (ms: a recall's median CPU time)."""
    smart_sets = [c for c in SETS if c in results]
    own_sets = [n for n in ("locomo", "dev", "prefs", "prefs_asked") if n in results]
    header = ["variant"] + [f"{c} nDCG" for c in smart_sets]
    for name in own_sets:
        header += [f"{name} nDCG", "R", "hit", "own-hit", "false alarms", "recall ms"]
    rows = []
    for variant in variants:
        row = [variant] + [f3(results[c]["variants"][variant]["ndcg"]) for c in smart_sets]
        for name in own_sets:
            s = results[name][variant]
            row += [f3(s["recall"]["all"][x]) for x in ("ndcg", "recall", "hit")]
            row += [f3(s["hook"][x]) for x in ("own_hit", "foreign_alarm")]
            row.append(f"{s['ms']['recall_cpu_p50']:.1f}")
        rows.append(row)
    return "Every variant on every set\n\n" + table(header, rows)


def crosschecks(checks: list[dict[str, Any]]) -> str:
    """Native and wasm on the same subsets: identical answers, cost per recall and per hook call."""
    rows = []
    for c in checks:
        ms = [f"{c[f'{target}_{verb}_{kind}_p50']:.1f}" for kind, verb, target in COST_COLUMNS]
        ratio = c["wasm_recall_cpu_p50"] / max(c["native_recall_cpu_p50"], 1e-9)
        rows.append([c["variant"], c["project"], str(c["memories"]), f"{c['identical']} / {c['calls']}",
                     "yes" if c["same_ids"] else "NO", *ms[:2], f"{ratio:.1f}x", *ms[2:]])
    return ("Both targets on the same stores (ms per call, median; CPU of the calling thread, and wall)\n\n"
            + table(["variant", "subset", "memories", "identical answers", "same ids", "recall CPU native",
                     "wasm", "wasm / native", "hook CPU native", "wasm", "recall wall native", "wasm"], rows))


def write(path: Path, figures: dict[str, Any]) -> None:
    """The figures as indented JSON (keys sorted, so that two runs diff line by line)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(figures, indent=1, sort_keys=True) + "\n", encoding="utf-8")
