"""Folder names the host makes from user input: a discipline's, a managed skill's.

A name becomes a directory below ``.gm/``, so it must match ``[A-Za-z0-9][A-Za-z0-9_-]{0,63}``: no
``/``, ``..``, NUL, absolute path or empty name can reach the file system.
"""

from __future__ import annotations

import re

NAME_RE = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]{0,63}")


def valid_name(name: str) -> bool:
    """Return whether ``name`` is a safe folder name (a discipline's or a managed skill's)."""
    return NAME_RE.fullmatch(name) is not None
