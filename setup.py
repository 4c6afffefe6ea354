"""Packaging hook: a wheel carries the built component as ``host_harness/assets/rs_learn.wasm``.

Everything else is in ``pyproject.toml``. ``pip wheel .`` / ``python -m build`` copy
``dist/rs_learn.wasm`` (``make wasm``) into the package, so an installed ``rs-learn-host`` needs no
checkout, no componentize-py and no compiler; a wheel without its component is refused. An
editable install (``pip install -e .``, what ``make`` does) copies nothing: it runs from the
checkout, where the component is ``dist/rs_learn.wasm``.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

ROOT = Path(__file__).resolve().parent
COMPONENT = ROOT / "dist" / "rs_learn.wasm"


class BuildWithComponent(build_py):
    """``build_py`` plus the component."""

    def run(self) -> None:
        """Build the packages, then add the component to ``host_harness/assets``."""
        super().run()
        if getattr(self, "editable_mode", False):
            return
        if not COMPONENT.is_file():
            raise SystemExit(f"{COMPONENT} is missing: run `make wasm` before building a wheel")
        target = Path(self.build_lib) / "host_harness" / "assets" / "rs_learn.wasm"
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(COMPONENT, target)


setup(cmdclass={"build_py": BuildWithComponent})
