"""The warm socket: a hook answered by a running server, never importing wasmtime or numpy.

Real processes throughout: a ``spool --watch`` (or ``mcp``) server, and the hook started the way
Claude Code starts it, under ``python -X importtime`` so that its stderr lists every module it
imported. The warm answer must be the cold one, byte for byte; a stale socket, a planted link or a
socket others could reach must never be used (the hook then takes the cold path).
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from hostprocs import HOST, Watcher, host_env, remember

from host_harness.guests.runtime import Runtime
from host_harness.hooks.warm import SOCKET_NAME, Handoff, NoServer, WarmServer, ask

PROMPT = "which port does the staging server use?"
HEAVY = ("wasmtime", "numpy")


@pytest.fixture
def remembered(project: Path, wasm_runtime: Runtime) -> Path:
    return remember(project, wasm_runtime)


def hook(project: Path, prompt: str = PROMPT) -> tuple[str, set[str]]:
    """Run the prompt-submit hook as a new process: its output and the modules it imported.

    Each module is there by its full name and by its top-level package's (``numpy.linalg``: both).
    """
    event = json.dumps({"hook_event_name": "UserPromptSubmit", "cwd": str(project), "prompt": prompt})
    env = host_env(project, RS_LEARN_HOOK_TIMEOUT="20")
    done = subprocess.run([sys.executable, "-X", "importtime", *HOST[1:], "hook", "prompt-submit"],
                          input=event.encode(), env=env, capture_output=True, timeout=60, cwd=project)
    assert done.returncode == 0, done.stderr.decode()[-2000:]
    names = [line.split("|")[-1].strip() for line in done.stderr.decode().splitlines()
             if line.startswith("import time:")]
    return done.stdout.decode(), {*names, *(name.split(".")[0] for name in names)}


def test_a_warm_watcher_answers_the_hook_as_the_cold_path_does(remembered: Path):
    cold, cold_modules = hook(remembered)
    assert "8080" in cold and set(HEAVY) <= cold_modules
    watcher = Watcher(host_env(remembered))
    try:
        watcher.wait_ready()
        assert (remembered / ".gm" / SOCKET_NAME).is_socket()
        assert (remembered / ".gm" / SOCKET_NAME).stat().st_mode & 0o777 == 0o600
        warm, modules = hook(remembered)
        assert warm == cold
        assert not modules & set(HEAVY), sorted(modules & set(HEAVY))
        assert "click" not in modules
    finally:
        assert watcher.stop() == 0
    assert not (remembered / ".gm" / SOCKET_NAME).exists(), "the watcher removes its socket"
    again, modules = hook(remembered)
    assert again == cold and set(HEAVY) <= modules  # no server: cold again


def test_the_cold_path_loads_neither_the_warm_client_nor_the_postgresql_store(remembered: Path):
    """No socket: the hook goes cold at once; a project on SQLite never loads the PostgreSQL store."""
    cold, modules = hook(remembered)
    assert "8080" in cold
    unused = {"host_harness.hooks.warm", "host_harness.store.pg.kv", "host_harness.store.pg.vectors",
              "host_harness.store.pg.ledger"}
    assert not modules & unused, sorted(modules & unused)


def test_a_stale_socket_is_skipped_by_the_hook_and_replaced_by_a_server(remembered: Path):
    path = remembered / ".gm" / SOCKET_NAME
    dead = socket.socket(socket.AF_UNIX)
    old = os.umask(0o177)
    try:
        dead.bind(str(path))  # bound, never listening: what a killed server leaves
    finally:
        os.umask(old)
    dead.close()
    with pytest.raises(NoServer):
        ask(remembered, "auto_recall", {"prompt": PROMPT}, 5.0)
    cold, modules = hook(remembered)
    assert "8080" in cold and set(HEAVY) <= modules
    watcher = Watcher(host_env(remembered))
    try:
        watcher.wait_ready()
        warm, modules = hook(remembered)
        assert warm == cold and not modules & set(HEAVY)
    finally:
        watcher.stop()


def test_a_planted_link_is_never_followed(remembered: Path, tmp_path: Path):
    elsewhere = tmp_path / "elsewhere.sock"
    (remembered / ".gm" / SOCKET_NAME).symlink_to(elsewhere)
    server = WarmServer(remembered, lambda verb, body: "{}")
    assert not server.start(), "a link at the socket's name is left alone"
    server.close()
    assert (remembered / ".gm" / SOCKET_NAME).is_symlink() and not elsewhere.exists()
    with pytest.raises(NoServer):
        ask(remembered, "auto_recall", {"prompt": PROMPT}, 5.0)
    out, modules = hook(remembered)
    assert "8080" in out and set(HEAVY) <= modules


def test_a_socket_others_can_reach_is_not_used(project: Path):
    (project / ".gm").mkdir()
    server = WarmServer(project, lambda verb, body: json.dumps({"ok": True, "verb": verb, "data": {}}))
    assert server.start()
    try:
        assert json.loads(ask(project, "auto_recall", {"prompt": "x"}, 5.0))["ok"]
        (project / ".gm" / SOCKET_NAME).chmod(0o666)
        with pytest.raises(NoServer):
            ask(project, "auto_recall", {"prompt": "x"}, 5.0)
    finally:
        server.close()


def test_a_second_server_leaves_a_live_socket_alone(project: Path):
    (project / ".gm").mkdir()
    first = WarmServer(project, lambda verb, body: json.dumps({"ok": True, "verb": verb, "data": 1}))
    second = WarmServer(project, lambda verb, body: json.dumps({"ok": True, "verb": verb, "data": 2}))
    assert first.start()
    try:
        assert not second.start()
        assert json.loads(ask(project, "auto_recall", {}, 5.0))["data"] == 1
    finally:
        second.close()
        first.close()
    assert not (project / ".gm" / SOCKET_NAME).exists()


@pytest.mark.parametrize(("request_line", "error"), [
    ({"v": 1, "verb": "memorize", "body": {"text": "x"}}, "serves only auto_recall, session_start"),
    ({"v": 2, "verb": "auto_recall", "body": {}}, "protocol is version 1"),
    ({"v": 1, "verb": "auto_recall", "body": "x"}, "serves only"),
    ({"v": 1, "verb": "auto_recall", "body": {}, "project": "/elsewhere"}, "this warm server serves"),
])
def test_the_server_refuses_what_it_does_not_serve(project: Path, request_line: dict, error: str):
    (project / ".gm").mkdir()
    served: list[str] = []
    server = WarmServer(project, lambda verb, body: served.append(verb) or "{}")
    assert server.start()
    try:
        line = {"project": str(project), **request_line}
        with socket.socket(socket.AF_UNIX) as sock:
            sock.settimeout(5)
            sock.connect(str(project / ".gm" / SOCKET_NAME))
            sock.sendall(json.dumps(line).encode() + b"\n")
            answer = json.loads(sock.makefile("rb").readline())
    finally:
        server.close()
    assert not answer["ok"] and error in answer["error"] and not served


def test_handoff_runs_requests_on_the_owners_thread():
    handoff = Handoff()
    owner = threading.get_ident()
    seen: list[int] = []
    results: list[str] = []
    client = threading.Thread(target=lambda: results.append(handoff.submit("auto_recall", "{}")))
    client.start()
    handoff.wait(5)  # woken by the request
    assert handoff.run(lambda verb, body: seen.append(threading.get_ident()) or f"{verb} {body}") == 1
    client.join(5)
    assert results == ["auto_recall {}"] and seen == [owner]


def test_the_mcp_server_answers_the_hook_warm(remembered: Path):
    cold, _ = hook(remembered)
    env = host_env(remembered)
    server = subprocess.Popen([*HOST, "-p", str(remembered), "mcp"], env=env, stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        path = remembered / ".gm" / SOCKET_NAME
        deadline = time.monotonic() + 60
        while not path.is_socket() and time.monotonic() < deadline and server.poll() is None:
            time.sleep(0.05)
        assert path.is_socket(), server.stderr.read().decode() if server.poll() is not None else "no socket"
        warm, modules = hook(remembered)
        assert warm == cold and not modules & set(HEAVY)
    finally:
        assert server.stdin is not None
        server.stdin.close()  # end of the MCP session: the server exits
        server.wait(30)
    assert not (remembered / ".gm" / SOCKET_NAME).exists()
