"""Digests of files, to assert that something left a store byte for byte as it was."""

from __future__ import annotations

import hashlib
from pathlib import Path

SIDE_FILES = ("-wal", "-shm", "-journal")  # what an open or interrupted SQLite transaction leaves


def digest(path: Path) -> str:
    """The sha256 of the file at ``path`` (which must exist)."""
    return hashlib.sha256(path.read_bytes()).hexdigest()


def digest_if_any(path: Path) -> str | None:
    """The sha256 of the file at ``path``, or ``None`` where there is none (yet)."""
    return digest(path) if path.exists() else None


def store_digests(project: Path) -> dict[str, str]:
    """Every SQLite file under ``project`` (relative path), hashed."""
    return {str(p.relative_to(project)): digest(p) for p in sorted(project.rglob("*.db"))}


def side_files(folder: Path) -> list[str]:
    """The names of the SQLite side files directly in ``folder`` (a committed store has none)."""
    return sorted(p.name for p in folder.iterdir() if p.name.endswith(SIDE_FILES))
