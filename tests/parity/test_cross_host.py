"""Two hosts, one project: the Node host and the Python harness share `.gm/` stores both ways."""

from __future__ import annotations

import json
import math
import re
import sqlite3
import subprocess
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from conftest import ROOT
from docpages import page
from helpers.cli import host_in_process
from hostprocs import host, host_env

from host_harness.store import MIGRATIONS

MEMORIES = [
    ("Use pnpm, not npm, to install packages in this repository.", "default"),
    ("Deploys go through ArgoCD; never kubectl apply by hand.", "default"),
    ("The app is built with vite and served by nginx.", "frontend"),
]
FACTS = [text for text, _ in MEMORIES]


def node(node_host: Path, project: Path, *args: str) -> subprocess.CompletedProcess[str]:
    done = subprocess.run([str(node_host), "-p", str(project), *args], capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr
    return done


def python(project: Path, *args: str) -> str:
    """The Python harness's answer, in this process (the Node host is the other process)."""
    done = host_in_process(*args, env=host_env(project))
    assert done.returncode == 0, done.stderr.decode()
    return done.stdout.decode()


def same_hits(a: list[dict], b: list[dict]) -> bool:
    """Equal hits; scores may differ in the last f32 bits (each host computes its own cosines)."""
    def plain(hits: list[dict]) -> list[tuple[str, str, str]]:
        return [(h["id"], h["text"], h["namespace"]) for h in hits]

    return plain(a) == plain(b) and all(math.isclose(x["score"], y["score"], rel_tol=1e-6, abs_tol=1e-6)
                                        for x, y in zip(a, b, strict=True))


def rows(db: Path) -> list[tuple[str, str, bytes]]:
    """Every row of a store, with the memories' wall-clock ``ts`` taken out."""
    with sqlite3.connect(db) as conn:
        out = []
        for ns, key, value in conn.execute("SELECT ns, key, value FROM kv ORDER BY ns, key"):
            if ns == "memories":
                record = json.loads(value)
                record.pop("ts")
                value = json.dumps(record, sort_keys=True).encode()
            out.append((ns, key, bytes(value)))
        return out


def header(db: Path) -> list[object]:
    with sqlite3.connect(db) as conn:
        return [conn.execute(f"PRAGMA {name}").fetchone()[0] for name in ("page_size", "journal_mode",
                                                                             "user_version")] \
            + [conn.execute("SELECT sql FROM sqlite_master").fetchall()]


def test_memorize_in_node_recall_in_python(node_host, project):
    (project / ".gm" / "disciplines").mkdir(parents=True)
    (project / ".gm" / "disciplines" / "enabled.txt").write_text("frontend\n", encoding="utf-8")
    ids = [node(node_host, project, "memorize", fact, "-n", ns).stdout.strip() for fact, ns in MEMORIES]
    again = node(node_host, project, "memorize", "@frontend " + FACTS[2]).stdout.strip()
    assert again == f"{ids[2]} (already stored)", "a sigil chooses the same store"
    hits = json.loads(python(project, "recall", "which package manager?", "--json", "--limit", "3"))
    assert hits[0]["id"] == ids[0] and hits[0]["text"] == FACTS[0]
    hits = json.loads(python(project, "recall", "how is the app built", "--json", "--limit", "1"))
    assert hits[0]["id"] == ids[2] and hits[0]["namespace"] == "frontend"
    assert hits[0]["text"] == "[discipline:frontend] The app is built with vite and served by nginx."
    stats = json.loads(python(project, "stats", "--json"))
    assert stats["memories"] == 2
    assert python(project, "memorize", FACTS[0]).strip() == f"{ids[0]} (already stored)"


def test_memorize_in_python_recall_in_node(node_host, project):
    ids = [python(project, "memorize", fact, "-n", ns).strip() for fact, ns in MEMORIES]
    for query in ("which package manager?", "@frontend how is the app built", "how do we deploy"):
        from_node = json.loads(node(node_host, project, "recall", query, "--json", "--limit", "3").stdout)
        from_python = json.loads(python(project, "recall", query, "--json", "--limit", "3"))
        assert from_node and same_hits(from_node, from_python), query
    assert node(node_host, project, "memorize", FACTS[1]).stdout.strip() == f"{ids[1]} (already stored)"
    envelope = json.loads(node(node_host, project, "dispatch", "stats", "{}").stdout)
    assert envelope == {"ok": True, "verb": "stats", "data": {**envelope["data"], "memories": 2}}


def test_both_hosts_write_the_same_store(node_host, tmp_path):
    by_python, by_node = tmp_path / "py", tmp_path / "node"
    by_python.mkdir()
    by_node.mkdir()
    for fact, ns in MEMORIES:
        python(by_python, "memorize", fact, "-n", ns)
        node(node_host, by_node, "memorize", fact, "-n", ns)
    for rel in (".gm/rs-learn.db", ".gm/disciplines/frontend/rs-learn.db"):
        assert header(by_python / rel) == header(by_node / rel) == header(by_python / rel)
        assert rows(by_python / rel) == rows(by_node / rel), rel
    assert header(by_node / ".gm/rs-learn.db")[:3] == [8192, "delete", len(MIGRATIONS)]


@pytest.mark.slow  # the Node and Python hosts as processes
def test_corrections_cross_hosts(node_host, project):
    (project / "src").mkdir()
    (project / "src" / "retry.py").write_text("RETRIES = 3\n")
    retry = python(project, "memorize", "Retries are configured in src/retry.py.").strip()
    npm = python(project, "memorize", "Use npm to install packages.").strip()
    body = json.dumps({"text": "Use pnpm, not npm, to install packages.", "supersedes": [npm],
                       "origin": {"kind": "typed", "by": "user"}})  # as trusted as the head it replaces
    assert json.loads(node(node_host, project, "dispatch", "memorize", body).stdout)["ok"]
    texts = [h["text"] for h in json.loads(python(project, "recall", "package manager", "--json"))]
    assert texts[0] == "Use pnpm, not npm, to install packages."
    assert "Use npm to install packages." not in texts
    (project / "src" / "retry.py").write_text("RETRIES = 5\n")
    answer = node(node_host, project, "dispatch", "recall", '{"query": "retries"}').stdout
    recalled = json.loads(answer)["data"]
    assert recalled[0]["id"] == retry and recalled[0]["stale"] == {"files": ["src/retry.py"]}
    node(node_host, project, "dispatch", "forget", json.dumps({"ids": [retry], "reason": "moved"}))
    assert retry not in python(project, "recall", "retries", "--json")
    assert "forgotten" in json.loads(python(project, "show", retry, "--json"))


def test_both_hosts_record_the_same_file_digests(node_host, tmp_path):
    by_python, by_node = tmp_path / "py", tmp_path / "node"
    for root in (by_python, by_node):
        (root / "src").mkdir(parents=True)
        (root / "src" / "retry.py").write_text("RETRIES = 3\n")
    text = "Retries are configured in src/retry.py; see the Makefile."
    python(by_python, "memorize", text)
    node(node_host, by_node, "memorize", text)
    assert rows(by_python / ".gm/rs-learn.db") == rows(by_node / ".gm/rs-learn.db")
    record = next(json.loads(v) for ns, _, v in rows(by_node / ".gm/rs-learn.db") if ns == "memories")
    assert list(record["files"]) == ["src/retry.py"]


def test_structured_records_cross_hosts_under_the_same_scope(node_host, project):
    python(project, "records", "--project-id", "app", "create", "todo", "Fix the flaky login test")
    scope = json.dumps({"projectId": "app"})
    envelope = json.loads(node(node_host, project, "--scope", scope, "dispatch", "get_record",
                               '{"id": "td-1"}').stdout)
    assert envelope["ok"] and envelope["data"]["title"] == "Fix the flaky login test"
    node(node_host, project, "--scope", scope, "dispatch", "update_todo", '{"id": "td-1", "status": "done"}')
    shown = json.loads(python(project, "records", "--project-id", "app", "show", "td-1", "--json"))
    assert shown["status"] == "done" and shown["version"] == 2
    other = subprocess.run([str(node_host), "-p", str(project), "--scope", json.dumps({"projectId": "x"}),
                            "dispatch", "get_record", '{"id": "td-1"}'],
                           capture_output=True, text=True, timeout=120)
    assert other.returncode == 1 and json.loads(other.stdout)["error"].startswith("not_found:")


@pytest.mark.parametrize("writers", [4])
def test_concurrent_writers_of_both_hosts_lose_nothing(node_host, project, writers):
    def write(i: int) -> None:
        text = f"Fact number {i} was written concurrently by the {'node' if i % 2 else 'python'} host."
        if i % 2:
            node(node_host, project, "memorize", text)
        else:  # a process: writers at once (the in-process runner swaps this process's stdout)
            done = host("memorize", text, env=host_env(project))
            assert done.returncode == 0, done.stderr.decode()

    with ThreadPoolExecutor(max_workers=writers) as pool:
        list(pool.map(write, range(2 * writers)))
    assert json.loads(python(project, "stats", "--json"))["memories"] == 2 * writers
    with sqlite3.connect(project / ".gm" / "rs-learn.db") as conn:
        docs = conn.execute("SELECT count(*) FROM kv WHERE ns = 'docs'").fetchone()[0]
    assert docs == 2 * writers, "every memorize got its own document number"


def test_the_readme_example_of_two_hosts_on_one_project(node_host, project):
    block = re.search(r"even at the same time:\n\n```sh\n(.*?)```", page("hosts.md"), re.S)
    assert block
    outputs = []
    for line in block.group(1).splitlines():
        command = line.split("  #")[0].replace("path/to/project", str(project))
        command = command.replace(".venv/bin/rs-learn-host", f"{ROOT}/.venv/bin/rs-learn-host")
        command = command.replace("hosts/node/rs-learn-node", str(node_host))
        done = subprocess.run(command, shell=True, capture_output=True, text=True, timeout=120, cwd=project,
                              env=host_env(project))
        assert done.returncode == 0, (command, done.stderr)
        outputs.append(done.stdout)
    assert "Use pnpm, not npm, to install packages in this repo" in outputs[1]
    assert json.loads(outputs[2])[0]["text"] == "Use pnpm, not npm, to install packages in this repo"
    assert json.loads(outputs[3])["data"]["memories"] == 1
