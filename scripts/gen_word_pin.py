"""Regenerate ``guest/text/wordpin.py``: the code points only the component calls word characters.

The guest runs on CPython 3.11 natively (Unicode 14) and on the CPython 3.14 that componentize-py
embeds (Unicode 16). ``re``'s ``\\w`` (``str.isalnum``) and ``str.lower`` agree on every code point
Unicode 14 assigns; they differ on the code points Unicode 15 and 16 made letters or numbers, which
3.11 does not know. This lists those: unassigned (``Cn``) in the running CPython's database, a
letter or a number in Unicode 16.0. It needs CPython 3.11 and the ``unicodedata2`` backport
(dev-only, in a throwaway virtualenv)::

    python3.11 -m venv /tmp/ud16 && /tmp/ud16/bin/pip install unicodedata2==16.0.0
    /tmp/ud16/bin/python scripts/gen_word_pin.py
"""

from __future__ import annotations

import sys
import unicodedata
from pathlib import Path

OUT = Path(__file__).resolve().parent.parent / "guest" / "text" / "wordpin.py"
NATIVE, WANTED = "14.0.0", "16.0.0"
PER_LINE = 4

HEADER = '''"""Word characters pinned to Unicode {native} (generated: ``scripts/gen_word_pin.py``).

The guest runs on CPython 3.11 natively (Unicode {native}) and on CPython 3.14 inside the component
(Unicode {version}). Their ``re`` ``\\\\w`` and ``str.lower`` agree on every code point Unicode {native}
assigns, and differ on the {count:,} code points that Unicode 15 and 16 made letters or numbers:
the component's words would hold them (and it lower-cases 27 of them) where native words end.
:func:`pinned` makes them spaces, which is what they are to 3.11 (neither word characters nor
cased), so keyword terms and derived queries are the same on both targets and as before natively.
:func:`lower` is ``str.lower`` leaving them as they are, as 3.11 does, for text kept whole (tags).
"""

from __future__ import annotations

import bisect
import re

UNICODE_VERSION = "{version}"

NEW_WORD_RANGES: tuple[tuple[int, int], ...] = (
'''

FOOTER = ''')

NEW_WORD_CLASS = "[" + "".join(f"\\\\U{lo:08x}-\\\\U{hi:08x}" for lo, hi in NEW_WORD_RANGES) + "]"
WORD_CHAR = f"(?:(?!{NEW_WORD_CLASS})\\\\w)"  # for patterns: Unicode 14's \\w on both targets
_NEW_WORD = re.compile(NEW_WORD_CLASS)
_NEW_RUNS = re.compile(f"({NEW_WORD_CLASS}+)")
# A class of many ranges is matched range by range (~70 ns a character natively), and max() on a
# str compares character objects: look for the eight BMP ones by substring search, and test
# astral characters (emoji, mostly) one by one.
_BMP_CHARS = tuple(chr(cp) for lo, hi in NEW_WORD_RANGES if hi <= 0xFFFF for cp in range(lo, hi + 1))
_ASTRAL = re.compile("[\\\\U00010000-\\\\U0010ffff]")
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
'''


def main() -> None:
    """Write the table, refusing any other pair of Unicode databases."""
    import unicodedata2

    if unicodedata.unidata_version != NATIVE or unicodedata2.unidata_version != WANTED:
        sys.exit(f"need CPython's Unicode {NATIVE} and unicodedata2 {WANTED}, found "
                 f"{unicodedata.unidata_version} and {unicodedata2.unidata_version}")
    ranges: list[list[int]] = []
    for cp in range(0x110000):
        c = chr(cp)
        if unicodedata.category(c) != "Cn" or 0xD800 <= cp <= 0xDFFF:
            continue
        if unicodedata2.category(c)[0] in "LN" or unicodedata2.numeric(c, None) is not None:
            if ranges and ranges[-1][1] == cp - 1:
                ranges[-1][1] = cp
            else:
                ranges.append([cp, cp])
    count = sum(hi - lo + 1 for lo, hi in ranges)
    pairs = [f"(0x{lo:04X}, 0x{hi:04X})," for lo, hi in ranges]
    lines = [" ".join(pairs[i : i + PER_LINE]) for i in range(0, len(pairs), PER_LINE)]
    body = "".join(f"    {line}\n" for line in lines)
    header = HEADER.format(native=NATIVE, version=WANTED, count=count)
    OUT.write_text(header + body + FOOTER, encoding="utf-8")
    print(f"{OUT}: {len(ranges)} ranges, {count} code points")


if __name__ == "__main__":
    main()
