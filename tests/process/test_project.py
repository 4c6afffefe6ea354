"""Which project a command works on: one rule for the CLI, the spool, the MCP server and the hooks (issue 25).

The nearest folder at or above the working directory holding ``.gm/``, else the git work tree's
root, else the working directory; ``-p`` and ``$RS_LEARN_PROJECT`` win when given. Commands run in
a subdirectory, without ``-p`` or ``$RS_LEARN_PROJECT``: the hooks and the MCP server as processes,
the CLI's other commands in this process with that working folder and environment (``helpers/cli.py``).
"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest
from helpers.cli import host_in_folder
from hostprocs import HOST, host_env, wait_for, write_request

from host_harness.project import GIT_ROOT, GM_FOUND, WORKING_DIRECTORY, WORKTREE, Found, chosen, find


def in_folder(
    folder: Path, *args: str, stdin: bytes | None = None, **extra: str
) -> subprocess.CompletedProcess:
    """``rs-learn-host ARGS`` run in ``folder``, with neither ``-p`` nor ``$RS_LEARN_PROJECT`` (a hook in
    a process: its entry point finds the project before click runs)."""
    env = host_env(folder)
    del env["RS_LEARN_PROJECT"]
    env.update(extra)
    if args[0] != "hook":
        return host_in_folder(*args, env=env, cwd=folder, input=stdin)
    return subprocess.run([*HOST, *args], cwd=folder, env=env, input=stdin, capture_output=True, timeout=120)


def test_the_rule(tmp_path: Path):
    (tmp_path / "app" / ".gm").mkdir(parents=True)
    (tmp_path / "app" / "src" / "deep").mkdir(parents=True)
    assert find(tmp_path / "app" / "src" / "deep") == Found((tmp_path / "app").resolve(), GM_FOUND)
    assert find(tmp_path / "app") == Found((tmp_path / "app").resolve(), GM_FOUND)
    (tmp_path / "repo" / ".git").mkdir(parents=True)
    (tmp_path / "repo" / "lib" / "x").mkdir(parents=True)
    assert find(tmp_path / "repo" / "lib" / "x") == Found((tmp_path / "repo").resolve(), GIT_ROOT)
    (tmp_path / "linked" / "src").mkdir(parents=True)
    (tmp_path / "linked" / ".git").write_text("gitdir: /elsewhere/.git/worktrees/linked\n")  # a linked tree
    assert find(tmp_path / "linked" / "src") == Found((tmp_path / "linked").resolve(), GIT_ROOT)
    (tmp_path / "repo" / "lib" / ".gm").mkdir()  # .gm/ wins over the git root
    assert find(tmp_path / "repo" / "lib" / "x") == Found((tmp_path / "repo" / "lib").resolve(), GM_FOUND)
    (tmp_path / "plain" / "sub").mkdir(parents=True)
    plain = tmp_path / "plain" / "sub"
    assert find(plain) == Found(plain.resolve(), WORKING_DIRECTORY)
    assert chosen(tmp_path / "plain", "-p") == Found((tmp_path / "plain").resolve(), "-p")
    assert chosen(None, cwd=tmp_path / "app" / "src") == Found((tmp_path / "app").resolve(), GM_FOUND)


@pytest.mark.both_stores
def test_the_cli_in_a_subdirectory_uses_the_project_above(project: Path, store_kind: str):
    (project / ".gm").mkdir(exist_ok=True)
    src = project / "src"
    src.mkdir()
    done = in_folder(src, "memorize", "The staging server runs on port 8080.")
    assert done.returncode == 0, done.stderr
    assert not (src / ".gm").exists(), "no stray store in the subdirectory"
    assert (project / ".gm" / "rs-learn.db").exists() == (store_kind == "sqlite")
    stats = in_folder(src, "stats")
    assert f"project: {project.resolve()} (.gm found)" in stats.stdout.decode()
    data = json.loads(in_folder(src, "stats", "--json").stdout)
    assert data["memories"] == 1 and data["project"] == {"root": str(project.resolve()), "found_by": GM_FOUND}
    hit = json.loads(in_folder(project, "recall", "staging port", "--json").stdout)
    assert hit[0]["text"] == "The staging server runs on port 8080."


def test_a_git_work_tree_without_gm_keeps_its_memory_at_its_root(tmp_path: Path):
    repo = tmp_path / "repo"
    (repo / "src").mkdir(parents=True)
    subprocess.run(["git", "init", "-q", str(repo)], check=True)
    done = in_folder(repo / "src", "memorize", "Use pnpm, not npm.")
    assert done.returncode == 0, done.stderr
    assert (repo / ".gm" / "rs-learn.db").is_file() and not (repo / "src" / ".gm").exists()
    data = json.loads(in_folder(repo / "src", "stats", "--json").stdout)
    assert data["project"] == {"root": str(repo.resolve()), "found_by": ".gm found"}  # it has .gm/ now


def test_outside_any_project_the_working_directory_is_the_project(tmp_path: Path):
    here = tmp_path / "scratch"
    here.mkdir()
    data = json.loads(in_folder(here, "stats", "--json").stdout)
    assert data["project"] == {"root": str(here.resolve()), "found_by": WORKING_DIRECTORY}
    assert not (here / ".gm").exists(), "stats creates nothing"


def test_p_and_the_environment_win(tmp_path: Path):
    (tmp_path / "app" / ".gm").mkdir(parents=True)
    (tmp_path / "app" / "src").mkdir()
    src = tmp_path / "app" / "src"
    data = json.loads(in_folder(src, "-p", str(src), "stats", "--json").stdout)
    assert data["project"] == {"root": str(src.resolve()), "found_by": "-p"}
    data = json.loads(in_folder(src, "stats", "--json", RS_LEARN_PROJECT=str(src)).stdout)
    assert data["project"] == {"root": str(src.resolve()), "found_by": "$RS_LEARN_PROJECT"}


def test_the_spool_the_mcp_server_and_the_hook_in_a_subdirectory_use_the_project_above(project: Path):
    (project / ".gm").mkdir()
    src = project / "src"
    src.mkdir()
    assert in_folder(src, "memorize", "The staging server runs on port 8080.").returncode == 0
    write_request(project, "recall", "1.json", b'{"query": "staging port"}')
    done = in_folder(src, "spool", "--once")
    assert done.returncode == 0 and b"answered 1 request" in done.stdout, done.stderr
    assert "8080" in (project / ".gm" / "exec-spool" / "out" / "1.json").read_text()
    event = json.dumps({"hook_event_name": "UserPromptSubmit", "prompt": "which port does staging use?"})
    hooked = in_folder(src, "hook", "prompt-submit", stdin=event.encode())  # no cwd in the event
    assert "8080" in json.loads(hooked.stdout)["hookSpecificOutput"]["additionalContext"]
    env = host_env(src)
    del env["RS_LEARN_PROJECT"]
    server = subprocess.Popen([*HOST, "mcp"], cwd=src, env=env, stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        wait_for(lambda: (project / ".gm" / "rs-learn.sock").is_socket() or server.poll() is not None, 60,
                 "the MCP server's warm socket")
        assert (project / ".gm" / "rs-learn.sock").is_socket() and not (src / ".gm").exists()
    finally:
        assert server.stdin is not None
        server.stdin.close()
        server.wait(30)


def test_a_hook_option_error_is_logged_in_the_projects_hook_log(project: Path, tmp_path: Path):
    (project / ".gm").mkdir()
    src = project / "src"
    src.mkdir()
    cache = tmp_path / "cache"
    event = json.dumps({"hook_event_name": "UserPromptSubmit", "cwd": str(src), "prompt": "x"}).encode()
    for args in (["--budget", "abc"], ["--timeout", "soon"]):
        done = in_folder(src, "hook", "prompt-submit", *args, stdin=event, RS_LEARN_CACHE_DIR=str(cache))
        assert done.returncode == 0 and done.stdout == b""
    lines = (project / ".gm" / "logs" / "hook.log").read_text().splitlines()
    assert len(lines) == 2 and all("hook command line rejected" in line for line in lines)
    assert "'abc' is not a valid integer" in lines[0] and "'soon' is not a valid float" in lines[1]
    assert not (cache / "hook.log").exists()
    elsewhere = tmp_path / "no-project"
    elsewhere.mkdir()
    in_folder(elsewhere, "hook", "prompt-submit", "--budget", "abc", stdin=event,
              RS_LEARN_CACHE_DIR=str(cache))
    assert "rejected" in (cache / "hook.log").read_text(), "no project with .gm/: the cache dir's log"
    assert os.listdir(elsewhere) == []


def test_git_worktrees_of_one_repository_share_its_memory(tmp_path: Path):
    """Issue 44 item 7: a fact memorized in one work tree is recalled in another (and by the hook there);
    the project is the work tree holding the common git dir (``git rev-parse --git-common-dir``).
    ``$RS_LEARN_WORKTREES=own`` gives each its own memory."""
    main, linked = tmp_path / "main", tmp_path / "feature"
    subprocess.run(["git", "init", "-q", "-b", "main", str(main)], check=True)
    git = ["git", "-c", "user.name=T", "-c", "user.email=t@example.com"]
    subprocess.run([*git, "commit", "-q", "--allow-empty", "-m", "start"], cwd=main, check=True)
    subprocess.run(["git", "worktree", "add", "-q", str(linked), "-b", "feature"], cwd=main, check=True)
    (linked / "src").mkdir()
    common = subprocess.run(["git", "rev-parse", "--path-format=absolute", "--git-common-dir"],
                            cwd=linked / "src", capture_output=True, text=True, check=True).stdout.strip()
    assert find(linked / "src") == Found(Path(common).parent.resolve(), WORKTREE)
    assert find(linked / "src") == Found(main.resolve(), WORKTREE)
    assert chosen(linked, "-p") == Found(main.resolve(), WORKTREE)

    assert in_folder(linked / "src", "memorize", "The staging server runs on port 8080.").returncode == 0
    assert (main / ".gm" / "rs-learn.db").is_file() and not (linked / ".gm").exists()
    hit = json.loads(in_folder(main, "recall", "staging port", "--json").stdout)
    assert hit[0]["text"] == "The staging server runs on port 8080."
    assert in_folder(main, "memorize", "Use pnpm, not npm, in this repository.").returncode == 0
    hit = json.loads(in_folder(linked, "recall", "which package manager, pnpm or npm?", "--json").stdout)
    assert hit[0]["text"] == "Use pnpm, not npm, in this repository."
    event = json.dumps({"hook_event_name": "UserPromptSubmit", "prompt": "which port does staging use?",
                        "cwd": str(linked / "src")})
    hooked = in_folder(tmp_path, "hook", "prompt-submit", stdin=event.encode())
    assert "8080" in json.loads(hooked.stdout)["hookSpecificOutput"]["additionalContext"]
    (linked / ".gm").mkdir()  # a store committed on the branch: checked out in the linked tree too
    assert find(linked / "src") == Found(main.resolve(), WORKTREE)

    own = json.loads(in_folder(linked, "stats", "--json", RS_LEARN_WORKTREES="own").stdout)
    assert own["project"] == {"root": str(linked.resolve()), "found_by": GM_FOUND} and own["memories"] == 0
