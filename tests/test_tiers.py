"""The suite's tiers: what ``make check`` leaves out is exactly the tiers ``conftest.py`` registers."""

from __future__ import annotations

import re

from conftest import ROOT, TIERS


def test_make_check_leaves_out_every_tier_and_nothing_else():
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    (fast,) = re.findall(r"^FAST_TIER := (.*)$", makefile, flags=re.MULTILINE)
    assert fast == " and ".join(f"not {tier}" for tier in TIERS)
    assert '-m "$(FAST_TIER)"' in makefile.split("\ncheck:")[1].split("\n\n")[0]


def test_the_docs_name_every_tier():
    text = (ROOT / "docs" / "development.md").read_text(encoding="utf-8")
    assert all(f"| `{tier}` |" in text for tier in TIERS)
