"""Kebab-case names made from free text: managed-skill names and record slugs.

Lowercase ASCII letters and digits joined by single ``-``, no leading or trailing
``-``; Latin letters with diacritics are transliterated (``Café Setup`` ->
``cafe-setup``), everything else separates words. The result is the same on
every Python (only ASCII survives, through an explicit table), so native and
wasm agree. ``""`` when nothing usable is left.
"""

from __future__ import annotations

import re

NOT_KEBAB = re.compile(r"[^a-z0-9]+")
# Latin letters with diacritics -> ASCII, so "Café Setup" becomes "cafe-setup", not "caf-setup".
_FROM = "àáâãäåāăąçćĉċčďđèéêëēĕėęěĝğġģĥħìíîïĩīĭįıĵķĺļľŀłñńņňòóôõöøōŏőŕŗřśŝşšţťŧùúûüũūŭůűųŵýÿŷźżž"
_TO = "aaaaaaaaacccccddeeeeeeeeegggghhiiiiiiiiijklllllnnnnooooooooorrrsssstttuuuuuuuuuuwyyyzzz"
TRANSLIT = str.maketrans({**dict(zip(_FROM, _TO, strict=True)), "ß": "ss", "æ": "ae", "œ": "oe", "þ": "th"})


def kebab(raw: str, max_chars: int) -> str:
    """``raw`` as lowercase kebab-case of at most ``max_chars`` characters (never ending in ``-``)."""
    name = NOT_KEBAB.sub("-", raw.lower().translate(TRANSLIT)).strip("-")
    return name[:max_chars].rstrip("-")
