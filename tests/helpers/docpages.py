"""The user documentation the tests run: the README and the pages of ``docs/`` it links.

``PAGES`` is the order in which their shell examples run, one after another in one folder (later
pages use what earlier ones made: the ``@frontend`` discipline, the ``deploy`` skill, ...).
"""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PAGES = (
    "README.md", "docs/memory.md", "docs/correcting.md", "docs/disciplines.md", "docs/spool.md",
    "docs/hooks.md",
    "docs/learn.md", "docs/archive.md", "docs/structured.md", "docs/mcp.md", "docs/hosts.md",
    "docs/git.md", "docs/export-import.md", "docs/secrets.md", "docs/postgresql.md",
    "docs/large-stores.md", "docs/development.md", "docs/agents.md",
)


def page(name: str) -> str:
    """The text of one page (``README.md`` or ``docs/<name>.md``)."""
    path = ROOT / name if name == "README.md" or "/" in name else ROOT / "docs" / name
    return path.read_text(encoding="utf-8")


def blocks(text: str, lang: str) -> list[str]:
    """The code blocks of ``lang`` in ``text``, in order."""
    return re.findall(rf"```{lang}\n(.*?)```", text, re.S)
