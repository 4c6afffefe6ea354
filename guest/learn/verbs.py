"""learn: store a reusable lesson, then optionally create or update a managed skill.

Order (the seed's): validate the whole request (nothing is stored on bad input),
store the lesson as a memory (source ``learn``, importance 0.8, its context),
then decide the skill. Outcomes that depend on the world -- an authored skill
shadows the name, ``update`` of a skill that does not exist, or (host side) the
file cannot be written -- are reported *after* the lesson is stored, as the seed
says: the envelope is ``ok`` (the lesson is committed) and its data carries
``isError: true`` with the seed's text and details.

When a file must be written, the data carries ``write: {path, content}``
relative to ``<project>/.gm/``; the host writes it atomically after committing
and removes ``write`` from what it passes on (``host_harness/store/effects.py``).
"""

from __future__ import annotations

import re
from typing import Any

from guest import requests
from guest.errors import InvalidRequest
from guest.learn import skills
from guest.memory.verbs import MemoryVerbs
from guest.verbs import Verb

IMPORTANCE = 0.8
SOURCE = "learn"
CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]")
EMPTY = "Lesson was empty after sanitization; nothing stored."
STORED = "Lesson stored"


def sanitize(text: str) -> str:
    """Drop control characters (tabs and newlines stay) and trim."""
    return CONTROL.sub("", text).strip()


class LearnVerbs:
    """The ``learn`` verb over the memory verbs."""

    def __init__(self, memory: MemoryVerbs) -> None:
        self.memory = memory

    def table(self) -> dict[str, Verb]:
        """The verbs this module serves."""
        return {"learn": Verb(self.learn, "memory")}

    def learn(self, body: dict[str, Any]) -> dict[str, Any]:
        """``learn {memory, context?, skill?}``."""
        unknown = sorted(set(body) - {"memory", "context", "skill", "namespace"})
        if unknown:
            raise InvalidRequest(f"unknown fields: {', '.join(unknown)} (learn takes memory, context, skill)")
        raw = body.get("memory")
        if not isinstance(raw, str):
            raise InvalidRequest(
                "field 'memory' must be a string" if raw is not None else "missing field 'memory'"
            )
        requests.check_unicode(raw, "memory")
        lesson = sanitize(raw)
        if not lesson:
            raise InvalidRequest(EMPTY)
        context = body.get("context")
        if context is not None and not isinstance(context, str):
            raise InvalidRequest("field 'context' must be a string")
        context = sanitize(context) if context else None
        skill = skills.parse(body["skill"]) if body.get("skill") is not None else None

        stored = self.memory.store(
            {"text": lesson, **({"namespace": body["namespace"]} if "namespace" in body else {})},
            source=SOURCE,
            importance=IMPORTANCE,
            context=context,
        )
        result: dict[str, Any] = {"id": stored.id, "namespace": stored.namespace}
        if skill is None:
            return {**result, "text": f"{STORED}.", "isError": False, "details": {"skill": None}}
        host = self.memory.host
        if skill.name in skills.host_names(host, "authored-skills"):
            text = (
                f'{STORED}. Managed skill "{skill.name}" was not {skill.action}d: '
                "an authored skill with that name exists and authored skills always win."
            )
            return {**result, "text": text, "isError": True, "details": {"skill": None, "shadowed": True}}
        exists = skill.name in skills.host_names(host, "managed-skills")
        if skill.action == "update" and not exists:
            text = f'{STORED}. Managed skill "{skill.name}" does not exist, so it cannot be updated.'
            return {**result, "text": text, "isError": True, "details": {"skill": None, "missing": True}}
        verb = "Created" if skill.action == "create" and not exists else "Updated"
        return {
            **result,
            "text": f'{STORED}. {verb} managed skill "{skill.name}".',
            "isError": False,
            "details": {"skill": skill.name},
            "write": {"path": skill.path, "content": skill.render(), "failure_prefix": STORED},
        }
