"""``rs-learn-host mcp`` answers both protocol eras on one session, every message from the SDK (issue 44).

Claude Code opens with the 2026-07-28 ``server/discover`` and falls back to ``initialize 2025-11-25``
when the answer is slow; Codex and Gemini speak the handshake era only. The server is driven over raw
JSON lines, each request sent at once behind the others or only after an answer, in every order, and
every request must get exactly one answer, the one of the era it was sent in. (What ``--help`` and
the hooks import: ``tests/process/test_startup.py``.)
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

import pytest
from hostprocs import HOST, host_env

CLIENT = {"name": "test", "version": "0"}
MODERN = {"io.modelcontextprotocol/protocolVersion": "2026-07-28",
          "io.modelcontextprotocol/clientInfo": CLIENT, "io.modelcontextprotocol/clientCapabilities": {}}


def request(ident: int, method: str, params: dict[str, Any] | None = None, modern: bool = False) -> bytes:
    message: dict[str, Any] = {"jsonrpc": "2.0", "id": ident, "method": method}
    if modern:
        params = {**(params or {}), "_meta": MODERN}
    if params is not None:
        message["params"] = params
    return json.dumps(message).encode() + b"\n"


def initialize(ident: int, version: str = "2025-11-25") -> bytes:
    params = {"protocolVersion": version, "capabilities": {}, "clientInfo": CLIENT}
    return request(ident, "initialize", params)


def discover(ident: int) -> bytes:
    return request(ident, "server/discover", modern=True)


def call(ident: int, tool: str, arguments: dict[str, Any], modern: bool = False) -> bytes:
    return request(ident, "tools/call", {"name": tool, "arguments": arguments}, modern=modern)


INITIALIZED = b'{"jsonrpc": "2.0", "method": "notifications/initialized"}\n'


def serve(project: Path, *steps: tuple[bytes, set[int]]) -> tuple[int, dict[Any, list[dict[str, Any]]], str]:
    """``rs-learn-host mcp`` fed ``steps``: each step's lines are sent once the ids it names are answered
    (an empty set: at once, right behind the previous step). Stdin closes once every request is answered.

    Returns the exit status, the answers by request id (a list each: more than one would be a bug) and stderr.
    """
    log = project.parent / "mcp-stderr.log"
    with log.open("wb") as errors:
        proc = subprocess.Popen([*HOST, "mcp"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                stderr=errors, cwd=project, env=host_env(project))
    assert proc.stdin is not None and proc.stdout is not None
    asked = {json.loads(line)["id"] for lines, _ in steps for line in lines.splitlines()
             if "id" in json.loads(line)}
    got: dict[Any, list[dict[str, Any]]] = {}
    for lines, after in steps:
        while not after <= set(got) and (line := proc.stdout.readline()):
            keep(got, line)
        proc.stdin.write(lines)
        proc.stdin.flush()
    while not asked <= set(got) and (line := proc.stdout.readline()):
        keep(got, line)
    proc.stdin.close()
    for line in proc.stdout.read().splitlines():
        keep(got, line)
    return proc.wait(600), got, log.read_text(encoding="utf-8")


def keep(got: dict[Any, list[dict[str, Any]]], line: bytes) -> None:
    message = json.loads(line)
    if "id" in message and ("result" in message or "error" in message):
        got.setdefault(message["id"], []).append(message)


def result(got: dict[Any, list[dict[str, Any]]], ident: int) -> Any:
    """The one answer to ``ident``, which must be a result."""
    [answer] = got[ident]
    assert "result" in answer, answer
    return answer["result"]


def recalled(got: dict[Any, list[dict[str, Any]]], ident: int) -> list[str]:
    answer = result(got, ident)
    assert answer["isError"] is False, answer
    return [hit["text"] for hit in answer["structuredContent"]["result"]]


MEMORIZE = {"text": "Use pnpm, not npm, in this repository."}


def test_discover_then_the_handshake_sent_at_once_both_work(wasm_path: Path, project: Path):
    """The issue's repro: discover, then the legacy handshake and a call, without waiting for anything."""
    lines = (discover(1) + initialize(2) + INITIALIZED + call(3, "memorize", MEMORIZE)
             + call(4, "recall", {"query": "pnpm"}))
    status, got, err = serve(project, (lines, set()))
    assert status == 0, err
    assert sorted(got) == [1, 2, 3, 4]
    assert "2026-07-28" in result(got, 1)["supportedVersions"]
    assert result(got, 2)["protocolVersion"] == "2025-11-25"
    assert result(got, 3)["isError"] is False
    assert recalled(got, 4) == [MEMORIZE["text"]]


def test_discover_answered_first_then_the_handshake(wasm_path: Path, project: Path):
    """Slow: the handshake comes only after discover was answered (a client that changed its mind)."""
    status, got, err = serve(project, (discover(1), set()),
                             (initialize(2) + INITIALIZED + call(3, "recall", {"query": "pnpm"}), {1}))
    assert status == 0, err
    assert result(got, 2)["protocolVersion"] == "2025-11-25"
    assert recalled(got, 3) == []


@pytest.mark.parametrize("wait", [False, True], ids=["at once", "after the handshake"])
def test_the_handshake_then_modern_requests(wasm_path: Path, project: Path, wait: bool):
    """Legacy first, then enveloped requests on the same session: each answered in its own era."""
    status, got, err = serve(project, (initialize(1, "2025-06-18") + INITIALIZED, set()),
                             (discover(2) + call(3, "memorize", MEMORIZE, modern=True)
                              + call(4, "recall", {"query": "pnpm"})
                              + call(5, "recall", {"query": "pnpm"}, modern=True)
                              + request(6, "tools/list", modern=True) + request(7, "tools/list"),
                              {1} if wait else set()))
    assert status == 0, err
    assert all(len(each) == 1 for each in got.values()), got
    assert result(got, 1)["protocolVersion"] == "2025-06-18"
    assert "2026-07-28" in result(got, 2)["supportedVersions"]
    assert result(got, 3)["isError"] is False
    assert recalled(got, 4) == recalled(got, 5) == [MEMORIZE["text"]]
    modern, legacy = result(got, 6), result(got, 7)
    assert [tool["name"] for tool in modern["tools"]] == [tool["name"] for tool in legacy["tools"]]


def test_a_modern_session_alone(wasm_path: Path, project: Path):
    """No handshake at all: every request carries its envelope."""
    status, got, err = serve(project, (discover(1) + request(2, "tools/list", modern=True)
                                       + call(3, "memorize", MEMORIZE, modern=True)
                                       + call(4, "recall", {"query": "pnpm"}, modern=True), set()))
    assert status == 0, err
    assert "recall" in [tool["name"] for tool in result(got, 2)["tools"]]
    assert recalled(got, 4) == [MEMORIZE["text"]]


def test_each_era_keeps_its_own_rules(wasm_path: Path, project: Path):
    """A legacy call before any handshake is refused as the SDK refuses it; a half envelope is refused by
    the SDK's modern ladder naming the missing key; ``initialize`` with an envelope is the handshake."""
    half = json.dumps({"jsonrpc": "2.0", "id": 2, "method": "tools/list",
                       "params": {"_meta": {"io.modelcontextprotocol/protocolVersion": "2026-07-28"}}})
    enveloped = request(4, "initialize", {"protocolVersion": "2025-11-25", "capabilities": {},
                                          "clientInfo": CLIENT}, modern=True)
    status, got, err = serve(project, (call(1, "recall", {"query": "x"}) + half.encode() + b"\n", set()),
                             (enveloped + INITIALIZED + call(5, "recall", {"query": "x"}), {1, 2}))
    assert status == 0, err
    [before] = got[1]
    assert before["error"]["code"] == -32602
    [partial] = got[2]
    assert "clientCapabilities" in partial["error"]["message"]
    assert result(got, 4)["protocolVersion"] == "2025-11-25"
    assert recalled(got, 5) == []


def test_a_checklist_depth_other_than_the_default_is_served(wasm_path: Path, project: Path):
    (project / ".gm").mkdir()
    (project / ".gm" / "config.json").write_text('{"memory": {"maxChecklistDepth": 2}}', encoding="utf-8")
    status, got, err = serve(project, (initialize(1) + INITIALIZED + request(2, "tools/list")
                                       + request(3, "tools/list", modern=True), set()))
    assert status == 0, err
    legacy, modern = (next(t["inputSchema"] for t in result(got, ident)["tools"]
                           if t["name"] == "create_checklist") for ident in (2, 3))
    assert legacy == modern
    assert "nested up to 2 level(s) deep" in json.dumps(legacy)


def test_a_configuration_that_does_not_load_fails_before_any_answer(wasm_path: Path, project: Path):
    (project / ".gm").mkdir()
    (project / ".gm" / "config.json").write_text('{"memory": {"maxChecklistDepth": 0}}', encoding="utf-8")
    status, got, err = serve(project, (discover(1) + initialize(2) + INITIALIZED, set()))
    assert status != 0
    assert got == {}
    assert "maxChecklistDepth" in err
