"""Which files each agent reads, and what ``setup`` puts in them (issue 26).

* claude-code: ``.claude/settings.json`` (the hooks of :data:`HOOKS`) and ``.mcp.json``; user scope
  ``~/.claude/settings.json`` and ``~/.claude.json`` (both in ``$CLAUDE_CONFIG_DIR`` when set);
* codex: ``[mcp_servers.rs-learn]`` in ``.codex/config.toml`` (read in trusted projects) or
  ``$CODEX_HOME/config.toml`` (default ``~/.codex``);
* cursor: ``mcpServers`` in ``.cursor/mcp.json`` or ``~/.cursor/mcp.json``;
* gemini: ``mcpServers`` in ``.gemini/settings.json`` or ``~/.gemini/settings.json``;
* vscode: ``servers`` (``"type": "stdio"``) in ``.vscode/mcp.json`` or the user folder's ``mcp.json``.

Each entry has the shape the agent's own ``mcp add`` writes (checked against the real CLIs in
``tests/agents/test_setup_clis.py``). The server serves the folder the agent starts it in; Cursor and VS
Code start servers elsewhere, so theirs get ``-p ${workspaceFolder}``, which both expand.
"""

from __future__ import annotations

import json
import os
import shlex
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from host_harness.integrations import jsonconf, jsonlayout, legacy, tomlconf
from host_harness.integrations.edits import Edit, SetupError, home, read_text, target_of
from host_harness.integrations.localstate import gitignore_edit

AGENTS = ("claude-code", "codex", "cursor", "gemini", "vscode")
SCOPES = ("project", "user")
SERVER = "rs-learn"
HOST_NAMES = jsonconf.HOST_NAMES
# (event, hook command): recall at each prompt, skills and capture's context at a start, capture (issue 34)
HOOKS = (("UserPromptSubmit", "prompt-submit"), ("SessionStart", "session-start"),
         ("SessionStart", "session-context"), ("PreCompact", "pre-compact"), ("Stop", "stop"),
         ("SessionEnd", "session-end"))
# Gemini CLI (0.61): BeforeAgent is its prompt-submit (the same input and output, issue 44 item 6)
GEMINI_HOOKS = (("BeforeAgent", "prompt-submit"),)
WORKSPACE_ARGS = ["mcp", "-p", "${workspaceFolder}"]


@dataclass
class Plan:
    """The edits of one ``setup`` run, and what the person should know afterwards."""

    agent: str
    scope: str
    edits: list[Edit] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)  # shown when something changed
    warnings: list[str] = field(default_factory=list)  # shown every time


def plan(agent: str, scope: str, project: Path, host: Path, remove: bool = False) -> Plan:
    """Every change ``setup`` (or ``setup --remove``) makes for ``agent`` in ``scope``."""
    if agent not in AGENTS:
        raise SetupError(f"unknown agent {agent!r}: choose one of {', '.join(AGENTS)}")
    result = Plan(agent, scope)
    confined = project if scope == "project" else None
    for path, change in _files(agent, scope, project, str(host)):
        result.edits.append(change(target_of(path, confined), remove))
    if scope == "project" and not remove:
        result.notes += NOTES.get(agent, [])
        result.edits.append(gitignore_edit(project))
    if agent == "gemini" and not remove:
        result.notes.append(GEMINI_TRUST)
    if agent == "claude-code" and not remove and _plugin_enabled(project):
        result.warnings.append(PLUGIN_TOO)
    return result


def _plugin_enabled(project: Path) -> bool:
    """Whether Claude Code's settings (user, project or local) enable a plugin named ``rs-learn``."""
    config = Path(os.environ.get("CLAUDE_CONFIG_DIR") or home() / ".claude")
    for path in (config / "settings.json", project / ".claude" / "settings.json",
                 project / ".claude" / "settings.local.json"):
        try:
            enabled = json.loads(path.read_text(encoding="utf-8")).get("enabledPlugins") or {}
        except (OSError, ValueError, AttributeError):
            continue
        if isinstance(enabled, dict) and any(on and k.split("@")[0] == SERVER for k, on in enabled.items()):
            return True
    return False


Change = Callable[[Path, bool], Edit]
# Codex starts a turn about a second after it spawns the MCP servers, without any server still
# starting unless it is `required` (then it waits, up to `startup_timeout_sec`, default 10 s): so our
# server is required -- Codex then refuses to start, naming it, when rs-learn-host cannot run -- and
# has a minute to answer `initialize` on a loaded machine (it answers before the component loads).
CODEX_DEFAULTS: dict[str, Any] = {"required": True, "startup_timeout_sec": 60}
# Gemini CLI's `timeout` (ms) bounds every request to the server; without one a session waits up to
# its default of 10 minutes but `gemini mcp list` gives up after 5 s. The same 10 minutes for both.
# `trust`: headless `gemini -p` drops every tool that would ask for confirmation, so an untrusted
# server's tools never reach the model; trusted, its tools run without asking (a value given is kept).
GEMINI_DEFAULTS: dict[str, Any] = {"timeout": 600_000, "trust": True}
GEMINI_TRUST = ('rs-learn\'s server is trusted ("trust": true): Gemini CLI runs its tools (recall, memorize, '
                "forget, ...) without asking first, which headless `gemini -p` needs (it drops every tool "
                'that would ask). To be asked each time, set "trust": false in its entry (setup keeps it); '
                "`gemini -p` then has no rs-learn tools.")
PLUGIN_TOO = ("the rs-learn plugin is enabled too: its hooks and server do the same, so each prompt would be "
              "answered twice. Keep one (claude plugin disable rs-learn@rs-learn, or rs-learn-host setup "
              "claude-code --remove).")
NOTES = {
    "claude-code": ["Claude Code asks once, at its next start in this project, to approve the rs-learn "
                    "server of .mcp.json."],
    "codex": ["Codex reads .codex/config.toml only in a project it trusts (it asks at its first start "
              "there)."],
    "gemini": ["Gemini CLI starts MCP servers only in a folder it trusts."],
}


def _files(agent: str, scope: str, project: Path, command: str) -> list[tuple[Path, Change]]:
    """The files of ``agent`` in ``scope`` and the change each one gets."""
    base = project if scope == "project" else home()
    if agent == "claude-code":
        config = Path(os.environ.get("CLAUDE_CONFIG_DIR") or home() / ".claude")
        settings = project / ".claude" / "settings.json" if scope == "project" else config / "settings.json"
        servers = project / ".mcp.json" if scope == "project" else _claude_json(config)
        hooks = [(event, verb, f"{shlex.quote(command)} hook {verb}") for event, verb in HOOKS]
        entry = {"type": "stdio", "command": command, "args": ["mcp"], "env": {}}
        return [(settings, lambda path, remove: _hooks_edit(path, hooks, remove, Path(command))),
                (servers, _server("mcpServers", entry))]
    if agent == "codex":
        path = project / ".codex" if scope == "project" else _codex_home()
        values = {"command": command, "args": ["mcp"]}
        return [(path / "config.toml", lambda path, remove: _toml_edit(path, values, remove, Path(command)))]
    if agent == "cursor":
        entry = {"command": command, "args": WORKSPACE_ARGS}
        return [(base / ".cursor" / "mcp.json", _server("mcpServers", entry))]
    if agent == "gemini":
        entry = {"command": command, "args": ["mcp"]}
        hooks = [(event, verb, f"{shlex.quote(command)} hook {verb}") for event, verb in GEMINI_HOOKS]
        return [(base / ".gemini" / "settings.json",
                 lambda path, remove: _hooks_edit(path, hooks, remove, Path(command), _server_change(
                     "mcpServers", entry, GEMINI_DEFAULTS, remove), "mcpServers.rs-learn, "))]
    folder = project / ".vscode" if scope == "project" else vscode_user_dir()
    entry = {"type": "stdio", "command": command, "args": WORKSPACE_ARGS}
    return [(folder / "mcp.json", _server("servers", entry))]


def _server(key: str, entry: dict[str, Any], defaults: dict[str, Any] | None = None) -> Change:
    return lambda path, remove: _json_edit(path, key, entry, remove, defaults)


def vscode_user_dir() -> Path:
    """VS Code's user folder (where ``MCP: Open User Configuration`` opens ``mcp.json``)."""
    if sys.platform == "darwin":
        return home() / "Library" / "Application Support" / "Code" / "User"
    if sys.platform == "win32":
        return Path(os.environ.get("APPDATA") or home() / "AppData" / "Roaming") / "Code" / "User"
    return Path(os.environ.get("XDG_CONFIG_HOME") or home() / ".config") / "Code" / "User"


def _codex_home() -> Path:
    return Path(os.environ.get("CODEX_HOME") or home() / ".codex")


def _claude_json(config: Path) -> Path:
    """Claude Code's user-scope MCP servers: ``~/.claude.json`` (inside ``$CLAUDE_CONFIG_DIR`` when set)."""
    return config / ".claude.json" if os.environ.get("CLAUDE_CONFIG_DIR") else home() / ".claude.json"


def _json_edit(path: Path, key: str, entry: dict[str, Any], remove: bool,
               defaults: dict[str, Any] | None = None) -> Edit:
    wanted = json.dumps({key: {SERVER: entry | (defaults or {})}}, indent=2)
    host = Path(entry["command"])
    if remove:
        return _changed(path, wanted, lambda doc: jsonconf.drop_server(doc, key, SERVER), f"{key}.{SERVER}",
                        host)
    return _changed(path, wanted, lambda doc: jsonconf.put_server(doc, key, SERVER, entry, defaults),
                    f"{key}.{SERVER}", host)


def _server_change(key: str, entry: dict[str, Any], defaults: dict[str, Any], remove: bool,
                   ) -> Callable[[dict[str, Any]], object]:
    """Our server entry put in (or taken out of) a parsed JSON configuration."""
    if remove:
        return lambda doc: jsonconf.drop_server(doc, key, SERVER)
    return lambda doc: jsonconf.put_server(doc, key, SERVER, entry, defaults)


def _hooks_edit(path: Path, hooks: list[tuple[str, str, str]], remove: bool, host: Path,
                also: Callable[[dict[str, Any]], object] | None = None, what: str = "") -> Edit:
    """Our hooks in an agent's settings: ``(event, hook command, command line)`` each.

    Claude Code's layout, which Gemini CLI shares; ``also``: a change to the same file (Gemini's
    server entry), ``what`` says it in the report.
    """
    events: dict[str, list[dict[str, Any]]] = {}
    for event, _, command in hooks:
        events.setdefault(event, []).append({"hooks": [{"type": "command", "command": command}]})
    wanted = json.dumps({"hooks": events}, indent=2)

    def change(doc: dict[str, Any]) -> None:
        if also is not None:
            also(doc)
        for event, verb, command in hooks:
            if remove:
                jsonconf.drop_hook(doc, event, verb)
            else:
                jsonconf.put_hook(doc, event, command, verb)

    return _changed(path, wanted, change, what + "hooks " + ", ".join(events), host)


def _changed(path: Path, wanted: str, change: Callable[[dict[str, Any]], object], what: str,
             host: Path) -> Edit:
    """A JSON file's edit: entries that run a Python package made to run ``host``, then ``change``."""
    old = read_text(path)
    try:
        doc = jsonconf.parse(path, old, wanted)
        fixes = legacy.fix_doc(doc, host)
        change(doc)
    except SetupError as error:
        raise SetupError(f"{path}: {error}" if not str(error).startswith(str(path)) else str(error)) from None
    # nothing to remove from a file that does not exist
    new = None if old is None and not doc else jsonlayout.render(doc, old)
    return Edit(path, old, new, what, tuple(map(str, fixes)))


def _toml_edit(path: Path, values: dict[str, Any], remove: bool, host: Path) -> Edit:
    old = read_text(path)
    try:
        fixed, fixes = legacy.fix_toml(old, host)
        new = (tomlconf.drop_table(fixed, SERVER) if remove
               else tomlconf.put_table(fixed, SERVER, values, CODEX_DEFAULTS))
    except SetupError as error:
        raise SetupError(f"{path}: {error}") from None
    return Edit(path, old, new, f"[{tomlconf.ROOT}.{SERVER}]", tuple(map(str, fixes)))


def config_files(project: Path) -> list[Path]:
    """Every file ``setup`` writes for any agent in either scope, for ``project`` (``doctor`` reads them)."""
    found: list[Path] = []
    for agent in AGENTS:
        for scope in SCOPES:
            for path, _ in _files(agent, scope, project, HOST_NAMES[0]):
                if path not in found:
                    found.append(path)
    return found
