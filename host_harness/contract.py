"""What the host knows of the guest: the limits, field lists and enums of ``contract.json``.

The host never imports the guest's code (only the native target does, ``targets/native.py``). The
MCP schemas, the CLI's bounds and the web view's page size read the guest's own values from
``contract.json``: the answer of the guest's ``describe`` verb, written by
``scripts/build_component.py`` from the sources it compiles and committed, so a fresh checkout
serves MCP before any build. ``tests/parity/test_contract.py`` fails when the file differs from the
answer of either target (a guest edited without ``make wasm``). Cheap: json only, read once on the
MCP server's start-up path.

The answer's ``verbs`` is the verb spec (``guest/spec.py``): every exposed verb's fields with their
type, range, default and help, which the MCP schemas, the click options of a verb's field and
``docs/cli-reference.md`` are made from (:func:`verbs`, :func:`field`). It is written to a file of
its own, ``verbs.json`` (34 KB against ``contract.json``'s 3 KB): the prompt hook, which reads one
budget range, parses only the small file.

A section is named after the guest module its values come from (``structured.fields``); a value
keeps that module's name (``MAX_TAGS``); a pattern is the text of a Python ``fullmatch`` pattern.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

PATH = Path(__file__).with_name("contract.json")
VERBS_PATH = Path(__file__).with_name("verbs.json")


def render(contract: dict[str, Any]) -> str:
    """The text of ``contract.json`` for ``contract``: one value a line (small diffs), in the guest's order.

    Not sorted: a verb's fields keep the order the guest lists them in, which the MCP schemas and
    ``docs/cli-reference.md`` show (``describe``'s order is fixed by its sources).
    """
    return json.dumps(contract, indent=1, ensure_ascii=True) + "\n"


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


def files(answer: dict[str, Any]) -> dict[Path, str]:
    """The text of ``contract.json`` and ``verbs.json`` for ``describe``'s ``answer``."""
    return {PATH: render({name: values for name, values in answer.items() if name != "verbs"}),
            VERBS_PATH: render(answer["verbs"])}


@cache
def verbs() -> dict[str, dict[str, Any]]:
    """The verb spec (``describe``'s ``verbs``, ``guest/spec.py``): each verb's fields and required ones."""
    data: dict[str, dict[str, Any]] = json.loads(VERBS_PATH.read_text(encoding="utf-8"))
    return data


def answer() -> dict[str, Any]:
    """``describe``'s answer as the two files hold it."""
    return {**load(), "verbs": verbs()}


def field(verb: str, name: str) -> dict[str, Any]:
    """The spec of field ``name`` of ``verb``: type, description and, when they apply, range and default."""
    try:
        spec: dict[str, Any] = verbs()[verb]["fields"][name]
    except KeyError:
        raise KeyError(f"verbs.json has no field {name!r} of verb {verb!r}") from None
    return spec
