"""The built component for the bench's own tests: a skip (a failure under ``CI``) before ``make wasm``."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

COMPONENT = Path(__file__).resolve().parents[2] / "dist" / "rs_learn.wasm"


def component(target: str = "wasm") -> Path:
    """The component's path; for the ``wasm`` target, a skip (or, with ``CI`` set, a failure) without it."""
    if target == "wasm" and not COMPONENT.is_file():
        message = f"{COMPONENT} does not exist: run `make wasm`"
        if os.environ.get("CI"):
            pytest.fail(message + " (CI is set: every target is mandatory)")
        pytest.skip(message)
    return COMPONENT
