"""Parity of ``guest/text/tokenizer.py`` with the reference HuggingFace tokenizer.

The golden file ``tests/data/golden/tokenizer.jsonl`` (``scripts/gen_tokenizer_golden.py``) is the
contract: ``tokenizers`` is a dev dependency and is not imported here.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from guest.text import tokenizer

ROOT = Path(__file__).resolve().parents[2]
MODELS = ROOT / "models"
GOLDEN = ROOT / "tests" / "data" / "golden" / "tokenizer.jsonl"
GOLDEN_CASES = [json.loads(line) for line in GOLDEN.read_text(encoding="ascii").splitlines()]


@pytest.fixture(scope="module")
def tok() -> tokenizer.WordPiece:
    return tokenizer.load(MODELS)


@pytest.fixture(scope="module")
def id_to_token() -> list[str]:
    return (MODELS / "vocab.txt").read_text(encoding="utf-8").split("\n")


def test_golden_file_is_big_and_varied():
    assert len(GOLDEN_CASES) >= 2000
    kinds = {case["kind"] for case in GOLDEN_CASES}
    assert {"english", "code", "cjk", "hangul", "emoji", "mapped", "random", "long", "plane-16"} <= kinds
    assert any(len(case["ids"]) == 512 for case in GOLDEN_CASES), "truncation is not exercised"


@pytest.mark.parametrize("kind", sorted({case["kind"] for case in GOLDEN_CASES}))
def test_golden_parity(tok, kind):
    """Every golden case of one kind (an item per kind: 2,811 items cost more to collect and report
    than to check); a mismatch names the case's line in the golden file."""
    cases = [(n, case) for n, case in enumerate(GOLDEN_CASES, 1) if case["kind"] == kind]
    assert cases
    wrong = [(n, case["text"][:60]) for n, case in cases if tok.encode(case["text"]) != case["ids"]]
    assert wrong == []


def test_tables_match_tokenizer_json():
    """The generated tables must be regenerated whenever the reference tokenizer changes."""
    tables = json.loads((MODELS / tokenizer.TABLES_FILE).read_text(encoding="ascii"))
    digest = hashlib.sha256((MODELS / "tokenizer.json").read_bytes()).hexdigest()
    assert tables["tokenizer_json_sha256"] == digest


CASES = [
    ("Hello, world!", ["hello", ",", "world", "!"]),
    ("unaffable", ["una", "##ffa", "##ble"]),
    ("", []),
    ("  \t\n ", []),
    ("x" * 101, ["[UNK]"]),
    ("x" * 100, ["xx"] + ["##xx"] * 49),
    ("hello [UNK] world [PAD]x", ["hello", "[UNK]", "world", "[PAD]", "x"]),
    ("[unk]", ["[", "un", "##k", "]"]),
    ("\u03a3\u0391\u03a3 \u03c2", ["\u03c3", "##\u03b1", "##\u03c3", "\u03c2"]),  # no final-sigma rule
    ("\u0130stanbul", ["istanbul"]),  # İ: NFD, strip the dot, then lowercase
    ("Stra\u00dfe \u1e9e", ["st", "##ra\u00dfe", "\u00df"]),
    ("\u00c7a va? na\u00efve", ["ca", "va", "?", "naive"]),
    ("e\u0301", ["e"]),
    ("\u4e2d\u6587", ["\u4e2d", "\u6587"]),
    ("a\x00b\u200bc\ufeffd\ufffde", ["abc", "##de"]),  # removed, not split
    ("a\u00a0b\u3000c\u2028d", ["a", "b", "c", "d"]),
    ("$5+3^2=`x`", ["$", "5", "+", "3", "^", "2", "=", "`", "x", "`"]),  # ASCII symbols split
    ("a\U0002b81fb", ["a", "[UNK]", "b"]),  # CJK Extension D is padded...
    ("a\U0002b820b", ["[UNK]"]),  # ...but the reference's Extension E range starts at U+2B920
    ("\ud55c", ["\u1112", "##\u1161", "##\u11ab"]),  # Hangul decomposes to jamo
    ("\ufb01ne", ["\ufb01", "##ne"]),  # no compatibility decomposition
    ("\u0378", ["[UNK]"]),  # unassigned code points are kept
    ("\U000f0000", []),  # private use is removed
    ("\u212a", ["k"]),  # Kelvin sign
]


@pytest.mark.parametrize(("text", "tokens"), CASES)
def test_hand_checked(tok, id_to_token, text, tokens):
    assert [id_to_token[i] for i in tok.encode(text)] == tokens


def test_truncates_to_512(tok):
    assert tok.encode("hello " * 600) == [tok.vocab["hello"]] * 512
    assert len(tok.encode("\ud55c " * 200)) == 512  # three ids per syllable
    assert tok.encode("[PAD]" * 600) == [0] * 512


def test_vocabulary_forms(tok):
    tokens = (MODELS / "vocab.txt").read_text(encoding="utf-8").split("\n")[:-1]
    tables = json.loads((MODELS / tokenizer.TABLES_FILE).read_text(encoding="ascii"))
    by_list = tokenizer.WordPiece(tokens, tables)
    by_dict = tokenizer.WordPiece({t: i for i, t in enumerate(tokens)}, tables)
    text = "Tokenizers are unaffable, na\u00efve and \u4e2d\u6587!"
    assert by_list.encode(text) == by_dict.encode(text) == tok.encode(text)


def test_load_reads_the_files_as_they_are(tok):
    """``load`` only reads the two files (measured ~0.03 s natively): the same tokenizer every time."""
    again = tokenizer.load(MODELS)
    text = "Tokenizers are unaffable, na\u00efve and \u4e2d\u6587!"
    assert again.encode(text) == tok.encode(text) and again is not tok


def test_guest_uses_no_unicode_database():
    """Python 3.11 and 3.14 have different tables: behaviour must come from the data file."""
    source = (ROOT / "guest" / "text" / "tokenizer.py").read_text(encoding="utf-8")
    assert "unicodedata" not in source
    assert ".casefold(" not in source


@settings(max_examples=300, deadline=None)
@given(st.text())
def test_never_raises(tok, text):
    ids = tok.encode(text)
    assert all(0 <= i < len(tok.vocab) for i in ids)
    assert len(ids) <= 512


@pytest.fixture(scope="module")
def general_path() -> tokenizer.WordPiece:
    """A tokenizer with the ASCII fast path switched off."""
    slow = tokenizer.load(MODELS)
    slow._ascii = False
    return slow


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.characters(codec="ascii")))
def test_ascii_fast_path_matches_general_path(tok, general_path, text):
    assert tok.encode(text) == general_path.encode(text)
