"""Readers for the SMART test collections in ``../shared/datasets`` (Cranfield, CISI).

The folder sits next to the repository's main checkout: ``../shared/datasets`` from the repository
root, or from the main checkout when this one is a git worktree (``.git`` is then a file naming
the main repository's git directory). ``$RS_LEARN_DATASETS`` overrides both.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def datasets_dir(root: Path = ROOT) -> Path:
    """``$RS_LEARN_DATASETS``, else ``../shared/datasets`` of this checkout or of the main one."""
    if os.environ.get("RS_LEARN_DATASETS"):
        return Path(os.environ["RS_LEARN_DATASETS"])
    candidates = [root.parent / "shared" / "datasets"]
    dot_git = root / ".git"
    if dot_git.is_file():  # a worktree: "gitdir: <main>/.git/worktrees/<name>"
        text = dot_git.read_text(encoding="utf-8").strip()
        if text.startswith("gitdir:"):
            gitdir = Path(text.removeprefix("gitdir:").strip())
            if gitdir.parent.name == "worktrees":
                candidates.append(gitdir.parent.parent.parent.parent / "shared" / "datasets")
    return next((c for c in candidates if c.is_dir()), candidates[0])


DATASETS_DIR = datasets_dir()


@dataclass
class Collection:
    """Documents, queries (in file order) and graded judgements ``{query: {doc: gain}}``."""

    name: str
    docs: dict[str, str]
    queries: list[tuple[str, str]]
    qrels: dict[str, dict[str, float]]


def _records(path: Path) -> list[dict[str, str]]:
    """Split a SMART file into ``{field letter: text}`` records keyed by ``.I``."""
    out: list[dict[str, str]] = []
    field = ""
    for line in path.read_text(encoding="latin-1").splitlines():
        m = re.match(r"^\.([A-Z])\b\s*(.*)$", line)
        if m:
            field = m.group(1)
            if field == "I":
                out.append({"I": m.group(2).strip()})
                field = ""
            else:
                out[-1].setdefault(field, "")
            continue
        if out and field:
            out[-1][field] += line + "\n"
    return out


def _doc_text(rec: dict[str, str]) -> str:
    title = " ".join(rec.get("T", "").split())
    body = " ".join(rec.get("W", "").split())
    return f"{title}\n{body}" if title else body


def cranfield(root: Path = DATASETS_DIR) -> Collection:
    """Cranfield: queries numbered 1..225 in file order; grade 1 (best) .. 4, -1 not relevant."""
    base = root / "cranfield"
    docs = {r["I"]: _doc_text(r) for r in _records(base / "cran.all.1400")}
    queries = [
        (str(i + 1), " ".join(r.get("W", "").split())) for i, r in enumerate(_records(base / "cran.qry"))
    ]
    qrels: dict[str, dict[str, float]] = {}
    for line in (base / "cranqrel").read_text().splitlines():
        parts = line.split()
        if len(parts) >= 3 and int(parts[2]) > 0:
            qrels.setdefault(parts[0], {})[parts[1]] = float(5 - int(parts[2]))
    return Collection("cranfield", docs, queries, qrels)


def cisi(root: Path = DATASETS_DIR) -> Collection:
    """CISI: binary judgements."""
    base = root / "cisi"
    docs = {r["I"]: _doc_text(r) for r in _records(base / "CISI.ALL")}
    queries = [(r["I"], " ".join(r.get("W", "").split())) for r in _records(base / "CISI.QRY")]
    qrels: dict[str, dict[str, float]] = {}
    for line in (base / "CISI.REL").read_text().splitlines():
        parts = line.split()
        if len(parts) >= 2:
            qrels.setdefault(parts[0], {})[parts[1]] = 1.0
    return Collection("cisi", docs, queries, qrels)


def available(root: Path = DATASETS_DIR) -> bool:
    """Whether the datasets folder is present."""
    return (root / "cranfield" / "cran.all.1400").exists() and (root / "cisi" / "CISI.ALL").exists()
