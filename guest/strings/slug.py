"""Kebab-case names made from free text: managed-skill names and record slugs.

Lowercase ASCII letters and digits joined by single ``-``, no leading or trailing
``-``. The text is folded first (NFKC's compatibility decomposition, combining marks
dropped, Latin letters transliterated), from a pinned Unicode 14 table
(:mod:`guest.generated.namefold`), so a name is normalisation-stable: ``Café Setup`` ->
``cafe-setup`` whether the ``é`` is one code point or ``e`` + U+0301, ``ſkill`` ->
``skill``, ``Ⅻ`` -> ``xii``. Everything else separates words. The result is the same
on every Python (the table, not ``unicodedata``), so native and wasm agree. ``""``
when nothing usable is left.
"""

from __future__ import annotations

import re

from guest.generated import namefold

NOT_KEBAB = re.compile(r"[^a-z0-9]+")
FOLD_TABLE: dict[int, str | None] = {
    **{cp: None for lo, hi in namefold.MARKS for cp in range(lo, hi + 1)},
    **{cp: value for value, spans in namefold.FOLD.items() for lo, hi in spans for cp in range(lo, hi + 1)},
    **{cp: chr(cp + 32) for cp in range(ord("A"), ord("Z") + 1)},
}


def kebab(raw: str, max_chars: int) -> str:
    """``raw`` as lowercase kebab-case of at most ``max_chars`` characters (never ending in ``-``)."""
    name = NOT_KEBAB.sub("-", raw.translate(FOLD_TABLE)).strip("-")
    return name[:max_chars].rstrip("-")
