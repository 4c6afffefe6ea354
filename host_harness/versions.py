"""The dependency ranges rs-learn was tested on, and the installed packages outside them.

The ranges are the ones ``pyproject.toml`` declares (each from the tested release's series up to the
next release the suite has not run on); they reach an installation as the distribution's metadata,
so this reads them back with :func:`importlib.metadata.requires` rather than restating them. Only the
forms ``pyproject.toml`` uses are understood (``==``, ``!=``, ``>=``, ``>``, ``<=``, ``<`` on release
numbers); ``tests/host/test_versions.py`` and ``rs-learn-host doctor`` report what lies outside.
"""

from __future__ import annotations

import importlib.metadata
import operator
import re
from collections.abc import Callable
from dataclasses import dataclass

DISTRIBUTION = "rs-learn"

_REQUIREMENT = re.compile(r"^\s*([A-Za-z0-9][A-Za-z0-9._-]*)\s*(?:\[[^\]]*\])?\s*([^;]*?)\s*(?:;(.*))?$")
_EXTRA = re.compile(r"""extra\s*==\s*["']([^"']+)["']""")
_COMPARE: dict[str, Callable[[tuple[int, ...], tuple[int, ...]], bool]] = {
    "==": operator.eq, "!=": operator.ne, ">=": operator.ge, "<=": operator.le,
    ">": operator.gt, "<": operator.lt}


@dataclass(frozen=True)
class Requirement:
    """One declared dependency: ``name`` within ``specifiers`` (``(op, version)`` pairs), for ``extra``."""

    name: str
    specifiers: tuple[tuple[str, str], ...]
    extra: str | None  # None: a runtime dependency

    @property
    def range(self) -> str:
        """The range as declared, e.g. ``>=2.4,<2.5``."""
        return ",".join(op + version for op, version in self.specifiers)

    def admits(self, version: str) -> bool:
        """Whether ``version`` lies inside the range (compared on its release numbers)."""
        have = release(version)
        return all(_COMPARE[op](_padded(have, release(want)), _padded(release(want), have))
                   for op, want in self.specifiers)


def release(version: str) -> tuple[int, ...]:
    """The leading release numbers of ``version`` (``51.0.0rc1`` -> ``(51, 0, 0)``)."""
    match = re.match(r"\d+(?:\.\d+)*", version.strip())
    if match is None:
        raise ValueError(f"not a version: {version!r}")
    return tuple(int(part) for part in match.group(0).split("."))


def _padded(numbers: tuple[int, ...], other: tuple[int, ...]) -> tuple[int, ...]:
    return numbers + (0,) * (len(other) - len(numbers))


def parse(line: str) -> Requirement:
    """One requirement line of the distribution's metadata (``name[extras]specs; extra == "x"``)."""
    match = _REQUIREMENT.match(line)
    if match is None:
        raise ValueError(f"not a requirement: {line!r}")
    name, specs, marker = match.groups()
    specifiers = []
    for spec in filter(None, (part.strip() for part in specs.strip("()").split(","))):
        found = re.match(r"(==|!=|>=|<=|>|<)\s*(\S+)$", spec)
        if found is None:
            raise ValueError(f"{name}: a specifier this check does not read: {spec!r}")
        specifiers.append((found.group(1), found.group(2)))
    extra = _EXTRA.search(marker or "")
    return Requirement(name, tuple(specifiers), extra.group(1) if extra else None)


def declared(distribution: str = DISTRIBUTION) -> list[Requirement]:
    """Every requirement ``distribution`` declares (runtime and extras)."""
    return [parse(line) for line in importlib.metadata.requires(distribution) or []]


def outside(extras: tuple[str, ...] = (), distribution: str = DISTRIBUTION) -> list[str]:
    """Each installed runtime dependency (and those of ``extras``) outside its tested range, said in words.

    A dependency of an extra that is not installed is skipped: the extra is optional.
    """
    found = []
    for requirement in declared(distribution):
        if requirement.extra is not None and requirement.extra not in extras:
            continue
        try:
            installed = importlib.metadata.version(requirement.name)
        except importlib.metadata.PackageNotFoundError:
            if requirement.extra is None:
                found.append(f"{requirement.name} is not installed (rs-learn needs {requirement.range})")
            continue
        if not requirement.admits(installed):
            found.append(f"{requirement.name} {installed} is outside the tested range {requirement.range}")
    return found
