"""Word characters pinned to Unicode 14.0.0 (generated: ``scripts/gen_word_pin.py``).

The guest runs on CPython 3.11 natively (Unicode 14.0.0) and on CPython 3.14 inside the component
(Unicode 16.0.0). Their ``re`` ``\\w`` and ``str.lower`` agree on every code point Unicode 14.0.0
assigns, and differ on the 9,392 code points that Unicode 15 and 16 made letters or numbers:
the component's words would hold them (and it lower-cases 27 of them) where native words end.
:func:`pinned` makes them spaces, which is what they are to 3.11 (neither word characters nor
cased), so keyword terms and derived queries are the same on both targets and as before natively.
:func:`lower` is ``str.lower`` leaving them as they are, as 3.11 does, for text kept whole (tags).
"""

from __future__ import annotations

import bisect
import re

UNICODE_VERSION = "16.0.0"

NEW_WORD_RANGES: tuple[tuple[int, int], ...] = (
    (0x1C89, 0x1C8A), (0xA7CB, 0xA7CD), (0xA7DA, 0xA7DC), (0x105C0, 0x105F3),
    (0x10D40, 0x10D65), (0x10D6F, 0x10D85), (0x10EC2, 0x10EC4), (0x1123F, 0x11240),
    (0x11380, 0x11389), (0x1138B, 0x1138B), (0x1138E, 0x1138E), (0x11390, 0x113B5),
    (0x113B7, 0x113B7), (0x113D1, 0x113D1), (0x113D3, 0x113D3), (0x116D0, 0x116E3),
    (0x11BC0, 0x11BE0), (0x11BF0, 0x11BF9), (0x11F02, 0x11F02), (0x11F04, 0x11F10),
    (0x11F12, 0x11F33), (0x11F50, 0x11F59), (0x1342F, 0x1342F), (0x13441, 0x13446),
    (0x13460, 0x143FA), (0x16100, 0x1611D), (0x16130, 0x16139), (0x16D40, 0x16D6C),
    (0x16D70, 0x16D79), (0x18CFF, 0x18CFF), (0x1B132, 0x1B132), (0x1B155, 0x1B155),
    (0x1CCF0, 0x1CCF9), (0x1D2C0, 0x1D2D3), (0x1DF25, 0x1DF2A), (0x1E030, 0x1E06D),
    (0x1E4D0, 0x1E4EB), (0x1E4F0, 0x1E4F9), (0x1E5D0, 0x1E5ED), (0x1E5F0, 0x1E5FA),
    (0x2B739, 0x2B739), (0x2EBF0, 0x2EE5D), (0x31350, 0x323AF),
)

NEW_WORD_CLASS = "[" + "".join(f"\\U{lo:08x}-\\U{hi:08x}" for lo, hi in NEW_WORD_RANGES) + "]"
WORD_CHAR = f"(?:(?!{NEW_WORD_CLASS})\\w)"  # for patterns: Unicode 14's \w on both targets
_NEW_WORD = re.compile(NEW_WORD_CLASS)
_NEW_RUNS = re.compile(f"({NEW_WORD_CLASS}+)")
# A class of many ranges is matched range by range (~70 ns a character natively), and max() on a
# str compares character objects: look for the eight BMP ones by substring search, and test
# astral characters (emoji, mostly) one by one.
_BMP_CHARS = tuple(chr(cp) for lo, hi in NEW_WORD_RANGES if hi <= 0xFFFF for cp in range(lo, hi + 1))
_ASTRAL = re.compile("[\\U00010000-\\U0010ffff]")
_STARTS = [lo for lo, _ in NEW_WORD_RANGES]


def has_new(text: str) -> bool:
    """Whether ``text`` holds a code point of :data:`NEW_WORD_RANGES`."""
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
    """``text`` with every code point of :data:`NEW_WORD_RANGES` replaced by a space."""
    return _NEW_WORD.sub(" ", text) if has_new(text) else text


def lower(text: str) -> str:
    """``text.lower()`` as Unicode 14 has it: code points of :data:`NEW_WORD_RANGES` stay as they are."""
    if not has_new(text):
        return text.lower()
    parts = _NEW_RUNS.split(text)  # the runs to keep at the odd indexes
    return "".join(part if i % 2 else part.lower() for i, part in enumerate(parts))
