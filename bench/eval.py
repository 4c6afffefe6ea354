"""`make eval`: recall quality and the hook's precision through the real engine, on four sets.

* **Cranfield and CISI** (``bench/smart.py``): each channel, the fused recall, the hook's query
  strategies; reference rows from ``../shared/datasets/README.md``.
* **LoCoMo-dev** (``bench/locomo.py``): five conversations, each its own store of timed turns;
  recall per question category, and the hook on own and foreign questions.
  Also rolled up to sessions (``bench/sessions.py``), the unit other memory tools publish.
* **LongMemEval-S dev** (``bench/lme.py``): 46 questions, each its own store of dated chat turns;
  session R@5 / R@10 / nDCG@5 and turn R@10, variant A (user turns) and B (all turns), per
  question type. Variants that change the index run on A only, the default on both.
* **The dev set** (``bench/devset.py``): standard-library notes, held-out and foreign prompts.
* **Preferences** (``bench/prefs.py``): rules and preferences asked about in other words
  ("Which package manager should I use?" for "Always use pnpm"), and the hook on them.
* **Capture's rules** (``bench/capture_rules.py``): which typed prompts capture keeps as rules, on
  its dev set and held-out set of typed prompts (the host decides: no store, no target).
* **Injection by trust** (``bench/injection_eval.py``): attacks stored with each untrusted origin
  (and the agent's), asked with prompts that use their words: how many the hook injects, the trust
  gate on and off, and how many legitimate notes it holds back.
* **Secrets** (``bench/secrets_eval.py``): secret forms stored and ordinary notes changed by redaction.
* **Both targets** (``bench/crosscheck.py``): a subset of LoCoMo-dev and of the dev set memorized
  and asked natively and in the component: identical answers, and the cost of a call on each.

Everything runs on the native guest by default (the same rankings as the component, faster);
``--target wasm`` runs the built component throughout. One table row per variant
(``bench/variants.py``); the figures are also written as JSON (``--out``) for a later run to diff,
and each prompt's outcome next to them (``-prompts.json``). The datasets are read from
``../shared/datasets`` (``--datasets``); a set whose files are absent is skipped with a message.
"""

from __future__ import annotations

import argparse
import datetime
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

from bench import (
    capture_rules,
    datasets,
    devset,
    injection_eval,
    lme,
    locomo,
    prefs,
    report,
    runner,
    secrets_eval,
    sessions,
    smart,
)
from bench.crosscheck import crosscheck, subset
from bench.project import Project, digest
from bench.variants import Variant, chosen

SETS = ("cranfield", "cisi", "locomo", "lme", "dev", "prefs", "rules", "injection", "secrets")
CROSSCHECK_CONVERSATION = "30"  # the smallest LoCoMo-dev conversation (369 turns), all of it
CROSSCHECK_MEMORIES = 400  # of the dev set's
CROSSCHECK_PROMPTS = (40, 40)  # own prompts (each recalled and asked of the hook), foreign prompts
T = TypeVar("T")


def timed(what: str, work: Callable[..., T], *args: Any) -> T:
    """``work(*args)``, saying on stderr how long it took."""
    start = time.perf_counter()
    result = work(*args)
    print(f"  {what}: {time.perf_counter() - start:.1f} s", file=sys.stderr, flush=True)
    return result


def commit() -> str:
    """The checkout's commit (``+`` when the work tree differs), or ``""`` outside git."""
    root = Path(__file__).resolve().parent.parent
    try:
        head = subprocess.run(["git", "rev-parse", "HEAD"], cwd=root, capture_output=True, text=True,
                              check=True).stdout.strip()
        dirty = subprocess.run(["git", "status", "--porcelain"], cwd=root, capture_output=True,
                               text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return ""
    return head + ("+" if dirty else "")


def run_sets(args: argparse.Namespace, variants: list[Variant], targets: runner.Targets) -> dict[str, Any]:
    """Every requested set that is present: figures, per-prompt outcomes and what was skipped."""
    results: dict[str, Any] = {"variants": [v.name for v in variants]}
    details: dict[str, Any] = {}
    subsets: list[Project] = []
    smart_sets = [c for c in ("cranfield", "cisi") if c in args.sets]
    if smart_sets and not datasets.available(args.datasets):
        print(f"skipped Cranfield and CISI: the retrieval datasets are not at {args.datasets}")
    elif smart_sets:
        readers = {"cranfield": datasets.cranfield, "cisi": datasets.cisi}
        for name in smart_sets:
            coll = readers[name](args.datasets)
            results[name] = timed(name, smart.evaluate, coll, targets, args.target, variants)
    if "locomo" in args.sets and not locomo.available(args.datasets):
        print(f"skipped LoCoMo-dev: no conversations at {args.datasets / 'locomo-dev'}")
    elif "locomo" in args.sets:
        projects, unresolved = locomo.load(args.datasets)
        outcomes = timed("locomo-dev", runner.evaluate, projects, targets, args.target, variants)
        results["locomo"] = {name: runner.summary(o) for name, o in outcomes.items()}
        results["locomo_meta"] = {"conversations": [p.name for p in projects], "unresolved": unresolved,
                                  "questions": sum(len(p.own) for p in projects),
                                  "turns": sum(len(p.memories) for p in projects)}
        details["locomo"] = outcomes
        rolled = timed("locomo-dev by session", sessions.evaluate, locomo.by_session(projects),
                       locomo.session_of, targets, args.target, [v for v in variants if not v.index])
        results["locomo_sessions"] = {name: sessions.summary(o) for name, o in rolled.items()}
        small = next((p for p in projects if p.name == CROSSCHECK_CONVERSATION), projects[0])
        subsets.append(subset(small, len(small.memories), *CROSSCHECK_PROMPTS))
    if "lme" in args.sets and not lme.available(args.datasets):
        print(f"skipped LongMemEval-S dev: no questions at {args.datasets / 'lme-dev'}")
    elif "lme" in args.sets:
        results["lme"] = {}
        for split in lme.VARIANTS:
            asked = variants if split == "A" else [v for v in variants if v.name == "default"]
            rows = timed(f"lme-dev {split}", sessions.evaluate, lme.load(args.datasets, split),
                         lme.session_of, targets, args.target, asked)
            results["lme"][split] = {name: sessions.summary(o) for name, o in rows.items()}
            details[f"lme_{split}"] = rows
    if "dev" in args.sets:
        dev = timed("dev set built (or read)", devset.cached, args.out.parent)
        if datasets.available(args.datasets):
            dev = devset.with_unrelated(dev, [text for _, text in datasets.cisi(args.datasets).queries])
        outcomes = timed("dev set", runner.evaluate, [dev], targets, args.target, variants)
        results["dev"] = {name: runner.summary(o) for name, o in outcomes.items()}
        results["dev_meta"] = {"seed": devset.SEED, "digest": digest(dev), "memories": len(dev.memories),
                               "modules": len({p.group for p in dev.own}), "own": len(dev.own),
                               "foreign": sum(p.group != devset.UNRELATED for p in dev.foreign),
                               "unrelated": sum(p.group == devset.UNRELATED for p in dev.foreign),
                               "foreign_modules": len({p.group for p in dev.foreign} - {devset.UNRELATED})}
        details["dev"] = outcomes
        subsets.append(subset(dev, CROSSCHECK_MEMORIES, *CROSSCHECK_PROMPTS))
    for row, path in prefs.FILES.items() if "prefs" in args.sets else ():
        projects = prefs.load(path)
        outcomes = timed(row, runner.evaluate, projects, targets, args.target, variants)
        results[row] = {name: runner.summary(o) for name, o in outcomes.items()}
        results[f"{row}_meta"] = prefs.meta(projects)
        details[row] = outcomes
    if "rules" in args.sets:
        results["rules"] = timed("capture rules", capture_rules.evaluate)
    if "injection" in args.sets:
        results["injection"] = timed("injection by trust", injection_eval.evaluate)
    if "secrets" in args.sets:
        results["secrets"] = timed("secrets dev set", secrets_eval.evaluate)
    results["crosscheck"] = []
    if not args.crosscheck or not args.wasm.is_file():
        why = "--no-crosscheck" if not args.crosscheck else f"{args.wasm} is not built"
        print(f"skipped the native/wasm cross-check: {why}")
    else:
        timed("component loaded", targets.runtime)  # (compiling it, when its cache was pruned)
        for variant in [v for v in variants if not v.native_only]:
            for small in subsets:
                check = timed(f"cross-check {small.name}", crosscheck, small, targets, variant)
                results["crosscheck"].append({"variant": variant.name, **check})
    return {"results": results, "details": details}


def main() -> None:
    """Run the sets, print the tables, write the JSON figures."""
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--target", choices=("native", "wasm"), default="native")
    parser.add_argument("--wasm", type=Path, default=Path("dist/rs_learn.wasm"))
    parser.add_argument("--datasets", type=Path, default=datasets.DATASETS_DIR)
    parser.add_argument("--sets", nargs="+", choices=SETS, default=list(SETS))
    parser.add_argument("--variant", action="append", help="run only this variant (and default); repeatable")
    parser.add_argument("--no-crosscheck", dest="crosscheck", action="store_false",
                        help="skip asking subsets of both targets")
    parser.add_argument("--out", type=Path, default=Path("build/eval/latest.json"))
    args = parser.parse_args()
    variants = chosen(args.variant)
    if args.target == "wasm":
        for v in [v for v in variants if v.native_only]:
            print(f"skipped variant {v.name!r} on the wasm target: it patches the native guest")
        variants = [v for v in variants if not v.native_only]
    targets = runner.Targets(args.wasm, args.out.parent / "component")  # a cache other checkouts do not prune
    try:
        run = run_sets(args, variants, targets)
    finally:
        targets.close()
    results = run["results"]
    names = results["variants"]
    sections = []
    if "cranfield" in results and "cisi" in results:
        sections.append(report.smart(results, args.target))
    if "locomo" in results:
        meta = results["locomo_meta"]
        sections.append(report.locomo(results["locomo"]) + f"\n\n{meta['questions']} questions, "
                        f"{meta['turns']} turns; evidence ids naming no turn: {len(meta['unresolved'])} "
                        f"({', '.join(meta['unresolved'])})")
    if "locomo_sessions" in results:
        sections.append(report.sessions("LoCoMo-dev by session (sessions ranked by their first turn in a "
                                        "recall of 100)", results["locomo_sessions"], report.CATEGORIES))
    if "lme" in results:
        for split, summaries in results["lme"].items():
            sections.append(report.sessions(f"LongMemEval-S dev, variant {split} ({lme.ROLES[split]}; "
                                            "session level, ranked by first turn in a recall of 100)",
                                            summaries))
    if "dev" in results:
        sections.append(report.devset(results["dev"], results["dev_meta"]))
    for row in prefs.FILES:
        if row in results:
            sections.append(report.prefs(results[row], results[f"{row}_meta"], path=prefs.FILES[row].name))
    if "rules" in results:
        sections.append(capture_rules.section(results["rules"]))
    if "injection" in results:
        sections.append(injection_eval.section(results["injection"]))
    if "secrets" in results:
        sections.append(secrets_eval.section(results["secrets"]))
    if any(name in results for name in ("cranfield", "cisi", "locomo", "dev", "prefs")):  # the variants' sets
        sections.append(report.everything(results, names))
    if results["crosscheck"]:
        sections.append(report.crosschecks(results["crosscheck"]))
    print(f"\nrs-learn eval: {args.target} target, python {sys.version.split()[0]}\n")
    print("\n\n".join(sections))
    results["meta"] = {"target": args.target, "python": sys.version.split()[0], "commit": commit(),
                       "when": datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds")}
    report.write(args.out, results)
    report.write(args.out.with_name(args.out.stem + "-prompts.json"), run["details"])
    print(f"\nfigures: {args.out}")


if __name__ == "__main__":
    main()
