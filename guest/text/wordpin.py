"""Word characters pinned to Unicode 14 on both targets.

The guest runs on CPython 3.11 natively (Unicode 14) and on CPython 3.14 inside the component
(Unicode 16). Their ``re`` ``\\w`` and ``str.lower`` agree on every code point Unicode 14 assigns,
and differ on the code points of :data:`~guest.generated.newwords.NEW_WORD_RANGES`, letters and numbers
Unicode 15 and 16 added: the component's words would hold them (and it lower-cases 27 of them)
where native words end. :func:`pinned` makes them spaces, which is what they are to 3.11 (neither
word characters nor cased), so keyword terms and derived queries are the same on both targets and
as before natively. :func:`lower` is ``str.lower`` leaving them as they are, as 3.11 does, for text
kept whole (tags).
"""

from __future__ import annotations

import bisect
import re

from guest.generated.newwords import NEW_WORD_RANGES

NEW_WORD_CLASS = "[" + "".join(f"\\U{lo:08x}-\\U{hi:08x}" for lo, hi in NEW_WORD_RANGES) + "]"
_NEW_WORD = re.compile(NEW_WORD_CLASS)
_NEW_RUNS = re.compile(f"({NEW_WORD_CLASS}+)")
# A class of many ranges is matched range by range (~70 ns a character natively), and max() on a
# str compares character objects: look for the eight BMP ones by substring search, and test
# astral characters (emoji, mostly) one by one.
_BMP_CHARS = tuple(chr(cp) for lo, hi in NEW_WORD_RANGES if hi <= 0xFFFF for cp in range(lo, hi + 1))
_ASTRAL = re.compile("[\\U00010000-\\U0010ffff]")
_STARTS = [lo for lo, _ in NEW_WORD_RANGES]


def has_new(text: str) -> bool:
    """Whether ``text`` holds a code point of ``NEW_WORD_RANGES``."""
    if text.isascii():
        return False
    if any(char in text for char in _BMP_CHARS):
        return True
    for char in set(_ASTRAL.findall(text)):
        lo, hi = NEW_WORD_RANGES[bisect.bisect_right(_STARTS, ord(char)) - 1]
        if lo <= ord(char) <= hi:
            return True
    return False


def pinned(text: str) -> str:
    """``text`` with every code point of ``NEW_WORD_RANGES`` replaced by a space."""
    return _NEW_WORD.sub(" ", text) if has_new(text) else text


def lower(text: str) -> str:
    """``text.lower()`` as Unicode 14 has it: code points of ``NEW_WORD_RANGES`` stay as they are."""
    if not has_new(text):
        return text.lower()
    parts = _NEW_RUNS.split(text)  # the runs to keep at the odd indexes
    return "".join(part if i % 2 else part.lower() for i, part in enumerate(parts))
