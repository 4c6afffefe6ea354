"""Folder names the host makes from user input: a discipline's, a managed skill's.

A name becomes a directory below ``.gm/``, which is committed and checked out on every system, so
it must match ``[A-Za-z0-9][A-Za-z0-9_-]{0,63}`` (no ``/``, ``..``, NUL, absolute path or empty name
can reach the file system) and must not be a Windows device name: ``CON``, ``PRN``, ``AUX``,
``NUL``, ``COM0``-``COM9``, ``LPT0``-``LPT9``, in any case, also with an extension (``con.txt``) --
a folder of that name cannot be checked out on Windows. A new name that differs only in case from
an existing folder is refused too (:func:`case_twin`): on macOS and Windows the two are one folder.
The guest applies the same rules (``guest/requests.py``); the host checks again.
"""

from __future__ import annotations

import os
import re

NAME_RE = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]{0,63}")
# Windows' reserved device names (the superscript digits count as digits there), any extension.
DEVICE_RE = re.compile(r"(?:CON|PRN|AUX|NUL|COM[0-9\u00b9\u00b2\u00b3]|LPT[0-9\u00b9\u00b2\u00b3])(?:\..*)?",
                       re.IGNORECASE | re.DOTALL)
DEVICE_RULE = ("not a Windows device name (CON, PRN, AUX, NUL, COM0-9, LPT0-9, in any case, "
               "with any extension)")


def is_device_name(name: str) -> bool:
    """Whether ``name`` is a Windows device name (``CON``, ``nul``, ``LPT1``, ``con.txt`` ...)."""
    return DEVICE_RE.fullmatch(name.rstrip(" .")) is not None


def valid_name(name: str) -> bool:
    """Return whether ``name`` is a safe folder name (a discipline's or a managed skill's)."""
    return NAME_RE.fullmatch(name) is not None and not is_device_name(name)


def device_name_error(name: str, what: str) -> str:
    """The message refusing a Windows device name."""
    return (f"{what} {name!r} is a reserved device name on Windows (CON, PRN, AUX, NUL, COM0-9, "
            "LPT0-9): a folder of that name breaks a checkout there; choose another name")


def case_twin(name: str, existing: list[str]) -> str | None:
    """An entry of ``existing`` that differs from ``name`` only in case (``None`` if there is none)."""
    if name in existing:
        return None
    folded = name.casefold()
    return next((entry for entry in sorted(existing) if entry.casefold() == folded), None)


def case_twin_in(dir_fd: int, name: str) -> str | None:
    """:func:`case_twin` among the entries of the directory ``dir_fd``."""
    return case_twin(name, [entry.name for entry in os.scandir(dir_fd)])


def case_twin_error(name: str, twin: str, what: str) -> str:
    """The message refusing a name that differs only in case from an existing folder."""
    return (f"{what} {name!r} differs only in case from the existing {twin!r}: on macOS and Windows "
            "they would be one folder; use the existing name")
