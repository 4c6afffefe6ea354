"""Regenerate ``guest/text/newwords.py``: the code points only the component calls word characters.

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

OUT = Path(__file__).resolve().parent.parent / "guest" / "text" / "newwords.py"
NATIVE, WANTED = "14.0.0", "16.0.0"
PER_LINE = 4

HEADER = '''"""Letters and numbers Unicode 15 and 16 added (generated: ``scripts/gen_word_pin.py``).

The {count:,} code points that are unassigned in Unicode {native} (native CPython 3.11) and letters or
numbers in Unicode {version} (the component's CPython 3.14), as ranges: word characters to the
component only. :mod:`guest.text.wordpin` makes both targets treat them as 3.11 does.
"""

from __future__ import annotations

UNICODE_VERSION = "{version}"

NEW_WORD_RANGES: tuple[tuple[int, int], ...] = (
'''

FOOTER = ")\n"


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
