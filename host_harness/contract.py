"""What the host knows of the guest: the limits, field lists and enums of ``contract.json``.

The host never imports the guest's code (only the native target does, ``targets/native.py``). The
MCP schemas, the CLI's bounds and the web view's page size read the guest's own values from
``contract.json``: the answer of the guest's ``describe`` verb, written by
``scripts/build_component.py`` from the sources it compiles and committed, so a fresh checkout
serves MCP before any build. ``tests/test_contract.py`` fails when the file differs from the
answer of either target (a guest edited without ``make wasm``). Cheap: json only, read once on the
MCP server's start-up path.

A section is named after the guest module its values come from (``structured.fields``); a value
keeps that module's name (``MAX_TAGS``); a pattern is the text of a Python ``fullmatch`` pattern.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

PATH = Path(__file__).with_name("contract.json")


def render(contract: dict[str, Any]) -> str:
    """The text of ``contract.json`` for ``contract`` (keys sorted, one value a line: diffs stay small)."""
    return json.dumps(contract, indent=1, sort_keys=True, ensure_ascii=True) + "\n"


@cache
def load() -> dict[str, dict[str, Any]]:
    """Every section of ``contract.json``."""
    data: dict[str, dict[str, Any]] = json.loads(PATH.read_text(encoding="utf-8"))
    return data


class Section:
    """One section's values as attributes: ``section("memory.listing").MAX_PAGE``."""

    def __init__(self, name: str, values: dict[str, Any]) -> None:
        self._name = name
        self._values = values

    def __getattr__(self, key: str) -> Any:
        try:
            return self._values[key]
        except KeyError:
            raise AttributeError(f"contract.json has no {key} in section {self._name!r}") from None


def section(name: str) -> Section:
    """The section ``name`` of ``contract.json``."""
    return Section(name, load()[name])
