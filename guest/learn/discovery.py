"""``session_start``: the skills an agent should know about when a session starts (seed 003).

Seed 003: managed skills "are discovered in future sessions like normal skills", and authored
skills win discovery. The host lists every skill folder with a ``SKILL.md`` under ``host/skills``
(``[{"name", "kind": "managed"|"authored", "path", "description"}]``, paths relative to the
project); the guest decides which are discovered -- a managed skill whose sanitised name an
authored skill claims is left out -- and renders them for the agent's context, managed ones first
(nothing else shows them; Claude Code finds ``.claude/skills`` by itself), within a token budget.
A skill that does not fit is counted in a last line that says where the rest live; when not even
one fits, the context is that one line alone (:data:`CUT`), or nothing when the budget is smaller
still (the answer's ``shown`` says how many were listed). A skill whose name or description reads
as an instruction aimed at the agent (a committed ``SKILL.md`` is never screened when it is written)
is left out by ``session_start`` and listed with ``quarantined``; a secret in a description is
redacted.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass

from guest.host import HOST_NS, WARN, Host
from guest.strings.slug import kebab

HEADER = "## Skills in this project"
INTRO = "Read a skill's SKILL.md (path in parentheses, from the project root) before following it."
MORE = "- … and {} more in .gm/managed-skills/, .gm/skills/ and .claude/skills/"
CUT = "rs-learn: {} in .gm/managed-skills/, .gm/skills/ and .claude/skills/ (the list is over the budget)."
MAX_DESCRIPTION = 200
CHARS_PER_TOKEN = 4
KIND_ORDER = {"managed": 0, "authored": 1}


@dataclass(frozen=True)
class Skill:
    """One skill as the host lists it."""

    name: str
    kind: str
    path: str
    description: str | None


def listed(host: Host) -> list[Skill]:
    """The skills the host serves under ``host/skills`` (malformed entries logged and skipped)."""
    raw = host.kv_get(HOST_NS, "skills")
    try:
        entries = json.loads(raw) if raw else []
    except ValueError:
        host.log(WARN, "host/skills is not JSON; ignoring it")
        return []
    out = []
    for entry in entries if isinstance(entries, list) else []:
        fields = entry if isinstance(entry, dict) else {}
        name, kind, path = fields.get("name"), fields.get("kind"), fields.get("path")
        description = fields.get("description")
        if not (isinstance(name, str) and kind in KIND_ORDER and isinstance(path, str) and name and path):
            host.log(WARN, f"ignoring malformed entry of host/skills: {str(entry)[:200]}")
            continue
        out.append(Skill(name, str(kind), path, description if isinstance(description, str) else None))
    return out


def discoverable(skills: list[Skill]) -> list[Skill]:
    """The skills an agent discovers: authored ones win a name; managed first, then by name and path."""
    claimed = {kebab(s.name, 64) for s in skills if s.kind == "authored"}
    found = [s for s in skills if s.kind == "authored" or s.name not in claimed]
    return sorted(found, key=lambda s: (KIND_ORDER[s.kind], s.name, s.path))


def line(skill: Skill) -> str:
    """One skill as the agent reads it: name, description (one line, capped) and where to read it."""
    description = " ".join((skill.description or "").split())
    if len(description) > MAX_DESCRIPTION:
        description = description[: MAX_DESCRIPTION - 1].rstrip() + "…"
    about = f" — {description}" if description else ""
    return f"- {skill.name}{about} ({skill.path}, {skill.kind})"


def render(skills: list[Skill], budget_tokens: int) -> tuple[str, list[Skill]]:
    """The context within ``budget_tokens`` and the skills it shows; ``""`` when there is none."""
    if not skills:
        return "", []
    lines = [HEADER, INTRO]
    used = sum(_tokens(text) for text in lines)
    shown: list[Skill] = []
    for n, skill in enumerate(skills):
        text = line(skill)
        rest = len(skills) - n - 1
        reserve = _tokens(MORE.format(rest)) if rest else 0  # room to say what is left out
        if used + _tokens(text) + reserve > budget_tokens:
            break
        lines.append(text)
        used += _tokens(text)
        shown.append(skill)
    if not shown:
        cut = CUT.format(f"{len(skills)} skill" + ("s" if len(skills) > 1 else ""))
        return (cut + "\n" if _tokens(cut) <= budget_tokens else ""), []
    if len(shown) < len(skills):
        lines.append(MORE.format(len(skills) - len(shown)))
    return "\n".join(lines) + "\n", shown


def as_json(skill: Skill) -> dict[str, str | None]:
    """A skill as the verb answers it."""
    return asdict(skill)


def _tokens(text: str) -> int:
    """A token estimate: one per four characters, rounded up (plus the newline)."""
    return (len(text) + 1 + CHARS_PER_TOKEN - 1) // CHARS_PER_TOKEN
