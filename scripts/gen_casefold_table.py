"""Regenerate ``hosts/node/src/casefold-table.json``: Python's ``str.casefold`` for JavaScript.

``host-kv-query`` compares with Unicode *full* case folding (``str.casefold`` in the Python
harness). JavaScript has no case folding (``toLowerCase`` keeps ``ß``, maps ``ς`` apart from
``σ``...), so the Node host folds through this table: every code point whose fold differs from
itself, mapped to its fold, from the Unicode database of the Python that runs this script::

    python3 scripts/gen_casefold_table.py
"""

from __future__ import annotations

import json
import sys
import unicodedata
from pathlib import Path

OUT = Path(__file__).resolve().parent.parent / "hosts" / "node" / "src" / "casefold-table.json"


def table() -> dict[str, str]:
    """``{code point (decimal): fold}`` for every code point that folds to something else."""
    out = {}
    for cp in range(sys.maxunicode + 1):
        if 0xD800 <= cp <= 0xDFFF:
            continue
        char = chr(cp)
        if char.casefold() != char:
            out[str(cp)] = char.casefold()
    return out


def main() -> None:
    """Write the table (sorted, one line)."""
    document = {"unicode": unicodedata.unidata_version, "folds": table()}
    OUT.write_text(json.dumps(document, ensure_ascii=False, separators=(",", ":")) + "\n", encoding="utf-8")
    print(f"{OUT}: {len(document['folds'])} code points (Unicode {document['unicode']})")


if __name__ == "__main__":
    main()
