"""The README's recipes work: its two commands, `.ci/run` runs exactly the test command, and every
`rs-learn-host` line of the shell blocks of the README and its docs pages runs as written."""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import use_postgresql
from docpages import PAGES, blocks, page
from helpers.cli import host_in_folder

from host_harness.cachedir import default_cache_dir

ROOT = Path(__file__).resolve().parents[2]
README = (ROOT / "README.md").read_text(encoding="utf-8")


def first_block() -> list[str]:
    block = re.search(r"```sh\n(.*?)```", README, re.S)
    assert block, "the README opens with a sh block"
    return [line.split("#")[0].strip() for line in block.group(1).splitlines() if line.strip()]


def test_readme_opens_with_the_two_commands():
    assert first_block() == ["make demo", "make test"]


def test_ci_runs_exactly_the_readme_test_command():
    script = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    commands = [line.strip() for line in script.splitlines() if line.strip() and not line.startswith("#")]
    assert commands[-1] == first_block()[1]


@pytest.mark.slow  # make demo, in a process
def test_make_demo_memorizes_and_recalls_through_the_component():
    done = subprocess.run(["make", "-s", "demo"], cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "(already stored)" in out
    # Each query's best hit is the fact it asks about.
    sections = out.split("$ rs-learn-host recall ")[1:]
    assert len(sections) == 3
    assert "pnpm" in sections[0].splitlines()[1]
    assert "terrain palette" in sections[1].splitlines()[1]
    assert "8080" in sections[2].splitlines()[1]
    assert "-wal" not in out and "-shm" not in out
    project = re.search(r"^project: (\S+)$", out, re.M)
    assert project and not Path(project.group(1)).exists(), "the demo project is removed"
    steps = out.split("Next steps\n")[1]
    assert "uv tool install ." in steps and "rs-learn-host setup claude-code" in steps
    assert "/plugin install rs-learn@rs-learn" in steps
    assert "deprecat" not in (out + done.stderr).lower()


# Every `rs-learn-host` command line of the README's shell blocks, run as written, in order, in one
# temporary directory (a daemon -- a line ending in `&` -- is skipped). `rs-learn-host` and
# `.venv/bin/rs-learn-host` are this checkout's CLI; the files the examples name exist. Lines that
# run another program with rs-learn-host as its argument (`claude mcp add ... -- rs-learn-host mcp`,
# a server those agents start) and the wheel's `~/rs-learn/bin/rs-learn-host` (tests/process/test_wheel.py
# runs that) are not commands of this checkout's CLI.
COMMAND = re.compile(r"(?:^|\|\s*)(?:\.venv/bin/)?rs-learn-host ")
CHECKS = {
    'memorize "Use pnpm': ("mem-",),
    'recall "which package manager?"': ("pnpm",),
    'recall "package manager" --json': ('"namespace": "default"',),
    'recall "package manager" --explain': ("pnpm", "cosine", "-> keyword", "fused"),
    "rs-learn-host why   ": ("session demo (cold", "tokens:", "pnpm"),
    'recall "package manager" --limit 1': ("Use pnpm, not npm, to install packages.",),
    "list --include superseded --query npm": ("superseded by mem-b53286f51b123af1-39",),
    "show mem-b7d92d78c9395993-28": ("superseded_by: mem-b53286f51b123af1-39",),
    "forget mem-856db5d88a97e37f-27": ("forgotten mem-856db5d88a97e37f-27",),
    "list --include forgotten": ("we deploy with ArgoCD now",),
    'memorize "@frontend': ("mem-",),
    'recall "@frontend build tool"': ("vite", "[frontend]"),
    "discipline list --json": ('"name": "frontend"',),
    "discipline create notes": ("created notes",),
    "discipline disable frontend": ("disabled frontend",),
    'learn "Run migrations': ("Lesson stored.",),
    'learn "Deploys follow': ('Created managed skill "deploy"',),
    "skills list": ("deploy", "managed"),
    'archive put --label "build log"': ("r1",),
    "archive search": ("r2 — diff before the refactor",),
    "recall-search": ("r2 — diff before the refactor",),
    'create checklist "Release 0.2"': ("cl-1",),
    "update-item cl-1 it-1": ("[x] Bump version",),
    "records --project-id app show cl-1": ("Collect entries",),
    "retrieve": ("## Structured memory",),
    'recall "how do we deploy?"': ("ArgoCD",),
    'recall "staging deploys key"': ("[REDACTED:aws-access-key-id]", "DB_PASSWORD=[REDACTED:password]"),
    "-host quarantined": ("mem-8f9a9ca21d617641-59: pipes a download into a shell",),
    "approve mem-8f9a9ca21d617641-59": ("approved (was quarantined: pipes a download into a shell)",),
    "rs-learn-host --version": ("rs-learn-host 0.1.0",),
    "setup claude-code   #": (".mcp.json: wrote mcpServers.rs-learn", "component"),
    "setup codex --scope user": (".codex/config.toml: wrote [mcp_servers.rs-learn]",),
    "import --from claude-md   #": ("3 new, 0 already stored, 1 skipped: an @-import",),
    "setup claude-code --dry-run": ("already set up: nothing would change",),
    'again: "already set up': ("already set up: nothing changed",),
    "setup cursor --no-warmup": (".cursor/mcp.json: wrote mcpServers.rs-learn",),
    "setup cursor --remove": ("removed mcpServers.rs-learn",),
    "import --from claude-md --dry-run": ("(nothing stored)",),
    "import --from claude-md             # again": ("0 new, 3 already stored",),
    "host warmup": ("compiled",),
}
CLAUDE_MD = ("# Conventions\n- Use pnpm, not npm.\n- Deploys go through ArgoCD.\n\n"
             "## Style\nShort functions.\n\n@docs/more.md\n")


IN_A_PROCESS = {"--version", "setup", "doctor", "git", "hook"}  # the entry point's own answer, or they
# write the running executable's path into the agents' and git's files: run as the shell runs them


def in_process(line: str) -> list[str] | None:
    """The arguments of a plain ``rs-learn-host ARGS`` line the CLI answers alike in this process;
    ``None`` for a pipeline, a redirection, ``.venv/bin/rs-learn-host`` or :data:`IN_A_PROCESS`."""
    words = shlex.split(line, comments=True)
    if words[:1] != ["rs-learn-host"] or any(ch in line.split("#")[0] for ch in "|<>&;$`"):
        return None
    return None if IN_A_PROCESS & set(words) else words[1:]


def readme_commands() -> list[str]:
    """Every CLI line of the README's and the docs pages' shell blocks, pages in :data:`PAGES` order."""
    lines = []
    for name in PAGES:
        for block in blocks(page(name), "sh"):
            lines += [line for line in block.splitlines() if COMMAND.search(line.split("#")[0])]
    return lines


@pytest.mark.slow  # every shell line of the README and the docs (a pipeline, setup or git in a process)
def test_every_readme_command_runs(tmp_path: Path, wasm_path: Path, wasm_runtime, pg_url: str):
    work = tmp_path / "work"  # the examples' folder; ../other-checkout and ../copy are its siblings
    for sibling in ("other-checkout", "copy"):
        (tmp_path / sibling).mkdir()
    for checkout in ("laptop", "desktop"):  # two checkouts of one project on the PostgreSQL store
        (work / checkout).mkdir(parents=True)
        use_postgresql(work / checkout, pg_url, f"readme-{tmp_path.name}")
    shim = work / ".venv" / "bin" / "rs-learn-host"
    shim.parent.mkdir(parents=True)
    shim.write_text(f'#!/bin/sh\nexec "{sys.executable}" -m host_harness "$@"\n', encoding="utf-8")
    shim.chmod(0o755)
    (work / "path" / "to" / "project").mkdir(parents=True)
    (work / "build.log").write_text("step 1 ok\nstep 2 failed: timeout\n", encoding="utf-8")
    (work / "deploy.md").write_text("1. Build\n2. Smoke test\n3. Ship\n", encoding="utf-8")
    (work / "CLAUDE.md").write_text(CLAUDE_MD, encoding="utf-8")
    subprocess.run(["git", "init", "-q"], cwd=work, check=True)
    home = tmp_path / "home"  # `setup --scope user` writes the agents' files here, never in the real home
    home.mkdir()
    agents = ("RS_LEARN_", "CODEX_", "CLAUDE_", "XDG_")
    env = {k: v for k, v in os.environ.items() if not k.startswith(agents)}
    env.update(PATH=f"{shim.parent}{os.pathsep}{env.get('PATH', '')}", RS_LEARN_WASM=str(wasm_path),
               PYTHONPATH=str(ROOT), HOME=str(home), RS_LEARN_CACHE_DIR=str(default_cache_dir()))
    commands = readme_commands()
    assert len(commands) >= 30
    ran = []
    for line in commands:
        if line.split("#")[0].rstrip().endswith("&"):
            continue  # a daemon
        if (args := in_process(line)) is not None:
            answer = host_in_folder(*args, env=env, cwd=work)
            done = subprocess.CompletedProcess(args, answer.returncode, answer.stdout.decode(),
                                               answer.stderr.decode())
        else:
            done = subprocess.run(["bash", "-c", line], cwd=work, env=env, capture_output=True, text=True,
                                  timeout=120)
        assert done.returncode == 0, f"{line}\n{done.stdout}\n{done.stderr}"
        for key, expected in CHECKS.items():
            if key in line:
                assert all(text in done.stdout for text in expected), f"{line}\n{done.stdout}"
        ran.append(line)
    assert len(ran) == len(commands) - 1
    gm = work / ".gm"
    assert (gm / "disciplines" / "frontend" / "rs-learn.db").is_file(), "the @frontend example reached it"
    assert (gm / "disciplines" / "notes").is_dir()
    assert (gm / "managed-skills" / "deploy" / "SKILL.md").is_file()
    assert (work / "restored.log").read_bytes() == (work / "build.log").read_bytes()
    assert (work / "path" / "to" / "project" / ".gm" / "rs-learn.db").is_file()
    for sibling in ("other-checkout", "copy"):  # export | import moved the memories there
        assert (tmp_path / sibling / ".gm" / "rs-learn.db").is_file(), sibling
    assert not list((work / "laptop").rglob("*.db")) and not list((work / "desktop").rglob("*.db"))
    moved, back = (work / "memories.jsonl").read_text(), (work / "back.jsonl").read_text()
    assert back.count("\n") == moved.count("\n") + 1 and "ArgoCD" in back, "the imported ones and the new one"
    assert (work / ".claude" / "settings.json").is_file() and (home / ".codex" / "config.toml").is_file()
    assert ".gm/exec-spool/" in (work / ".gitignore").read_text()


def test_the_readme_is_short_and_links_every_docs_page():
    assert len(README.splitlines()) <= 300
    linked = set(re.findall(r"\]\((docs/[\w.-]+\.md)", README))
    assert {f"docs/{p.name}" for p in (ROOT / "docs").glob("*.md")} <= linked
    assert set(PAGES) - {"README.md"} <= linked


def test_no_relative_link_is_broken():
    pages = [ROOT / "README.md", *(ROOT / "docs").glob("*.md"), ROOT / "conformance" / "README.md"]
    for path in pages:
        for target in re.findall(r"\]\(([^)#\s]+)(?:#[^)]*)?\)", path.read_text(encoding="utf-8")):
            if "://" in target or target.startswith("mailto:"):
                continue
            assert (path.parent / target).exists(), f"{path.relative_to(ROOT)} links {target}"
