"""learn: store a reusable lesson, then optionally create or update a managed skill.

Order (the seed's: "stores the lesson first"): validate the lesson (``memory``,
``context``, ``namespace``, no unknown fields) -- a request whose lesson is
unusable is ``ok: false`` and stores nothing; store the lesson as a memory
(source ``learn``, importance 0.8, its context); then deal with the skill. Every
skill problem -- a malformed ``skill`` object, a name with no letter or digit, a
``SKILL.md`` over 64,000 bytes, an authored skill of that name, ``update`` of a
skill that does not exist, or (host side) a failed write -- is reported *after*
the lesson is stored: the envelope is ``ok`` (the lesson is committed) and its
data carries ``isError: true`` with the seed's text and details. So is a lesson
or skill that reads as an instruction aimed at the agent (``guest/screening/screen.py``):
the lesson is stored quarantined and no ``SKILL.md`` is written until it is
approved. Secrets in the lesson, its context and the skill are redacted first.

The data is the seed's tool result -- ``content: [{"type": "text", "text"}]``,
``details``, ``isError`` -- plus ``text`` (the same text), ``id`` and
``namespace`` of the stored lesson. When a file must be written, it also carries
``write: {path, content}`` relative to ``<project>/.gm/``; the host writes it
atomically after committing and removes ``write`` from what it passes on
(``host_harness/fs/effects.py``).
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Any

from guest import requests
from guest.errors import InvalidRequest
from guest.learn import discovery, skills
from guest.memory.verbs import MemoryVerbs
from guest.screening.screen import Screen, quarantine
from guest.verbs import Verb

IMPORTANCE = 0.8
SOURCE = "learn"
CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]")
EMPTY = "Lesson was empty after sanitization; nothing stored."
STORED = "Lesson stored"
DEFAULT_BUDGET_TOKENS = 1500
MIN_BUDGET_TOKENS = 1  # the hooks' --budget range (host_harness/contract.json)
MAX_BUDGET_TOKENS = 100_000


def sanitize(text: str) -> str:
    """Drop control characters (tabs and newlines stay) and trim."""
    return CONTROL.sub("", text).strip()


class LearnVerbs:
    """The ``learn`` verb over the memory verbs."""

    def __init__(self, memory: MemoryVerbs) -> None:
        self.memory = memory

    def table(self) -> dict[str, Verb]:
        """The verbs this module serves."""
        return {"learn": Verb(self.learn, "memory"), "session_start": Verb(self.session_start)}

    def session_start(self, body: dict[str, Any]) -> dict[str, Any]:
        """``session_start {budget_tokens?}``: the discoverable skills, rendered for a new session."""
        budget = requests.integer(body, "budget_tokens", DEFAULT_BUDGET_TOKENS, MIN_BUDGET_TOKENS,
                                  MAX_BUDGET_TOKENS)
        # what arrives through git is screened here too: its secrets redacted, and a skill whose name
        # or description reads as an instruction aimed at the agent is not shown
        screen = Screen(self.memory.host)
        found = [replace(s, description=screen.text(s.description)) if s.description else s
                 for s in discovery.discoverable(discovery.listed(self.memory.host))]
        held = {s.path: why for s in found if (why := quarantine(s.name, s.description or ""))}
        context, shown = discovery.render([s for s in found if s.path not in held], budget)
        listed = [{**discovery.as_json(s), **({"quarantined": held[s.path]} if s.path in held else {})}
                  for s in found]
        return {"context": context, "skills": listed, "shown": len(shown)}

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
        screen = Screen(self.memory.host)
        context = screen.text(sanitize(context)) if context else None
        raw_skill = screen.strings(body.get("skill"))
        suspect = quarantine(*_skill_texts(raw_skill))  # a skill body aimed at the agent taints its lesson

        stored = self.memory.store(
            {"text": lesson, **({"namespace": body["namespace"]} if "namespace" in body else {})},
            source=SOURCE,
            screen=screen,
            suspect=suspect,
            importance=IMPORTANCE,
            context=context,
            origin={"kind": "learned"},
        )
        lesson_id = screen.report({"id": stored.id, "namespace": stored.namespace})
        if stored.quarantined:
            lesson_id["quarantined"] = stored.quarantined
        if raw_skill is None:
            return {**result(f"{STORED}.", False, {"skill": None}), **lesson_id}
        held = stored.quarantined or (suspect if not stored.approved else None)
        if held:  # never promote an instruction aimed at the agent into a SKILL.md
            text = (f"{STORED}, but it is quarantined ({held}), so no managed skill was written; "
                    f"check it, approve it (approve {stored.id}) and run learn again.")
            return {**result(text, True, {"skill": None, "quarantined": held}), **lesson_id}
        try:
            skill = skills.parse(raw_skill)
        except InvalidRequest as error:  # the lesson is stored: report the skill, do not undo the lesson
            text = f"{STORED}, but the managed skill could not be written: {error.message}"
            return {**result(text, True, {"skill": None}), **lesson_id}
        return {**self._skill(skill), **lesson_id}

    def _skill(self, skill: skills.SkillRequest) -> dict[str, Any]:
        """The outcome of the skill half of a request whose lesson is stored."""
        host = self.memory.host
        if skill.name in skills.host_names(host, "authored-skills"):
            text = (
                f'{STORED}. Managed skill "{skill.name}" was not {skill.action}d: '
                "an authored skill with that name exists and authored skills always win."
            )
            return result(text, True, {"skill": None, "shadowed": True})
        exists = skill.name in skills.host_names(host, "managed-skills")
        if skill.action == "update" and not exists:
            text = f'{STORED}. Managed skill "{skill.name}" does not exist, so it cannot be updated.'
            return result(text, True, {"skill": None, "missing": True})
        verb = "Created" if skill.action == "create" and not exists else "Updated"
        return {
            **result(f'{STORED}. {verb} managed skill "{skill.name}".', False, {"skill": skill.name}),
            "write": {"path": skill.path, "content": skill.render(), "failure_prefix": STORED},
        }


def _skill_texts(skill: Any) -> list[str]:
    """The texts of a ``skill`` object that would reach the SKILL.md (whatever their types)."""
    if not isinstance(skill, dict):
        return []
    return [skill[f] for f in ("name", "description", "body") if isinstance(skill.get(f), str)]


def result(text: str, is_error: bool, details: dict[str, Any]) -> dict[str, Any]:
    """The seed's tool result (``content``, ``details``, ``isError``) and ``text``, the same text."""
    content = [{"type": "text", "text": text}]
    return {"content": content, "text": text, "isError": is_error, "details": details}
