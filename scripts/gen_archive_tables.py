"""Regenerate ``guest/text/unicode15.py``: Go's ``strconv.IsPrint`` as a Unicode 15.0 range table.

Go (1.21 and later) ships Unicode 15.0.0 tables; its ``IsPrint`` is "categories L, M, N, P, S
and the ASCII space". The guest runs on CPython 3.11 (Unicode 14) natively and on CPython 3.14
(Unicode 16) inside the component, so ``str.isprintable`` would answer differently on the two
targets and differently from Go for the code points assigned in Unicode 15 and 16. The table
pins Go's answer. It needs the Unicode 15.0 database, which the ``unicodedata2`` backport
provides (dev-only, in a throwaway virtualenv)::

    python3 -m venv /tmp/ud15 && /tmp/ud15/bin/pip install unicodedata2==15.0.0
    /tmp/ud15/bin/python scripts/gen_archive_tables.py
"""

from __future__ import annotations

import sys
from pathlib import Path

OUT = Path(__file__).resolve().parent.parent / "guest" / "text" / "unicode15.py"
WANTED = "15.0.0"
PER_LINE = 8

HEADER = '''"""Unicode 15.0 tables for Go parity (generated: ``scripts/gen_archive_tables.py``).

``PRINT_BOUNDS``: the code points where Go's ``strconv.IsPrint`` (letters, marks, numbers,
punctuation, symbols and the ASCII space, Unicode 15.0.0) changes value, starting from
"not printable" at U+0000: a code point is printable when ``bisect_right(PRINT_BOUNDS, cp)``
is odd.
"""

from __future__ import annotations

UNICODE_VERSION = "{version}"

PRINT_BOUNDS: tuple[int, ...] = (
'''


def printable(data: object, cp: int) -> bool:
    """Go's ``unicode.IsPrint`` for ``cp`` under ``data`` (a ``unicodedata``-like module)."""
    return cp == 0x20 or data.category(chr(cp))[0] in "LMNPS"  # type: ignore[attr-defined]


def main() -> None:
    """Write the table, refusing any Unicode database other than 15.0.0."""
    import unicodedata2

    if unicodedata2.unidata_version != WANTED:
        sys.exit(f"need unicodedata2 {WANTED} (Go's tables), found {unicodedata2.unidata_version}")
    bounds: list[int] = []
    state = False
    for cp in range(0x110000):
        value = printable(unicodedata2, cp)
        if value != state:
            bounds.append(cp)
            state = value
    lines = [HEADER.format(version=WANTED)]
    for start in range(0, len(bounds), PER_LINE):
        lines.append("    " + " ".join(f"0x{cp:05X}," for cp in bounds[start : start + PER_LINE]) + "\n")
    lines.append(")\n")
    OUT.write_text("".join(lines), encoding="utf-8")
    print(f"wrote {OUT} ({len(bounds)} bounds)")


if __name__ == "__main__":
    main()
