"""An installable host: the wheel carries the component, and a fresh venv runs rs-learn-host with it.

Building the wheel needs nothing from the network; installing it into a fresh venv gets its
dependencies from the package index, so those tests are marked ``network`` (skipped offline, saying so).
"""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
import venv
import zipfile
from pathlib import Path

import pytest
from conftest import ROOT
from mcp import Client
from mcp.client.stdio import StdioServerParameters, stdio_client

from host_harness.targets.runtime import cache_file_name, default_cache_dir

pytestmark = pytest.mark.packaging  # builds the wheel in the checkout (build/, *.egg-info)


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory, wasm_path: Path) -> Path:
    """``pip wheel .`` of the checkout (the already built component inside)."""
    out = tmp_path_factory.mktemp("wheel")
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--no-build-isolation",
                    "-w", str(out), str(ROOT)], check=True, timeout=600, cwd=out)
    (built,) = out.glob("rs_learn-*.whl")
    assert built.name == "rs_learn-0.1.0-py3-none-any.whl", "the name the README installs"
    return built


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory, wheel: Path, wasm_runtime) -> Path:
    """A fresh venv (no componentize-py, no checkout on its path) with the wheel installed.

    Its tests seed their caches with the session's compiled component (``wasm_runtime``).
    """
    env_dir = tmp_path_factory.mktemp("venv") / "venv"
    venv.create(env_dir, with_pip=True)
    subprocess.run([str(env_dir / "bin" / "python"), "-m", "pip", "install", "--quiet", str(wheel)],
                   check=True, timeout=900, env=clean_env())
    return env_dir


def clean_env(**extra: str) -> dict[str, str]:
    """The environment without anything pointing at the checkout or its virtualenv."""
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV", "RS_LEARN_WASM")}
    env.update(extra)
    return env


def seed_cache(cache: Path) -> None:
    """Copy this session's compiled component, so the venv does not compile it again."""
    cache.mkdir()
    name = cache_file_name((ROOT / "dist" / "rs_learn.wasm").read_bytes())
    for suffix in ("", ".sha256"):
        warm = default_cache_dir() / (name + suffix)
        if warm.is_file():
            (cache / (name + suffix)).write_bytes(warm.read_bytes())


def test_the_wheel_carries_the_component(wheel: Path, wasm_path: Path):
    with zipfile.ZipFile(wheel) as archive:
        names = archive.namelist()
        assert archive.read("host_harness/assets/rs_learn.wasm") == wasm_path.read_bytes()
        for name in ("contract.json", "verbs.json"):  # the guest's limits and verb spec the MCP schemas read
            assert archive.read(f"host_harness/{name}") == (ROOT / "host_harness" / name).read_bytes()
    assert "host_harness/cli/main.py" in names and "guest/host.py" in names
    for page in ("index.html", "app.js", "app.css"):  # the web view, vendored (issue 36)
        assert f"host_harness/ui/static/{page}" in names
    assert not [n for n in names if n.startswith(("tests/", "hosts/", "bench/", "dist/"))]
    assert "host_harness/mcp/replies.json" not in names  # every MCP answer is the SDK's (issue 44)


@pytest.mark.network
def test_a_fresh_venv_memorizes_and_recalls_outside_the_checkout(installed: Path, tmp_path: Path):
    bin_dir = installed / "bin"
    where = subprocess.run([str(bin_dir / "python"), "-c", "import host_harness, wasmtime;"
                            "print(host_harness.__file__)"], capture_output=True, text=True, check=True,
                           cwd=tmp_path, env=clean_env())
    assert where.stdout.startswith(str(installed)), where.stdout
    assert subprocess.run([str(bin_dir / "python"), "-c", "import componentize_py"], capture_output=True,
                          cwd=tmp_path, env=clean_env()).returncode != 0, "no componentize-py in the venv"
    project = tmp_path / "project"
    project.mkdir()
    cache = tmp_path / "cache"
    seed_cache(cache)
    env = clean_env(RS_LEARN_CACHE_DIR=str(cache), RS_LEARN_HOOK_TIMEOUT="60")  # a loaded machine: no timing

    def host(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
        return subprocess.run([str(bin_dir / "rs-learn-host"), "-p", str(project), *args], input=stdin,
                              capture_output=True, text=True, timeout=300, cwd=tmp_path, env=env)

    stored = host("memorize", "Use pnpm, not npm, to install packages in this repository.")
    assert stored.returncode == 0, stored.stderr
    memory_id = stored.stdout.strip()
    recalled = host("recall", "which package manager should I use?", "--json")
    assert recalled.returncode == 0, recalled.stderr
    assert json.loads(recalled.stdout)[0]["id"] == memory_id
    version = json.loads(host("version", "--json").stdout)
    assert version["target"].startswith(str(installed)) and version["target"].endswith("assets/rs_learn.wasm")
    prompt = "Which package manager do we use to install packages?"
    event = json.dumps({"prompt": prompt, "cwd": str(project)})
    hooked = host("hook", "prompt-submit", stdin=event)
    assert hooked.returncode == 0
    assert "Use pnpm, not npm" in json.loads(hooked.stdout)["hookSpecificOutput"]["additionalContext"]
    request = project / ".gm" / "exec-spool" / "in" / "recall" / "1.json"
    request.parent.mkdir(parents=True)
    request.write_text(json.dumps({"query": "package manager", "limit": 1}), encoding="utf-8")
    spooled = host("spool", "--once")
    assert spooled.returncode == 0, spooled.stderr
    answer = json.loads((project / ".gm" / "exec-spool" / "out" / "1.json").read_text(encoding="utf-8"))
    assert answer["ok"] and answer["data"][0]["id"] == memory_id


# Every command a user runs from the installed wheel, outside the checkout (issue 26).


class Installed:
    """The wheel's ``rs-learn-host`` in its venv, with a home and a compile cache of the test's own."""

    def __init__(self, venv_dir: Path, tmp_path: Path) -> None:
        self.bin = venv_dir / "bin"
        self.home = tmp_path / "home"
        self.home.mkdir()
        cache = self.home / ".cache" / "rs-learn"
        cache.parent.mkdir()
        seed_cache(cache)
        self.env = clean_env(HOME=str(self.home), GIT_CONFIG_GLOBAL=str(tmp_path / "gitconfig"),
                             RS_LEARN_HOOK_TIMEOUT="60",  # the cache is the home's default: ~/.cache/rs-learn
                             **{f"GIT_{who}_{what}": value for who in ("AUTHOR", "COMMITTER")
                                for what, value in (("NAME", "T"), ("EMAIL", "t@example.com"))})
        self.env.pop("RS_LEARN_CACHE_DIR", None)

    def run(self, *args: str | Path, cwd: Path, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
        return subprocess.run([str(self.bin / "rs-learn-host"), *map(str, args)], input=stdin, cwd=cwd,
                              env=self.env, capture_output=True, text=True, timeout=300)

    def ok(self, *args: str | Path, cwd: Path, stdin: str | None = None) -> str:
        done = self.run(*args, cwd=cwd, stdin=stdin)
        assert done.returncode == 0, f"{args}: {done.stdout}\n{done.stderr}"
        return done.stdout


@pytest.fixture
def wheel_host(installed: Path, tmp_path: Path) -> Installed:
    return Installed(installed, tmp_path)


@pytest.fixture
def repo(git_repo: Path) -> Path:
    return git_repo


@pytest.mark.network
def test_the_wheel_knows_its_version_and_license(wheel: Path, wheel_host: Installed, repo: Path):
    assert wheel_host.ok("--version", cwd=repo).strip() == "rs-learn-host 0.1.0"
    with zipfile.ZipFile(wheel) as archive:
        metadata = archive.read("rs_learn-0.1.0.dist-info/METADATA").decode()
        assert "License-Expression: Apache-2.0" in metadata
        assert "Classifier: Programming Language :: Python :: 3" in metadata
        assert archive.read("rs_learn-0.1.0.dist-info/licenses/LICENSE") == (ROOT / "LICENSE").read_bytes()


@pytest.mark.network
def test_setup_and_both_hooks_from_the_wheel(wheel_host: Installed, repo: Path, tmp_path: Path):
    out = wheel_host.ok("setup", "claude-code", cwd=repo)
    assert "component already compiled" in out, "warmup found the packaged component's compiled artifact"
    command = str((wheel_host.bin / "rs-learn-host").resolve())
    assert json.loads((repo / ".mcp.json").read_text())["mcpServers"]["rs-learn"]["command"] == command
    hooks = json.loads((repo / ".claude" / "settings.json").read_text())["hooks"]
    assert hooks["UserPromptSubmit"][0]["hooks"][0]["command"] == f"{command} hook prompt-submit"
    wheel_host.ok("memorize", "Deploys go through ArgoCD; never kubectl apply by hand.", cwd=repo)
    (tmp_path / "release.md").write_text("1. Tag\n2. Ship\n", encoding="utf-8")
    wheel_host.ok("learn", "Releases follow a checklist.", "--skill", "release", "--description",
                  "How we release", "--body", tmp_path / "release.md", cwd=repo)
    event = {"cwd": str(repo), "prompt": "how do we deploy to production?"}
    prompt = wheel_host.ok("hook", "prompt-submit", cwd=repo, stdin=json.dumps(event))
    assert "ArgoCD" in json.loads(prompt)["hookSpecificOutput"]["additionalContext"]
    started = wheel_host.ok("hook", "session-start", cwd=repo, stdin=json.dumps({"cwd": str(repo)}))
    assert "release" in json.loads(started)["hookSpecificOutput"]["additionalContext"]


@pytest.mark.network
def test_import_from_and_git_install_from_the_wheel(wheel_host: Installed, repo: Path):
    (repo / "CLAUDE.md").write_text("# Conventions\n- Use pnpm, not npm.\n- Staging is on port 8080.\n")
    assert wheel_host.ok("import", "--from", "claude-md", cwd=repo).strip() == "2 new, 0 already stored"
    assert wheel_host.ok("import", "--from", "claude-md", cwd=repo).strip() == "0 new, 2 already stored"
    out = wheel_host.ok("git", "install", cwd=repo)
    assert ".gitignore" in out and ".gm/exec-spool/" in (repo / ".gitignore").read_text()
    subprocess.run(["git", "add", "-A"], cwd=repo, env=wheel_host.env, check=True)
    subprocess.run(["git", "commit", "-qm", "memory"], cwd=repo, env=wheel_host.env, check=True)
    wheel_host.ok("memorize", "Backups run nightly at 02:00.", cwd=repo)
    diff = subprocess.run(["git", "diff", ".gm/rs-learn.db"], cwd=repo, env=wheel_host.env,
                          capture_output=True, text=True, timeout=300)
    assert '+memory mem-' in diff.stdout and "Backups run nightly" in diff.stdout, diff.stdout + diff.stderr


@pytest.mark.network
def test_the_conformance_runner_from_the_wheel(wheel_host: Installed, tmp_path: Path):
    traces = sorted((ROOT / "conformance" / "traces").glob("*.json"))
    runner = [str(wheel_host.bin / "python"), "-m", "host_harness.conformance", *map(str, traces)]
    done = subprocess.run(runner, cwd=tmp_path, env=wheel_host.env, capture_output=True, text=True,
                          timeout=600)
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.count("\nok ") + done.stdout.startswith("ok ") == len(traces) > 0


@pytest.mark.network
def test_the_installed_mcp_server_and_warmup_work_outside_the_checkout(installed: Path, tmp_path: Path):
    """Issue 26: the wheel has no models/ folder, and ``mcp`` must not need it to start."""
    assert not list(installed.glob("lib/python*/site-packages/models")), "no embedder files installed"
    project = tmp_path / "project"
    project.mkdir()
    cache = tmp_path / "cache"
    seed_cache(cache)
    env = clean_env(RS_LEARN_CACHE_DIR=str(cache))
    command = str(installed / "bin" / "rs-learn-host")
    warmed = subprocess.run([command, "warmup"], capture_output=True, text=True, cwd=tmp_path, env=env,
                            timeout=900)
    assert warmed.returncode == 0, warmed.stderr
    assert warmed.stdout.startswith(("already compiled: ", "compiled the component in ")), warmed.stdout
    params = StdioServerParameters(command=command, args=["-p", str(project), "mcp"], env=env, cwd=tmp_path)
    errlog = tmp_path / "mcp-stderr.log"

    async def scenario() -> None:
        with errlog.open("w", encoding="utf-8") as err:
            transport = stdio_client(params, errlog=err)
            async with Client(transport, mode="legacy", read_timeout_seconds=300) as client:
                assert client.server_info is not None and client.server_info.name == "rs-learn"
                tools = {tool.name for tool in (await client.list_tools()).tools}
                assert {"recall", "memorize", "learn", "archive", "recall_search", "create_todo"} <= tools
                stored = await client.call_tool("memorize", {"text": "The wheel's MCP server works."})
                assert stored.is_error is False, stored.content
                hits = await client.call_tool("recall", {"query": "wheel server"})
                assert hits.structured_content["result"][0]["id"] == stored.structured_content["id"]

    asyncio.run(scenario())
    assert "Traceback" not in errlog.read_text(encoding="utf-8")
