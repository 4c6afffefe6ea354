"""auto_recall's verdict on every candidate: injected, or why not -- what the hook's ledger records.

The candidates are the hits the recalls returned (merged, best first). Each gets one decision, taken
in this order:

* ``seen``: already injected in this session (the body's ``exclude``, which the hook keeps per
  session); it did not count in the limit, so its slot went to the next hit;
* ``quarantined``: it reads as an instruction aimed at the agent (``docs/secrets.md``): never injected;
* ``untrusted``: its origin is not trusted (tool output, an unreviewed import, a git merge from someone
  else: :mod:`guest.memory.origin`) and nobody approved it; with ``untrusted: "labelled"`` (the
  hook's ``untrusted_recall`` setting) it is injected instead, its origin shown before its text;
* ``limit``: beyond the body's ``limit`` (only when the ``both`` strategy merged two lists);
* ``gate``: no evidence for this prompt -- the store as a whole has none
  (:mod:`guest.memory.relevance`: the answer's ``evidence`` says why), or this hit has none of its
  own: it holds no informative word of the prompt (a shared chat word such as *use* is none; an
  imported note's context counts) and its cosine is below :data:`guest.memory.autorecall.MIN_COSINE`;
* ``budget``: it did not fit in the token budget (nor did any hit after it);
* ``injected``: in the context (``stale``: in the context, marked as maybe stale: a file it cites
  changed since it was stored).

Each candidate comes with its channel scores (:mod:`guest.memory.channels`) and a short excerpt of
its text (none for a quarantined one: a person reading the ledger through the agent would hand its
instruction to the agent after all).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from guest.errors import InvalidRequest
from guest.memory import autorecall, disciplines, origin
from guest.memory.recall import Hit
from guest.requests import kind_of

MAX_EXCLUDE = 5000
MAX_ID_CHARS = 200
EXCERPT_CHARS = 80
TAIL_FLOOR = 0.0  # past the gate, a hit scoring below this share of the best hit's score is not injected
DECISIONS = ("injected", "stale", "budget", "gate", "limit", "quarantined", "untrusted", "seen")


@dataclass(frozen=True)
class Verdict:
    """What auto_recall injects: the context, the hits shown, every candidate with its decision."""

    context: str
    shown: list[Hit]
    candidates: list[tuple[Hit, str]]

    @property
    def tokens(self) -> int:
        """The context's token estimate (characters / 4, rounded up; 0 for no context)."""
        size = len(self.context)
        return (size + autorecall.CHARS_PER_TOKEN - 1) // autorecall.CHARS_PER_TOKEN


def excluded(body: dict[str, Any]) -> frozenset[str]:
    """The body's ``exclude``: ids of memories not to inject again (absent or null: none)."""
    value = body.get("exclude")
    if value is None:
        return frozenset()
    if not isinstance(value, list):
        raise InvalidRequest(f"field 'exclude' must be a list of memory ids, not {kind_of(value)}")
    if len(value) > MAX_EXCLUDE:
        raise InvalidRequest(f"field 'exclude' holds {len(value)} ids; the limit is {MAX_EXCLUDE}")
    for i, item in enumerate(value):
        if not isinstance(item, str) or not 0 < len(item) <= MAX_ID_CHARS:
            got = repr(item[:40]) if isinstance(item, str) else kind_of(item)
            raise InvalidRequest(f"field 'exclude[{i}]' must be a memory id (a string of 1-{MAX_ID_CHARS} "
                                 f"characters), got {got}")
    return frozenset(value)


def decide(hits: list[Hit], limit: int, gate: bool, budget: int, per_hit: int, label: bool,
           closed: bool = False, dated: autorecall.Dated | None = None,
           covers: Callable[[Hit], float] | None = None, untrusted: str = origin.HOLD) -> Verdict:
    """Every candidate's decision and the context of those injected.

    ``label``: prefix a fanned-out discipline's hits with ``[discipline:<name>] `` (as injected);
    ``closed``: the relevance gate found no evidence for the prompt: no hit passes it; ``dated``:
    which hits show their date (:func:`guest.memory.autorecall.render`); ``covers``: the share of the
    prompt's informative weight a hit holds (its own evidence; default: 1 if a query term matched it).
    An open gate does not inject a weak tail: a hit scoring below :data:`TAIL_FLOOR` times the best
    eligible hit's score is decided ``gate`` too. ``untrusted``: what becomes of a hit of an untrusted
    origin (:data:`guest.memory.origin.HOLD`: not injected; ``LABELLED``: injected with its origin).
    """
    if covers is None:
        covers = _matched
    decided: list[tuple[Hit, str]] = []
    eligible: list[Hit] = []
    live = 0
    best = 0.0  # the best eligible hit's score (hits come best first)
    for hit in hits:
        hit = replace(hit, text=disciplines.label(hit.text, hit.namespace, label))
        if hit.seen:
            decided.append((hit, "seen"))
        elif hit.quarantined:
            decided.append((hit, "quarantined"))
        elif untrusted == origin.HOLD and is_untrusted(hit):
            decided.append((hit, "untrusted"))
        elif live >= limit:
            decided.append((hit, "limit"))
        else:
            live += 1
            if gate and (closed or not autorecall.relevant(hit, covers(hit))
                         or (eligible and hit.score < TAIL_FLOOR * best)):
                decided.append((hit, "gate"))
            else:
                best = max(best, hit.score)
                eligible.append(hit)
                decided.append((hit, ""))
    context, shown = autorecall.render(eligible, budget, per_hit, dated, _label)
    injected = {(h.namespace, h.id) for h in shown}
    candidates = [(h, d or _shown(h, injected)) for h, d in decided]
    return Verdict(context, shown, candidates)


def is_untrusted(hit: Hit) -> bool:
    """Whether ``hit``'s origin is untrusted and nobody approved it."""
    return hit.provenance is not None and hit.provenance.get("trust") == "untrusted"


def _label(hit: Hit) -> str:
    """The origin shown before an untrusted hit's text (only ``labelled`` mode injects one)."""
    return str(hit.provenance.get("label", "")) if hit.provenance is not None and is_untrusted(hit) else ""


def _matched(hit: Hit) -> float:
    return 1.0 if hit.matched else 0.0


def _shown(hit: Hit, injected: set[tuple[str, str]]) -> str:
    """An eligible hit's decision: injected (``stale`` when its cited files changed) or over the budget."""
    if (hit.namespace, hit.id) not in injected:
        return "budget"
    return "stale" if hit.stale else "injected"


def candidate(hit: Hit, decision: str) -> dict[str, Any]:
    """One candidate as the answer (and the ledger) carries it."""
    out: dict[str, Any] = {"id": hit.id, "namespace": hit.namespace, "decision": decision, "score": hit.score,
                           **hit.channels.as_json()}
    if hit.captured:
        out["captured"] = hit.captured
    if hit.provenance is not None:
        out["origin"] = {"label": hit.provenance.get("label"), "trust": hit.provenance.get("trust")}
    if hit.quarantined:
        out["quarantined"] = hit.quarantined
    else:
        text = " ".join(hit.text.split())
        out["excerpt"] = text if len(text) <= EXCERPT_CHARS else text[: EXCERPT_CHARS - 1].rstrip() + "…"
    return out

