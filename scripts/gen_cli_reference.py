"""Write ``docs/cli-reference.md`` from the command tree and the guest's verb spec (issue 46 item 1).

``--check``: write nothing, exit 1 when the file is stale. ``make wasm`` runs it after the build has
written ``host_harness/contract.json``; ``tests/host/test_cli_reference.py`` holds it.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from host_harness.cli.reference import render  # noqa: E402

PATH = ROOT / "docs" / "cli-reference.md"


def main() -> int:
    """Write the reference (or, with ``--check``, say whether it is stale)."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--check", action="store_true", help="exit 1 when the file is stale; write nothing")
    args = parser.parse_args()
    text = render()
    current = PATH.read_text(encoding="utf-8") if PATH.exists() else ""
    if text == current:
        return 0
    if args.check:
        print(f"{PATH.relative_to(ROOT)} is stale: run scripts/gen_cli_reference.py", file=sys.stderr)
        return 1
    PATH.write_text(text, encoding="utf-8")
    print(f"wrote {PATH.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
