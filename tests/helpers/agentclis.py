"""The agents' own command-line tools, from npm, for the tests that check what they make of our files.

``agent_clis()`` installs Claude Code, Gemini CLI and Codex (pinned versions) once into
``build/agent-clis/`` with ``npm install --prefix`` -- at the first test that needs them, never at
import -- and skips those tests, saying why, only where npm or its registry cannot be reached. Each
CLI then runs with a home folder of the test's own and no account: ``claude mcp list``, ``gemini mcp
list`` and ``codex mcp list`` need none, and ``claude -p`` runs the session's hooks before it asks
the model, which :class:`FakeApi` (a loopback server answering every request with an error) stands
in for. ``codex exec`` asks the same stand-in, as its Responses API (:func:`codex_first_request`):
the request it sends shows which tools the model would have been given. Given a script, the
stand-in plays the model instead (``tests/agents/test_agent_mcp.py``: it calls rs-learn's tools).
"""

from __future__ import annotations

import fcntl
import http.server
import json
import os
import pty
import select
import shutil
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from conftest import ROOT

from host_harness.cachedir import default_cache_dir

PACKAGES = {
    "claude": "@anthropic-ai/claude-code@2.1.197",
    "gemini": "@google/gemini-cli@0.61.0",
    "codex": "@openai/codex@0.171.0",
}
PREFIX = ROOT / "build" / "agent-clis"
# The current Claude Code (issue 44: it opens MCP with the 2026-07-28 ``server/discover``), beside the pinned
# one: a prefix of its own, since one prefix holds one version of a package.
CURRENT_CLAUDE = "@anthropic-ai/claude-code@2.1.332"
CURRENT_PREFIX = ROOT / "build" / "agent-clis-current"
VENV_BIN = Path(sys.executable).parent
AGENT_VARS = ("ANTHROPIC_", "CLAUDE_", "OPENAI_", "CODEX_", "GEMINI_", "GOOGLE_", "XDG_", "RS_LEARN_")


def _installed() -> bool:
    for spec in PACKAGES.values():
        name, _, version = spec.rpartition("@")
        manifest = PREFIX / "node_modules" / name / "package.json"
        try:
            if json.loads(manifest.read_text(encoding="utf-8"))["version"] != version:
                return False
        except (OSError, ValueError, KeyError):
            return False
    return all((PREFIX / "node_modules" / ".bin" / cli).exists() for cli in PACKAGES)


def agent_clis() -> dict[str, Path]:
    """``{"claude": path, "gemini": path, "codex": path}``, installed on first use (skips without npm).

    One process installs them at a time (``flock`` on ``build/agent-clis.lock``): xdist workers wait.
    """
    PREFIX.parent.mkdir(parents=True, exist_ok=True)
    with open(PREFIX.parent / "agent-clis.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        return _install()


def current_claude() -> Path:
    """The current Claude Code's ``claude`` (:data:`CURRENT_CLAUDE`), installed on first use."""
    PREFIX.parent.mkdir(parents=True, exist_ok=True)
    name, _, version = CURRENT_CLAUDE.rpartition("@")
    with open(PREFIX.parent / "agent-clis.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            manifest = CURRENT_PREFIX / "node_modules" / name / "package.json"
            there = json.loads(manifest.read_text(encoding="utf-8"))["version"]
        except (OSError, ValueError, KeyError):
            there = None
        if there != version:
            npm = shutil.which("npm")
            if npm is None:
                pytest.skip("npm is not installed here: cannot fetch the current Claude Code")
            done = subprocess.run([npm, "install", "--prefix", str(CURRENT_PREFIX), "--no-audit", "--no-fund",
                                   "--loglevel=error", CURRENT_CLAUDE], capture_output=True, text=True,
                                  timeout=1800, check=False)
            if done.returncode != 0 and ("FetchError" in done.stderr or "ENOTFOUND" in done.stderr):
                pytest.skip(f"the npm registry is unreachable: cannot fetch {CURRENT_CLAUDE}")
            assert done.returncode == 0, f"npm install failed:\n{done.stdout}\n{done.stderr}"
    return CURRENT_PREFIX / "node_modules" / ".bin" / "claude"


def _install() -> dict[str, Path]:
    if not _installed():
        npm = shutil.which("npm")
        if npm is None:
            pytest.skip("npm is not installed here: cannot fetch the agents' CLIs to check our files")
        probe = subprocess.run([npm, "view", PACKAGES["claude"], "version"], capture_output=True, text=True,
                               timeout=180, check=False)
        if probe.returncode != 0:
            why = next((line.removeprefix("npm error ") for line in probe.stderr.splitlines()
                        if "FetchError" in line or "code E" in line), "no answer")
            pytest.skip(f"the npm registry is unreachable ({why}): cannot fetch the agents' CLIs")
        done = subprocess.run([npm, "install", "--prefix", str(PREFIX), "--no-audit", "--no-fund",
                               "--loglevel=error", *PACKAGES.values()], capture_output=True, text=True,
                              timeout=1800, check=False)
        assert done.returncode == 0, f"npm install failed:\n{done.stdout}\n{done.stderr}"
    return {cli: PREFIX / "node_modules" / ".bin" / cli for cli in PACKAGES}


def agent_env(home: Path, **extra: str) -> dict[str, str]:
    """An agent CLI's environment: its own home, no account, this checkout's rs-learn-host on PATH
    (running this checkout's code: ``PYTHONPATH``, which the servers an agent starts may not get).

    Servers the CLI starts use this session's compile cache (the ``wasm_runtime`` fixture fills it).
    """
    env = {k: v for k, v in os.environ.items() if not k.startswith(AGENT_VARS)}
    env.update(HOME=str(home), PATH=f"{VENV_BIN}{os.pathsep}{env.get('PATH', '')}", PYTHONPATH=str(ROOT),
               RS_LEARN_CACHE_DIR=str(default_cache_dir()), MCP_TIMEOUT="180000", NO_COLOR="1",
               CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC="1", DISABLE_AUTOUPDATER="1")
    env.update(extra)
    return env


def run(command: list[str | Path], cwd: Path, env: dict[str, str], timeout: float = 300,
        ) -> subprocess.CompletedProcess[str]:
    """Run an agent CLI to completion (stdin closed)."""
    return subprocess.run([str(part) for part in command], cwd=cwd, env=env, capture_output=True, text=True,
                          timeout=timeout, stdin=subprocess.DEVNULL, check=False)


class FakeApi:
    """A loopback stand-in for the model's API: every request gets a 400 error, so ``claude -p`` and
    ``codex exec`` end at once (a 401 or an unreachable address would be retried for minutes).

    The JSON bodies of the first :data:`KEPT` requests are kept in :attr:`requests` as
    ``(path, body)``; a body over :data:`MAX_BODY` bytes is refused unread.

    With a ``script``, a request to the Messages API (``/v1/messages``) is answered by the model turn
    ``script(body)`` returns instead -- a list of content blocks (``text``, ``tool_use``), sent as the
    API's event stream when the request asks for one -- unless it returns ``None`` (then the error).
    """

    KEPT = 64
    MAX_BODY = 16 << 20

    def __init__(self, script: Callable[[dict[str, Any]], list[dict[str, Any]] | None] | None = None,
                 ) -> None:
        requests: list[tuple[str, object]] = []
        self.requests = requests

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                size = int(self.headers.get("content-length") or 0)
                if size > FakeApi.MAX_BODY:
                    self.send_error(413)
                    return
                body = self.rfile.read(size)
                if len(requests) < FakeApi.KEPT:
                    try:
                        requests.append((self.path, json.loads(body) if body else None))
                    except ValueError:
                        requests.append((self.path, body.decode("utf-8", "replace")))
                if script is not None and self.path.split("?")[0].endswith("/v1/messages"):
                    asked = json.loads(body)
                    turn = script(asked)
                    if turn is not None:
                        self.answer(turn, bool(asked.get("stream")))
                        return
                error = {"type": "invalid_request_error", "message": "test double: no model here"}
                body = json.dumps({"type": "error", "error": error}).encode()
                self.send_response(400)
                self.send_header("content-type", "application/json")
                self.send_header("content-length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            do_GET = do_POST

            def answer(self, blocks: list[dict[str, Any]], stream: bool) -> None:
                """One assistant message of ``blocks``, whole or as the Messages API's event stream."""
                stop = "tool_use" if any(b["type"] == "tool_use" for b in blocks) else "end_turn"
                usage = {"input_tokens": 10, "output_tokens": 10}
                message = {"id": f"msg_{len(requests)}", "type": "message", "role": "assistant",
                           "model": "stand-in", "stop_reason": stop, "stop_sequence": None, "usage": usage}
                if not stream:
                    self.send_body(200, "application/json", json.dumps({**message, "content": blocks}))
                    return
                events = [("message_start", {"message": {**message, "content": [], "stop_reason": None}})]
                for index, block in enumerate(blocks):
                    if block["type"] == "tool_use":
                        start = {**block, "input": {}}
                        delta = {"type": "input_json_delta", "partial_json": json.dumps(block["input"])}
                    else:
                        start = {"type": "text", "text": ""}
                        delta = {"type": "text_delta", "text": block["text"]}
                    events += [("content_block_start", {"index": index, "content_block": start}),
                               ("content_block_delta", {"index": index, "delta": delta}),
                               ("content_block_stop", {"index": index})]
                events += [("message_delta", {"delta": {"stop_reason": stop, "stop_sequence": None},
                                              "usage": {"output_tokens": 10}}),
                           ("message_stop", {})]
                text = "".join(f"event: {name}\ndata: {json.dumps({'type': name, **data})}\n\n"
                               for name, data in events)
                self.send_body(200, "text/event-stream", text)

            def send_body(self, status: int, kind: str, text: str) -> None:
                data = text.encode()
                self.send_response(status)
                self.send_header("content-type", kind)
                self.send_header("content-length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def log_message(self, *args: object) -> None:
                pass

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}"

    def __enter__(self) -> FakeApi:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.shutdown()
        self.server.server_close()


def claude_session(claude: Path, project: Path, home: Path, prompt: str, *args: str) -> str:
    """Run ``claude -p PROMPT`` in ``project``; return the session's transcript (hook output included)."""
    with FakeApi() as api:
        env = agent_env(home, ANTHROPIC_BASE_URL=api.url, ANTHROPIC_API_KEY="sk-test-no-account",
                        RS_LEARN_HOOK_TIMEOUT="60")  # a loaded machine: see the brief on speed
        run([claude, "-p", prompt, *args], cwd=project, env=env, timeout=300)
    transcripts = sorted((home / ".claude" / "projects").glob("*/*.jsonl"))
    return "\n".join(path.read_text(encoding="utf-8") for path in transcripts)


def claude_interactive(claude: Path, project: Path, home: Path, inputs: list[str],
                       wait_s: float = 240.0) -> Path:
    """Type each of ``inputs`` at an interactive ``claude`` (a pseudo-terminal), as a person would --
    ``! CMD`` runs CMD in bash mode -- then ``/exit``; return the session's transcript.

    Each input is typed once the transcript holds the line the previous one wrote (bounded by
    ``wait_s``: a bound for a loaded machine, not what is checked). The CLI's first-run screens are
    answered in its configuration (onboarding done, the folder trusted, the stand-in's key approved).
    """
    key = "sk-test-no-account-interactive"
    trusted = {"hasTrustDialogAccepted": True, "hasCompletedProjectOnboarding": True}
    config = {"hasCompletedOnboarding": True, "theme": "dark", "numStartups": 3,
              "customApiKeyResponses": {"approved": [key[-20:]], "rejected": []},
              "projects": {str(project.resolve()): trusted}}
    (home / ".claude.json").write_text(json.dumps(config), encoding="utf-8")
    with FakeApi() as api:
        env = agent_env(home, ANTHROPIC_BASE_URL=api.url, ANTHROPIC_API_KEY=key, TERM="xterm-256color",
                        RS_LEARN_HOOK_TIMEOUT="60")
        pid, fd = pty.fork()
        if pid == 0:  # the child: the CLI on the terminal
            os.chdir(project)
            os.execve(str(claude), [str(claude)], env)
        screen = bytearray()

        def until(done: Callable[[], bool]) -> None:
            deadline = time.monotonic() + wait_s
            while not done() and time.monotonic() < deadline:
                if select.select([fd], [], [], 0.2)[0]:
                    try:
                        screen.extend(os.read(fd, 1 << 16))
                    except OSError:
                        return

        def lines() -> list[str]:
            found = sorted((home / ".claude" / "projects").glob("*/*.jsonl"))
            return found[0].read_text(encoding="utf-8").splitlines() if found else []

        try:
            until(lambda: "❯".encode() in screen)
            for text in inputs:
                before = len(lines())
                for char in text:
                    os.write(fd, char.encode())
                    time.sleep(0.03)
                time.sleep(0.3)
                os.write(fd, b"\r")
                marker = "<bash-stdout>" if text.startswith("!") else json.dumps(text)[1:-1]
                until(lambda m=marker, n=before: any(m in line for line in lines()[n:]))
            os.write(fd, b"/exit")
            time.sleep(0.3)
            os.write(fd, b"\r")
            until(lambda: os.waitpid(pid, os.WNOHANG)[0] != 0)
        finally:
            try:
                os.kill(pid, signal.SIGKILL)
                os.waitpid(pid, 0)
            except (OSError, ChildProcessError):
                pass
            os.close(fd)
    [path] = sorted((home / ".claude" / "projects").glob("*/*.jsonl"))
    return path


def codex_first_request(codex: Path, project: Path, home: Path, prompt: str) -> dict[str, object]:
    """Run ``codex exec PROMPT`` in ``project`` against :class:`FakeApi` as its Responses API; return
    the body of its first ``/responses`` request (the model's instructions, input and tools).

    The model provider is given on the command line (``-c``), so the config files under test are
    the ones ``setup`` wrote, untouched; ``--strict-config`` refuses a key this Codex does not know.
    """
    with FakeApi() as api:
        provider = (f'{{name = "stand-in", base_url = "{api.url}/v1", wire_api = "responses", '
                    f'env_key = "STAND_IN_API_KEY", request_max_retries = 0, stream_max_retries = 0}}')
        env = agent_env(home, STAND_IN_API_KEY="sk-test-no-account")
        done = run([codex, "exec", "--strict-config", "--skip-git-repo-check", "-m", "stand-in-model",
                    "-c", "model_provider=stand-in", "-c", f"model_providers.stand-in={provider}", prompt],
                   cwd=project, env=env, timeout=300)
        asked = [body for path, body in api.requests if path.endswith("/responses")]
    assert asked and isinstance(asked[0], dict), f"codex sent no request:\n{done.stdout}\n{done.stderr}"
    return asked[0]


def gemini_requests(gemini: Path, project: Path, home: Path, prompt: str, **extra: str,
                    ) -> list[dict[str, object]]:
    """Run headless ``gemini -p PROMPT`` in ``project`` against :class:`FakeApi` as its Gemini API; return
    the bodies of its ``generateContent`` requests (the model's contents and tools).

    The folder is trusted (``trustedFolders.json``), the user settings choose API-key auth, the key is
    the stand-in's and its base URL is given by the environment (``GOOGLE_GEMINI_BASE_URL``).
    """
    (home / ".gemini").mkdir(exist_ok=True)
    trusted = home / ".gemini" / "trustedFolders.json"
    trusted.write_text(json.dumps({str(project): "TRUST_FOLDER", str(project.resolve()): "TRUST_FOLDER"}))
    user = home / ".gemini" / "settings.json"  # the API key's auth, chosen as `/auth` would
    settings = json.loads(user.read_text()) if user.exists() else {}
    settings.setdefault("security", {}).setdefault("auth", {})["selectedType"] = "gemini-api-key"
    user.write_text(json.dumps(settings, indent=2))
    with FakeApi() as api:
        env = agent_env(home, GEMINI_API_KEY="test-no-account", GOOGLE_GEMINI_BASE_URL=api.url, **extra)
        # a model named: "auto" first asks a router model, whose failure ends the run before the turn
        done = run([gemini, "-m", "gemini-2.5-flash", "-p", prompt, "-o", "json"], cwd=project, env=env,
                   timeout=300)
        asked = [body for path, body in api.requests
                 if "generatecontent" in path.lower() and isinstance(body, dict)]
    assert asked, f"gemini sent no request:\n{done.stdout}\n{done.stderr}\n{api.requests}"
    return asked


def gemini_tools(body: dict[str, object]) -> list[str]:
    """The names of the function declarations a Gemini API request offers the model."""
    tools = body.get("tools") or []
    return [str(declaration.get("name")) for tool in tools if isinstance(tool, dict)  # type: ignore[union-attr]
            for declaration in tool.get("functionDeclarations") or [] if isinstance(declaration, dict)]


def hook_context(transcript: str) -> dict[str, list[str]]:
    """What each hook event added to the session (``hook_additional_context`` entries of the transcript)."""
    added: dict[str, list[str]] = {}
    for line in transcript.splitlines():
        try:
            entry = json.loads(line)
        except ValueError:
            continue
        attachment = entry.get("attachment") if isinstance(entry, dict) else None
        if isinstance(attachment, dict) and attachment.get("type") == "hook_additional_context":
            added.setdefault(str(attachment.get("hookEvent")), []).extend(attachment.get("content") or [])
    return added
