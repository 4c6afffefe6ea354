"""The Node reference host (hosts/node): its own unit tests, its CLI, and parity with this harness."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from conftest import ROOT

NODE_DIR = ROOT / "hosts" / "node"


def run_node(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(NODE_DIR / "node"), *args], input=stdin, capture_output=True, text=True,
                          timeout=300, cwd=NODE_DIR)


def test_the_node_unit_tests_pass(node_host):
    done = run_node("--test", *sorted(str(p) for p in (NODE_DIR / "test").glob("*.test.mjs")))
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]
    assert "# fail 0" in done.stdout or "ℹ fail 0" in done.stdout


def test_case_folding_matches_python_on_every_code_point(node_host):
    chars = [chr(cp) for cp in range(sys.maxunicode + 1) if not 0xD800 <= cp <= 0xDFFF]
    text = "".join(chars)
    script = ("import { casefold } from './src/casefold.mjs';"
              "let s = ''; process.stdin.setEncoding('utf8'); process.stdin.on('data', (d) => { s += d; });"
              "process.stdin.on('end', () => process.stdout.write(JSON.stringify("
              "Array.from(s, (c) => casefold(c)))));")
    done = run_node("--input-type=module", "-e", script, stdin=text)
    assert done.returncode == 0, done.stderr
    folded = json.loads(done.stdout)
    assert len(folded) == len(chars)
    differ = [hex(ord(c)) for c, f in zip(chars, folded, strict=True) if c.casefold() != f]
    assert differ == []


def test_the_cli(node_host: Path, project: Path):
    def cli(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([str(node_host), "-p", str(project), *args], capture_output=True, text=True,
                              timeout=120)

    fact = "Use pnpm, not npm, to install packages in this repo."  # "packages": evidence for the query
    first = cli("memorize", fact)
    assert first.returncode == 0 and first.stdout.startswith("mem-")
    assert cli("memorize", fact).stdout.strip().endswith("(already stored)")
    recalled = cli("recall", "which package manager?")
    assert recalled.returncode == 0
    assert recalled.stdout == f"1. (1.000) {fact}  {first.stdout.strip()}\n"
    assert json.loads(cli("recall", "pnpm", "--json").stdout)[0]["id"] == first.stdout.strip()
    envelope = json.loads(cli("dispatch", "stats", "{}").stdout)
    assert envelope["ok"] and envelope["data"]["memories"] == 1
    bad = cli("dispatch", "recall", '{"query": "x", "limit": 101}')
    assert bad.returncode == 1
    assert json.loads(bad.stdout)["error"] == "validation: field 'limit' must be between 0 and 100, got 101"
    usage = cli("frobnicate")
    assert usage.returncode == 2 and "usage: rs-learn-node" in usage.stderr
    assert not list(project.rglob("*-journal")), "no SQLite side file left behind"


def test_too_old_a_node_is_refused_with_a_clear_message(node_host, tmp_path):
    fake = tmp_path / "old-node"
    pretend = ("Object.defineProperty(process.versions, 'node', {value: '20.20.2'});"
               " await import(process.argv[1])")
    node = NODE_DIR / "node"
    fake.write_text(f"#!/bin/sh\nexec {node} --input-type=module --eval \"{pretend}\" \"$@\"\n")
    fake.chmod(0o755)
    done = subprocess.run([str(fake), str(NODE_DIR / "src" / "cli.mjs"), "recall", "x"], capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 2
    assert "Node >= 22.13 is required" in done.stderr and "extended-const" in done.stderr
