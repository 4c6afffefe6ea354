"""What ``rs-learn-host doctor`` checks, and the one thing it repairs (issues 42.2, 42.5, 44.3).

* the installed dependencies inside the ranges the suite ran on (:mod:`host_harness.versions`);
* configurations that run rs-learn as a Python package -- git drivers, agents' hooks and MCP entries
  -- rewritten to run the command (:mod:`~host_harness.integrations.legacy`), unless ``dry_run``;
* hook budgets (``--budget N`` on a hook's command line, ``RS_LEARN_*_BUDGET`` in an agent's ``env``
  or this environment) outside the guest's range (``contract.json``): a hook runs with the nearest
  allowed value, which is rarely what was meant;
* a project whose agent hooks are installed but that has no ``.gm/``: its hooks recall and capture
  nothing.

Every file is one an agent reads (:func:`host_harness.integrations.agents.config_files`, both scopes).
"""

from __future__ import annotations

import itertools
import json
import os
import shlex
import tomllib
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from host_harness.hooks.protocol import BUDGET_ENV, budget_range
from host_harness.integrations import jsonlayout, legacy
from host_harness.integrations.edits import Edit, SetupError, read_text

HOST_NAMES = ("rs-learn-host", "rs-learn-host.exe")
BUDGET_VARS = {**{env: command for command, env in BUDGET_ENV.items()},
               "RS_LEARN_CAPTURE_BUDGET": "session-context"}


@dataclass
class Report:
    """What doctor found: problems left, and what it rewrote (or would)."""

    problems: list[str] = field(default_factory=list)
    fixed: list[str] = field(default_factory=list)


def check(project: Path, files: list[Path], host: Path | None, dry_run: bool = False) -> Report:
    """Every check, on ``project`` and the agents' configuration ``files``."""
    from host_harness.versions import outside

    report = Report()
    report.problems += [f"dependency: {line}" for line in outside()]
    if host is None:
        report.problems.append("cannot tell where rs-learn-host is installed: configurations that run a "
                               "Python package are reported, not rewritten")
    _legacy_git(project, host, dry_run, report)
    hooked = []
    for path in files:
        text = _read(path, report)
        if text is None:
            continue
        doc = _parse(path, text)
        if doc is None:
            continue
        _legacy_file(path, text, host, dry_run, report)
        if any(True for _ in our_hooks(doc)):
            hooked.append(path)
        report.problems += [f"{path}: {problem}" for problem in budget_problems(doc)]
    report.problems += [f"environment: {problem}" for problem in env_budget_problems(os.environ)]
    if hooked and not (project / ".gm").is_dir():
        where, gm = ", ".join(map(str, hooked)), shlex.quote(str(project / ".gm"))
        report.problems.append(f"{project} has rs-learn's hooks ({where}) but no .gm/ folder: they recall "
                               f"and capture nothing there; run `mkdir {gm}` (or `rs-learn-host setup AGENT` "
                               "in the project)")
    return report


def budget_problems(doc: Any) -> list[str]:
    """Each hook budget in an agent's configuration that lies outside the guest's range."""
    problems = []
    for command in our_hooks(doc):
        words = _words(command)
        hook = next((b for a, b in itertools.pairwise(words) if a == "hook"), "")
        for i, word in enumerate(words):
            value = word.split("=", 1)[1] if word.startswith("--budget=") else (
                words[i + 1] if word == "--budget" and i + 1 < len(words) else None)
            if value is not None:
                problems += _outside(f"`{command}`", hook, value)
    for env in _envs(doc):
        problems += env_budget_problems(env)
    return problems


def env_budget_problems(env: Any) -> list[str]:
    """Each ``RS_LEARN_*_BUDGET`` of ``env`` outside the range of its hook."""
    return [problem for name, hook in BUDGET_VARS.items() if isinstance(env, Mapping) and name in env
            for problem in _outside(f"${name}", hook, env[name])]


def our_hooks(doc: Any) -> Iterator[str]:
    """The command lines of rs-learn hooks anywhere in a JSON configuration."""
    if isinstance(doc, list):
        for item in doc:
            yield from our_hooks(item)
    elif isinstance(doc, dict):
        command = doc.get("command")
        if isinstance(command, str):
            words = _words(command)
            if words and Path(words[0]).name in HOST_NAMES and "hook" in words:
                yield command
        for value in doc.values():
            yield from our_hooks(value)


def _outside(what: str, hook: str, value: Any) -> list[str]:
    low, high = budget_range(hook)
    try:
        budget = int(value)
    except (TypeError, ValueError):
        return [f"{what}: budget {value!r} is not a whole number ({hook}: {low} to {high} tokens)"]
    if low <= budget <= high:
        return []
    used = min(max(budget, low), high)
    return [f"{what}: budget {budget} is outside the range of hook {hook}, {low} to {high} tokens "
            f"(the hook runs with {used})"]


def _envs(doc: Any) -> Iterator[dict[str, Any]]:
    """Every ``env`` object of a configuration (Claude Code's settings, an MCP entry's)."""
    if isinstance(doc, list):
        for item in doc:
            yield from _envs(item)
    elif isinstance(doc, dict):
        for key, value in doc.items():
            if key == "env" and isinstance(value, dict):
                yield value
            else:
                yield from _envs(value)


def _words(command: str) -> list[str]:
    try:
        return shlex.split(command)
    except ValueError:
        return []


def _read(path: Path, report: Report) -> str | None:
    try:
        return read_text(path)
    except SetupError as error:
        report.problems.append(str(error))
        return None


def _parse(path: Path, text: str) -> Any:
    try:
        return tomllib.loads(text) if path.suffix == ".toml" else json.loads(text) if text.strip() else None
    except ValueError:
        return None  # not plain JSON / TOML: setup refuses it too, and says so there


def _legacy_git(project: Path, host: Path | None, dry_run: bool, report: Report) -> None:
    try:
        fixes = legacy.fix_git(project, host or Path("rs-learn-host"), dry_run or host is None)
    except OSError as error:
        report.problems.append(str(error))
        return
    for fix in fixes:
        _said(report, str(fix), dry_run or host is None)


def _legacy_file(path: Path, text: str, host: Path | None, dry_run: bool, report: Report) -> None:
    """Rewrite (or report) the entries of one file that run a Python package."""
    target = host or Path("rs-learn-host")
    if path.suffix == ".toml":
        new, fixes = legacy.fix_toml(text, target)
    else:
        doc = json.loads(text)
        fixes = legacy.fix_doc(doc, target)
        new = jsonlayout.render(doc, text) if fixes else text
    if not fixes:
        return
    if not (dry_run or host is None):
        try:
            Edit(path, text, new, "legacy entries").apply()
        except OSError as error:
            report.problems.append(f"{path}: not written: {error}")
            return
    for fix in fixes:
        _said(report, f"{path} {fix}", dry_run or host is None)


def _said(report: Report, fix: str, only_reported: bool) -> None:
    if only_reported:
        report.problems.append(f"runs a Python package, not the command: {fix}")
    else:
        report.fixed.append(f"rewrote {fix} (it ran a Python package; now the command)")
