"""Generate ``models/normalizer.json``: per-code-point tables for the guest tokenizer.

Dev-only (needs the ``tokenizers`` package). The guest (``guest/text/tokenizer.py``) must
reproduce ``Tokenizer.from_file("models/tokenizer.json").encode(text,
add_special_tokens=False).ids`` exactly, on CPython 3.11 and on the CPython 3.14 inside
the component, whose ``unicodedata`` tables differ from each other and from the Rust
crates'. So the guest uses no Unicode database at all: this script asks the reference
itself what it does with every code point and stores only the exceptions.

For each code point ``c`` (surrogates excluded) the reference's ``BertNormalizer`` output
``normalize_str(c)`` is post-processed with the ``BertPreTokenizer`` class of each output
character (whitespace -> ``" "``, punctuation -> ``" p "``). The result is

* ``c`` itself        -> an ordinary word character, not stored (about 877k code points);
* ``""``              -> ``delete`` ranges (controls, format, private use, nonspacing marks);
* ``" c "``           -> ``isolate`` ranges (punctuation and the padded CJK blocks);
* a Hangul syllable's canonical decomposition -> the ``hangul`` range (algorithmic);
* anything else       -> an explicit ``map`` entry (case, accents, whitespace, ...).

Normalising per character composes to normalising the whole string except for NFD's
canonical reordering of combining marks. The marks that survive accent stripping and
can be reordered are found by probing; none of them occurs in any vocabulary token, so
a word containing one is ``[UNK]`` in either order and the ids cannot differ. The script
asserts this, and checks the composition on a random corpus.

Usage: ``python scripts/gen_tokenizer_tables.py [--models models]``. Output is
deterministic.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from tokenizers import Tokenizer

ROOT = Path(__file__).resolve().parent.parent
MAX_CP = 0x110000
SURROGATES = range(0xD800, 0xE000)
HANGUL = (0xAC00, 0xD7A3)
# Two marks the reference reorders (canonical combining classes 216 and 226).
MARK_216 = "\U0001d165"
MARK_226 = "\U0001d16d"


def hangul_nfd(cp: int) -> str:
    """Canonical decomposition of a precomposed Hangul syllable (Unicode ch. 3.12)."""
    index = cp - HANGUL[0]
    lead, vowel, tail = index // 588, index % 588 // 28, index % 28
    return chr(0x1100 + lead) + chr(0x1161 + vowel) + (chr(0x11A7 + tail) if tail else "")


def to_ranges(cps: list[int]) -> list[list[int]]:
    """Collapse sorted code points into inclusive ``[lo, hi]`` ranges."""
    out: list[list[int]] = []
    for cp in cps:
        if out and out[-1][1] == cp - 1:
            out[-1][1] = cp
        else:
            out.append([cp, cp])
    return out


def check_config(tok: Tokenizer, config: dict[str, Any]) -> None:
    """Fail unless the tokenizer is the configuration the guest implements."""
    assert config["normalizer"]["type"] == "BertNormalizer", config["normalizer"]
    assert config["pre_tokenizer"] == {"type": "BertPreTokenizer"}, config["pre_tokenizer"]
    assert config["model"]["type"] == "WordPiece", config["model"]
    assert config["post_processor"] is None, "add_special_tokens=False is assumed anyway"
    for added in config["added_tokens"]:
        assert not added["normalized"], added
        assert not (added["lstrip"] or added["rstrip"] or added["single_word"]), added
    assert config["truncation"] is None or config["truncation"]["strategy"] == "LongestFirst"
    assert tok.encode("", add_special_tokens=False).ids == []


def main() -> None:
    """Probe the reference and write the tables."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--models", type=Path, default=ROOT / "models")
    args = parser.parse_args()
    models: Path = args.models

    tok = Tokenizer.from_file(str(models / "tokenizer.json"))
    config = json.loads((models / "tokenizer.json").read_text(encoding="utf-8"))
    check_config(tok, config)
    normalize = tok.normalizer.normalize_str
    pre_tokenize = tok.pre_tokenizer.pre_tokenize_str
    vocab = (models / "vocab.txt").read_text(encoding="utf-8").split("\n")
    if vocab and vocab[-1] == "":
        vocab.pop()
    assert {t: i for i, t in enumerate(vocab)} == config["model"]["vocab"], "vocab.txt differs"

    cps = [cp for cp in range(MAX_CP) if cp not in SURROGATES]
    normalized = {cp: normalize(chr(cp)) for cp in cps}
    kinds: dict[str, str] = {}

    def kind(ch: str) -> str:
        """Return ``s`` (whitespace), ``p`` (isolated punctuation) or ``w`` (word)."""
        if ch not in kinds:
            kinds[ch] = {1: "w", 2: "s", 3: "p"}[len(pre_tokenize("a" + ch + "a"))]
        return kinds[ch]

    def final(text: str) -> str:
        """Apply the pre-tokenizer's classes to normalised text as spaces."""
        return "".join(" " if kind(d) == "s" else f" {d} " if kind(d) == "p" else d for d in text)

    delete: list[int] = []
    isolate: list[int] = []
    mapping: dict[int, str] = {}
    for cp in cps:
        ch, out = chr(cp), final(normalized[cp])
        if out == ch:
            continue
        if out == "":
            delete.append(cp)
        elif out == f" {ch} ":
            isolate.append(cp)
        elif HANGUL[0] <= cp <= HANGUL[1] and out == hangul_nfd(cp):
            continue
        else:
            mapping[cp] = out
    hangul_ok = all(final(normalized[cp]) == hangul_nfd(cp) for cp in range(HANGUL[0], HANGUL[1] + 1))
    assert hangul_ok, "Hangul syllables no longer follow the algorithmic decomposition"

    # Marks that survive accent stripping but can still be reordered by NFD.
    a216, a226 = normalize(MARK_216), normalize(MARK_226)
    reorderable = [
        cp
        for cp in cps
        if normalized[cp]
        and (
            normalize(chr(cp) + MARK_216) != normalized[cp] + a216
            or normalize(MARK_226 + chr(cp)) != a226 + normalized[cp]
        )
    ]
    vocab_chars = set("".join(vocab))
    bad = [hex(cp) for cp in reorderable if set(normalized[cp]) & vocab_chars]
    assert not bad, f"reorderable marks occur in the vocabulary; the guest must reorder: {bad}"
    self_check(tok, delete + isolate + list(mapping), reorderable, final)

    tables = {
        "format": 1,
        "generated_by": "scripts/gen_tokenizer_tables.py",
        "tokenizers_version": sys.modules["tokenizers"].__version__,
        "tokenizer_json_sha256": hashlib.sha256((models / "tokenizer.json").read_bytes()).hexdigest(),
        "unk_token": config["model"]["unk_token"],
        "continuing_subword_prefix": config["model"]["continuing_subword_prefix"],
        "max_input_chars_per_word": config["model"]["max_input_chars_per_word"],
        "max_length": (config["truncation"] or {}).get("max_length"),
        "special_tokens": {t["content"]: t["id"] for t in config["added_tokens"]},
        "hangul": list(HANGUL),
        "delete": to_ranges(delete),
        "isolate": to_ranges(isolate),
        "map": [[cp, mapping[cp]] for cp in sorted(mapping)],
    }
    write(models / "normalizer.json", tables)
    print(
        f"delete {len(delete)} cps / {len(tables['delete'])} ranges, isolate {len(isolate)} cps /"
        f" {len(tables['isolate'])} ranges, map {len(mapping)}, reorderable marks {len(reorderable)}"
    )


def self_check(
    tok: Tokenizer, special: list[int], reorderable: list[int], final: Callable[[str], str]
) -> None:
    """Check that per-character results compose to the reference on random strings."""
    rng = random.Random(1234)
    skip = set(reorderable)
    pool = [cp for cp in special if cp not in skip]
    ascii_pool = [ord(c) for c in "aAzZ09 .,-'\u00e9\u0301\u0327"]
    for _ in range(20000):
        text = "".join(
            chr(rng.choice(pool) if rng.random() < 0.5 else rng.choice(ascii_pool))
            for _ in range(rng.randint(1, 12))
        )
        words = [w for w in "".join(final(tok.normalizer.normalize_str(c)) for c in text).split(" ") if w]
        ref = [w for w, _ in tok.pre_tokenizer.pre_tokenize_str(tok.normalizer.normalize_str(text))]
        assert words == ref, (text, words, ref)


def write(path: Path, tables: dict[str, Any]) -> None:
    """Write JSON with one range or mapping per line (ASCII only, diff-friendly)."""
    lines = ["{"]
    keys = list(tables)
    for n, key in enumerate(keys):
        value = tables[key]
        sep = "," if n < len(keys) - 1 else ""
        if key in ("delete", "isolate", "map"):
            body = ",\n".join("  " + json.dumps(item) for item in value)
            lines.append(f"{json.dumps(key)}: [\n{body}\n]{sep}")
        else:
            lines.append(f"{json.dumps(key)}: {json.dumps(value, sort_keys=True)}{sep}")
    lines.append("}")
    path.write_text("\n".join(lines) + "\n", encoding="ascii")


if __name__ == "__main__":
    main()
