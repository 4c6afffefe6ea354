"""Managed skills: name sanitising, precedence, and the ``SKILL.md`` the host will write.

The guest decides and renders; the host writes the file (atomically, and only
under ``<project>/.gm/managed-skills/<name>/``). Names are lowercase kebab-case,
at most 64 characters, starting with a letter or digit, and never a Windows device name
(``con``, ``nul``, ``lpt1``: the folder would break a checkout on Windows). Authored skills
(``.gm/skills/``, ``.claude/skills/``) always win over managed ones.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from guest import requests
from guest.errors import InvalidRequest
from guest.host import HOST_NS, Host
from guest.strings.slug import kebab

MAX_NAME = 64
MAX_FILE_BYTES = 64_000
SKILLS_DIR = "managed-skills"


@dataclass(frozen=True)
class SkillRequest:
    """A validated ``skill`` field of ``learn``."""

    action: str
    name: str
    description: str
    body: str

    def render(self) -> str:
        """The ``SKILL.md``: front matter with name and description, then the body."""
        description = json.dumps(self.description, ensure_ascii=False)  # a valid YAML double-quoted scalar
        body = self.body if self.body.endswith("\n") else self.body + "\n"
        return f"---\nname: {self.name}\ndescription: {description}\n---\n\n{body}"

    @property
    def path(self) -> str:
        """Where the host writes it, relative to ``<project>/.gm/``."""
        return f"{SKILLS_DIR}/{self.name}/SKILL.md"


def sanitize_name(raw: str) -> str:
    """Lowercase kebab-case, at most 64 characters; ``""`` when nothing usable is left."""
    return kebab(raw, MAX_NAME)


def parse(value: object) -> SkillRequest:
    """Validate the ``skill`` object; every problem is a ``validation:`` error naming the field."""
    if not isinstance(value, dict):
        raise InvalidRequest("field 'skill' must be an object with action, name, description and body")
    unknown = sorted(set(value) - {"action", "name", "description", "body"})
    if unknown:
        raise InvalidRequest(f"field 'skill' has unknown fields: {', '.join(unknown)}")
    action = value.get("action")
    if action not in ("create", "update"):
        raise InvalidRequest(f'field \'skill.action\' must be "create" or "update", got {action!r}')
    fields = {}
    for field in ("name", "description", "body"):
        text = value.get(field)
        if not isinstance(text, str) or not text.strip():
            raise InvalidRequest(f"field 'skill.{field}' must be a non-empty string")
        fields[field] = text.strip() if field != "body" else text
    name = sanitize_name(fields["name"])
    if not name:
        raise InvalidRequest(
            f"skill name {fields['name']!r} has no letter or digit to make a kebab-case name from"
        )
    if requests.is_device_name(name):
        raise InvalidRequest(requests.device_name(name, "skill name"))
    description = " ".join(fields["description"].split())
    skill = SkillRequest(str(action), name, description, fields["body"])
    size = len(skill.render().encode("utf-8"))
    if size > MAX_FILE_BYTES:
        raise InvalidRequest(f"SKILL.md for {name!r} would be {size} bytes; the limit is {MAX_FILE_BYTES}")
    return skill


def host_names(host: Host, key: str) -> set[str]:
    """Sanitised skill names the host lists under ``host/<key>`` (authored or managed)."""
    raw = host.kv_get(HOST_NS, key)
    names = json.loads(raw) if raw else []
    return {sanitize_name(n) for n in names if isinstance(n, str)} - {""}
