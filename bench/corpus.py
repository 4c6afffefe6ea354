"""A realistic memory corpus: docstring and comment paragraphs of the interpreter's standard library.

Developer memories look like documentation, not like random vocabulary: Zipfian terms ("return",
"file", "default" everywhere, identifiers rarely), sentences of very different lengths, code words
mixed with prose. ``make bench`` and the scale benches use this corpus instead of synthetic text.

* **Source**: every ``*.py`` file under ``sysconfig.get_paths()["stdlib"]`` (``site-packages`` and
  anything installed there left out), read in sorted relative-path order.
* **Paragraphs**: docstrings (module, class, function; ``ast``) split at blank lines, and blocks of
  consecutive ``#`` comment lines (``tokenize``), white space collapsed. Kept when they hold at
  least 6 words and 40 characters (license banners and ``# noqa`` lines go) and at most 1,500
  characters, and do not start with ``@`` (decorator examples would read as discipline sigils);
  exact duplicates are dropped, the first occurrence wins. Nothing is shuffled, so the
  same interpreter gives the same corpus byte for byte (:func:`digest` names it in bench output).
* **Beyond the base** (33,011 paragraphs on CPython 3.11.7): memory ``i >= N`` is two base paragraphs
  joined, ``base[i % N]`` and ``base[(i * 7919 + i // N) % N]`` (7919 is prime, so pairs differ
  from round to round); that gives 1M and more distinct memories with the same term statistics.
* **Queries**: a user's question is a short span of a stored memory, e.g. words 2-8 of one
  picked by a fixed stride (:func:`queries`).

Generated on demand (about 20 s for the base on a busy 2-core machine) and cached in memory for
the process; never committed.
"""

from __future__ import annotations

import ast
import hashlib
import io
import re
import sysconfig
import tokenize
from collections.abc import Iterator
from functools import cache
from pathlib import Path

MIN_WORDS = 6
MIN_CHARS = 40
MAX_CHARS = 1500
PAIR_PRIME = 7919
SKIP_DIRS = {"site-packages", "dist-packages", "__pycache__", "idle_test", "lib2to3"}
NOISE = re.compile(r"^(-\*-|!|type:|noqa|pragma|pylint|fmt:|XXX$|TODO$)", re.IGNORECASE)


def stdlib_files(root: Path | None = None) -> list[Path]:
    """The standard library's ``.py`` files, sorted by relative path (site-packages excluded)."""
    base = Path(root or sysconfig.get_paths()["stdlib"])
    files = [p for p in base.rglob("*.py") if not SKIP_DIRS.intersection(p.relative_to(base).parts)]
    return sorted(files, key=lambda p: p.relative_to(base).as_posix())


def _clean(text: str) -> str:
    return " ".join(text.split())


def _keep(paragraph: str) -> bool:
    return (
        MIN_CHARS <= len(paragraph) <= MAX_CHARS
        and len(paragraph.split()) >= MIN_WORDS
        and not NOISE.match(paragraph)
        and "copyright" not in paragraph.lower()
        and not paragraph.startswith("@")  # decorator examples; a leading @name is a discipline sigil
    )


def docstring_paragraphs(tree: ast.AST) -> Iterator[str]:
    """Docstring paragraphs of a module, in source order."""
    nodes = [n for n in ast.walk(tree) if isinstance(n, ast.Module | ast.ClassDef | ast.FunctionDef
                                                     | ast.AsyncFunctionDef)]
    nodes.sort(key=lambda n: getattr(n, "lineno", 0))
    for node in nodes:
        doc = ast.get_docstring(node, clean=True)
        if doc:
            for block in re.split(r"\n\s*\n", doc):
                yield _clean(block)


def comment_paragraphs(source: str) -> Iterator[str]:
    """Blocks of consecutive ``#`` comment lines (a blank comment line splits a block)."""
    block: list[str] = []
    last = -2
    try:
        for tok in tokenize.generate_tokens(io.StringIO(source).readline):
            if tok.type != tokenize.COMMENT:
                continue
            line = tok.string.lstrip("#").strip()
            if tok.start[0] != last + 1 or not line:
                if block:
                    yield _clean(" ".join(block))
                block = []
            if line:
                block.append(line)
            last = tok.start[0]
    except (tokenize.TokenError, SyntaxError, IndentationError):
        pass
    if block:
        yield _clean(" ".join(block))


def file_paragraphs(path: Path) -> Iterator[str]:
    """Docstring paragraphs, then comment paragraphs, of one file (nothing if it does not parse)."""
    try:
        source = path.read_text(encoding="utf-8")
        tree = ast.parse(source)
    except (UnicodeDecodeError, SyntaxError, ValueError, OSError):
        return
    yield from docstring_paragraphs(tree)
    yield from comment_paragraphs(source)


@cache
def base() -> tuple[str, ...]:
    """Every distinct kept paragraph of the standard library, in file then source order."""
    seen: set[str] = set()
    out: list[str] = []
    for path in stdlib_files():
        for paragraph in file_paragraphs(path):
            if _keep(paragraph) and paragraph not in seen:
                seen.add(paragraph)
                out.append(paragraph)
    return tuple(out)


def memory(i: int, paragraphs: tuple[str, ...] | None = None) -> str:
    """Memory number ``i``: a base paragraph below ``N``, two joined ones beyond."""
    para = paragraphs if paragraphs is not None else base()
    n = len(para)
    if i < n:
        return para[i]
    return f"{para[i % n]} {para[(i * PAIR_PRIME + i // n) % n]}"


def memories(count: int) -> list[str]:
    """The first ``count`` memories."""
    para = base()
    return [memory(i, para) for i in range(count)]


def queries(count: int, among: int, *, words: int = 6, seed: int = 0) -> list[str]:
    """``count`` questions: ``words`` words from paragraphs spread over the first ``among`` memories."""
    para = base()
    out = []
    step = max(among // max(count, 1), 1)
    for q in range(count):
        text = memory((q * step + seed) % among, para).split()
        start = min(1, max(len(text) - words, 0))
        out.append(" ".join(text[start : start + words]))
    return out


def digest(count: int) -> str:
    """A short sha256 of the first ``count`` memories (to compare corpora across machines)."""
    h = hashlib.sha256()
    for text in memories(count):
        h.update(text.encode("utf-8") + b"\n")
    return h.hexdigest()[:12]


if __name__ == "__main__":
    import sys
    import time

    start = time.perf_counter()
    paragraphs = base()
    words = [len(p.split()) for p in paragraphs]
    print(f"{len(paragraphs)} base paragraphs from {len(stdlib_files())} files in "
          f"{time.perf_counter() - start:.1f} s; words per paragraph: median "
          f"{sorted(words)[len(words) // 2]}, max {max(words)}; digest(100k) {digest(100_000)}")
    for i in (0, 1, len(paragraphs) // 2, len(paragraphs) + 3):
        print(f"  [{i}] {memory(i)[:150]}", file=sys.stdout)
