"""BERT-uncased WordPiece tokenizer, id for id identical to HuggingFace ``tokenizers``.

The reference is ``Tokenizer.from_file("models/tokenizer.json").encode(text,
add_special_tokens=False).ids``: ``BertNormalizer`` (clean text, pad CJK, strip accents,
lowercase), ``BertPreTokenizer`` (split on whitespace, isolate punctuation), WordPiece
(greedy longest match, ``##`` continuation, ``[UNK]`` for a word that cannot be split or
is longer than 100 characters), added tokens ``[PAD]``/``[UNK]`` matched verbatim in the
raw text, and truncation to 512 ids.

No Unicode database is consulted: the reference's Rust crates, CPython 3.11 and the
CPython 3.14 inside the component all disagree on some code points, so the behaviour of
every code point comes from ``models/normalizer.json``, which
``scripts/gen_tokenizer_tables.py`` generates by probing the reference. Every code point
there is either deleted, isolated (``" c "``: punctuation and CJK), mapped to a fixed
string (case, accents, whitespace), decomposed (Hangul syllables) or kept. Normalising
character by character equals normalising the whole text except for NFD's reordering of
combining marks; the marks that survive accent stripping and could be reordered occur in
no vocabulary token, so the words holding them are ``[UNK]`` either way (the generator
asserts it). The one ``str`` method used whose result depends on the Unicode version,
``lower``, is applied to ASCII text only; regexes use explicit code point classes only.

Speed: ASCII text (the common case) takes a fast path of one regex ``findall`` over
``text.lower()``; other text goes through ``str.translate`` with a table of the small
ranges (a few thousand entries plus the Hangul syllables) and, only when it holds a code
point at or above U+3400, two regexes for the big ranges (CJK, private use). Whole words
are looked up in the vocabulary first and WordPiece splits are cached.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TypedDict

VOCAB_FILE = "vocab.txt"
TABLES_FILE = "normalizer.json"
_CACHE_LIMIT = 1 << 16
_HANGUL_BASE = 0xAC00
_NO_LIMIT = 1 << 62
_BIG_RANGE = 256  # longer ranges are matched by regex instead of str.translate


Ranges = list[tuple[int, int]]
Vocab = Mapping[str, int] | Sequence[str]


class Tables(TypedDict):
    """The contents of ``models/normalizer.json`` read by :class:`WordPiece`."""

    unk_token: str
    continuing_subword_prefix: str
    max_input_chars_per_word: int
    max_length: int | None
    special_tokens: dict[str, int]
    hangul: list[int]
    delete: list[list[int]]
    isolate: list[list[int]]
    map: list[tuple[int, str]]


def _char_class(cps: Sequence[Sequence[int] | int]) -> str:
    """Return a regex character class of code points or ``(lo, hi)`` ranges."""
    parts = []
    for item in cps:
        lo, hi = (item, item) if isinstance(item, int) else (item[0], item[1])
        parts.append(f"\\U{lo:08x}" if lo == hi else f"\\U{lo:08x}-\\U{hi:08x}")
    return "[" + "".join(parts) + "]" if parts else "[^\\x00-\\U0010ffff]"


def _translation(tables: Tables) -> tuple[dict[int, str], Ranges, Ranges]:
    """Return the ``str.translate`` table and the big delete and isolate ranges.

    Small ranges join the table; the few big ones (private use, CJK) are left to regexes
    that run only when the text holds a code point at or above the lowest of them.
    """
    table: dict[int, str] = {cp: out for cp, out in tables["map"]}
    lo, hi = tables["hangul"]
    leads = [chr(0x1100 + i) for i in range(19)]
    vowels = [chr(0x1161 + i) for i in range(21)]
    tails = ["", *(chr(0x11A8 + i) for i in range(27))]
    for i in range(lo - _HANGUL_BASE, hi - _HANGUL_BASE + 1):
        jamo = leads[i // 588] + vowels[i % 588 // 28] + tails[i % 28]
        table[_HANGUL_BASE + i] = jamo
    big_delete: Ranges = []
    big_isolate: Ranges = []
    for lo, hi in tables["delete"]:
        if hi - lo < _BIG_RANGE or lo < 0x80:
            table.update(dict.fromkeys(range(lo, hi + 1), ""))
        else:
            big_delete.append((lo, hi))
    for lo, hi in tables["isolate"]:
        if hi - lo < _BIG_RANGE or lo < 0x80:
            table.update({cp: f" {chr(cp)} " for cp in range(lo, hi + 1)})
        else:
            big_isolate.append((lo, hi))
    return table, big_delete, big_isolate


class WordPiece:
    """Table-driven BERT normaliser, pre-tokenizer and WordPiece model."""

    def __init__(self, vocab: Vocab, tables: Tables) -> None:
        """Build from a vocabulary (token -> id, or tokens by id) and the tables."""
        if isinstance(vocab, Mapping):
            self.vocab = dict(vocab)
        else:
            self.vocab = {token: i for i, token in enumerate(vocab)}
        prefix = tables["continuing_subword_prefix"]
        subwords = [(t, i) for t, i in self.vocab.items() if t.startswith(prefix)]
        self._subwords = {t[len(prefix) :]: i for t, i in subwords}
        self._longest = max(map(len, self.vocab), default=1)
        self._longest_sub = max(map(len, self._subwords), default=1)
        self.unk_id = self.vocab[tables["unk_token"]]
        self.max_chars = tables["max_input_chars_per_word"]
        self.max_length = tables["max_length"]
        # Added tokens match verbatim in the raw text, longest first.
        self._special_ids = tables["special_tokens"]
        specials = sorted(self._special_ids, key=len, reverse=True)
        alternatives = "|".join(map(re.escape, specials))
        self._special = re.compile(f"({alternatives})") if specials else None
        self._map, big_delete, big_isolate = _translation(tables)
        self._delete = re.compile(_char_class(big_delete))
        self._isolate = re.compile(f"({_char_class(big_isolate)})")
        lowest = min((lo for lo, _ in big_delete + big_isolate), default=0x110000)
        self._big = re.compile(_char_class([(min(lowest, 0x10FFFF), 0x10FFFF)]))
        self._word = re.compile("[^ ]+")
        self._cache: dict[str, tuple[int, ...]] = {}
        self._init_ascii()

    def _init_ascii(self) -> None:
        """Set up the ASCII fast path: delete, ``str.lower``, split; if tables agree."""
        out = {cp: self._map.get(cp, chr(cp)) for cp in range(128)}
        deleted = [cp for cp in out if out[cp] == ""]
        spaces = [cp for cp in out if out[cp] == " "]
        punct = [cp for cp in out if out[cp] == f" {chr(cp)} "]
        self._ascii = bool(spaces) and all(
            out[cp] in ("", " ", f" {chr(cp)} ", chr(cp).lower()) for cp in out
        )
        self._ascii_delete = re.compile(_char_class(deleted))
        separators = _char_class(punct + spaces)[1:-1]
        isolated = _char_class(punct)
        self._ascii_word = re.compile(f"[^{separators}]+|{isolated}")

    def encode(self, text: str) -> list[int]:
        """Return the reference ids of ``text`` (``[UNK]`` kept, no [CLS]/[SEP])."""
        ids: list[int] = []
        limit = _NO_LIMIT if self.max_length is None else self.max_length
        parts = [text] if self._special is None else self._special.split(text)
        for n, part in enumerate(parts):
            if len(ids) >= limit:
                break
            if n % 2:
                ids.append(self._special_ids[part])
            elif part:
                # Every word yields at least one id: words past the limit cannot count.
                self._encode_words(self._words(part)[: limit - len(ids)], ids)
        del ids[limit:]
        return ids

    def _words(self, text: str) -> list[str]:
        """Normalise ``text`` and split it into words and isolated characters."""
        if text.isascii() and self._ascii:
            if self._ascii_delete.search(text):
                text = self._ascii_delete.sub("", text)
            return self._ascii_word.findall(text.lower())
        if self._big.search(text):
            text = " ".join(self._isolate.split(self._delete.sub("", text)))
        return self._word.findall(text.translate(self._map))

    def _encode_words(self, words: list[str], ids: list[int]) -> None:
        """Append the WordPiece ids of ``words`` to ``ids``."""
        get = self.vocab.get
        for word in words:
            found = get(word)
            if found is not None:
                ids.append(found)
                continue
            pieces = self._cache.get(word)
            if pieces is None:
                pieces = self._split(word)
                if len(self._cache) >= _CACHE_LIMIT:
                    self._cache.clear()
                self._cache[word] = pieces
            ids.extend(pieces)

    def _split(self, word: str) -> tuple[int, ...]:
        """Split one word greedily, longest match first; ``(unk,)`` on failure."""
        size = len(word)
        if size > self.max_chars:
            return (self.unk_id,)
        pieces: list[int] = []
        start = 0
        table, longest = self.vocab, self._longest
        while start < size:
            end = min(size, start + longest)
            while end > start:
                found = table.get(word[start:end])
                if found is not None:
                    break
                end -= 1
            else:
                return (self.unk_id,)
            pieces.append(found)
            start = end
            table, longest = self._subwords, self._longest_sub
        return tuple(pieces)


def load(models_dir: Path | str) -> WordPiece:
    """Read ``vocab.txt`` and ``normalizer.json`` from ``models_dir``."""
    root = Path(models_dir)
    tokens = (root / VOCAB_FILE).read_text(encoding="utf-8").split("\n")
    if tokens and tokens[-1] == "":
        tokens.pop()
    tables: Tables = json.loads((root / TABLES_FILE).read_text(encoding="ascii"))
    return WordPiece(tokens, tables)
