"""``EnabledList``: editing ``.gm/disciplines/enabled.txt`` without losing anything.

The file is one discipline name per line; blank lines and ``#`` comments are
the user's and survive every edit, byte for byte (line endings, a BOM, even
bytes that are not UTF-8). ``enable`` appends a name that is not there yet;
``disable`` removes every line naming it and nothing else. A change is written
atomically (temp file + rename); an edit that changes nothing writes nothing.
Concurrent edits are serialised by ``flock`` on the ``disciplines`` directory,
so two ``enable`` commands at once both land.

Names are checked with the router's rule, ``[A-Za-z0-9][A-Za-z0-9_-]{0,63}``
(no ``/``, ``..``, NUL, absolute path, nothing longer than 64 characters);
``default`` is the project store itself, searched always, and is refused too.
"""

from __future__ import annotations

import codecs
import contextlib
import fcntl
import os
from collections.abc import Iterator

from host_harness.store.atomic import write_atomic
from host_harness.store.router import RESERVED_DISCIPLINES, Project, valid_discipline, valid_name

RESERVED = frozenset({"default"})


class BadName(ValueError):
    """A discipline name that may not be used."""


def check_name(name: str) -> str:
    """Return ``name`` if it is a usable discipline name; raise :class:`BadName` with the rule otherwise."""
    if name in RESERVED:
        raise BadName(f"{name!r} is the project store, always searched; it cannot be a discipline")
    if name in RESERVED_DISCIPLINES:
        raise BadName(f"{name!r} is reserved: it is the host's read-only namespace, not a discipline")
    if not valid_name(name):
        raise BadName(
            f"{name!r} is not a valid discipline name: use letters, digits, '_' and '-', starting with "
            "a letter or digit, at most 64 characters (no '/', '..', NUL or absolute path)"
        )
    return name


class EnabledList:
    """The ``enabled.txt`` of one project."""

    def __init__(self, project: Project) -> None:
        self.project = project
        self.path = project.enabled_file
        self.directory = self.path.parent

    def names(self) -> list[str]:
        """The enabled names, as the router reads them (valid, de-duplicated, in file order)."""
        return self.project.enabled_disciplines()

    def enable(self, name: str) -> bool:
        """Append ``name`` unless it is already enabled; return whether the file changed."""
        check_name(name)
        self.directory.mkdir(parents=True, exist_ok=True)
        with self._locked():
            bom, lines = self._read()
            if any(_name_of(line) == name for line in lines):
                return False
            newline = "\r\n" if lines and lines[0].endswith("\r\n") else "\n"
            if lines and not lines[-1].endswith(("\n", "\r")):
                lines[-1] += newline
            lines.append(name + newline)
            self._write(bom, lines)
        return True

    def disable(self, name: str) -> bool:
        """Remove every line naming ``name``; return whether the file changed."""
        check_name(name)
        if not self.path.exists():
            return False
        with self._locked():
            bom, lines = self._read()
            kept = [line for line in lines if _name_of(line) != name]
            if len(kept) == len(lines):
                return False
            self._write(bom, kept)
        return True

    def _read(self) -> tuple[bytes, list[str]]:
        try:
            raw = self.path.read_bytes()
        except FileNotFoundError:
            return b"", []
        bom = codecs.BOM_UTF8 if raw.startswith(codecs.BOM_UTF8) else b""
        text = raw[len(bom) :].decode("utf-8", "surrogateescape")
        return bom, text.splitlines(keepends=True)

    def _write(self, bom: bytes, lines: list[str]) -> None:
        write_atomic(self.path, bom + "".join(lines).encode("utf-8", "surrogateescape"))

    @contextlib.contextmanager
    def _locked(self) -> Iterator[None]:
        fd = os.open(self.directory, os.O_RDONLY)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX)
            yield
        finally:
            os.close(fd)


def _name_of(line: str) -> str:
    """The name a line enables ('' for blank and comment lines)."""
    name = line.strip()
    return "" if name.startswith("#") else name


def discipline_dirs(project: Project) -> list[str]:
    """Names of the discipline directories under ``.gm/disciplines/`` (valid names only), sorted."""
    base = project.gm / "disciplines"
    if not base.is_dir():
        return []
    names = (d.name for d in base.iterdir() if d.is_dir())
    return sorted(name for name in names if valid_discipline(name) and name not in RESERVED)

