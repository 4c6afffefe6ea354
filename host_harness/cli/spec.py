"""Click options made from the guest's verb spec: a verb field's range, default and help, never restated.

``verb_option("recall", "limit", "-l", "--limit", low=1)`` is the ``--limit`` of a command whose value
becomes the ``limit`` of ``recall``: its type is the field's range (``IntRange``/``FloatRange``, or a
``Choice`` of its ``enum``), its default the field's and its help the field's description, all read
from ``contract.json`` (``host_harness/contract.py``, written from ``guest/spec.py`` by ``make
wasm``). ``low``/``high`` narrow the range where the command line gives a value its own meaning (a
``0`` limit, "the default", is what leaving the option out already says); ``help`` replaces the
description where the command's wording differs, and ``default=None`` leaves the default to the guest.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

import click

from host_harness.contract import field

FC = TypeVar("FC", bound=Callable[..., object])
UNSET: Any = object()


def field_type(verb: str, name: str, low: float | None = None,
               high: float | None = None) -> click.ParamType[Any, Any]:
    """The click type of field ``name`` of ``verb``: its range or its choices (``low``/``high`` narrow it)."""
    spec = field(verb, name)
    if "enum" in spec:
        return click.Choice(spec["enum"])
    kind = spec["type"]
    if kind not in ("integer", "number"):
        raise ValueError(f"field {name!r} of verb {verb!r} is a {kind}: no range to read")
    lowest = spec.get("minimum") if low is None else max(low, spec.get("minimum", low))
    highest = spec.get("maximum") if high is None else min(high, spec.get("maximum", high))
    if kind == "integer":
        return click.IntRange(lowest, highest)
    return click.FloatRange(lowest, highest)


def default_of(verb: str, name: str) -> Any:
    """The guest's default of field ``name`` of ``verb`` (``None``: the verb reads its configuration)."""
    return field(verb, name).get("default")


def field_help(verb: str, name: str) -> str:
    """The help of field ``name`` of ``verb``: its description in the spec."""
    return str(field(verb, name)["description"])


def verb_option(verb: str, name: str, *decls: str, low: float | None = None, high: float | None = None,
                help: str | None = None, default: Any = UNSET, **extra: Any) -> Callable[[FC], FC]:
    """A click option setting field ``name`` of ``verb``, typed, defaulted and documented by the spec."""
    value = default_of(verb, name) if default is UNSET else default
    kind = field_type(verb, name, low, high)
    return click.option(*decls, type=kind, default=value, show_default=value is not None,
                        help=help or field(verb, name)["description"], **extra)
