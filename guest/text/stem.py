"""A light English suffix stemmer for the keyword channel (S-stemmer plus -ing/-ed/-ly).

Deliberately small and conservative: it conflates plurals and the commonest
inflections and leaves everything else alone. Pure function, deterministic.
:func:`stem_form` first looks the word up in a table of irregular forms
(:mod:`guest.generated.forms`: ``broke`` -> ``break``): the terms of memory stores of terms version 2.
"""

from __future__ import annotations

from functools import lru_cache

from guest.generated.forms import FORMS

VOWELS = frozenset("aeiouy")


def _has_vowel(stem: str) -> bool:
    return any(c in VOWELS for c in stem)


@lru_cache(maxsize=1 << 16)  # word frequencies are Zipfian: most calls repeat a word
def stem(word: str) -> str:
    """Stem one lower-cased word (words of 3 characters or fewer are kept)."""
    if len(word) <= 3 or not word.isascii() or not word.isalpha():
        return word
    if word.endswith("ies") and len(word) > 4:
        word = word[:-3] + "y"
    elif word.endswith("sses"):
        word = word[:-2]
    elif word.endswith("es") and word[-3] in "sxz" and len(word) > 4:
        word = word[:-2]
    elif word.endswith("s") and not word.endswith(("ss", "us", "is")):
        word = word[:-1]
    for suffix in ("ingly", "edly", "ing", "ed", "ly"):
        if word.endswith(suffix):
            base = word[: -len(suffix)]
            if len(base) >= 3 and _has_vowel(base):
                if len(base) > 2 and base[-1] == base[-2] and base[-1] not in "lsz":
                    base = base[:-1]
                word = base
            break
    return word


@lru_cache(maxsize=1 << 16)
def stem_form(word: str) -> str:
    """Stem one lower-cased word, an irregular form to its lemma's stem (``ran`` -> ``run``)."""
    found = FORMS.get(word)
    return stem(word) if found is None else found
