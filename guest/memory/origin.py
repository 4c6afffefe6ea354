"""Where a memory came from (its *origin*), and how far the agent's context trusts it (issue 45).

Every memory stored since issue 45 keeps ``origin`` among its fields (a record's ``extra``, so an
older record decodes unchanged and a git merge unites it like every other field):

* ``{"kind": "typed", "by": "user"}`` -- ``memorize`` at the CLI; ``"by": "agent"`` through MCP
  (the host says which in the request's ``origin``; without it: ``{"kind": "typed"}``);
* ``{"kind": "prompt", "session": …}`` -- a rule captured from a prompt the user typed;
* ``{"kind": "tool-output", "session": …}`` -- a lesson captured from what tools printed;
* ``{"kind": "imported", "file": …, "reviewed": bool}`` -- ``import`` (``file``: what the host read;
  ``reviewed``: the user said they read it, ``import --reviewed``);
* ``{"kind": "git", "commit": …, "author": …, "self": bool, "was": {…}}`` -- added to the store by
  the git merge driver from another branch (``self``: its author is this checkout's git user;
  ``was``: the origin it had there);
* ``{"kind": "learned"}`` -- ``learn`` (the agent's own lesson);
* a record without the field (stored before issue 45) reads as ``{"kind": "unknown"}``.

**Trust** (:func:`trust`) has three levels. ``user``: typed at the CLI, said in a typed prompt, or
approved (``approve``); ``agent``: typed through MCP or by an unnamed caller, learned, imported from a
reviewed file, arrived through git from this checkout's own user, or unknown (a store from before
origins: what it held was injected before and stays so); ``untrusted``: tool output, imported from
an unreviewed file, arrived through git from someone else. ``auto_recall`` injects an untrusted
memory only once approved, or -- with ``"untrusted_recall": "labelled"`` in ``.gm/config.json`` (the
hook passes it as ``auto_recall {untrusted}``) -- with its origin shown
(:mod:`guest.memory.decisions`); a supersede from a less trusted origin waits for approval
(:func:`outranks`). An approval that arrived through git from someone else is not theirs to give:
the merge drops it (:func:`arrived`).
"""

from __future__ import annotations

from typing import Any

from guest.errors import InvalidRequest
from guest.requests import kind_of

FIELD = "origin"
APPROVED = "approved"  # guest.screening.screen.APPROVED (not imported: screen imports the memory package)
KINDS = ("typed", "prompt", "tool-output", "imported", "git", "learned", "unknown")
BY = ("user", "agent")
USER, AGENT, UNTRUSTED = 3, 2, 1
LEVELS = {USER: "user", AGENT: "agent", UNTRUSTED: "untrusted"}
MAX_DETAIL_CHARS = 512
HOLD, LABELLED = "hold", "labelled"


def typed(body: dict[str, Any]) -> dict[str, Any]:
    """The origin of a ``memorize``: the request's ``origin`` (``{"kind": "typed", "by"?}``), checked."""
    value = body.get(FIELD)
    if value is None:
        return {"kind": "typed"}
    if not isinstance(value, dict):
        raise InvalidRequest(f"field 'origin' must be an object, not {kind_of(value)}")
    unknown = sorted(set(value) - {"kind", "by"})
    if unknown:
        raise InvalidRequest(f"field 'origin' has unknown fields: {', '.join(unknown)} (it takes kind, by)")
    if value.get("kind", "typed") != "typed":
        raise InvalidRequest(f"field 'origin.kind' of a memorize must be 'typed', got {value.get('kind')!r}: "
                             "the other origins are the guest's to give")
    by = value.get("by")
    if by is None:
        return {"kind": "typed"}
    if by not in BY:
        raise InvalidRequest(f"field 'origin.by' must be one of {', '.join(BY)}, got {by!r}")
    return {"kind": "typed", "by": by}


def imported(body: dict[str, Any]) -> dict[str, Any]:
    """An ``import`` batch's origin, ``{"kind": "imported", "file"?, "reviewed"}``, from its ``origin``."""
    value = body.get(FIELD)
    if value is None:
        return {"kind": "imported", "reviewed": False}
    if not isinstance(value, dict):
        raise InvalidRequest(f"field 'origin' must be an object, not {kind_of(value)}")
    unknown = sorted(set(value) - {"kind", "file", "reviewed"})
    if unknown:
        raise InvalidRequest(f"field 'origin' has unknown fields: {', '.join(unknown)} "
                             "(it takes kind, file, reviewed)")
    if value.get("kind", "imported") != "imported":
        got = value.get("kind")
        raise InvalidRequest(f"field 'origin.kind' of an import must be 'imported', got {got!r}")
    out: dict[str, Any] = {"kind": "imported"}
    if value.get("file") is not None:
        out["file"] = _detail(value["file"], "origin.file")
    reviewed = value.get("reviewed", False)
    if not isinstance(reviewed, bool):
        raise InvalidRequest(f"field 'origin.reviewed' must be true or false, not {kind_of(reviewed)}")
    out["reviewed"] = reviewed
    return out


def git(body: dict[str, Any]) -> dict[str, Any] | None:
    """What the merge driver knows of the branch merged in: ``{commit?, author?, self}``, or ``None``."""
    value = body.get("theirs")
    if value is None:
        return None
    if not isinstance(value, dict):
        raise InvalidRequest(f"field 'theirs' must be an object, not {kind_of(value)}")
    out: dict[str, Any] = {"kind": "git"}
    for name in ("commit", "author"):
        if value.get(name) is not None:
            out[name] = _detail(value[name], f"theirs.{name}")
    self_ = value.get("self", False)
    if not isinstance(self_, bool):
        raise InvalidRequest(f"field 'theirs.self' must be true or false, not {kind_of(self_)}")
    out["self"] = self_
    return out


def _detail(value: Any, field: str) -> str:
    if not isinstance(value, str) or not value.strip():
        raise InvalidRequest(f"field {field!r} must be a non-blank string")
    return value.strip()[:MAX_DETAIL_CHARS]


def of(extra: dict[str, Any] | None) -> dict[str, Any]:
    """A record's origin (``{"kind": "unknown"}`` for a record stored before origins)."""
    value = (extra or {}).get(FIELD)
    if isinstance(value, dict) and value.get("kind") in KINDS:
        return value
    return {"kind": "unknown"}


def arrived(extra: dict[str, Any], through: dict[str, Any]) -> dict[str, Any]:
    """``extra`` of a record the git merge adds from the other branch: its origin wrapped in ``through``.

    From someone else, an approval it carries is dropped (only this checkout's user approves here).
    """
    out = dict(extra)
    if not through.get("self"):
        out.pop(APPROVED, None)
    out[FIELD] = {**through, "was": of(extra)}
    return out


def base_trust(origin: dict[str, Any]) -> int:
    """The trust of an origin alone (no approval)."""
    kind = origin.get("kind")
    if kind == "prompt" or (kind == "typed" and origin.get("by") == "user"):
        return USER
    if kind == "tool-output" or (kind == "imported" and not origin.get("reviewed")):
        return UNTRUSTED
    if kind == "git":
        if not origin.get("self"):
            return UNTRUSTED
        was = origin.get("was")
        return min(AGENT, base_trust(was)) if isinstance(was, dict) and was.get("kind") != "git" else AGENT
    return AGENT


def trust(extra: dict[str, Any] | None) -> int:
    """A record's trust: :data:`USER` once approved, else its origin's."""
    if (extra or {}).get(APPROVED):
        return USER
    return base_trust(of(extra))


def outranks(old: dict[str, Any] | None, new: dict[str, Any] | None) -> bool:
    """Whether a memory of ``old``'s fields is more trusted than one of ``new``'s (its supersede waits)."""
    return trust(old) > trust(new)


def label(origin: dict[str, Any]) -> str:
    """A short, human reading of an origin: ``typed by you``, ``tool output``, ``git: a1b2c3d by Ann``."""
    kind = origin.get("kind")
    if kind == "typed":
        return {"user": "typed by you", "agent": "typed by the agent"}.get(str(origin.get("by")), "typed")
    if kind == "prompt":
        return "said in your prompt"
    if kind == "tool-output":
        return "tool output"
    if kind == "imported":
        where = f" from {origin['file']}" if origin.get("file") else ""
        return f"imported{where}" + ("" if origin.get("reviewed") else ", not reviewed")
    if kind == "git":
        commit = f" {str(origin['commit'])[:12]}" if origin.get("commit") else ""
        author = f" by {origin['author']}" if origin.get("author") else ""
        return f"git merge{commit}{author}" + ("" if origin.get("self") else ", not reviewed")
    if kind == "learned":
        return "learned"
    return "origin unknown"


def shown(extra: dict[str, Any] | None) -> dict[str, Any]:
    """The origin as ``show`` and the listings carry it: its fields, ``trust`` and ``label``."""
    origin = of(extra)
    return {**origin, "trust": LEVELS[trust(extra)], "label": label(origin)}
