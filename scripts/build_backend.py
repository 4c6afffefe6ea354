"""The wheel's build backend: setuptools, refusing at once when the component was not built.

``pip install .`` asks the backend for the wheel's requirements and metadata before it downloads the
runtime dependencies, and builds the wheel only after them; ``setup.py`` can refuse a wheel without
``dist/rs_learn.wasm`` only at that last step, a minute of downloads later. These hooks refuse at the
first question instead. An editable install (``pip install -e .``, what ``make`` does) runs from the
checkout and needs no component: its hooks are setuptools' own.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from setuptools import build_meta
from setuptools.build_meta import *  # noqa: F403  (every other hook is setuptools')

COMPONENT = Path(__file__).resolve().parent.parent / "dist" / "rs_learn.wasm"
MISSING = (f"{COMPONENT} is missing: run `make wasm` in this checkout first (a wheel of rs-learn carries the "
           "built component; none of its dependencies was downloaded)")


def _component() -> None:
    if not COMPONENT.is_file():
        raise SystemExit(MISSING)


def get_requires_for_build_wheel(config_settings: dict[str, Any] | None = None) -> list[str]:
    """Refuse without the component; else setuptools' answer."""
    _component()
    return list(build_meta.get_requires_for_build_wheel(config_settings))


def prepare_metadata_for_build_wheel(metadata_directory: str,
                                     config_settings: dict[str, Any] | None = None) -> str:
    """Refuse without the component; else setuptools' answer."""
    _component()
    return str(build_meta.prepare_metadata_for_build_wheel(metadata_directory, config_settings))


def build_wheel(wheel_directory: str, config_settings: dict[str, Any] | None = None,
                metadata_directory: str | None = None) -> str:
    """Refuse without the component; else setuptools builds the wheel (``setup.py`` copies the component)."""
    _component()
    return str(build_meta.build_wheel(wheel_directory, config_settings, metadata_directory))
