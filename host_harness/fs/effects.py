"""Effects the guest asks for and only the host can perform: writing a managed skill.

The guest cannot touch files. A successful ``learn`` envelope may carry
``data.write = {path, content, failure_prefix}``; after the call has committed,
:func:`apply` writes ``content`` to ``<project>/.gm/<path>`` atomically (temp
file in the same folder, fsync, rename, fsync the folder) and removes ``write``
from the envelope it passes on. The path must be exactly
``managed-skills/<name>/SKILL.md`` with a valid name: the host never writes
anywhere else, whatever the guest says, never through a symbolic link
(``host_harness/fs/confine.py``), never to a folder with a Windows device name or one
that differs only in case from an existing folder (``host_harness/fs/names.py``). When the
write fails, the result turns into the seed's error, ``<lesson result>, but the managed skill
could not be written: <reason>`` -- the lesson itself stays stored.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from host_harness.envelope import Envelope
from host_harness.fs import confine
from host_harness.fs.names import case_twin_error, case_twin_in, device_name_error, is_device_name

SKILL_PATH = re.compile(r"managed-skills/([a-z0-9][a-z0-9-]{0,63})/SKILL\.md")


def pending(envelope: str) -> bool:
    """Whether an envelope asks the host for a file write (cheap: a substring test first)."""
    if '"write"' not in envelope:
        return False
    reply = Envelope.parse(envelope)
    return reply.ok and isinstance(reply.data, dict) and "write" in reply.data


def apply(root: Path, envelope: str) -> str:
    """Perform the write an ``ok`` envelope asks for below ``root``; return the envelope to pass on."""
    if '"write"' not in envelope:
        return envelope
    value = json.loads(envelope)
    data = Envelope.of(value).data  # the reply's own object: the write is taken out of it below
    if not isinstance(data, dict) or "write" not in data:
        return envelope
    write = data.pop("write")
    try:
        target = _target(write)
        _check_folder_name(root, target)
        confine.write_file(root, target, str(write["content"]).encode("utf-8"))
    except (OSError, ValueError, KeyError, TypeError) as error:
        reason = error.strerror if isinstance(error, OSError) and error.strerror else str(error)
        prefix = str(write.get("failure_prefix", "Done")) if isinstance(write, dict) else "Done"
        data["text"] = f"{prefix}, but the managed skill could not be written: {reason}"
        data["content"] = [{"type": "text", "text": data["text"]}]  # the seed's tool-result shape
        data["isError"] = True
        data["details"] = {"skill": None}
    return json.dumps(value, ensure_ascii=False)


def _check_folder_name(root: Path, target: tuple[str, ...]) -> None:
    """Refuse a Windows device name, or a folder that only differs in case from an existing one."""
    name = target[-2]
    if is_device_name(name):
        raise ValueError(device_name_error(name, "skill name"))
    try:
        with confine.directory(root, target[:-2]) as fd:
            twin = case_twin_in(fd, name)
    except FileNotFoundError:
        return
    if twin is not None:
        raise ValueError(case_twin_error(name, twin, "skill name"))


def _target(write: Any) -> tuple[str, ...]:
    """The file to write below the project, refusing anything but ``.gm/managed-skills/<name>/SKILL.md``."""
    path = write.get("path") if isinstance(write, dict) else None
    if not isinstance(path, str) or not SKILL_PATH.fullmatch(path):
        raise ValueError(f"refusing to write {path!r}: only managed-skills/<name>/SKILL.md")
    return (".gm", *path.split("/"))
