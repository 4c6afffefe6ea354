"""One project context per run (issue 46): a cold prompt reads `.gm/config.json` once, finds its project once.

A real ``rs-learn-host hook prompt-submit`` process through the command line's own entry, on a project
with a store and a configuration, answered by the component loaded in the process (no warm server).
Counted two ways: the interpreter's ``open`` audit events (every open of the file, whatever opens it:
``sys.addaudithook``), and, where strace runs, the system calls themselves -- the opens of the file
and the project lookups (each lookup ``lstat``s the project's ``.git``: ``host_harness/project.py``).
Before the context, the same run opened the file six times and located the project three times.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from hostprocs import HOST, host, host_env

from host_harness.envelope import Envelope
from host_harness.hooks import prompt_ledger

# Runs the entry point with an audit hook writing one line per open of .gm/config.json (the hook
# leaves with os._exit: each line is flushed as it is written).
AUDITED = """
import sys
out = open(sys.argv[1], "w", buffering=1)
def audit(event, args):
    if event == "open" and args and str(args[0]).endswith("config.json"):
        out.write(str(args[0]) + "\\n")
sys.addaudithook(audit)
sys.argv = ["rs-learn-host", *sys.argv[2:]]
from host_harness.cli.entry import main
main()
"""


def a_project(tmp_path: Path) -> tuple[Path, dict[str, str]]:
    """A project with a store, a configuration and a ``.git`` folder (so that a lookup stops there)."""
    project = tmp_path / "project"
    (project / ".git").mkdir(parents=True)
    env = host_env(project)
    assert host("memorize", "Deploys go through ArgoCD; never kubectl apply.", env=env).returncode == 0
    (project / ".gm" / "config.json").write_text(json.dumps(
        {"redact": True, "untrusted_recall": "hold", "memory": {"defaultLimit": 10}}), encoding="utf-8")
    return project, env


def prompt(project: Path, session: str) -> bytes:
    return json.dumps({"cwd": str(project), "prompt": "how do we deploy?", "session_id": session}).encode()


def answered_cold(project: Path, done: subprocess.CompletedProcess[bytes]) -> None:
    assert done.returncode == 0, done.stderr.decode()[-2000:]
    assert "ArgoCD" in json.loads(done.stdout)["hookSpecificOutput"]["additionalContext"]
    assert prompt_ledger.read(project)[-1]["path"] == "cold"


def test_a_cold_prompt_opens_its_configuration_once(wasm_runtime, tmp_path: Path):
    project, env = a_project(tmp_path)
    opens = tmp_path / "opens.txt"
    done = subprocess.run([sys.executable, "-c", AUDITED, str(opens), "hook", "prompt-submit"],
                          input=prompt(project, "audited"), capture_output=True, timeout=300, cwd=project,
                          env=env)
    answered_cold(project, done)
    assert opens.read_text(encoding="utf-8").splitlines() == ["config.json"]  # (opened in .gm/, no link)


@pytest.mark.skipif(shutil.which("strace") is None, reason="strace is not installed (the audit test counts)")
def test_strace_of_a_cold_prompt_shows_one_read_of_the_configuration_and_one_lookup(wasm_runtime,
                                                                                     tmp_path: Path):
    project, env = a_project(tmp_path)
    trace = tmp_path / "strace.txt"
    done = subprocess.run(["strace", "-f", "-e", "trace=openat,open,stat,newfstatat,lstat", "-o", str(trace),
                           *HOST, "hook", "prompt-submit"], input=prompt(project, "traced"),
                          capture_output=True, timeout=300, cwd=project, env=env)
    if done.returncode != 0 and not trace.is_file():  # e.g. ptrace refused in a container
        pytest.skip(f"strace cannot trace here: {done.stderr.decode()[-300:]}")
    answered_cold(project, done)
    lines = trace.read_text(encoding="utf-8", errors="replace").splitlines()
    config = [line for line in lines if '"config.json"' in line or '/config.json"' in line]
    dotgit = str(project / ".git")
    lookups = [line for line in lines if f'"{dotgit}"' in line and "stat" in line
               and ("AT_SYMLINK_NOFOLLOW" in line or "lstat(" in line)]
    assert len(config) == 1, config
    assert len(lookups) == 1, lookups


@pytest.mark.parametrize(("reply", "ok", "data", "error", "warnings"), [
    ('{"ok": true, "verb": "recall", "data": {"hits": []}, "warnings": ["w"]}', True, {"hits": []}, "",
     ("w",)),
    ('{"ok": false, "verb": "recall", "error": "validation: limit"}', False, None, "validation: limit", ()),
    ('{"ok": false}', False, None, "unknown error", ()),
    ('{"ok": 1, "data": 3}', False, None, "unknown error", ()),  # only true is ok
    ("[1, 2]", False, None, "[1, 2]", ()),
    ("busy: the server" + "x" * 300, False, None, ("busy: the server" + "x" * 300)[:200], ()),
])
def test_an_envelope_is_read_one_way(reply: str, ok: bool, data: object, error: str,
                                     warnings: tuple[str, ...]):
    envelope = Envelope.parse(reply)
    assert (envelope.ok, envelope.data, envelope.error, envelope.warnings) == (ok, data, error, warnings)
