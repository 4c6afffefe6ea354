"""Faster component calls through wasmtime-py, only on the wasmtime-py versions they were tested on (D7).

The accelerations (:mod:`host_harness.targets.wasmtime50`) replace private parts of wasmtime-py:
``wasmtime.component._types``' conversions, ``_linker.func_impl`` and the layout of ``_ffi``'s value
cells. Those are no API: another release may rename or reshape them, and a patch that read a moved
field would corrupt values rather than fail. So :func:`install` patches only when the installed
wasmtime-py lies in :data:`TESTED` (the range the suite ran the patches against, byte for byte
against the stock code) and the patch module imports; on any other version it leaves the stock code
in place -- every call works the same, only slower (a recall ~4x) -- and logs that once.

:class:`~host_harness.targets.typed.Typed` (re-exported here) is the wrapper the component's host
imports are registered in: a plain callable on the stock path, the key to the cached parameter and
result types on the patched one.
"""

from __future__ import annotations

import importlib.metadata
import logging
import re
import sys
from types import ModuleType

from host_harness.targets.typed import Typed

WASMTIME_VERSION = importlib.metadata.version("wasmtime")
TESTED = ((50, 0), (51, 0))  # wasmtime-py versions the patches are written for: [from, to)
PATCHES = "host_harness.targets.wasmtime50"

__all__ = ["TESTED", "WASMTIME_VERSION", "Typed", "install", "installed", "patches", "tested", "uninstall"]

log = logging.getLogger("rs_learn.host")
_said: set[str] = set()  # the versions already logged as untested (once per process)


def tested(version: str) -> bool:
    """Whether wasmtime-py ``version`` lies in :data:`TESTED`."""
    numbers = tuple(int(part) for part in re.findall(r"\d+", version)[:2])
    return TESTED[0] <= numbers < TESTED[1]


def patches(version: str | None = None) -> ModuleType | None:
    """The patch module for wasmtime-py ``version`` (the installed one by default), or ``None``."""
    version = version or WASMTIME_VERSION
    if tested(version):
        try:
            from host_harness.targets import wasmtime50
        except (ImportError, AttributeError) as error:  # a private name gone although the version fits
            reason = f"its internals differ ({error})"
        else:
            return wasmtime50
    else:
        reason = f"the accelerations are tested on {TESTED[0][0]}.x only"
    if version not in _said:
        _said.add(version)
        log.info("wasmtime-py %s: stock component calls (%s)", version, reason)
    return None


def install(version: str | None = None) -> bool:
    """Patch wasmtime-py when ``version`` (the installed one) is tested, else keep the stock code; which.

    Idempotent. An untested ``version`` also takes back patches installed before (tests force it).
    """
    module = patches(version)
    if module is None:
        uninstall()
        return False
    module.install()
    return True


def uninstall() -> None:
    """Restore the stock code (a no-op when nothing was patched)."""
    module = sys.modules.get(PATCHES)
    if module is not None:
        module.uninstall()


def installed() -> bool:
    """Whether the patches are in place now."""
    module = sys.modules.get(PATCHES)
    return module is not None and bool(module._types.ListType.convert_to_c is module._to_c)
