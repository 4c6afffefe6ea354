"""``rs-learn-host mcp`` as a real subprocess, through the SDK's stdio client (issue #14).

Every test starts the server the way an agent does (a command on stdio, the built component) and
talks MCP to it: the initialize handshake real clients use today, and the 2026 protocol's discovery.
"""

from __future__ import annotations

import asyncio
import json
import re
import signal
import sqlite3
import subprocess
import sys
import threading
import tomllib
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import pytest
from docpages import page
from helpers.cli import host_in_process
from hostprocs import (
    HOST,
    HeldCompile,
    Watcher,
    host,
    host_env,
    leftovers,
    remember,
    wait_for,
    write_lock_held,
    write_request,
)
from mcp import Client
from mcp.client.stdio import StdioServerParameters, stdio_client
from mcp.shared.exceptions import MCPError


@asynccontextmanager
async def connect(project: Path, *args: str, mode: str = "legacy", log: Path | None = None,
                  command: list[str] | None = None, env: dict[str, str] | None = None
                  ) -> AsyncIterator[Client]:
    """An MCP client session with ``rs-learn-host mcp ARGS`` on ``project`` (stderr to ``log``)."""
    argv = command or [*HOST, "mcp", *args]
    params = StdioServerParameters(command=argv[0], args=argv[1:], env=env or host_env(project), cwd=project)
    errlog = (log or project.parent / "mcp-stderr.log").open("a", encoding="utf-8")
    try:
        async with Client(stdio_client(params, errlog=errlog), mode=mode, read_timeout_seconds=60) as client:
            yield client
    finally:
        errlog.close()


def run(coroutine: Any) -> Any:
    return asyncio.run(coroutine)


def text(result: Any) -> str:
    return str(result.content[0].text)


PNPM = "Use pnpm, not npm, to install packages in this repository."  # "packages": evidence for the query


@pytest.mark.parametrize("mode", ["legacy", "auto"])
def test_tools_and_memorize_then_recall(wasm_path: Path, project: Path, mode: str):
    async def scenario() -> None:
        async with connect(project, mode=mode) as client:
            tools = {tool.name: tool for tool in (await client.list_tools()).tools}
            assert {"recall", "memorize", "learn", "archive", "recall_search", "create_checklist",
                    "query_records", "delete_record"} <= set(tools)
            schema = tools["memorize"].input_schema
            assert schema["required"] == ["text"]
            assert set(schema["properties"]) == {"text", "namespace", "supersedes"}
            assert tools["recall"].annotations.read_only_hint is True
            stored = await client.call_tool("memorize", {"text": PNPM})
            assert stored.is_error is False and stored.structured_content["deduped"] is False
            again = await client.call_tool("memorize", {"text": PNPM})
            assert again.structured_content == {**stored.structured_content, "deduped": True}
            hits = await client.call_tool("recall", {"query": "which package manager?", "limit": 3})
            assert hits.structured_content["result"][0]["text"] == PNPM
            assert "pnpm" in text(hits)

    run(scenario())
    assert json.loads(host_in_process("stats", "--json", env=host_env(project)).stdout)["memories"] == 1


def test_learn_with_a_skill_then_the_skill_resource(wasm_path: Path, project: Path):
    body = "1. Build the image.\n2. Run the migrations.\n3. Roll out.\n"

    async def scenario() -> None:
        async with connect(project) as client:
            skill = {"action": "create", "name": "Deploy Steps", "description": "How we deploy", "body": body}
            result = await client.call_tool("learn", {"memory": "Deploys take three steps.", "skill": skill})
            assert result.is_error is False
            assert text(result) == 'Lesson stored. Created managed skill "deploy-steps".'
            assert result.structured_content["details"] == {"skill": "deploy-steps"}
            assert "write" not in result.structured_content
            listed = {str(r.uri): r for r in (await client.list_resources()).resources}
            assert listed["rs-learn://skills/deploy-steps"].mime_type == "text/markdown"
            read = await client.read_resource("rs-learn://skills/deploy-steps")
            assert read.contents[0].text.endswith(f"---\n\n{body}")
            assert 'description: "How we deploy"' in read.contents[0].text
            with pytest.raises(MCPError, match="no managed skill"):
                await client.read_resource("rs-learn://skills/nothing-here")

    run(scenario())
    assert (project / ".gm" / "managed-skills" / "deploy-steps" / "SKILL.md").is_file()


def test_archive_then_recall_search_then_recall_by_id(wasm_path: Path, project: Path):
    block = "<div>Tom &amp; Jerry</div>\r\n\tsecond line, kept verbatim  \n"

    async def scenario() -> None:
        async with connect(project) as client:
            archived = await client.call_tool("archive", {"content": block, "label": "HTML snippet"})
            assert text(archived) == f"Archived as r1: HTML snippet ({len(block.encode())} bytes)."
            await client.call_tool("archive", {"content": "an unrelated block about deployment"})
            found = await client.call_tool("recall_search", {"query": "jerry snippet", "limit": 3})
            assert [r["id"] for r in found.structured_content["results"]] == ["r1"]
            assert text(found).startswith("Archived blocks matching the query (recall one by its id):\n- r1")
            back = await client.call_tool("recall", {"id": "r1"})
            assert back.structured_content["content"] == block
            assert text(back) == f"[r1 — HTML snippet, recalled verbatim]\n{block}"
            listed = [str(r.uri) for r in (await client.list_resources()).resources]
            assert listed == ["rs-learn://archive/r2", "rs-learn://archive/r1"]
            read = await client.read_resource("rs-learn://archive/r1")
            assert read.contents[0].text == block
            missing = await client.call_tool("recall", {"id": "r9"})
            assert missing.is_error is True and text(missing).startswith('not_found: archived block "r9"')
            with pytest.raises(MCPError, match="not found"):
                await client.read_resource("rs-learn://archive/r9")

    run(scenario())


def test_structured_round_trip_with_the_scope_from_the_flags(wasm_path: Path, project: Path):
    async def scenario() -> None:
        async with connect(project, "--project-id", "app") as client:
            made = await client.call_tool("create_checklist", {
                "title": "Release 0.2", "items": [{"title": "Bump version"}, {"title": "Changelog"}]})
            checklist = made.structured_content
            assert (checklist["id"], checklist["scope"]["projectId"]) == ("cl-1", "app")
            added = await client.call_tool("add_checklist_item", {
                "checklistId": "cl-1", "title": "Collect entries", "parentId": "it-2"})
            assert added.structured_content["item"]["id"] == "it-3"
            ticked = await client.call_tool("update_checklist_item", {"checklistId": "cl-1", "itemId": "it-1",
                                                                      "status": "done"})
            assert ticked.structured_content["item"]["status"] == "done"
            todo = await client.call_tool("create_todo", {"title": "Fix the flaky login test", "priority": 4})
            await client.call_tool("update_todo", {"id": "td-1", "status": "in_progress", "version": 1})
            await client.call_tool("create_session_note", {"content": "The login test races on the cookie."})
            assert todo.structured_content["id"] == "td-1"
            hits = await client.call_tool("query_records", {"query": "flaky login"})
            assert [h["record"]["id"] for h in hits.structured_content["hits"]][:1] == ["td-1"]
            brief = await client.call_tool("retrieve_memory", {"query": "release changelog",
                                                               "kinds": ["checklist"]})
            assert "[checklist cl-1] Release 0.2 (open, 1/3 done)" in text(brief)
            got = await client.call_tool("get_record", {"id": "td-1"})
            assert (got.structured_content["status"], got.structured_content["version"]) == ("in_progress", 2)
            deleted = await client.call_tool("delete_record", {"id": "td-1"})
            assert deleted.structured_content["deleted"] == "soft"
            gone = await client.call_tool("get_record", {"id": "td-1"})
            assert gone.is_error is True and text(gone).startswith("not_found:")
        async with connect(project, "--project-id", "other") as client:  # another trusted scope
            hidden = await client.call_tool("get_record", {"id": "cl-1"})
            assert hidden.is_error is True and text(hidden).startswith("not_found:")
            sneak = await client.call_tool("query_records", {"query": "release", "projectId": "app"})
            assert sneak.is_error is True and "scope field" in text(sneak)

    run(scenario())


def test_bad_arguments_are_error_results_and_store_nothing(wasm_path: Path, project: Path):
    async def scenario() -> None:
        async with connect(project) as client:
            await client.call_tool("memorize", {"text": "The one stored fact."})
            db = project / ".gm" / "rs-learn.db"
            before = db.read_bytes()
            for tool, args in [("create_todo", {"title": "x" * 201}), ("memorize", {"text": ""}),
                               ("create_todo", {"title": "t", "actorId": "me"}), ("recall", {"limit": 5}),
                               ("learn", {"memory": "   ", "skill": {"action": "create", "name": "x"}}),
                               ("archive", {"content": "x", "label": "two\nlines"}), ("no_such_tool", {})]:
                result = await client.call_tool(tool, args)
                assert result.is_error is True, (tool, args)
                assert re.match(r"(validation|Unknown tool)", text(result)), text(result)
            assert db.read_bytes() == before

    run(scenario())


def test_a_trap_mid_session_costs_one_call(wasm_path: Path, project: Path, tmp_path: Path):
    log = tmp_path / "stderr.log"
    db = project / ".gm" / "rs-learn.db"

    async def scenario() -> None:
        async with connect(project, "--timeout", "5", log=log) as client:
            first = await client.call_tool("memorize", {"text": "The first fact is stored."})
            assert first.is_error is False, text(first)
            lock = sqlite3.connect(db, isolation_level=None)
            lock.execute("BEGIN EXCLUSIVE")  # held until the next call is answered
            try:
                # It waits in a host import for the lock, up to the store's 10 s busy timeout -- twice
                # its 5 s deadline -- and traps when it gets back into wasm.
                pending = asyncio.ensure_future(client.call_tool("memorize", {"text": "The second fact."}))
                assert len((await client.list_tools()).tools) > 10  # the protocol is served meanwhile
                assert not pending.done()
                trapped = await pending
            finally:
                lock.rollback()
                lock.close()
            assert trapped.is_error is True
            assert "trapped" in text(trapped) and "interrupt" in text(trapped), text(trapped)
            stored = await client.call_tool("memorize", {"text": "The second fact."})
            assert stored.is_error is False and stored.structured_content["deduped"] is False
            hits = await client.call_tool("recall", {"query": "second fact", "limit": 1})
            assert hits.structured_content["result"][0]["text"] == "The second fact."

    run(scenario())
    assert "trapped" in log.read_text(encoding="utf-8")
    assert leftovers(project) == []


@pytest.mark.slow  # four processes on one project
def test_two_servers_a_watcher_and_a_hook_share_one_project(wasm_path: Path, project: Path):
    env = host_env(project)
    watcher = Watcher(env)
    watcher.wait_ready()

    async def writer(client: Client, name: str) -> None:
        for i in range(5):
            fact = f"Server {name} fact {i}: cache {i} of {name}."
            result = await client.call_tool("memorize", {"text": fact})
            assert result.is_error is False, text(result)
        assert (await client.call_tool("create_todo", {"title": f"Todo of {name}"})).is_error is False

    async def scenario() -> None:
        async with connect(project) as first, connect(project) as second:
            # Create the store first: the very first writes to a store that does not exist yet read
            # it outside any transaction (SqliteKV opens none for an absent file), so two processes
            # racing on them can both take doc number 0 -- a harness issue outside this test.
            assert (await first.call_tool("memorize", {"text": "The store exists."})).is_error is False
            for i in range(5):
                write_request(project, "memorize", f"{i + 1}.json",
                              json.dumps({"text": f"Spool fact {i}: queue {i}."}).encode())
            prompt = json.dumps({"hook_event_name": "UserPromptSubmit", "session_id": "s",
                                 "cwd": str(project), "transcript_path": "/t",
                                 "prompt": "which cache of alpha holds fact 3?"})
            hook = asyncio.to_thread(host, "hook", "prompt-submit", env=env, input=prompt.encode())
            done = await asyncio.gather(writer(first, "alpha"), writer(second, "beta"), hook)
            assert done[2].returncode == 0 and not done[2].stderr, done[2].stderr
            seen = await first.call_tool("recall", {"query": "cache of beta", "limit": 10})
            assert any("of beta" in hit["text"] for hit in seen.structured_content["result"])
            todos = await second.call_tool("query_records", {"kinds": ["todo"]})
            assert sorted(h["record"]["id"] for h in todos.structured_content["hits"]) == ["td-1", "td-2"]

    try:
        run(scenario())
        out = project / ".gm" / "exec-spool" / "out"
        wait_for(lambda: len(list(out.glob("*.json"))) == 5, 60, "the watcher's five answers")
    finally:
        assert watcher.stop() == 0
    assert json.loads(host_in_process("stats", "--json", env=env).stdout)["memories"] == 16
    assert leftovers(project) == []


@pytest.mark.both_stores
def test_hooks_are_answered_while_tool_calls_wait(wasm_runtime, project: Path):
    """Three memorize calls wait ~10 s each for a lock held elsewhere; a hook is answered warm meanwhile."""
    remember(project, wasm_runtime)
    env = host_env(project, RS_LEARN_HOOK_TIMEOUT="8")  # the warm hook answers inside the calls' lock wait
    event = json.dumps({"hook_event_name": "UserPromptSubmit", "cwd": str(project),
                        "prompt": "which port does the staging server use?"}).encode()
    cold = host("hook", "prompt-submit", env=host_env(project), input=event)  # cold: the generous budget
    assert b"8080" in cold.stdout, cold

    async def scenario() -> None:
        async with connect(project) as client:
            wait_for((project / ".gm" / "rs-learn.sock").is_socket, 60, "the warm socket")
            with write_lock_held(project):
                calls = [asyncio.ensure_future(client.call_tool("memorize", {"text": f"Waiting fact {i}."}))
                         for i in range(3)]
                await asyncio.sleep(1.0)  # the calls reach the server's guest thread and wait there
                warm = await asyncio.to_thread(host, "hook", "prompt-submit", env=env, input=event)
                assert not any(call.done() for call in calls), "the guest thread was busy all along"
            log = project / ".gm" / "logs" / "hook.log"
            assert warm.returncode == 0, warm.stderr
            assert warm.stdout == cold.stdout, log.read_text() if log.exists() else ""
            await asyncio.gather(*calls)

    run(scenario())


INITIALIZE = [
    {"jsonrpc": "2.0", "id": 1, "method": "initialize",
     "params": {"protocolVersion": "2025-06-18", "capabilities": {},
                "clientInfo": {"name": "t", "version": "1"}}},
    {"jsonrpc": "2.0", "method": "notifications/initialized"},
]


class RawServer:
    """``rs-learn-host -v mcp`` spoken to line by line; its stdin stays open until the test ends."""

    def __init__(self, project: Path) -> None:
        self.proc = subprocess.Popen([*HOST, "-v", "mcp"], env=host_env(project), cwd=project,
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        self.log: list[str] = []
        self._drain = threading.Thread(target=self._read_stderr, daemon=True)
        self._drain.start()

    def _read_stderr(self) -> None:
        assert self.proc.stderr is not None
        for raw in self.proc.stderr:
            self.log.append(raw.decode("utf-8", "replace").rstrip("\n"))

    def send(self, message: dict[str, Any]) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(json.dumps(message).encode() + b"\n")
        self.proc.stdin.flush()

    def reply(self) -> dict[str, Any]:
        assert self.proc.stdout is not None
        return dict(json.loads(self.proc.stdout.readline()))

    def terminate(self, signalled: bool = False) -> int:
        """SIGTERM (unless ``signalled`` already) with stdin still open; the exit status (a hang fails
        after a generous 120 s)."""
        if not signalled:
            self.proc.send_signal(signal.SIGTERM)
        try:
            return self.proc.wait(timeout=120)
        finally:
            self._drain.join(10)

    def close(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()
        for stream in (self.proc.stdin, self.proc.stdout, self.proc.stderr):
            if stream is not None:
                stream.close()


def test_stdout_is_the_protocol_only_and_sigterm_closes_cleanly(wasm_path: Path, project: Path):
    server = RawServer(project)
    try:
        server.send(INITIALIZE[0])
        hello = server.reply()
        server.send(INITIALIZE[1])
        server.send({"jsonrpc": "2.0", "id": 2, "method": "tools/call",
                     "params": {"name": "memorize", "arguments": {"text": "Logs go to stderr."}}})
        stored = server.reply()
        code = server.terminate()  # issue 32: stdin stays open and silent, SIGTERM alone ends the server
    finally:
        server.close()
    assert code == 0, "\n".join(server.log)
    assert [hello["id"], stored["id"]] == [1, 2] and hello["result"]["serverInfo"]["name"] == "rs-learn"
    assert set(hello["result"]["capabilities"]) == {"tools", "resources"}, "no empty prompts capability"
    assert stored["result"]["isError"] is False
    assert stored["result"]["structuredContent"]["namespace"] == "default"
    assert any(line.startswith("rs_learn") for line in server.log)  # -v: logs on stderr, replies on stdout
    assert "rs_learn.mcp: SIGTERM: closing" in server.log
    assert leftovers(project) == []


def test_sigterm_finishes_the_call_in_progress_then_closes_the_stores(wasm_path: Path, project: Path):
    """Issue 32: a SIGTERM that arrives while a memorize waits for the write lock on the guest's
    thread: the memorize completes (stored) once the lock is free, then the stores close and the
    server exits 0, its stdin still open."""
    fact = "SIGTERM lets the running call finish."
    server = RawServer(project)
    try:
        server.send(INITIALIZE[0])
        server.reply()
        server.send(INITIALIZE[1])
        host_in_process("memorize", "The store exists before the lock is taken.", env=host_env(project))
        with write_lock_held(project):
            server.send({"jsonrpc": "2.0", "id": 2, "method": "tools/call",
                         "params": {"name": "memorize", "arguments": {"text": fact}}})
            wait_for(lambda: "rs_learn.mcp: memorize: running on the guest" in server.log, 60,
                     "the memorize to reach the guest's thread")
            server.proc.send_signal(signal.SIGTERM)
            wait_for(lambda: "rs_learn.mcp: SIGTERM: closing" in server.log, 60, "the signal to be taken")
        code = server.terminate(signalled=True)
    finally:
        server.close()
    assert code == 0, "\n".join(server.log)
    listed = host_in_process("list", env=host_env(project))
    assert fact in listed.stdout.decode(), "the call in progress was finished before the server closed"
    assert leftovers(project) == []


def test_mcp_help_names_every_tool_the_server_serves(wasm_path: Path, project: Path):
    """Issue 32: ``mcp --help`` lists each tool of ``tools/list`` (it is built from the same specs)."""
    async def listed() -> list[str]:
        async with connect(project) as client:
            return [tool.name for tool in (await client.list_tools()).tools]

    names = run(listed())
    helped = host_in_process("mcp", "--help", env=host_env(project))
    assert helped.returncode == 0, helped.stderr
    words = set(re.findall(r"[a-z_]+", helped.stdout.decode()))
    assert {"list_memories", "get_memory", "forget", "delete_record"} <= set(names)
    assert [name for name in names if name not in words] == []


def test_a_first_start_answers_at_once_and_the_first_call_waits_for_the_compile(wasm_runtime, project: Path,
                                                                              tmp_path: Path):
    """Issue 26: initialize and tools/list are answered while the component cannot have loaded yet.

    Another process holds the compile lock of the empty cache, so the server's load waits however fast
    the machine is; the first tool call reports progress meanwhile and completes once the compile is done.
    """
    compile_ = HeldCompile(tmp_path / "cache", wasm_runtime)
    env = host_env(project, RS_LEARN_CACHE_DIR=str(compile_.cache))
    progress: list[tuple[float, float | None, str | None]] = []

    async def on_progress(done: float, total: float | None, message: str | None) -> None:
        progress.append((done, total, message))

    async def scenario() -> None:
        async with connect(project, env=env) as client:
            assert "prompts" not in client.server_capabilities.model_dump(exclude_none=True)
            assert len((await client.list_tools()).tools) > 10
            skills_only = await client.list_resources()  # a listing never waits for the compile
            assert skills_only.resources == []
            assert not compile_.artifact.exists(), "answered before the compile finished"
            fact = {"text": "Compiled once, then warm."}
            call = asyncio.ensure_future(client.call_tool("memorize", fact, read_timeout_seconds=900,
                                                          progress_callback=on_progress))
            for _ in range(600):
                if len(progress) >= 2 or call.done():
                    break
                await asyncio.sleep(0.5)
            assert not call.done() and len(progress) >= 2, "the call waits, reporting progress"
            compile_.finish()
            stored = await call
            assert stored.is_error is False and stored.structured_content["deduped"] is False
            assert (await client.call_tool("recall", {"query": "compiled"})).structured_content["result"]

    try:
        run(scenario())
    finally:
        compile_.release()
    assert [p[0] for p in progress] == sorted(p[0] for p in progress), "progress only grows"
    assert all(m and "compiling its component" in m and "rs-learn-host warmup" in m for _, _, m in progress)


def test_a_component_that_cannot_load_is_an_error_result_not_a_dead_server(project: Path, tmp_path: Path):
    broken = tmp_path / "broken.wasm"
    broken.write_bytes(b"\x00asm\x0d\x00\x01\x00" + b"\xff" * 64)  # a component header, then garbage
    env = host_env(project, RS_LEARN_WASM=str(broken), RS_LEARN_CACHE_DIR=str(tmp_path / "cache"))

    async def scenario() -> None:
        async with connect(project, env=env) as client:
            assert len((await client.list_tools()).tools) > 10
            for _ in range(2):  # every call says why, none kills the server
                failed = await client.call_tool("memorize", {"text": "Not stored."})
                assert failed.is_error is True
                assert text(failed).startswith("internal: cannot load the component: "), text(failed)
            assert (await client.list_resources()).resources == []

    run(scenario())
    assert not (project / ".gm" / "rs-learn.db").exists()


def readme_mcp_section() -> str:
    return page("mcp.md")


def test_the_readme_mcp_section_works_as_written(wasm_path: Path, project: Path):
    section = readme_mcp_section()
    blocks = re.findall(r"```(\w+)\n(.*?)```", section, re.S)
    configs = [json.loads(code) for lang, code in blocks if lang == "json"]
    assert len(configs) >= 2, "the .mcp.json and desktop snippets"
    codex = [tomllib.loads(code) for lang, code in blocks if lang == "toml"]
    assert codex and codex[0]["mcp_servers"]["rs-learn"]["args"][0] == "mcp"
    shell = "\n".join(code for lang, code in blocks if lang == "sh")
    assert "claude mcp add" in shell and "codex mcp add" in shell
    servers = [config["mcpServers"]["rs-learn"] for config in configs]
    assert all(server["args"][0] == "mcp" for server in servers)
    entry = servers[0]  # the project's .mcp.json: run it as a client would, in the project
    script = Path(sys.executable).with_name(Path(entry["command"]).name)
    assert script.is_file(), f"{entry['command']} is installed by `make`"
    args = [str(project) if arg == "/path/to/project" else arg for arg in entry["args"]]

    async def scenario() -> None:
        async with connect(project, command=[str(script), *args]) as client:
            assert "recall" in {tool.name for tool in (await client.list_tools()).tools}

    run(scenario())
