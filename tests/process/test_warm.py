"""The warm socket: a hook answered by a running server, never importing wasmtime or numpy.

Real processes throughout: a ``spool --watch`` (or ``mcp``) server, and the hook started the way
Claude Code starts it, under ``python -X importtime`` so that its stderr lists every module it
imported. The warm answer must be the cold one, byte for byte; a stale socket, a planted link or a
socket others could reach must never be used (the hook then takes the cold path). A busy server, an
idle client, a server that stalls or dies: the hook still answers, by its deadline (issue 25).
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
from hostprocs import HOST, Watcher, host_env, remember, wait_for, write_lock_held, write_request

from host_harness.hooks import prompt_ledger
from host_harness.hooks.reader import WarmReader
from host_harness.hooks.server import WarmServer
from host_harness.hooks.warm import SOCKET_NAME, STARTED, NoServer, ask
from host_harness.targets.runtime import Runtime

PROMPT = "which port does the staging server use?"
HEAVY = ("wasmtime", "numpy")


@pytest.fixture
def remembered(project: Path, wasm_runtime: Runtime) -> Path:
    return remember(project, wasm_runtime)


def hook(project: Path, prompt: str = PROMPT, timeout: str = "20") -> tuple[str, set[str]]:
    """Run the prompt-submit hook as a new process: its output and the modules it imported.

    Each module is there by its full name and by its top-level package's (``numpy.linalg``: both).
    """
    event = json.dumps({"hook_event_name": "UserPromptSubmit", "cwd": str(project), "prompt": prompt})
    env = host_env(project, RS_LEARN_HOOK_TIMEOUT=timeout)
    done = subprocess.run([sys.executable, "-X", "importtime", *HOST[1:], "hook", "prompt-submit"],
                          input=event.encode(), env=env, capture_output=True, timeout=60, cwd=project)
    assert done.returncode == 0, done.stderr.decode()[-2000:]
    names = [line.split("|")[-1].strip() for line in done.stderr.decode().splitlines()
             if line.startswith("import time:")]
    return done.stdout.decode(), {*names, *(name.split(".")[0] for name in names)}


def asked(project: Path, body: dict | None = None) -> str:
    """``auto_recall`` through the warm socket, with 60 s to answer (no test here is about that time)."""
    body = {"prompt": PROMPT} if body is None else body
    return ask(project, "auto_recall", body, time.monotonic() + 60, 60.0)


def serving(project: Path, serve) -> WarmServer:
    """A warm server on ``project`` whose reader answers with ``serve(verb, body)``."""
    return WarmServer(project, WarmReader(lambda verb, body, _left: serve(verb, body)))


def hook_log(project: Path) -> str:
    path = project / ".gm" / "logs" / "hook.log"
    return path.read_text(encoding="utf-8") if path.exists() else ""


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
              "host_harness.store.pg.replay"}
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
        asked(remembered)
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
    server = serving(remembered, lambda verb, body: "{}")
    assert not server.start(), "a link at the socket's name is left alone"
    server.close()
    assert (remembered / ".gm" / SOCKET_NAME).is_symlink() and not elsewhere.exists()
    with pytest.raises(NoServer):
        asked(remembered)
    out, modules = hook(remembered)
    assert "8080" in out and set(HEAVY) <= modules


def test_a_socket_others_can_reach_is_not_used(project: Path):
    (project / ".gm").mkdir()
    server = serving(project, lambda verb, body: json.dumps({"ok": True, "verb": verb, "data": {}}))
    assert server.start()
    try:
        assert json.loads(asked(project))["ok"]
        (project / ".gm" / SOCKET_NAME).chmod(0o666)
        with pytest.raises(NoServer):
            asked(project)
    finally:
        server.close()


def test_a_second_server_leaves_a_live_socket_alone(project: Path):
    (project / ".gm").mkdir()
    first = serving(project, lambda verb, body: json.dumps({"ok": True, "verb": verb, "data": 1}))
    second = serving(project, lambda verb, body: json.dumps({"ok": True, "verb": verb, "data": 2}))
    assert first.start()
    try:
        assert not second.start()
        assert json.loads(asked(project, {}))["data"] == 1
    finally:
        second.close()
        first.close()
    assert not (project / ".gm" / SOCKET_NAME).exists()


LIMITS = {"start_within": 1, "within": 5}


@pytest.mark.parametrize(("request_line", "error"), [
    ({"v": 2, "verb": "memorize", "body": {"text": "x"}, **LIMITS}, "serves only auto_recall, session_start"),
    ({"v": 3, "verb": "auto_recall", "body": {}, **LIMITS}, "protocol is version 2"),
    ({"v": 2, "verb": "auto_recall", "body": "x", **LIMITS}, "serves only"),
    ({"v": 2, "verb": "auto_recall", "body": {}, "project": "/x", **LIMITS}, "this warm server serves"),
    ({"v": 2, "verb": "auto_recall", "body": {}}, "field 'start_within' must be a number of seconds"),
    ({"v": 2, "verb": "auto_recall", "body": {}, "start_within": 1, "within": 61}, "field 'within'"),
    ({"v": 2, "verb": "auto_recall", "body": {}, "start_within": True, "within": 5}, "got True"),
    ({"v": 2, "verb": "auto_recall", "body": {}, "start_within": 0, "within": 5}, "got 0"),
    ({"v": 1, "verb": "memorize", "body": {"text": "x"}}, "serves only"),
])
def test_the_server_refuses_what_it_does_not_serve(project: Path, request_line: dict, error: str):
    (project / ".gm").mkdir()
    served: list[str] = []
    server = serving(project, lambda verb, body: served.append(verb) or "{}")
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


def test_an_old_client_is_answered_without_an_acknowledgement(project: Path):
    """A version 1 request (a hook of the previous release) gets the envelope alone, as it expects."""
    (project / ".gm").mkdir()
    server = serving(project, lambda verb, body: json.dumps({"ok": True, "verb": verb, "data": "v1"}))
    assert server.start()
    try:
        with socket.socket(socket.AF_UNIX) as sock:
            sock.settimeout(5)
            sock.connect(str(project / ".gm" / SOCKET_NAME))
            line = {"v": 1, "project": str(project), "verb": "auto_recall", "body": {}}
            sock.sendall(json.dumps(line).encode() + b"\n")
            lines = sock.makefile("rb").readlines()
    finally:
        server.close()
    assert [json.loads(x)["data"] for x in lines] == ["v1"]


def test_the_reader_answers_in_turn_on_its_own_thread(project: Path):
    (project / ".gm").mkdir()
    threads: list[str] = []
    busy = threading.Lock()
    overlapped: list[bool] = []

    def serve(verb: str, body: str) -> str:
        overlapped.append(not busy.acquire(blocking=False))
        threads.append(threading.current_thread().name)
        time.sleep(0.05)
        busy.release()
        return json.dumps({"ok": True, "verb": verb, "data": body})

    server = serving(project, serve)
    assert server.start()
    answers: list[str] = []
    try:
        clients = [threading.Thread(target=lambda i=i: answers.append(asked(project, {"n": i})))
                   for i in range(6)]
        for client in clients:
            client.start()
        for client in clients:
            client.join(30)
    finally:
        server.close()
    assert sorted(json.loads(json.loads(a)["data"])["n"] for a in answers) == list(range(6))
    assert set(threads) == {"rs-learn-warm-reader"} and not any(overlapped)


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


# issue 25: a busy, idle, stalled, older or dying server never costs a hook its answer or its deadline


@pytest.mark.both_stores
def test_hooks_are_answered_while_the_spool_is_busy(remembered: Path):
    """Three spool writes wait ~10 s each for a lock; the hooks are answered warm meanwhile."""
    cold, _ = hook(remembered)
    assert "8080" in cold
    watcher: Watcher | None = None
    try:
        with write_lock_held(remembered):
            for n in range(3):
                body = json.dumps({"text": f"Fact {n}."}).encode()
                write_request(remembered, "memorize", f"{n}.json", body)
            watcher = Watcher(host_env(remembered))
            watcher.wait_ready()  # from here its guest thread waits for the lock, ~30 s in all
            for _ in range(2):
                warm, modules = hook(remembered)  # 20 s: less than the ~30 s the spool is busy
                assert warm == cold, hook_log(remembered)
                assert not modules & set(HEAVY), "answered by the warm server, not cold"
            assert list((remembered / ".gm" / "exec-spool" / "in" / "memorize").glob("*.json")), "still busy"
    finally:
        if watcher is not None:
            assert watcher.stop() == 0
    assert hook_log(remembered) == ""


class Fake:
    """A warm socket answered by ``act(connection)``: what an older, stalled or dying server does."""

    def __init__(self, project: Path, act) -> None:
        self.path = project / ".gm" / SOCKET_NAME
        self.sock = socket.socket(socket.AF_UNIX)
        old = os.umask(0o177)
        try:
            self.sock.bind(str(self.path))
        finally:
            os.umask(old)
        self.sock.listen(8)
        self.sock.settimeout(0.2)
        self.act, self.stopped, self.cut_off = act, threading.Event(), threading.Event()
        self.thread = threading.Thread(target=self._loop, daemon=True)
        self.thread.start()

    def _loop(self) -> None:
        while not self.stopped.is_set():
            try:
                conn, _ = self.sock.accept()
            except OSError:
                continue
            with conn:
                conn.makefile("rb").readline()  # the request
                try:
                    self.act(conn, self.stopped)
                except OSError:
                    self.cut_off.set()  # the client closed the connection: it left

    def close(self) -> None:
        self.stopped.set()
        self.thread.join(10)
        self.sock.close()
        self.path.unlink(missing_ok=True)


def old_version(conn: socket.socket, _stop) -> None:
    conn.sendall(b'{"ok": false, "verb": "?", "error": "validation: the warm protocol is version 1"}\n')


def started_then_gone(conn: socket.socket, _stop) -> None:
    conn.sendall(STARTED)  # then the server dies: the connection closes without an answer


def trickle(conn: socket.socket, stop) -> None:
    for _ in range(600):  # a byte every 0.1 s for a minute, never a whole line
        if stop.is_set():
            return
        conn.sendall(b" ")
        time.sleep(0.1)


def started_then_trickle(conn: socket.socket, stop) -> None:
    conn.sendall(STARTED)
    trickle(conn, stop)


@pytest.mark.parametrize(("act", "logged"), [
    (old_version, "refused the request: 'validation: the warm protocol is version 1'; answering without it"),
    (started_then_gone, "closed the connection without an answer; answering without it (cold)"),
    (trickle, "did not start the request within 4 s; answering without it (cold)"),
])
def test_a_server_that_cannot_serve_sends_the_hook_cold(remembered: Path, act, logged: str):
    cold, _ = hook(remembered)
    fake = Fake(remembered, act)
    try:
        out, modules = hook(remembered)
    finally:
        fake.close()
    assert out == cold and set(HEAVY) <= modules, "answered by the cold path"
    assert logged in hook_log(remembered)


def test_a_server_that_started_and_stalls_cannot_hold_the_hook_past_its_budget(remembered: Path):
    fake = Fake(remembered, started_then_trickle)
    try:
        out, _ = hook(remembered, timeout="10")
        wait_for(fake.cut_off.is_set, 30, "the hook to close the connection")
    finally:
        fake.close()
    reason = "the warm server did not answer: timed out; nothing injected"
    assert out == "" and reason in hook_log(remembered)
    (line,) = prompt_ledger.read(remembered)  # issue 32, item 1: the run is in the ledger, and why says it
    assert line == {**line, "outcome": "timeout", "path": "warm", "reason": reason,
                    "stage": "waiting for the warm server", "prompt": prompt_ledger.digest(PROMPT)}
    why = subprocess.run([*HOST, "why"], env=host_env(remembered), capture_output=True, timeout=60)
    said = why.stdout.decode()
    assert f"(warm, {line['ms']:g} ms)" in said and f"timed out: {reason}" in said


def test_the_budget_ends_the_hook_whatever_it_waits_for(remembered: Path):
    """A hook whose stdin never closes leaves, status 0, at the end of its budget, and says why."""
    env = host_env(remembered, RS_LEARN_HOOK_TIMEOUT="5")
    proc = subprocess.Popen([*HOST, "hook", "prompt-submit"], env=env, cwd=remembered, stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert proc.stdin is not None
    try:
        proc.stdin.write(b'{"prompt": "which port')  # and never more, never closed
        proc.stdin.flush()
        code = proc.wait(60)
    finally:
        proc.stdin.close()
        if proc.poll() is None:
            proc.kill()
    assert code == 0 and proc.stdout is not None and proc.stdout.read() == b""
    logged = hook_log(remembered)
    assert "the 5 s time budget" in logged and "; nothing injected" in logged, logged
    (line,) = prompt_ledger.read(remembered)  # issue 32, item 1: how far it got (a loaded machine: start-up)
    assert line == {**line, "outcome": "timeout", "path": "direct", "session": None, "prompt": None}
    assert line["stage"] in ("reading the event", "starting up") and line["reason"] in logged
    why = subprocess.run([*HOST, "why"], env=host_env(remembered), capture_output=True, timeout=60)
    assert why.returncode == 0 and "prompt not read\n  timed out: " in why.stdout.decode(), why.stderr


def test_a_server_busy_with_another_hook_sends_this_one_cold(remembered: Path):
    cold, _ = hook(remembered)
    holding, release = threading.Event(), threading.Event()

    def serve(verb: str, body: str) -> str:
        holding.set()
        release.wait(60)
        return json.dumps({"ok": True, "verb": verb, "data": {"context": ""}})

    server = serving(remembered, serve)
    assert server.start()
    first = threading.Thread(target=lambda: ask(remembered, "auto_recall", {"prompt": PROMPT},
                                                time.monotonic() + 60, 60.0))
    try:
        first.start()
        assert holding.wait(30)  # the reader is busy with the first request
        out, modules = hook(remembered, timeout="10")
    finally:
        release.set()
        first.join(30)
        server.close()
    assert out == cold and set(HEAVY) <= modules
    assert "did not start the request within 2 s; answering without it (cold)" in hook_log(remembered)


def test_idle_connections_do_not_stall_the_socket(remembered: Path):
    cold, _ = hook(remembered)
    watcher = Watcher(host_env(remembered))
    idle: list[socket.socket] = []
    try:
        watcher.wait_ready()
        for _ in range(17):  # connected, never a byte sent
            sock = socket.socket(socket.AF_UNIX)
            sock.connect(str(remembered / ".gm" / SOCKET_NAME))
            idle.append(sock)
        warm, modules = hook(remembered)
        assert warm == cold and not modules & set(HEAVY), "answered warm beside 17 idle connections"
        for sock in idle:
            sock.settimeout(30)
            assert sock.recv(1) == b"", "the server drops an idle connection after its own deadline"
        for _ in range(40):  # more than the server serves at once: the rest are closed at once
            sock = socket.socket(socket.AF_UNIX)
            sock.connect(str(remembered / ".gm" / SOCKET_NAME))
            idle.append(sock)
        crowded, _ = hook(remembered)
        assert crowded == cold
    finally:
        for sock in idle:
            sock.close()
        assert watcher.stop() == 0
