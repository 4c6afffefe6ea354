"""Skill folders on disk: what the host serves as ``host/skills`` and ``skills list`` shows.

A skill is a folder holding a ``SKILL.md``: managed ones in ``.gm/managed-skills/<name>/`` (names
as the host writes them, lowercase kebab-case), authored ones in ``.gm/skills/<name>/`` and
``.claude/skills/<name>/``. Each is listed with its path relative to the project and the
``description`` of its front matter (the ``---`` block at the top; a plain, quoted or folded YAML
scalar), read from the first :data:`MAX_HEAD_BYTES` of the file. A file that cannot be read is
listed without a description: the listing never fails because of one skill.

No symbolic link below the project is followed, in ``.claude/skills`` as in ``.gm/``
(``host_harness/fs/confine.py``): both are committed, so a cloned repository could link
``.claude``, ``.claude/skills``, a skill folder or its ``SKILL.md`` to a file outside the project,
whose description would then reach every new session. A linked folder or file is not a skill.
"""

from __future__ import annotations

import json
import logging
import os
import stat
from pathlib import Path
from typing import Any

from host_harness.fs import confine
from host_harness.fs.effects import SKILL_PATH
from host_harness.fs.names import valid_name

MAX_HEAD_BYTES = 16 * 1024
MAX_SKILLS = 500

log = logging.getLogger("rs_learn.host")


def places(root: Path) -> list[tuple[str, Path]]:
    """``(kind, folder)`` of every place skills live, managed first (for a quick "any skills?" check)."""
    gm = root / ".gm"
    return [
        ("managed", gm / "managed-skills"),
        ("authored", gm / "skills"),
        ("authored", root / ".claude" / "skills"),
    ]


def managed_skills(root: Path) -> list[str]:
    """The managed skills written so far (``.gm/managed-skills/<name>/SKILL.md``), sorted."""
    return sorted(name for name in skill_folders(root, (".gm", "managed-skills")) if valid_name(name))


def authored_skills(root: Path) -> list[str]:
    """The skill folders with a ``SKILL.md`` in ``.gm/skills`` and ``.claude/skills``, sorted."""
    return sorted(set(skill_folders(root, (".gm", "skills"))) | set(claude_skills(root)))


def claude_skills(root: Path) -> list[str]:
    """Folders of ``.claude/skills`` holding a regular ``SKILL.md``, links never followed, sorted."""
    return skill_folders(root, (".claude", "skills"))


def skill_folders(root: Path, parts: tuple[str, ...]) -> list[str]:
    """Folders of ``parts`` holding a regular ``SKILL.md``, links never followed, sorted."""
    try:
        with confine.directory(root, parts) as fd:
            found = []
            for entry in os.scandir(fd):
                if entry.is_dir(follow_symlinks=False):
                    try:
                        st = os.stat(f"{entry.name}/SKILL.md", dir_fd=fd, follow_symlinks=False)
                    except OSError:
                        continue
                    if stat.S_ISREG(st.st_mode):
                        found.append(entry.name)
            return sorted(found)
    except FileNotFoundError:
        return []
    except OSError as error:
        log.warning("ignoring %s: %s", root.joinpath(*parts), error)
        return []


def discover(root: Path) -> list[dict[str, Any]]:
    """Every skill of the project at ``root``: ``{"name", "kind", "path", "description"}``, by place, name.

    Folders are listed and read without following links (a cloned repository may plant them).
    """
    places = [
        ("managed", (".gm", "managed-skills"), managed_skills(root)),
        ("authored", (".gm", "skills"), skill_folders(root, (".gm", "skills"))),
        ("authored", (".claude", "skills"), claude_skills(root)),
    ]
    found: list[dict[str, Any]] = []
    for kind, parts, names in places:
        for name in names:
            path = "/".join((*parts, name, "SKILL.md"))
            if kind == "managed" and not SKILL_PATH.fullmatch(path[len(".gm/") :]):
                continue
            found.append({"name": name, "kind": kind, "path": path,
                          "description": description(_head(root, (*parts, name, "SKILL.md")))})
            if len(found) == MAX_SKILLS:
                return found
    return found


def _head(root: Path, parts: tuple[str, ...]) -> bytes | None:
    """The first :data:`MAX_HEAD_BYTES` of a ``SKILL.md`` (``None`` when it cannot be read)."""
    try:
        return confine.read_file(root, parts, MAX_HEAD_BYTES)
    except OSError:
        return None


def description(head: bytes | None) -> str | None:
    """The ``description`` of a ``SKILL.md``'s front matter (from its first bytes), or ``None``."""
    if head is None:
        return None
    lines = head.decode("utf-8", "replace").lstrip("\ufeff").splitlines()
    if not lines or lines[0].strip() != "---":
        return None
    for n, line in enumerate(lines[1:], start=1):
        if line.strip() == "---":
            return None
        if line.startswith("description:"):
            return _scalar(line[len("description:") :].strip(), lines[n + 1 :])
    return None


def _scalar(value: str, following: list[str]) -> str | None:
    """A YAML scalar: ``"json-like"``, ``'single'``, a folded/literal block, or plain text."""
    if value[:1] == '"':
        try:
            decoded = json.loads(value)
            return decoded if isinstance(decoded, str) else None
        except ValueError:
            return value.strip('"')
    if value[:1] == "'":
        return value[1:-1].replace("''", "'") if value.endswith("'") and len(value) > 1 else value[1:]
    if value[:1] in (">", "|"):
        block = []
        for line in following:
            if line and not line[:1].isspace():
                break
            block.append(line.strip())
        return " ".join(part for part in block if part) or None
    return value or None


def shadowing(found: list[dict[str, Any]]) -> list[str]:
    """The authored skills' names whose managed names (the guest's ``names``) may shadow one of ``found``.

    Nothing when there is no managed skill to shadow: the guest need not be asked.
    """
    authored = [s["name"] for s in found if s["kind"] == "authored"]
    return authored if len(authored) < len(found) else []


def skill_table(root: Path, found: list[dict[str, Any]], claimed: set[str]) -> list[dict[str, Any]]:
    """Every skill ``found`` with its kind, path, description and whether it is the one discovered.

    ``claimed``: the managed names the authored skills take (:func:`shadowing`, read by the guest).
    """
    rows = [
        {
            "name": s["name"],
            "kind": s["kind"],
            "path": str(root / s["path"]),
            "wins": s["kind"] == "authored" or s["name"] not in claimed,
            "description": s.get("description"),
        }
        for s in found
    ]
    return sorted(rows, key=lambda r: (r["name"], r["kind"]))
