"""``EnabledList``: editing ``.gm/disciplines/enabled.txt`` without losing anything.

The file is one discipline name per line; blank lines and ``#`` comments are
the user's and survive every edit, byte for byte (line endings, a BOM, even
bytes that are not UTF-8). ``enable`` appends a name that is not there yet;
``disable`` removes every line naming it and nothing else. A change is written
atomically (temp file + rename); an edit that changes nothing writes nothing.
Concurrent edits are serialised by ``flock`` on the ``disciplines`` directory,
so two ``enable`` commands at once both land. No symbolic link below the project is
followed (``host_harness/fs/confine.py``).

Names are checked with the router's rule, ``[A-Za-z0-9][A-Za-z0-9_-]{0,63}``
(no ``/``, ``..``, NUL, absolute path, nothing longer than 64 characters), and no Windows
device name (``CON``, ``nul``, ``LPT1``: ``host_harness/fs/names.py``); ``default`` is the
project store itself, searched always, and is refused too. ``enable`` also refuses a name that
differs only in case from a known discipline. A command given a name also refuses one that reads as
a secret (a discipline is a folder git commits): :func:`check_name`'s ``secret_kind`` asks the guest
(its ``names`` verb), whose redaction rules these are.
"""

from __future__ import annotations

import codecs
import contextlib
import fcntl
import os
from collections.abc import Callable, Iterator

from host_harness.fs import (
    case_twin,
    case_twin_error,
    confine,
    device_name_error,
    is_device_name,
    valid_name,
    write_atomic_at,
)
from host_harness.store.router import RESERVED_DISCIPLINES, Project

RESERVED = frozenset({"default"})
FOLDER = (".gm", "disciplines")
FILE = "enabled.txt"
MAX_BYTES = 1024 * 1024


class BadName(ValueError):
    """A discipline name that may not be used."""


def no_secret(_name: str) -> str | None:
    """No kind of secret: for a name the guest already took as a store's (``import``)."""
    return None


def check_name(name: str, secret_kind: Callable[[str], str | None] = no_secret) -> str:
    """Return ``name`` if it is a usable discipline name; raise :class:`BadName` with the rule otherwise."""
    if name in RESERVED:
        raise BadName(f"{name!r} is the project store, always searched; it cannot be a discipline")
    if name in RESERVED_DISCIPLINES:
        raise BadName(f"{name!r} is reserved: it is the host's read-only namespace, not a discipline")
    if is_device_name(name):
        raise BadName(device_name_error(name, "discipline name"))
    kind = secret_kind(name)  # before the name can be echoed: the name would be a folder git commits
    if kind is not None:
        raise BadName(f"the discipline name reads as a secret ({kind}): a discipline becomes a "
                      "folder of .gm/ that git commits, so its name must not be one; choose another name")
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
        with self._locked(create=True) as fd:
            twin = case_twin(name, self.project.known_disciplines())
            if twin is not None:
                raise BadName(case_twin_error(name, twin, "discipline"))
            bom, lines = self._read(fd)
            if any(_name_of(line) == name for line in lines):
                return False
            newline = "\r\n" if lines and lines[0].endswith("\r\n") else "\n"
            if lines and not lines[-1].endswith(("\n", "\r")):
                lines[-1] += newline
            lines.append(name + newline)
            self._write(fd, bom, lines)
        return True

    def disable(self, name: str) -> bool:
        """Remove every line naming ``name``; return whether the file changed."""
        check_name(name)
        if not self.path.exists():
            return False
        with self._locked(create=False) as fd:
            bom, lines = self._read(fd)
            kept = [line for line in lines if _name_of(line) != name]
            if len(kept) == len(lines):
                return False
            self._write(fd, bom, kept)
        return True

    def _read(self, dir_fd: int) -> tuple[bytes, list[str]]:
        try:
            fd = confine.open_file(FILE, dir_fd, self.path)
        except FileNotFoundError:
            return b"", []
        try:
            raw = os.read(fd, MAX_BYTES + 1)
        finally:
            os.close(fd)
        if len(raw) > MAX_BYTES:
            raise OSError(f"{self.path} is larger than {MAX_BYTES} bytes")
        bom = codecs.BOM_UTF8 if raw.startswith(codecs.BOM_UTF8) else b""
        text = raw[len(bom) :].decode("utf-8", "surrogateescape")
        return bom, text.splitlines(keepends=True)

    def _write(self, dir_fd: int, bom: bytes, lines: list[str]) -> None:
        write_atomic_at(dir_fd, FILE, bom + "".join(lines).encode("utf-8", "surrogateescape"))

    @contextlib.contextmanager
    def _locked(self, create: bool) -> Iterator[int]:
        """The ``disciplines`` folder (reached without following links), flocked."""
        with confine.directory(self.project.root, FOLDER, create=create) as fd:
            fcntl.flock(fd, fcntl.LOCK_EX)
            yield fd


def _name_of(line: str) -> str:
    """The name a line enables ('' for blank and comment lines)."""
    name = line.strip()
    return "" if name.startswith("#") else name
