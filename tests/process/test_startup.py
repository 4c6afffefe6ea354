"""What a start imports (issue 33): ``--version`` and ``--help`` no numpy, wasmtime or MCP SDK; a hook
answered by a warm server neither click, numpy, wasmtime nor the native guest; a cold hook neither
click nor the native guest (it loads the component, and the stores' vector search is numpy's).

Each is a real process of the command line's own entry; ``-X importtime`` lists every module it
imported (a hook leaves without interpreter teardown, so nothing can be asked of it at exit).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from hostprocs import HOST, Watcher, host, host_env, wait_for
from transcripts import Transcript

from host_harness.capture import EVENTS, state
from host_harness.capture.transcript import folder_name
from host_harness.hooks import prompt_ledger
from host_harness.hooks.protocol import WARM_SOCKET
from host_harness.targets.runtime import artifact_is_intact, cache_file_name

HEAVY = {"mcp", "mcp_types", "numpy", "wasmtime", "pydantic", "anyio"}


def imported(*args: str, project: Path, stdin: bytes = b"", **env: str
             ) -> tuple[set[str], subprocess.CompletedProcess[bytes]]:
    """The top-level packages ``rs-learn-host ARGS`` imported (and the finished process)."""
    modules, done = imported_modules(*args, project=project, stdin=stdin, **env)
    return {name.split(".")[0] for name in modules}, done


def imported_modules(*args: str, project: Path, stdin: bytes = b"", **env: str
                     ) -> tuple[set[str], subprocess.CompletedProcess[bytes]]:
    """Every module ``rs-learn-host ARGS`` imported (and the finished process)."""
    done = subprocess.run([sys.executable, "-X", "importtime", *HOST[1:], *args], input=stdin,
                          capture_output=True, timeout=300, cwd=project, env=host_env(project, **env))
    names = {line.split("|")[-1].strip()
             for line in done.stderr.decode().splitlines() if line.startswith("import time:")}
    return names - {"imported package"}, done


# What no hook imports before it knows it has work (issue 44): click, the CLI's commands, a store driver,
# capture's rule tables; the SDK, numpy and wasmtime unless it loads the component.
NEVER_IN_A_HOOK = ("click", "host_harness.cli.main", "host_harness.cli.hook", "host_harness.cli.capture",
                   "host_harness.store.pg", "psycopg", "host_harness.capture.rules",
                   "host_harness.capture.run", "mcp", "mcp_types")


def never_in_a_hook(modules: set[str]) -> list[str]:
    """The modules of ``modules`` that :data:`NEVER_IN_A_HOOK` names (or one of their submodules)."""
    return sorted(m for m in modules if any(m == n or m.startswith(n + ".") for n in NEVER_IN_A_HOOK))


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
    assert prompt_ledger.read(project)[-1]["path"] == "warm"
    assert names & (HEAVY | {"click", "guest"}) == set()


@pytest.mark.parametrize("command", ["prompt-submit", "session-start"])
def test_a_cold_hook_imports_neither_click_nor_the_native_guest(wasm_runtime, project: Path, command: str):
    env = host_env(project)
    assert host("memorize", "Deploys go through ArgoCD; never kubectl apply.", env=env).returncode == 0
    (project / ".gm" / "managed-skills" / "deploy").mkdir(parents=True)
    (project / ".gm" / "managed-skills" / "deploy" / "SKILL.md").write_text(
        "---\nname: deploy\ndescription: How we deploy\n---\n\nArgoCD.\n", encoding="utf-8")
    event = {"cwd": str(project), "prompt": "how do we deploy?", "session_id": "cold-imports"}
    names, done = imported("hook", command, project=project, stdin=json.dumps(event).encode())
    added = json.loads(done.stdout)["hookSpecificOutput"]["additionalContext"]
    assert ("ArgoCD" if command == "prompt-submit" else "deploy") in added
    if command == "prompt-submit":
        assert prompt_ledger.read(project)[-1]["path"] == "cold"
    assert names & {"click", "mcp", "mcp_types"} == set()
    guest = {line.split("|")[-1].strip() for line in done.stderr.decode().splitlines()
             if line.split("|")[-1].strip().startswith("guest")}
    assert guest == set()  # the guest runs in the component: the host's errors are its own (issue 37)


def test_a_hook_out_of_time_still_compiles_the_component_for_the_next_one(project: Path, tmp_path: Path):
    """A budget spent before the hook gets anywhere (here 10 ms) still starts the compile for the next one.

    The component is an empty one, so the detached ``warmup`` takes a moment even on a loaded machine
    (compiling the real one took over 600 s once at the end of a full run on CI's 2 cores); that a
    compiled cache makes the next prompt's cold path answer is the test above.
    """
    empty = tmp_path / "empty.wasm"
    empty.write_bytes(b"\0asm\x0d\x00\x01\x00")  # a component with nothing in it
    (project / ".gm").mkdir()
    cache = tmp_path / "fresh-cache"  # nothing compiled yet: the state right after an upgrade
    event = json.dumps({"cwd": str(project), "prompt": "how do we deploy?", "session_id": "late"}).encode()
    env = host_env(project, RS_LEARN_CACHE_DIR=str(cache), RS_LEARN_WASM=str(empty),
                   RS_LEARN_HOOK_TIMEOUT="0.01")
    late = host("hook", "prompt-submit", env=env, input=event)
    assert late.returncode == 0 and late.stdout == b""
    assert prompt_ledger.read(project)[-1]["outcome"] == "timeout"
    assert list(cache.glob(".warming-after-timeout-*"))  # the detached warmup's marker
    artifact = cache / cache_file_name(empty.read_bytes())  # the component the environment names
    wait_for(lambda: artifact_is_intact(artifact), 300, "the background compile")
    assert not (project / ".gm" / WARM_SOCKET).exists()  # no server: the next prompt runs cold, compiled


@pytest.mark.parametrize("command", ["stop", "pre-compact", "session-end"])
def test_a_capture_hook_hands_off_without_the_cli(wasm_runtime, project: Path, tmp_path: Path, command: str):
    """The hook starts the detached capture run and leaves: no CLI, no store, no component imported."""
    (project / ".gm").mkdir()
    home = tmp_path / "claude"
    t = Transcript(project).prompt("Always run make lint first.")
    path = t.write(home / "projects" / folder_name(project.resolve()) / f"{t.session}.jsonl")
    event = {"session_id": t.session, "transcript_path": str(path), "cwd": str(project),
             "hook_event_name": EVENTS[command]}
    modules, done = imported_modules("hook", command, project=project, stdin=json.dumps(event).encode(),
                                     CLAUDE_CONFIG_DIR=str(home))
    assert done.returncode == 0 and done.stdout == b""
    assert never_in_a_hook(modules) == []
    assert {m.split(".")[0] for m in modules} & {"numpy", "wasmtime", "anyio", "pydantic"} == set()
    assert not [m for m in modules if m.startswith(("host_harness.store", "host_harness.services"))]
    assert state.pending(project, path) or state.load(project, path).offset > 0  # the run is started


@pytest.mark.parametrize("stored", [False, True], ids=["no store", "a store"])
def test_session_context_loads_only_what_it_needs(wasm_runtime, project: Path, stored: bool):
    """No store: answered at once with nothing heavy; a store: the component, never the CLI."""
    env = host_env(project)
    if stored:
        assert host("memorize", "Deploys go through ArgoCD.", env=env).returncode == 0
    else:
        (project / ".gm").mkdir()
    event = {"cwd": str(project), "source": "startup", "session_id": "context-imports"}
    modules, done = imported_modules("hook", "session-context", project=project,
                                     stdin=json.dumps(event).encode())
    assert done.returncode == 0
    assert never_in_a_hook(modules) == []
    loaded = {m.split(".")[0] for m in modules} & {"numpy", "wasmtime"}
    assert loaded == ({"numpy", "wasmtime"} if stored else set())


def test_the_mcp_server_imports_none_of_the_cli_s_other_commands(tmp_path: Path):
    """``rs-learn-host mcp`` (as setup writes it) starts without the rest of the command line (issue 44)."""
    (tmp_path / ".gm").mkdir()
    modules, done = imported_modules("mcp", project=tmp_path)  # stdin closed at once: it serves, then ends
    assert done.returncode == 0, done.stderr.decode()[-2000:]
    assert "mcp.server.lowlevel" in modules
    assert {"host_harness.cli.main", "host_harness.cli.hook", "host_harness.cli.setup"} & modules == set()
