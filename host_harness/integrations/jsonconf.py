"""Merging rs-learn's entries into an agent's JSON configuration, leaving everything else as it was.

The file is read and changed as a dictionary (key order kept, new keys last); the text written back
is the old text with only the values that changed rewritten, in the file's own layout
(:mod:`host_harness.integrations.jsonlayout`). A file that is not plain JSON -- comments or trailing
commas, which VS Code and Gemini CLI tolerate -- is refused rather than rewritten: its comments would
be lost.

Entries are ours by name (``mcpServers.rs-learn``) or, for Claude Code's hooks, by command: a hook
whose program is ``rs-learn-host`` running ``hook <event>``. A run replaces our entry in place (so a
moved installation is followed) and keeps every key a person added to it; ``remove`` takes out only
ours and the containers it leaves empty.
"""

from __future__ import annotations

import json
import shlex
from pathlib import Path
from typing import Any

from host_harness.integrations.edits import SetupError

Doc = dict[str, Any]
HOST_NAMES = ("rs-learn-host", "rs-learn-host.exe")


def parse(path: Path, text: str | None, wanted: str) -> Doc:
    """The file's object (empty when the file is absent or blank); ``wanted`` is what setup would add."""
    if text is None or not text.strip():
        return {}
    try:
        doc = json.loads(text)
    except ValueError as error:
        raise SetupError(f"{path} is not plain JSON ({error}); setup does not rewrite it, so that its "
                         f"comments are kept: add this by hand:\n{wanted}") from None
    if not isinstance(doc, dict):
        raise SetupError(f"{path} holds a JSON {type(doc).__name__}, not an object: not changed")
    return doc


def put_server(doc: Doc, key: str, name: str, entry: Doc, defaults: Doc | None = None) -> None:
    """Set ``doc[key][name]`` to ``entry``, keeping the keys a person added to an existing entry.

    ``defaults`` (Gemini CLI's ``timeout``) are added where the entry has no such key, and an empty
    object in ``entry`` (Claude Code's ``"env": {}``) is a default too: neither replaces a value that
    is already there.
    """
    servers = _object(doc, key)
    current = servers.get(name)
    if not isinstance(current, dict):
        servers[name] = entry | (defaults or {})
        return
    kept = {k: v for k, v in entry.items() if not (v == {} and k in current)}
    servers[name] = current | kept | {k: v for k, v in (defaults or {}).items() if k not in current}


def drop_server(doc: Doc, key: str, name: str) -> bool:
    """Remove ``doc[key][name]`` (and ``doc[key]`` when it is left empty); whether it was there."""
    servers = doc.get(key)
    if not isinstance(servers, dict) or name not in servers:
        return False
    del servers[name]
    if not servers:
        del doc[key]
    return True


def put_hook(doc: Doc, event: str, command: str, verb: str) -> None:
    """Make ``hooks[event]`` run ``command``: our existing hook is updated, else a group is added."""
    groups = _list(_object(doc, "hooks"), event)
    for group in groups:
        for hook in _hooks_of(group):
            if is_our_hook(hook, verb):
                hook["command"] = command
                return
    groups.append({"hooks": [{"type": "command", "command": command}]})


def drop_hook(doc: Doc, event: str, verb: str) -> bool:
    """Remove our hook from ``hooks[event]`` (and whatever it leaves empty); whether there was one."""
    hooks = doc.get("hooks")
    groups = hooks.get(event) if isinstance(hooks, dict) else None
    if not isinstance(groups, list):
        return False
    found = False
    for group in list(groups):
        inner = _hooks_of(group)
        kept = [hook for hook in inner if not is_our_hook(hook, verb)]
        if len(kept) != len(inner):
            found = True
            if kept:
                group["hooks"] = kept
            else:
                groups.remove(group)
    if found and not groups:
        del hooks[event]  # type: ignore[union-attr]
        if not hooks:
            del doc["hooks"]
    return found


def is_our_hook(hook: Any, verb: str) -> bool:
    """Whether ``hook`` is a command hook running ``rs-learn-host hook <verb>`` (any path, any options)."""
    if not isinstance(hook, dict) or not isinstance(hook.get("command"), str):
        return False
    try:
        words = shlex.split(hook["command"])
    except ValueError:
        return False
    return bool(words) and Path(words[0]).name in HOST_NAMES and "hook" in words and verb in words


def _object(doc: Doc, key: str) -> Doc:
    value = doc.setdefault(key, {})
    if not isinstance(value, dict):
        raise SetupError(f"'{key}' is a JSON {type(value).__name__}, not an object: not changed")
    return value


def _list(doc: Doc, key: str) -> list[Any]:
    value = doc.setdefault(key, [])
    if not isinstance(value, list):
        raise SetupError(f"'hooks.{key}' is a JSON {type(value).__name__}, not an array: not changed")
    return value


def _hooks_of(group: Any) -> list[Any]:
    inner = group.get("hooks") if isinstance(group, dict) else None
    return inner if isinstance(inner, list) else []
