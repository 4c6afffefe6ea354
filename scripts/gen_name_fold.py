"""Regenerate ``guest/text/namefold.py``: the Unicode table that skill names are folded with.

A skill name is sanitised to lowercase kebab-case. Before that it must be normalised, or the
same name in two Unicode spellings gives two skills: NFD ``évil`` (``e`` + U+0301) became
``e-vil`` while NFC ``évil`` became ``evil``, and ``ſkill`` (long s) became ``kill``. The fold
is NFKC's compatibility decomposition per code point (NFKD; composition does not matter once
the marks are gone), combining marks (categories Mn, Me) dropped, lower-cased, then the Latin
letters without a decomposition transliterated (``ø`` -> ``o``, ``ß`` -> ``ss``, ``þ`` -> ``th``).

The guest must not call ``unicodedata`` or ``str.lower`` on non-ASCII text: the component's
CPython 3.14 has Unicode 16 tables, the host's 3.11 Unicode 14, so the two targets would
disagree on the code points assigned in between. The table pins Unicode 14.0.0 (CPython 3.11's
``unicodedata``)::

    .venv/bin/python scripts/gen_name_fold.py
"""

from __future__ import annotations

import re
import sys
import unicodedata
from pathlib import Path

OUT = Path(__file__).resolve().parent.parent / "guest" / "text" / "namefold.py"
WANTED = "14.0.0"
PER_LINE = 5
MARKS = ("Mn", "Me")
NOT_KEBAB = re.compile(r"[^a-z0-9]+")
# Latin letters that have no decomposition, transliterated as people spell them in ASCII.
TRANSLIT = str.maketrans({"ø": "o", "đ": "d", "ħ": "h", "ı": "i", "ł": "l", "ŧ": "t", "ß": "ss", "æ": "ae",
                          "œ": "oe", "þ": "th", "ð": "d", "ŀ": "l"})

HEADER = '''"""Unicode 14.0 fold for skill names (generated: ``scripts/gen_name_fold.py``).

``FOLD``: replacement -> the ranges of non-ASCII code points that fold to it (NFKD, combining
marks dropped, lower-cased, Latin letters without a decomposition transliterated; every
character that is not ``a-z0-9`` shown as ``-``). ``MARKS``: the ranges of combining marks
(Mn, Me), which fold to nothing. Any other non-ASCII code point is not part of a name.
"""

from __future__ import annotations

UNICODE_VERSION = "{version}"

'''


def ranges(cps: list[int]) -> list[tuple[int, int]]:
    """Consecutive runs of ``cps`` (sorted) as inclusive ``(lo, hi)`` pairs."""
    out: list[tuple[int, int]] = []
    for cp in cps:
        if out and out[-1][1] == cp - 1:
            out[-1] = (out[-1][0], cp)
        else:
            out.append((cp, cp))
    return out


def fold(ch: str) -> str:
    """The kebab fold of one non-ASCII character ("" when it holds no letter or digit)."""
    decomposed = unicodedata.normalize("NFKD", ch)
    kept = "".join(c for c in decomposed if unicodedata.category(c) not in MARKS)
    folded = NOT_KEBAB.sub("-", kept.lower().translate(TRANSLIT))
    return folded if folded.strip("-") else ""


def main() -> None:
    """Write the table, refusing any Unicode database other than 14.0.0."""
    if unicodedata.unidata_version != WANTED:
        sys.exit(f"need Unicode {WANTED} (CPython 3.11), found {unicodedata.unidata_version}")
    groups: dict[str, list[int]] = {}
    marks: list[int] = []
    for cp in range(0x80, 0x110000):
        ch = chr(cp)
        if unicodedata.category(ch) in MARKS:
            marks.append(cp)
        elif value := fold(ch):
            groups.setdefault(value, []).append(cp)
    lines = [HEADER.format(version=WANTED), "FOLD: dict[str, tuple[tuple[int, int], ...]] = {\n"]
    for value in sorted(groups):
        pairs = [f"(0x{lo:X}, 0x{hi:X})," for lo, hi in ranges(groups[value])]
        lines.append(f'    "{value}": (\n')
        for start in range(0, len(pairs), PER_LINE):
            lines.append("        " + " ".join(pairs[start : start + PER_LINE]) + "\n")
        lines.append("    ),\n")
    lines.append("}\n\nMARKS: tuple[tuple[int, int], ...] = (\n")
    for lo, hi in ranges(marks):
        lines.append(f"    (0x{lo:X}, 0x{hi:X}),\n")
    lines.append(")\n")
    OUT.write_text("".join(lines), encoding="utf-8")
    print(f"wrote {OUT} ({sum(map(len, groups.values()))} folded code points, {len(marks)} marks)")


if __name__ == "__main__":
    main()
