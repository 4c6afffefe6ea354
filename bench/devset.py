"""The coding-text dev set: notes about some standard-library modules, questions about them and others.

A second development set beside LoCoMo, from the text a coding agent lives in (the realistic
bench corpus's paragraphs, :mod:`bench.corpus`), so that recall and the hook's relevance gate are
not tuned to one benchmark. Built deterministically from ``seed`` (the same interpreter gives the
same set; :func:`bench.project.digest` names it in the output):

1. **Modules**: every ``.py`` file of the standard library (as :func:`bench.corpus.stdlib_files`),
   without ``test``/``tests``/``encodings`` folders, private modules (``_pyio``, ``_strptime``: twins
   of public ones) and ``__main__``; files of :data:`MIN_FILE_BYTES`-:data:`MAX_FILE_BYTES` only (a
   bigger file has more paragraphs than a module may). A module's paragraphs are its docstring and
   comment paragraphs kept by the corpus rules, each distinct across the set (first one wins).
2. **Two sides**: the top-level packages and modules are shuffled and dealt alternately to the
   *stored* side and the *foreign* side, so that a package never has modules on both. Files are
   then visited in shuffled order; a module is taken by its side (until :data:`MODULES` each, at
   most :data:`PER_PACKAGE` per top-level package) when it has :data:`MIN_PARAGRAPHS` to
   :data:`MAX_PARAGRAPHS` paragraphs of which at least :data:`HELD_OUT` read as prose
   (:func:`is_prose`).
3. **Store**: of each stored module, :data:`HELD_OUT` prose paragraphs are held out at random; the
   others are memorized, module after module in source order, one minute apart.
4. **Own prompts**: one per held-out paragraph, its opening (:func:`prompt_text`: whole sentences
   up to at least 8 words, at most 40). Relevant: every stored paragraph of the same module (the
   notes a developer asking about that module would want to see).
5. **Foreign prompts**: :data:`HELD_OUT` prose paragraphs of each foreign module, read the same way:
   same domain and vocabulary, but nothing about them is stored.

``make eval`` keeps the built set in ``build/eval/`` (:func:`cached`): parsing the modules takes
10-20 s on a busy machine.
"""

from __future__ import annotations

import hashlib
import random
import re
import string
import sys
import sysconfig
from collections import Counter
from pathlib import Path

from bench import corpus
from bench.project import Memory, Project, Prompt, from_json, to_json

SEED = 29
MODULES = 50
HELD_OUT = 4
MIN_PARAGRAPHS = 10
MAX_PARAGRAPHS = 50
PER_PACKAGE = 3
MIN_FILE_BYTES = 1_000
MAX_FILE_BYTES = 80_000
EXCLUDED_DIRS = frozenset({"test", "tests", "encodings"})
PROMPT_MIN_WORDS = 8
PROMPT_MAX_WORDS = 40
EPOCH_MS = 1_767_225_600_000  # 2026-01-01 UTC
STEP_MS = 60_000
ASK_AFTER_MS = 86_400_000
SENTENCE_END = re.compile(r"(?<=[.!?])\s+")


def module_name(relative: str) -> str:
    """``json/decoder.py`` -> ``json.decoder``, ``json/__init__.py`` -> ``json``."""
    parts = relative.removesuffix(".py").split("/")
    if parts[-1] == "__init__" and len(parts) > 1:
        parts.pop()
    return ".".join(parts)


def candidates(root: Path | None = None) -> list[tuple[str, Path]]:
    """``(relative path, path)`` of the eligible files of the standard library (or of ``root``)."""
    base = Path(root if root is not None else sysconfig.get_paths()["stdlib"])
    out = []
    for path in corpus.stdlib_files(base):
        relative = path.relative_to(base).as_posix()
        parts = relative.split("/")
        name = parts[-1]
        if EXCLUDED_DIRS.intersection(parts[:-1]) or name == "__main__.py" or name.startswith("test_"):
            continue
        if name.startswith("_") and name != "__init__.py":
            continue
        if MIN_FILE_BYTES <= path.stat().st_size <= MAX_FILE_BYTES:
            out.append((relative, path))
    return out


def is_prose(paragraph: str) -> bool:
    """Whether a paragraph reads as a sentence a person could ask with (not code, not a table)."""
    words = paragraph.split()
    if len(words) < PROMPT_MIN_WORDS or ">>>" in paragraph or not paragraph[0].isalpha():
        return False
    alpha = sum(w.strip(string.punctuation).isalpha() for w in words)
    return alpha >= 0.7 * len(words)


def prompt_text(paragraph: str) -> str:
    """A paragraph's opening: whole sentences until at least 8 words, cut at 40 words."""
    words: list[str] = []
    for sentence in SENTENCE_END.split(paragraph):
        words += sentence.split()
        if len(words) >= PROMPT_MIN_WORDS:
            break
    return " ".join(words[:PROMPT_MAX_WORDS])


def pick_modules(
    seed: int, modules: int, held_out: int, root: Path | None = None
) -> tuple[list[tuple[str, list[str]]], list[tuple[str, list[str]]]]:
    """The stored side's and the foreign side's modules, each with its paragraphs (step 1 and 2)."""
    rnd = random.Random(seed)
    files = candidates(root)
    tops = sorted({rel.split("/")[0].removesuffix(".py") for rel, _ in files})
    rnd.shuffle(tops)
    side = {top: i % 2 for i, top in enumerate(tops)}
    order = list(files)
    rnd.shuffle(order)
    chosen: tuple[list[tuple[str, list[str]]], ...] = ([], [])
    per_package: Counter[str] = Counter()
    seen: set[str] = set()
    for relative, path in order:
        top = relative.split("/")[0].removesuffix(".py")
        taken = chosen[side[top]]
        if len(taken) >= modules or per_package[top] >= PER_PACKAGE:
            continue
        paragraphs: list[str] = []
        for p in corpus.file_paragraphs(path):
            if corpus._keep(p) and p not in seen and p not in paragraphs:
                paragraphs.append(p)
        if not MIN_PARAGRAPHS <= len(paragraphs) <= MAX_PARAGRAPHS:
            continue
        if sum(map(is_prose, paragraphs)) < held_out:
            continue
        seen.update(paragraphs)
        taken.append((module_name(relative), paragraphs))
        per_package[top] += 1
        if all(len(c) >= modules for c in chosen):
            break
    return chosen[0], chosen[1]


def build(
    seed: int = SEED, modules: int = MODULES, held_out: int = HELD_OUT, root: Path | None = None
) -> Project:
    """The dev set as one project (steps 3 to 5)."""
    stored, foreign = pick_modules(seed, modules, held_out, root)
    rnd = random.Random(seed + 1)
    memories: list[Memory] = []
    own: list[Prompt] = []
    for module, paragraphs in stored:
        prose = [i for i, p in enumerate(paragraphs) if is_prose(p)]
        held = set(rnd.sample(prose, held_out))
        keys = []
        for i, paragraph in enumerate(paragraphs):
            if i not in held:
                keys.append(f"{module}#{i}")
                memories.append(Memory(keys[-1], paragraph, EPOCH_MS + len(memories) * STEP_MS))
        own += [Prompt(prompt_text(paragraphs[i]), frozenset(keys), module) for i in sorted(held)]
    asked: list[Prompt] = []
    for module, paragraphs in foreign:
        prose = [i for i, p in enumerate(paragraphs) if is_prose(p)]
        asked += [Prompt(prompt_text(paragraphs[i]), frozenset(), module)
                  for i in sorted(rnd.sample(prose, held_out))]
    last = memories[-1].ts_ms if memories else EPOCH_MS
    return Project("dev", memories, own, asked, last + ASK_AFTER_MS)


def cached(folder: Path, seed: int = SEED) -> Project:
    """:func:`build`, kept in ``folder`` under a name that changes with the interpreter and this code."""
    h = hashlib.sha256(f"{sys.version}\n{sysconfig.get_paths()['stdlib']}\n{seed}\n".encode())
    for module in (corpus.__file__, __file__):
        h.update(Path(module).read_bytes())
    path = folder / f"devset-{h.hexdigest()[:16]}.json"
    if path.is_file():
        return from_json(path.read_text(encoding="utf-8"))
    project = build(seed)
    folder.mkdir(parents=True, exist_ok=True)
    path.write_text(to_json(project), encoding="utf-8")
    return project
