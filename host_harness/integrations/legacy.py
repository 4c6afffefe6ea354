"""Configurations that run rs-learn as a Python package, found and rewritten to run the command (issue 42).

Before D128, ``git install`` wrote ``<python> -m <package> git textconv`` (and the merge driver) into
``.git/config`` or ``~/.gitconfig``, and people copied the same form into agents' hooks and MCP
entries. The package was ``host_harness``, then ``rs_learn_host``, then ``host_harness`` again: each
rename broke every configuration naming the other one (``No module named rs_learn_host``, git exit
128). What the project writes now runs the installed ``rs-learn-host`` by its absolute path, so a
module's name can change freely; ``git install``, ``setup`` and ``doctor`` rewrite an entry of either
package form to that command, keeping the rest of it (``--wasm``, the verb, its options).

* :func:`rewritten` -- one command line (a git driver, a hook's ``command``);
* :func:`fix_doc` -- every entry of an agent's JSON configuration (hooks and MCP servers);
* :func:`fix_toml` -- Codex's ``[mcp_servers.*]`` tables;
* :func:`fix_git` -- the two drivers in the repository's and the user's git configuration.
"""

from __future__ import annotations

import re
import shlex
import subprocess
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from host_harness.integrations import tomlconf

PACKAGES = ("rs_learn_host", "host_harness")
# "<python> -m <package>": the interpreter as one shell word (quoted or not), then the module
_RUN = re.compile(r"""(?:'[^']*'|"[^"]*"|[^\s'"]+)\s+-m\s+(?:rs_learn_host|host_harness)(?=\s|$)""")
GIT_KEYS = ("diff.rs-learn.textconv", "merge.rs-learn.driver")


@dataclass(frozen=True)
class Fix:
    """One entry that ran the package: where it is, what it was and what it is now."""

    where: str  # "~/.gitconfig diff.rs-learn.textconv", ".claude/settings.json hooks.Stop"
    old: str
    new: str

    def __str__(self) -> str:
        return f"{self.where}: `{self.old}` -> `{self.new}`"


def is_legacy(command: str) -> bool:
    """Whether a command line runs rs-learn as ``python -m <package>``."""
    return _RUN.search(command) is not None


def rewritten(command: str, host: Path) -> str:
    """``command`` with its ``<python> -m <package>`` replaced by ``host`` (the rest kept)."""
    return _RUN.sub(lambda _: shlex.quote(str(host)), command, count=1)


def fix_doc(doc: Any, host: Path, where: str = "") -> list[Fix]:
    """Rewrite, in place, every entry of a JSON configuration that runs the package; what changed.

    An entry is an object with a ``command`` string that runs it (a hook), or a ``command`` with
    ``args`` starting ``-m <package>`` (an MCP server); found at any depth, so every agent's layout
    (Claude Code's, Codex's and Gemini CLI's hooks, ``mcpServers``, VS Code's ``servers``) is covered.
    """
    fixes: list[Fix] = []
    if isinstance(doc, list):
        for i, item in enumerate(doc):
            fixes += fix_doc(item, host, f"{where}[{i}]")
        return fixes
    if not isinstance(doc, dict):
        return fixes
    command, args = doc.get("command"), doc.get("args")
    if isinstance(command, str) and isinstance(args, list) and len(args) >= 2 and args[0] == "-m" \
            and args[1] in PACKAGES:
        old = " ".join([command, *map(str, args)])
        doc["command"], doc["args"] = str(host), args[2:]
        fixes.append(Fix(where, old, " ".join([str(host), *map(str, args[2:])])))
    elif isinstance(command, str) and is_legacy(command):
        doc["command"] = rewritten(command, host)
        fixes.append(Fix(where, command, doc["command"]))
    for key, value in doc.items():
        if isinstance(value, (dict, list)):
            fixes += fix_doc(value, host, f"{where}.{key}" if where else key)
    return fixes


def fix_toml(text: str | None, host: Path, where: str = "") -> tuple[str | None, list[Fix]]:
    """``text`` (Codex's ``config.toml``) with each ``[mcp_servers.*]`` that runs the package rewritten."""
    if not text:
        return text, []
    try:
        servers = tomllib.loads(text).get(tomlconf.ROOT)
    except tomllib.TOMLDecodeError:
        return text, []
    fixes: list[Fix] = []
    for name, entry in (servers or {}).items() if isinstance(servers, dict) else ():
        probe = dict(entry) if isinstance(entry, dict) else {}
        found = fix_doc(probe, host, f"{where}[{tomlconf.ROOT}.{name}]")
        if found:
            values = {"command": probe["command"], "args": probe.get("args", [])}
            text = tomlconf.put_table(text, name, values)
            fixes += found
    return text, fixes


def fix_git(repository: Path | None, host: Path, dry_run: bool = False) -> list[Fix]:
    """Rewrite the git drivers that run the package; what changed (with ``dry_run``: what would).

    In ``repository``'s configuration (when given) and the user's.
    """
    fixes = []
    scopes = (["--local"] if repository is not None else []) + ["--global"]
    for scope in scopes:
        for key in GIT_KEYS:
            got = subprocess.run(["git", "config", scope, "--get", key], cwd=repository, capture_output=True,
                                 text=True, check=False)
            value = got.stdout.rstrip("\n")
            if got.returncode != 0 or not is_legacy(value):
                continue
            new = rewritten(value, host)
            if not dry_run:
                done = subprocess.run(["git", "config", scope, key, new], cwd=repository, capture_output=True,
                                      text=True, check=False)
                if done.returncode != 0:
                    raise OSError(f"git config {scope} {key} failed: {done.stderr.strip()}")
            fixes.append(Fix(f"git config {scope} {key}", value, new))
    return fixes
