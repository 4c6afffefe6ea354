"""``rs-learn-host git`` with real git in temporary repositories (issue #16).

Git runs the drivers itself, as separate processes over the built component, exactly as on a
developer's machine: ``git install`` writes the configuration, ``git merge`` calls the merge
driver, ``git diff``/``git log -p`` call textconv. Every repository sets its own user; the global
git configuration is a file of the test's own (``GIT_CONFIG_GLOBAL``).
"""

from __future__ import annotations

import hashlib
import json
import shlex
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import require_wasm
from hostprocs import host, host_env

from host_harness.cli.main import cli
from host_harness.git.install import ATTRIBUTES

STORE = ".gm/rs-learn.db"
HOST_COMMAND = Path(sys.executable).parent / "rs-learn-host"  # what git install writes (the command)


class Repo:
    """A git repository with rs-learn's drivers installed; CLI calls go through the component."""

    def __init__(self, root: Path, global_config: Path) -> None:
        require_wasm()
        self.root = root
        root.mkdir(parents=True)
        self.env = host_env(root, GIT_CONFIG_GLOBAL=str(global_config), GIT_CONFIG_NOSYSTEM="1")
        self.git("init", "-q", "-b", "main")
        self.git("config", "user.name", "Test")
        self.git("config", "user.email", "test@example.com")
        self.runner = CliRunner()

    def git(self, *args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
        done = subprocess.run(["git", *args], cwd=self.root, env=self.env, capture_output=True, text=True,
                              timeout=120)
        if check:
            assert done.returncode == 0, f"git {' '.join(args)}: {done.stdout}\n{done.stderr}"
        return done

    def rs(self, *args: str, input: str | None = None) -> str:
        """``rs-learn-host -p REPO ARGS`` in this process (the component, precompiled)."""
        result = self.runner.invoke(cli, ["-p", str(self.root), *args], input=input, env=self.env,
                                    catch_exceptions=False)
        assert result.exit_code == 0, result.output
        return result.output

    def commit(self, message: str) -> None:
        self.git("add", "-A")
        self.git("commit", "-q", "-m", message)

    @property
    def store(self) -> Path:
        return self.root / STORE


@pytest.fixture
def repo(tmp_path: Path) -> Repo:
    repository = Repo(tmp_path / "repo", tmp_path / "gitconfig")
    done = host("git", "install", env=repository.env)
    assert done.returncode == 0, done.stderr
    return repository


def test_install_is_idempotent_and_keeps_the_attributes_file(tmp_path: Path):
    repository = Repo(tmp_path / "repo", tmp_path / "gitconfig")
    (repository.root / ".gitattributes").write_bytes(b"*.png binary")  # no final newline
    first = host("git", "install", env=repository.env)
    assert first.returncode == 0, first.stderr
    assert first.stdout.decode().count("set ") == 6  # attributes, four settings, .gitignore
    assert (repository.root / ".gitattributes").read_text() == f"*.png binary\n{ATTRIBUTES}\n"
    config = repository.git("config", "--local", "--get-regexp", r"^(diff|merge)\.rs-learn\.").stdout
    assert "git textconv" in config and "git merge-driver %O %A %B %P" in config
    assert "diff.rs-learn.cachetextconv true" in config
    again = host("git", "install", env=repository.env)
    assert again.stdout.decode().strip() == "already installed"
    assert (repository.root / ".gitattributes").read_text() == f"*.png binary\n{ATTRIBUTES}\n"
    globally = host("git", "install", "--global", env=repository.env)
    assert globally.returncode == 0 and "--global merge.rs-learn.driver" in globally.stdout.decode()
    assert "merge-driver" in (tmp_path / "gitconfig").read_text()
    assert repository.git("check-attr", "diff", "merge", "--", STORE).stdout.splitlines() == [
        f"{STORE}: diff: rs-learn", f"{STORE}: merge: rs-learn"]
    outside = host("git", "install", env=host_env(tmp_path / "repo" / ".."))
    assert outside.returncode != 0 and b"not a git repository" in outside.stderr.lower()


def test_branches_merge_without_conflicts_and_diffs_show_memories(repo: Repo):
    repo.rs("memorize", "Use pnpm, not npm, in this repository.")
    repo.rs("records", "create", "todo", "Fix the flaky login test")
    repo.commit("base memory")

    repo.git("checkout", "-q", "-b", "alpha")
    repo.rs("memorize", "Deploys go through ArgoCD, never kubectl apply.")
    diff = repo.git("diff", "--", STORE).stdout
    assert '+memory mem-' in diff and '"Deploys go through ArgoCD, never kubectl apply."' in diff
    assert "Binary files" not in diff
    repo.rs("archive", "put", "--label", "alpha build log", "-", input="alpha: build OK\n")
    repo.rs("records", "update", "td-1", "--status", "in_progress", "--title", "Fix login test (alpha)")
    repo.rs("memorize", "-n", "frontend", "The app is built with vite.")
    repo.commit("alpha")
    shown = repo.git("log", "-p", "-1", "--", STORE).stdout
    assert '+archive r1 "alpha build log"' in shown
    assert '+todo td-1 v2 in_progress "Fix login test (alpha)"' in shown

    repo.git("checkout", "-q", "main")
    repo.git("checkout", "-q", "-b", "beta")
    repo.rs("memorize", "The staging server listens on port 8080.")
    repo.rs("archive", "put", "--label", "beta test log", "-", input="beta: 12 tests passed\n")
    repo.rs("records", "update", "td-1", "--priority", "4", "--title", "Fix login test (beta)")
    repo.rs("memorize", "-n", "frontend", "Components live in src/components.")
    repo.commit("beta")

    repo.git("checkout", "-q", "alpha")
    merged = repo.git("merge", "--no-edit", "beta")
    assert "rs-learn: merged .gm/rs-learn.db" in merged.stderr + merged.stdout
    assert "rs-learn: merged .gm/disciplines/frontend/rs-learn.db" in merged.stderr + merged.stdout
    assert repo.git("status", "--porcelain").stdout == ""

    assert "ArgoCD" in repo.rs("recall", "how do deploys work?", "--limit", "1")
    assert "8080" in repo.rs("recall", "staging server port", "--limit", "1")
    frontend = repo.rs("recall", "@frontend vite components", "--json")
    assert sorted(hit["text"] for hit in json.loads(frontend)) == [
        "Components live in src/components.", "The app is built with vite."]
    assert repo.rs("archive", "get", "r1") == (  # archived first: keeps r1; the note goes to stderr
        "[r1 — alpha build log, recalled verbatim; another branch's r1 is now r2 (beta test log)]\n"
        "alpha: build OK\n")
    assert repo.rs("archive", "get", "r2") == "beta: 12 tests passed\n"
    first = json.loads(repo.rs("archive", "get", "r1", "--json"))
    assert first["renumbered"] == [{"id": "r2", "label": "beta test log"}]
    todo = json.loads(repo.rs("records", "show", "td-1", "--json"))
    assert (todo["status"], todo["priority"], todo["title"]) == ("in_progress", 4, "Fix login test (beta)")
    notes = repo.rs("records", "list", "merge conflict")
    assert "Merge conflict in td-1" in notes
    conn = sqlite3.connect(repo.store)
    assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    conn.close()
    assert not [p.name for p in repo.root.iterdir() if p.name.startswith((".merge_file", ".rs-learn"))]
    log = repo.git("log", "-p", "-1", "--first-parent", "-m", "--", STORE).stdout
    assert '+memory mem-' in log and "staging server" in log


def test_a_corrupt_side_makes_the_driver_refuse(repo: Repo):
    repo.rs("memorize", "base fact")
    repo.commit("base")
    repo.git("checkout", "-q", "-b", "broken")
    repo.rs("memorize", "a fact on the broken branch")
    raw = bytearray(repo.store.read_bytes())
    raw[100:6000] = b"\xff" * 5900
    repo.store.write_bytes(bytes(raw))
    repo.commit("broken store")
    repo.git("checkout", "-q", "main")
    repo.rs("memorize", "a fact on main")
    repo.commit("main")
    ours = hashlib.sha256(repo.store.read_bytes()).hexdigest()

    merged = repo.git("merge", "--no-edit", "broken", check=False)
    assert merged.returncode != 0
    assert "rs-learn merge driver: refused" in merged.stderr + merged.stdout
    assert "CONFLICT" in merged.stdout
    assert hashlib.sha256(repo.store.read_bytes()).hexdigest() == ours
    repo.git("merge", "--abort")

    base, theirs = repo.root / "base.db", repo.root / "theirs.db"
    base.write_bytes(b"")
    theirs.write_bytes(b"not a database, just text" * 100)
    done = host("git", "merge-driver", str(base), str(repo.store), str(theirs), STORE, env=repo.env)
    assert done.returncode == 2, done.stderr
    assert b"theirs (.gm/rs-learn.db)" in done.stderr and b"not a readable SQLite database" in done.stderr
    assert hashlib.sha256(repo.store.read_bytes()).hexdigest() == ours


def test_textconv_of_something_else_says_so(repo: Repo):
    (repo.root / "notes.db").write_text("not sqlite at all")
    done = host("git", "textconv", str(repo.root / "notes.db"), env=repo.env)
    assert done.returncode == 0
    assert done.stdout.decode().startswith("# rs-learn textconv: not a readable store: ")
    assert b"not a readable SQLite database" in done.stderr


@pytest.mark.parametrize("package", ["rs_learn_host", "host_harness"])
def test_drivers_an_older_version_wrote_are_rewritten_and_then_diff_and_merge(tmp_path: Path, package: str):
    """Issue 42 item 2: ``git install`` once wrote ``<python> -m <package>`` into ``.git/config`` and
    ``~/.gitconfig``; after the package's rename every diff and merge of the store failed ("No module
    named rs_learn_host"). ``git install`` rewrites both to run the command, naming each; git then
    diffs and merges the store."""
    repository = Repo(tmp_path / "repo", tmp_path / "gitconfig")
    old = f"{shlex.quote(sys.executable)} -m {package}"
    (repository.root / ".gitattributes").write_text(ATTRIBUTES + "\n")
    for scope in ("--local", "--global"):
        repository.git("config", scope, "diff.rs-learn.textconv", f"{old} git textconv")
        repository.git("config", scope, "merge.rs-learn.driver", f"{old} git merge-driver %O %A %B %P")
    repository.git("config", "merge.rs-learn.name", "rs-learn memory store (three-way merge)")
    repository.git("config", "diff.rs-learn.cachetextconv", "true")
    repository.rs("memorize", "Use pnpm, not npm, in this repository.")
    repository.commit("base")
    if package == "rs_learn_host":  # the broken state users were left in
        repository.rs("memorize", "The staging server listens on port 8080.")
        broken = repository.git("diff", "--", STORE, check=False)
        assert broken.returncode != 0 and "No module named rs_learn_host" in broken.stderr
        repository.git("checkout", "--", STORE)

    done = host("git", "install", env=repository.env)
    assert done.returncode == 0, done.stderr
    said = done.stdout.decode()
    for scope in ("--local", "--global"):
        for key in ("diff.rs-learn.textconv", "merge.rs-learn.driver"):
            assert f"rewrote git config {scope} {key}: `{old} git " in said, said
    config = (repository.git("config", "--get-regexp", r"^(diff|merge)\.rs-learn\.").stdout
              + (tmp_path / "gitconfig").read_text())
    assert " -m " not in config and str(HOST_COMMAND) in config
    assert host("git", "install", env=repository.env).stdout.decode().strip() == "already installed"

    repository.git("checkout", "-q", "-b", "side")
    repository.rs("memorize", "Deploys go through ArgoCD, never kubectl apply.")
    assert '"Deploys go through ArgoCD, never kubectl apply."' in repository.git("diff", "--", STORE).stdout
    repository.commit("side")
    repository.git("checkout", "-q", "main")
    repository.rs("memorize", "The staging server listens on port 8080.")
    repository.commit("main")
    merged = repository.git("merge", "--no-edit", "side")
    assert "rs-learn: merged .gm/rs-learn.db" in merged.stderr + merged.stdout
    assert "ArgoCD" in repository.rs("recall", "how do deploys work?", "--limit", "1")
    assert "8080" in repository.rs("recall", "staging server port", "--limit", "1")
