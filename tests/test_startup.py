"""What a start imports (issue 33): ``--version`` and ``--help`` no numpy, wasmtime or MCP SDK; a hook
answered by a warm server neither click, numpy, wasmtime nor the native guest.

Each is a real process of the command line's own entry; ``-X importtime`` lists every module it
imported (a hook leaves without interpreter teardown, so nothing can be asked of it at exit).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from hostprocs import HOST, Watcher, host, host_env

from host_harness.hooks import ledger

HEAVY = {"mcp", "mcp_types", "numpy", "wasmtime", "pydantic", "anyio"}


def imported(*args: str, project: Path, stdin: bytes = b""
             ) -> tuple[set[str], subprocess.CompletedProcess[bytes]]:
    """The top-level packages ``rs-learn-host ARGS`` imported (and the finished process)."""
    done = subprocess.run([sys.executable, "-X", "importtime", *HOST[1:], *args], input=stdin,
                          capture_output=True, timeout=300, cwd=project, env=host_env(project))
    names = {line.split("|")[-1].strip().split(".")[0]
             for line in done.stderr.decode().splitlines() if line.startswith("import time:")}
    return names - {"import time:"}, done


@pytest.mark.parametrize("args", [["--version"], ["-V"]])
def test_version_imports_nothing_heavy_nor_click(tmp_path: Path, args: list[str]):
    names, done = imported(*args, project=tmp_path)
    assert done.returncode == 0 and done.stdout == b"rs-learn-host 0.1.0\n"
    assert names & (HEAVY | {"click", "guest"}) == set()


@pytest.mark.parametrize(("args", "shows"), [(["--help"], "memorize"), (["-h"], "recall"),
                                             (["mcp", "--help"], "recall, memorize"),  # the tools, no SDK
                                             (["hook", "prompt-submit", "--help"], "--log-prompts")])
def test_help_imports_nothing_heavy(tmp_path: Path, args: list[str], shows: str):
    names, done = imported(*args, project=tmp_path)
    assert done.returncode == 0 and shows in done.stdout.decode()
    assert names & HEAVY == set()


def test_a_hook_a_warm_server_answers_imports_nothing_heavy(wasm_runtime, project: Path):
    env = host_env(project)
    assert host("memorize", "Deploys go through ArgoCD; never kubectl apply.", env=env).returncode == 0
    watcher = Watcher(env)
    try:
        watcher.wait_ready()
        event = {"cwd": str(project), "prompt": "how do we deploy?", "session_id": "warm-imports"}
        names, done = imported("hook", "prompt-submit", project=project, stdin=json.dumps(event).encode())
    finally:
        watcher.stop()
    assert "ArgoCD" in json.loads(done.stdout)["hookSpecificOutput"]["additionalContext"]
    assert ledger.read(project)[-1]["path"] == "warm"
    assert names & (HEAVY | {"click", "guest"}) == set()
