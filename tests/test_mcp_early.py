"""``rs-learn-host mcp`` answers the handshake before loading the SDK, then hands over (issue 33).

The recorded replies are checked against the SDK's own answers; the early responder is run in a
process of its own to show it answers with nothing heavy imported; and the real server is driven
over raw JSON lines to show the session continues on the SDK with one answer per request. (What
``--version``, ``--help`` and the hooks import: ``tests/test_startup.py``.)
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hostprocs import HOST, host_env

from host_harness.mcp import early, prebuilt

HEAVY = ("mcp", "mcp_types", "numpy", "wasmtime", "click", "pydantic", "anyio")
CLIENT = {"name": "test", "version": "0"}
LOADED = f"sorted({{name.split('.')[0] for name in sys.modules}} & {set(HEAVY)!r})"  # which of HEAVY


def request(ident: int, method: str, params: dict[str, Any] | None = None) -> bytes:
    message: dict[str, Any] = {"jsonrpc": "2.0", "id": ident, "method": method}
    if params is not None:
        message["params"] = params
    return json.dumps(message).encode() + b"\n"


def initialize(ident: int, version: str) -> bytes:
    params = {"protocolVersion": version, "capabilities": {}, "clientInfo": CLIENT}
    return request(ident, "initialize", params)


INITIALIZED = b'{"jsonrpc": "2.0", "method": "notifications/initialized"}\n'


def answers(out: bytes) -> dict[Any, list[dict[str, Any]]]:
    """The server's answers by request id (a list each: more than one would be a bug)."""
    found: dict[Any, list[dict[str, Any]]] = {}
    for line in out.splitlines():
        message = json.loads(line)
        if "id" in message and ("result" in message or "error" in message):
            found.setdefault(message["id"], []).append(message)
    return found


def test_recorded_replies_are_the_sdks_own():
    """Same tools, schemas, server info and capabilities per protocol version; the versions recorded."""
    from mcp_types import version

    recorded = early.recorded()
    assert recorded == prebuilt.sdk_replies(), "run scripts/gen_mcp_replies.py"
    assert recorded["versions"] == list(version.HANDSHAKE_PROTOCOL_VERSIONS)
    assert recorded["latest"] == version.LATEST_HANDSHAKE_VERSION
    assert early.tool_names("structured")[: len(early.tool_names("memory"))] == early.tool_names("memory")


@pytest.mark.parametrize(("asked", "negotiated"), [("2025-06-18", "2025-06-18"), ("2024-11-05", "2024-11-05"),
                                                    ("1999-01-01", "2025-11-25")])
def test_the_responder_alone_answers_with_nothing_heavy_imported(tmp_path: Path, asked: str, negotiated: str):
    """The responder in a process of its own: both answers, then the modules it loaded."""
    child = ("import sys, threading\n"
             "from host_harness.mcp import early\n"
             "assert early.start(sys.argv[1:]) is early.active() is not None\n"
             "for thread in threading.enumerate():\n"
             "    if thread is not threading.current_thread():\n"
             "        thread.join()\n"  # the reader ends with the input
             f"print({LOADED}, file=sys.stderr)\n")
    lines = initialize(1, asked) + INITIALIZED + request(2, "tools/list")
    done = subprocess.run([sys.executable, "-c", child, "-p", str(tmp_path), "mcp"], input=lines,
                          capture_output=True, timeout=60, cwd=tmp_path, env=host_env(tmp_path))
    assert done.returncode == 0, done.stderr.decode()
    assert done.stderr.decode().splitlines()[-1] == "[]"
    got = answers(done.stdout)
    recorded = early.recorded()
    assert got[1] == [{"jsonrpc": "2.0", "id": 1, "result": recorded["initialize"][negotiated]}]
    assert got[1][0]["result"]["protocolVersion"] == negotiated
    listed = recorded["lists"][recorded["tools"]["structured"][negotiated]]
    assert got[2] == [{"jsonrpc": "2.0", "id": 2, "result": listed}]


def serve(project: Path, lines: bytes, *expected: int) -> tuple[int, bytes, str]:
    """``rs-learn-host mcp`` over ``lines``; stdin is closed once requests ``expected`` are answered.

    (The SDK cancels a call still running when the input ends.) Returns the exit status, stdout and stderr.
    """
    log = project.parent / "mcp-stderr.log"
    with log.open("wb") as errors:
        proc = subprocess.Popen([*HOST, "mcp"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                stderr=errors, cwd=project, env=host_env(project))
    assert proc.stdin is not None and proc.stdout is not None
    proc.stdin.write(lines)
    proc.stdin.flush()
    out, waiting = b"", set(expected)
    while waiting and (line := proc.stdout.readline()):
        out += line
        waiting.discard(json.loads(line).get("id"))
    proc.stdin.close()
    out += proc.stdout.read()
    return proc.wait(600), out, log.read_text(encoding="utf-8")


def test_the_sdk_takes_the_session_over_one_answer_per_request(wasm_path: Path, project: Path):
    """Calls sent right behind the handshake wait for the SDK and are answered once each, in full."""
    lines = (initialize(1, "2025-06-18") + INITIALIZED + request(2, "tools/list")
             + request(3, "tools/call", {"name": "memorize", "arguments": {"text": "Use pnpm, not npm."}})
             + request(4, "tools/list") + request(5, "ping")
             + request(6, "tools/call", {"name": "recall", "arguments": {"query": "pnpm"}}))
    status, out, err = serve(project, lines, 1, 2, 3, 4, 5, 6)
    assert status == 0, err
    got = answers(out)
    assert sorted(got) == [1, 2, 3, 4, 5, 6]
    assert all(len(each) == 1 for each in got.values()), got
    recorded = early.recorded()
    assert got[1][0]["result"] == recorded["initialize"]["2025-06-18"]
    listed = recorded["lists"][recorded["tools"]["structured"]["2025-06-18"]]
    assert got[2][0]["result"] == got[4][0]["result"] == listed
    assert got[5][0]["result"] == {}
    assert got[3][0]["result"]["isError"] is False
    assert got[6][0]["result"]["structuredContent"]["result"][0]["text"] == "Use pnpm, not npm."


@pytest.mark.parametrize(("memory", "early_list"), [({"enabled": False}, "memory"),
                                                    ({"maxChecklistDepth": 2}, None)])
def test_a_configuration_the_replies_do_not_cover_is_listed_by_the_sdk(
        wasm_path: Path, project: Path, memory: dict[str, Any], early_list: str | None):
    (project / ".gm").mkdir()
    (project / ".gm" / "config.json").write_text(json.dumps({"memory": memory}), encoding="utf-8")
    status, out, err = serve(project, initialize(1, "2025-11-25") + INITIALIZED + request(2, "tools/list"), 2)
    assert status == 0, err
    tools = answers(out)[2][0]["result"]["tools"]
    names = [tool["name"] for tool in tools]
    recorded = early.recorded()
    if early_list is not None:
        assert names == early.tool_names(early_list)
        return
    assert names == early.tool_names("structured")  # every tool, from the SDK ...
    structured = recorded["lists"][recorded["tools"]["structured"]["2025-11-25"]]["tools"]
    unrolled, default = (json.dumps(next(t["inputSchema"] for t in listed if t["name"] == "create_checklist"))
                         for listed in (tools, structured))
    assert unrolled.count('"items"') < default.count('"items"')  # ... with its checklists 2 deep, not 5


def test_a_configuration_that_does_not_load_fails_before_any_answer(wasm_path: Path, project: Path):
    (project / ".gm").mkdir()
    (project / ".gm" / "config.json").write_text('{"memory": {"maxChecklistDepth": 0}}', encoding="utf-8")
    status, out, err = serve(project, initialize(1, "2025-06-18") + INITIALIZED, 1)
    assert status != 0
    assert out == b""
    assert "maxChecklistDepth" in err
