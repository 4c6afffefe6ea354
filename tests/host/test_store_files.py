"""The files SQLite opens beside a store (issue 25, items 6 to 8).

Hard links and FIFOs at a store, a journal, a super-journal or the spool's ledger are refused
before SQLite opens them (never blocking); orphaned super-journals are removed by a write, never by
a read, and ``.gm/.gitignore`` keeps the local state out of git.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from envelopes import call, ok
from helpers.cli import host_in_process
from hostprocs import host, host_env, write_request

from host_harness.hooks.protocol import LOG_NAME, WARM_SOCKET
from host_harness.services import HostServices
from host_harness.spool.watcher import SPOOL, Spool

JOURNAL_MAGIC = bytes((0xD9, 0xD5, 0x05, 0xF9, 0x20, 0xA1, 0x63, 0xD7))

GM = Path(".gm")
SUPER = "rs-learn.db-mj1A2B3C94F"


@pytest.fixture
def outside(tmp_path: Path) -> Path:
    folder = tmp_path / "outside"
    folder.mkdir()
    return folder


def seeded(project: Path, clock, guest_factory) -> None:
    """A store with one memory, written and closed by another 'process'."""
    services = HostServices(project, clock=clock)
    ok(guest_factory(services), "memorize", "A first fact about ports.")
    services.close()


def snapshot(folder: Path) -> dict[str, tuple[bytes, int]]:
    return {str(p.relative_to(folder)): (p.read_bytes(), p.stat().st_mtime_ns)
            for p in sorted(folder.rglob("*")) if p.is_file() and not p.is_symlink()}


# item 6: hard links


@pytest.mark.parametrize("name", ["rs-learn.db", "rs-learn.db-journal"])
def test_a_hard_linked_store_or_journal_is_refused(guest_factory, project: Path, clock, outside: Path,
                                                   name: str):
    seeded(project, clock, guest_factory)
    planted = project / GM / name
    victim = outside / name
    if planted.exists():
        os.replace(planted, victim)
    else:
        victim.write_bytes(b"an outside file, not a journal\n" * 100)
    os.link(victim, planted)
    before = snapshot(outside)
    services = HostServices(project, clock=clock)
    guest = guest_factory(services)
    for verb, body in (("memorize", "A second fact."), ("recall", "ports")):
        envelope = call(guest, verb, body)
        assert envelope["ok"] is False, envelope
        assert f"{planted} has 2 hard links" in envelope["error"], envelope["error"]
    services.close()
    assert snapshot(outside) == before and victim.stat().st_nlink == 2


def test_a_hard_linked_ledger_is_refused(guest, guest_factory, project: Path, clock, outside: Path):
    ok(guest, "memorize", "A first fact.")
    victim = outside / "ledger.db"
    victim.write_bytes(b"")
    (project / GM / "exec-spool").mkdir()
    os.link(victim, project / GM / "exec-spool" / "ledger.db")
    write_request(project, "memorize", "1.txt", b"A spooled fact.")
    with pytest.raises(OSError, match=r"ledger\.db has 2 hard links"):
        spool = Spool(project, guest)
        try:
            spool.drain_all(threading.Event())
        finally:
            spool.close()
    services = HostServices(project, clock=clock)
    assert victim.read_bytes() == b"" and ok(guest_factory(services), "stats")["memories"] == 1
    services.close()


# item 7: FIFOs (and other non-regular files), never opened


FIFO_PATHS = [
    "rs-learn.db-journal", "rs-learn.db-wal", "rs-learn.db-shm", SUPER, "rs-learn.db",
    "disciplines/frontend/rs-learn.db-journal",
]


@pytest.mark.slow  # each case waits out a blocked open
@pytest.mark.parametrize("where", FIFO_PATHS)
def test_a_fifo_beside_a_store_is_refused_without_blocking(target: str, project: Path, where: str):
    env = host_env(project)
    flags = ["--native"] if target == "native" else []
    # the two stores, in this process; the refusals below in processes (a regression would block for ever)
    assert host_in_process(*flags, "memorize", "A first fact about ports.", env=env).returncode == 0
    assert host_in_process(*flags, "memorize", "-n", "frontend", "Vite builds it.", env=env).returncode == 0
    fifo = project / GM / where
    if fifo.exists():
        fifo.unlink()
    os.mkfifo(fifo)
    sigil = "@frontend " if where.startswith("disciplines") else ""
    for args in (["memorize", f"{sigil}A second fact."], ["recall", f"{sigil}ports"]):
        done = host(*flags, *args, env=env, timeout=120)  # before: blocked for ever on the FIFO
        assert done.returncode == 1, (args, done.stdout, done.stderr)
        assert f"{fifo} is a FIFO, not a regular file" in done.stderr.decode(), done.stderr


LONG_LIVED = """
import json, os, sys
from pathlib import Path
from host_harness.services import HostServices
project, target, wasm = Path(sys.argv[1]), sys.argv[2], sys.argv[3]
services = HostServices(project)
if target == "native":
    from host_harness.targets.native import NativeGuest
    guest = NativeGuest(services)
else:
    from host_harness.targets.component import WasmGuest
    from host_harness.targets.runtime import Runtime
    guest = WasmGuest(Runtime.load(wasm), services)
print(guest.dispatch("memorize", "A first fact about ports."), flush=True)
os.mkfifo(project / ".gm" / "rs-learn.db-journal")  # planted while the connection is open
print(guest.dispatch("recall", "ports"), flush=True)
print(guest.dispatch("memorize", "A second fact."), flush=True)
"""


def test_a_fifo_planted_under_an_open_connection_is_refused(target: str, project: Path, wasm_path: Path):
    done = subprocess.run([sys.executable, "-c", LONG_LIVED, str(project), target, str(wasm_path)],
                          env=host_env(project), capture_output=True, timeout=120)
    assert done.returncode == 0, done.stderr
    first, *later = (json.loads(line) for line in done.stdout.splitlines())
    assert first["ok"] is True
    for envelope in later:
        assert envelope["ok"] is False and "rs-learn.db-journal is a FIFO" in envelope["error"], envelope


def test_a_fifo_at_the_ledger_is_refused_without_blocking(project: Path):
    (project / GM / "exec-spool").mkdir(parents=True)
    os.mkfifo(project / GM / "exec-spool" / "ledger.db-journal")
    write_request(project, "memorize", "1.txt", b"A spooled fact.")
    done = host("spool", "--once", env=host_env(project), timeout=120)  # before: blocked for ever
    assert done.returncode == 0, done.stderr
    answer = json.loads((project / GM / "exec-spool" / "out" / "1.json").read_text())
    assert answer["ok"] is False and "ledger.db-journal is a FIFO" in answer["error"], answer


# item 8: super-journals


def journal_tail(super_path: Path) -> bytes:
    """What SQLite writes at the end of a journal that takes part in a multi-file commit."""
    name = str(super_path).encode()
    checksum = sum(name) & 0xFFFFFFFF
    return (name + len(name).to_bytes(4, "big") + checksum.to_bytes(4, "big")
            + JOURNAL_MAGIC)


def plant_super(project: Path, name: str, children: list[Path]) -> Path:
    path = project / GM / name
    path.write_bytes(b"".join(str(child).encode() + b"\x00" for child in children))
    return path


def test_orphaned_super_journals_are_removed_by_a_write_never_by_a_read(guest_factory, project: Path, clock):
    seeded(project, clock, guest_factory)
    gm = project / GM
    journals = [gm / "rs-learn.db-journal", gm / "exec-spool" / "ledger.db-journal"]
    orphan = plant_super(project, SUPER, journals)  # its commit finished; the journals are gone
    empty = plant_super(project, "rs-learn.db-mjAAAAAA9BB", [])  # killed before it listed anything
    (gm / "exec-spool").mkdir()
    live = plant_super(project, "rs-learn.db-mj0F0F0F977", journals)
    journals[1].write_bytes(b"\x00" * 512 + journal_tail(live))  # the ledger's hot journal still names it
    other = plant_super(project, "other.db-mj1111119AA", [])  # not this store's
    before = snapshot(gm)
    services = HostServices(project, clock=clock)  # a process started after the kills
    guest = guest_factory(services)
    assert len(ok(guest, "recall", "ports")) == 1
    assert ok(guest, "memorize", "A first fact about ports.")["deduped"] is True  # changes nothing
    assert snapshot(gm) == before, "a read leaves .gm byte-identical"
    ok(guest, "memorize", "A second fact.")
    assert not orphan.exists() and not empty.exists()
    assert live.exists() and other.exists()
    services.close()


def test_a_journal_naming_a_super_journal_outside_the_project_is_refused(guest, project: Path, outside: Path):
    ok(guest, "memorize", "A first fact about ports.")
    secret = outside / "secret.db-mj1234569AB"
    secret.write_bytes(b"/etc/passwd\x00")
    (project / GM / "rs-learn.db-journal").write_bytes(b"\x00" * 512 + journal_tail(secret))
    envelope = call(guest, "recall", "ports")
    assert envelope["ok"] is False
    assert f"names {secret}, outside the project" in envelope["error"], envelope["error"]


# The last bytes of a rollback journal left by a SQLite commit over two attached files, killed while
# it committed (``/tmp/mjexp/d/main.db`` and ``other.db``): the super-journal's path, its length,
# its checksum and the journal magic.
REAL_TAIL = bytes.fromhex("2f746d702f6d6a6578702f642f6d61696e2e64622d6d6a3341313838353941360000002000000a2c"
                          "d9d505f920a163d7")


def test_super_journal_names_are_read_as_sqlite_writes_them(tmp_path: Path):
    from host_harness.store import sqlite_files

    real = Path("/tmp/mjexp/d/main.db-mj3A18859A6")
    assert journal_tail(real) == REAL_TAIL
    (tmp_path / "main.db-journal").write_bytes(b"\xd9\xd5\x05\xf9" + b"\x00" * 9000 + REAL_TAIL)
    (tmp_path / "short-journal").write_bytes(b"\x00" * 15)
    (tmp_path / "plain-journal").write_bytes(b"\xd9\xd5\x05\xf9" + b"\x00" * 600)
    fd = os.open(tmp_path, os.O_RDONLY)
    try:
        assert sqlite_files.super_named(fd, "main.db-journal", tmp_path / "x") == str(real)
        assert sqlite_files.super_named(fd, "short-journal", tmp_path / "x") is None
        assert sqlite_files.super_named(fd, "plain-journal", tmp_path / "x") is None
    finally:
        os.close(fd)
    assert sqlite_files.journals_of(b"/a/b-journal\x00/c/d-journal\x00") == ["/a/b-journal", "/c/d-journal"]


# item 8: .gm/.gitignore


def git(project: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["git", *args], cwd=project, capture_output=True, text=True, check=False)


LOCAL = [".gm/rs-learn.db-journal", ".gm/rs-learn.db-mj1A2B3C94F", ".gm/rs-learn.db-queue",
         ".gm/disciplines/web/rs-learn.db-journal", ".gm/disciplines/web/rs-learn.db-mj0000009AA",
         ".gm/exec-spool/ledger.db", ".gm/exec-spool/in/recall/1.json", ".gm/logs/hook.log",
         ".gm/rs-learn.sock", ".gm/rs-learn.db-wal"]
COMMITTED = [".gm/rs-learn.db", ".gm/config.json", ".gm/disciplines/enabled.txt",
             ".gm/disciplines/web/rs-learn.db", ".gm/managed-skills/deploy/SKILL.md",
             ".gm/skills/review/SKILL.md", ".gm/.gitignore"]


def ignored(project: Path, paths: list[str]) -> list[str]:
    done = git(project, "check-ignore", "--no-index", *paths)
    return sorted(done.stdout.split())


def test_the_first_write_keeps_local_state_out_of_git(guest, project: Path):
    from host_harness.fs import local_state

    git(project, "init", "-q")
    assert call(guest, "recall", "anything")["ok"] is True
    assert not (project / GM).exists(), "a read creates nothing"
    ok(guest, "memorize", "A first fact.")
    assert (project / GM / ".gitignore").read_text() == local_state.gitignore_text()
    assert (project / GM / ".gitattributes").read_text() == local_state.gitattributes_text()
    assert ignored(project, LOCAL + COMMITTED) == sorted(LOCAL)


def test_a_gm_made_by_hand_gets_its_local_files_and_keeps_the_users(guest, project: Path):
    from host_harness.fs import local_state

    (project / GM).mkdir()
    ok(guest, "memorize", "A first fact.")
    assert (project / GM / ".gitignore").read_text() == local_state.gitignore_text()
    assert (project / GM / ".gitattributes").read_text() == local_state.gitattributes_text()
    (project / GM / ".gitignore").write_text("mine\n")
    ok(guest, "memorize", "A second fact.")
    assert (project / GM / ".gitignore").read_text() == "mine\n", "an existing file is the user's"


def test_the_spool_first_leaves_local_state_out_of_git(tmp_path: Path):
    """The seed's own flow: a request dropped into a .gm/ made by hand, then `spool --once` (issue 42)."""
    from click.testing import CliRunner

    from host_harness.cli.main import cli

    project = tmp_path / "p"
    inbox = project / GM / "exec-spool" / "in" / "memorize"
    inbox.mkdir(parents=True)
    (inbox / "1.json").write_text('{"text": "Use pnpm, not npm."}')
    git(project, "init", "-q")
    done = CliRunner().invoke(cli, ["-p", str(project), "spool", "--once"])
    assert done.exit_code == 0, done.output
    assert (project / GM / "exec-spool" / "out" / "1.json").is_file()
    git(project, "add", "-A")
    staged = git(project, "diff", "--cached", "--name-only").stdout.split()
    assert sorted(staged) == [".gm/.gitattributes", ".gm/.gitignore", ".gm/rs-learn.db"]


def test_the_same_list_serves_the_projects_own_gitignore(project: Path):
    from host_harness.fs import local_state

    git(project, "init", "-q")
    (project / ".gitignore").write_text("".join(line + "\n" for line in local_state.project_patterns()))
    assert ignored(project, LOCAL + COMMITTED) == sorted(LOCAL)
    assert (WARM_SOCKET, LOG_NAME) == (local_state.SOCKET, "hook.log")
    assert SPOOL == (".gm", "exec-spool") and "/exec-spool/" in local_state.LOCAL_STATE
