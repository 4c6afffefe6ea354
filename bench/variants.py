"""Named engine variants for ``make eval``: one table row each, on every set.

The first variant, ``default``, is the real engine through ``dispatch`` with the bodies the CLI and
the hook send. A ranking change is measured by adding one line to :data:`VARIANTS`, e.g.::

    Variant("recency 0.2", recall={"recency_weight": 0.2}),            # a request field
    Variant("wider pool", options={"candidates": 100}),                # a RecallOptions field
    Variant("gate cosine .95", patch={"guest.memory.autorecall:MIN_COSINE": 0.95}),
    Variant("no word forms", patch={"guest.memory.rules:FORMS": False}, index=True),

* ``recall`` / ``hook``: fields merged into every ``recall`` / ``auto_recall`` body: what a user
  or host can already ask for; runs on both targets.
* ``options``: :class:`guest.memory.recall.RecallOptions` fields, applied to every recall the engine
  makes (``recall`` and each of ``auto_recall``'s) by wrapping :func:`guest.memory.recall.recall`
  wherever the guest bound it: a bench-only hook, native target only.
* ``patch``: ``"module:NAME" -> value``, module attributes set while the variant runs (patch the
  module that reads the name); native target only.
* ``index``: the variant changes what is *stored* (terms, vectors, records), so it memorizes into
  stores of its own, with its patches applied; otherwise it is asked of the default's stores.

``python -m bench.eval --variant NAME`` runs only the named variants (``default`` is always run).
"""

from __future__ import annotations

import importlib
import re
import sys
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field, fields, replace
from typing import Any


@dataclass(frozen=True)
class Variant:
    """A named change to the engine or to what is asked of it."""

    name: str
    recall: Mapping[str, Any] = field(default_factory=dict)
    hook: Mapping[str, Any] = field(default_factory=dict)
    options: Mapping[str, Any] = field(default_factory=dict)
    patch: Mapping[str, Any] = field(default_factory=dict)
    index: bool = False

    @property
    def native_only(self) -> bool:
        """Whether the variant reaches into the native guest (the component cannot run it)."""
        return bool(self.options or self.patch)


DEFAULT = Variant("default")
VARIANTS: tuple[Variant, ...] = (
    DEFAULT,
    Variant("no relevance gate", patch={"guest.memory.relevance:MIN_COVERAGE": 0.0,
                                        "guest.memory.relevance:NAMED_COVERAGE": 0.0}),
    # issue 29, each change turned off (docs/quality.md, "Who, what and when"):
    Variant("no subject lift", options={"subject_weight": 0.0}),
    Variant("no time lift", options={"time_weight": 0.0}),
    Variant("no word forms", patch={"guest.memory.rules:FORMS": False}, index=True),
    Variant("terms v1 (old store)", patch={"guest.memory.records:TERMS_VERSION": 1}, index=True),
    # issue 35 item 2: channels calibrated against the store's background instead of min-max
    Variant("background .25/.75", options={"scaling": "background"}),
    Variant("background .5/.5", options={"scaling": "background", "vector_weight": 0.5,
                                         "keyword_weight": 0.5}),
    Variant("background .65/.35", options={"scaling": "background", "vector_weight": 0.65,
                                           "keyword_weight": 0.35}),
    # issue 47 item 1: the calibrated scaling with a heavier keyword channel, its share square-rooted
    Variant("background .15/.85", options={"scaling": "background", "vector_weight": 0.15,
                                           "keyword_weight": 0.85}),
    Variant("background .1/.9", options={"scaling": "background", "vector_weight": 0.1,
                                         "keyword_weight": 0.9}),
    Variant("background sqrt .25/.75", options={"scaling": "background", "keyword_power": 0.5}),
    Variant("background sqrt .15/.85", options={"scaling": "background", "keyword_power": 0.5,
                                                "vector_weight": 0.15, "keyword_weight": 0.85}),
    # issue 47 item 3: a question asking for several spread over sittings (guest/memory/spread.py)
    Variant("spread .5", options={"spread_factor": 0.5}),
    Variant("spread .7", options={"spread_factor": 0.7}),
    Variant("spread .5 always", options={"spread_factor": 0.5, "spread_always": True}),
    # issue 47 item 1: terms version 5 (no clitic is a term) against version 4, and with 's kept
    Variant("terms v4", patch={"guest.memory.records:TERMS_VERSION": 4}, index=True),
    Variant("terms v5 keeps 's", patch={"guest.index.keywords:CLITIC_V5": re.compile(
        r"(?<=[^\W_])['\u2019](?:re|ve|ll|d|m|t)(?![^\W_])", re.IGNORECASE)}, index=True),
    # issue 47 (D280): the ranker's "neighbours" feature hand-set, a lift for a shared sitting
    Variant("sitting off", options={"sitting_weight": 0.0}),
    Variant("sitting .25", options={"sitting_weight": 0.25}),
    Variant("sitting .5", options={"sitting_weight": 0.5}),
    Variant("sitting .5 + spread .5", options={"sitting_weight": 0.5, "spread_factor": 0.5}),
    # issue 35 item 5, each hook change turned off, and the weak tail's floor
    Variant("hook: inline code dropped", patch={"guest.memory.autorecall:INLINE_CODE_CHARS": -1}),
    Variant("hook: one-letter evidence", patch={"guest.memory.relevance:MIN_TERM_CHARS": 1}),
    Variant("hook: code names veto", patch={"guest.memory.relevance:CODE_NAME": re.compile(r"(?!)")}),
    Variant("hook: tail floor .3", patch={"guest.memory.decisions:TAIL_FLOOR": 0.3}),
    Variant("hook: tail floor .5", patch={"guest.memory.decisions:TAIL_FLOOR": 0.5}),
    Variant("hook: tail floor .7", patch={"guest.memory.decisions:TAIL_FLOOR": 0.7}),
)


def chosen(names: list[str] | None, variants: tuple[Variant, ...] = VARIANTS) -> list[Variant]:
    """``default`` and the variants named (all of them when ``names`` is empty or None)."""
    known = {v.name: v for v in variants}
    unknown = sorted(set(names or ()) - set(known))
    if unknown:
        raise SystemExit(f"unknown variant(s) {', '.join(unknown)}; known: {', '.join(known)}")
    return [v for v in variants if not names or v is variants[0] or v.name in names]


@contextmanager
def applied(variant: Variant) -> Iterator[None]:
    """The native guest with ``variant``'s options and patches while the block runs."""
    undo: list[Callable[[], None]] = []
    try:
        for target, value in variant.patch.items():
            module_name, _, attr = target.partition(":")
            module = importlib.import_module(module_name)
            if not attr or not hasattr(module, attr):
                raise SystemExit(f"variant {variant.name!r}: {target!r} names no module attribute")
            undo.append(_setter(module, attr, getattr(module, attr)))
            setattr(module, attr, value)
        if variant.options:
            undo += _wrap_recall(variant)
        yield
    finally:
        for restore in reversed(undo):
            restore()


def _setter(owner: object, attr: str, value: object) -> Callable[[], None]:
    return lambda: setattr(owner, attr, value)


def _wrap_recall(variant: Variant) -> list[Callable[[], None]]:
    """Replace :func:`recall` in every guest module that holds it by one that overrides options."""
    importlib.import_module("guest.engine")  # every guest module that may hold ``recall`` is loaded
    from guest.memory import recall as module

    names = {f.name for f in fields(module.RecallOptions)}
    unknown = sorted(set(variant.options) - names)
    if unknown:
        raise SystemExit(f"variant {variant.name!r}: no RecallOptions field {', '.join(unknown)}")
    original = module.recall
    overrides = dict(variant.options)

    def recall(*args: Any, **kwargs: Any) -> Any:
        if "options" in kwargs:
            kwargs["options"] = replace(kwargs["options"], **overrides)
        else:
            args = (*args[:5], replace(args[5], **overrides), *args[6:])
        return original(*args, **kwargs)

    undo = []
    for name, loaded in list(sys.modules.items()):
        if (name == "guest" or name.startswith("guest.")) and getattr(loaded, "recall", None) is original:
            undo.append(_setter(loaded, "recall", original))
            loaded.recall = recall  # type: ignore[attr-defined]
    return undo
