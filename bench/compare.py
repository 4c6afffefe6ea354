"""``make bench-compare REF=<commit>``: this checkout against REF, paired, in one run (issue 33).

Absolute figures move 2-3x between days on a shared machine; only ratios within one run compare.
So REF is checked out in a worktree (``build/compare/ref-<sha>/``, its component built there with
this virtualenv's componentize-py), both checkouts get stores of the same corpus texts built by
their own code, and every row runs the two sides alternately -- A B, then B A, ... -- each run a
fresh process (``bench/pairworker.py`` with ``PYTHONPATH`` naming the side's checkout). The table
gives each side's median over all its runs and the ratio this / REF (< 1: this checkout is faster).

Rows: recall at 1k / 10k / 100k (component and native guest), memorize into a 10k store, import
(lines carrying vectors and text-only), embed, the prompt-submit hook cold and with a warm server,
``rs-learn-host mcp`` until ``initialize`` and ``tools/list`` are answered, ``--version``, and secret
redaction (notes per second through the guest's ``redact``: 4,000 corpus paragraphs and the secrets
dev set; and the paragraphs alone, natively and through the component's ``redact`` verb, issue 45).
Only the stores a chosen row reads are built (``--rows redact`` builds none).

    python -m bench.compare 19c7136                 # every row, 3 rounds
    python -m bench.compare 19c7136 --quick         # 1k and 10k stores, 2 rounds
    python -m bench.compare HEAD~1 --rows recall memorize --rounds 5
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import shutil
import statistics
import subprocess
import sys
from pathlib import Path
from typing import Any

from bench import corpus, secrets_eval
from bench.common import sentences

ROOT = Path(__file__).resolve().parent.parent
HOME = ROOT / "build" / "compare"
WORKER = ROOT / "bench" / "pairworker.py"
ROWS = ("recall", "memorize", "import", "embed", "hook", "mcp", "version", "redact")
STORE_SOURCES = ("guest", "models/manifest.json")


class Side:
    """One checkout under test: its root, component, cache and kept stores."""

    def __init__(self, name: str, root: Path) -> None:
        self.name = name
        self.root = root
        self.wasm = root / "dist" / "rs_learn.wasm"
        self.home = HOME / f"{name}-{self._key()}"
        self.cache = self.home / "cache"

    def _key(self) -> str:
        """What this side's stored bytes depend on (its guest and embedder manifest), 12 hex digits."""
        h = hashlib.sha256()
        for name in STORE_SOURCES:
            path = self.root / name
            for file in sorted(path.rglob("*.py")) if path.is_dir() else [path]:
                h.update(file.relative_to(self.root).as_posix().encode() + b"\0" + file.read_bytes())
        return h.hexdigest()[:12]

    def env(self) -> dict[str, str]:
        """The worker's environment: this checkout first on the path, its own cache folder."""
        return {**os.environ, "PYTHONPATH": str(self.root), "RS_LEARN_WASM": str(self.wasm),
                "RS_LEARN_CACHE_DIR": str(self.cache), "RS_LEARN_HOOK_TIMEOUT": "60"}

    def run(self, op: str, **args: Any) -> dict[str, Any] | None:
        """One worker process; its JSON answer, or ``None`` when this checkout cannot do ``op``."""
        done = subprocess.run([sys.executable, "-P", str(WORKER), op, json.dumps(args)], env=self.env(),
                              cwd=self.root, capture_output=True, text=True, timeout=3600)
        if done.returncode != 0:
            last = (done.stderr.strip().splitlines() or ["(no output)"])[-1]
            print(f"    {self.name}: {op} failed: {last}", flush=True)
            return None
        answer: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
        return answer

    def store(self, size: int, texts: Path) -> Path:
        """This side's project of ``size`` corpus memories (built once, by this side's code)."""
        project = self.home / f"store-{size}"
        if not (project / "built.txt").is_file():
            shutil.rmtree(project, ignore_errors=True)
            print(f"  {self.name}: building the {size:,}-memory store", flush=True)
            if self.run("build", project=str(project), texts=str(texts)) is None:
                raise SystemExit(f"{self.name}: could not build the {size:,}-memory store")
            (project / "built.txt").write_text(f"{size}\n", encoding="utf-8")
        return project


def ref_checkout(ref: str) -> Path:
    """REF in a worktree of its own, with its component built (both kept for the next run)."""
    sha = subprocess.run(["git", "rev-parse", "--verify", f"{ref}^{{commit}}"], cwd=ROOT, check=True,
                         capture_output=True, text=True).stdout.strip()
    tree = HOME / f"ref-{sha[:12]}"
    if not (tree / ".git").exists():
        HOME.mkdir(parents=True, exist_ok=True)
        subprocess.run(["git", "worktree", "add", "--detach", str(tree), sha], cwd=ROOT, check=True)
    wasm = tree / "dist" / "rs_learn.wasm"
    if not wasm.is_file():
        print(f"  building {ref}'s component (componentize-py)", flush=True)
        subprocess.run([sys.executable, "scripts/build_component.py", "--out", str(wasm)], cwd=tree,
                       check=True, env={**os.environ, "PYTHONPATH": str(tree)})
    return tree


def inputs(sizes: list[int]) -> dict[str, Path]:
    """The texts both sides read, written once per run: corpus memories, queries, sentences."""
    folder = HOME / "inputs"
    folder.mkdir(parents=True, exist_ok=True)
    paragraphs = corpus.base()
    ordinary = [paragraphs[i] for i in range(0, len(paragraphs), max(1, len(paragraphs) // 4000))][:4000]
    files: dict[str, list[str]] = {
        "memorize": sentences(260, 28, seed=7),
        "import": [corpus.memory(200_000 + i, paragraphs) for i in range(2000)],
        "embed": sentences(500, 8, seed=5),
        "redact": ordinary + [case["text"] for case in secrets_eval.load()],
        "redact-ordinary": ordinary,
    }
    for size in sizes:
        files[f"store-{size}"] = [corpus.memory(i, paragraphs) for i in range(size)]
        files[f"queries-{size}"] = corpus.queries(50, size, words=6, seed=99)
    out = {}
    for name, texts in files.items():
        path = folder / f"{name}.jsonl"
        body = "".join(json.dumps(t) + "\n" for t in texts)
        if not path.is_file() or path.read_text(encoding="utf-8") != body:
            path.write_text(body, encoding="utf-8")
        out[name] = path
    return out


def measures(sizes: list[int], files: dict[str, Path], rows: tuple[str, ...],
             n: int) -> list[tuple[str, str, dict[str, Any]]]:
    """(row name, figure kind, worker args) for every row asked for; ``{store}`` is filled per side."""
    out: list[tuple[str, str, dict[str, Any]]] = []
    if "recall" in rows:
        for size in sizes:
            for target in ("wasm", "native"):
                out.append((f"recall p50 at {size:,}, {target}", "recall",
                            {"target": target, "store": size, "queries": str(files[f"queries-{size}"])}))
    small, mid = sizes[0], sizes[1] if len(sizes) > 1 else sizes[0]
    if "memorize" in rows:
        for target in ("wasm", "native"):
            out.append((f"memorize p50 into {mid:,}, {target}", "memorize",
                        {"target": target, "store": mid, "texts": str(files["memorize"]), "n": 5 * n}))
    if "import" in rows:
        for vectors in (True, False):
            label = "with vectors" if vectors else "text-only"
            out.append((f"import lines/s, {label}, wasm", "import",
                        {"target": "wasm", "vectors": vectors, "texts": str(files["import"])}))
    if "embed" in rows:
        out.append(("embed texts/s, wasm", "embed", {"target": "wasm", "texts": str(files["embed"])}))
    prompt = json.loads(files[f"queries-{small}"].read_text(encoding="utf-8").splitlines()[0])
    if "hook" in rows:
        for warm in (False, True):
            for size in sorted({small, sizes[-1]}):
                out.append((f"hook {'warm server' if warm else 'cold'} p50 at {size:,}", "hook",
                            {"store": size, "prompt": prompt, "warm": warm, "n": n}))
    if "mcp" in rows:
        out.append(("mcp: initialize answered, from spawn", "mcp", {"store": small, "n": 1}))
    if "redact" in rows:
        out.append(("redact notes/s, native", "redact", {"texts": str(files["redact"]), "n": n}))
        for target in ("native", "wasm"):
            out.append((f"redact notes/s, ordinary notes, {target}", "redact",
                        {"texts": str(files["redact-ordinary"]), "n": n, "target": target}))
    if "version" in rows:
        out.append(("--version", "version", {"store": small, "n": n}))
    return out


def figure(answer: dict[str, Any], column: str) -> list[float]:
    """The samples of one worker answer (a rate is one sample)."""
    return [answer["rate"]] if "rate" in answer else answer[column]


def main() -> None:
    """Parse the arguments, run every row alternately on both sides, print the table."""
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("ref", help="the commit to compare against (any git revision)")
    parser.add_argument("--rounds", type=int, default=3, help="alternations per row (default 3)")
    parser.add_argument("--sizes", type=int, nargs="+", default=[1000, 10000, 100000])
    parser.add_argument("--quick", action="store_true", help="1k and 10k stores, 2 rounds")
    parser.add_argument("--rows", nargs="+", choices=ROWS, default=list(ROWS))
    parser.add_argument("-n", type=int, default=9, help="calls per run for the per-call rows (default 9)")
    args = parser.parse_args()
    sizes = [1000, 10000] if args.quick else sorted(args.sizes)
    rounds = 2 if args.quick else args.rounds
    print(f"rs-learn paired bench: this checkout vs {args.ref}; python {sys.version.split()[0]}, "
          f"{os.cpu_count()} cpus, load {os.getloadavg()[0]:.1f}", flush=True)
    this, ref = Side("this", ROOT), Side("ref", ref_checkout(args.ref))
    if not this.wasm.is_file():
        raise SystemExit(f"{this.wasm} is missing: run `make wasm`")
    files = inputs(sizes)
    for side in (this, ref):
        side.run("compile", wasm=str(side.wasm))
    rows = measures(sizes, files, tuple(args.rows), args.n)
    stored = sorted({template["store"] for _, _, template in rows if "store" in template})
    stores = {(side.name, size): side.store(size, files[f"store-{size}"]) for side in (this, ref)
              for size in stored}
    table = []
    for name, op, template in rows:
        runs: dict[str, list[float]] = {"this": [], "ref": []}
        second: dict[str, list[float]] = {"this": [], "ref": []}
        for round_ in range(rounds):
            for side in ((this, ref) if round_ % 2 == 0 else (ref, this)):
                call = {k: v for k, v in template.items() if k != "store"}
                call.update(project=str(stores[side.name, template["store"]]) if "store" in template else "",
                            wasm=str(side.wasm))
                answer = side.run(op, **call)
                if answer is not None:
                    runs[side.name] += figure(answer, "wall")
                    second[side.name] += answer["cpu"] if op == "mcp" else []
        table.append((name, runs))
        if op == "mcp":
            table.append(("mcp: tools/list answered, from spawn", second))
        print(f"  {line(name, runs)}", flush=True)
    print(f"\nload after: {os.getloadavg()[0]:.1f}\n")
    print(f"| row | this | {args.ref} | this / ref |\n|---|---:|---:|---:|")
    for name, runs in table:
        print(line(name, runs))


def line(name: str, runs: dict[str, list[float]]) -> str:
    """One table row: each side's median, and their ratio (``n/a`` where a side could not run it)."""
    unit = "/s" if "/s" in name else " ms"
    mine, theirs = (statistics.median(runs[s]) if runs[s] else None for s in ("this", "ref"))
    shown = [f"{m:,.1f}{unit}" if m is not None else "n/a" for m in (mine, theirs)]
    ratio = f"{mine / theirs:.2f}x" if mine is not None and theirs else "n/a"
    return f"| {name} | {shown[0]} | {shown[1]} | {ratio} |"


if __name__ == "__main__":
    main()
