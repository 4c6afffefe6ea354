"""The exec spool: bodies, ordering, envelopes, crash recovery, collisions, the lock, real watchers."""

from __future__ import annotations

import codecs
import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from hostprocs import (
    HOST,
    Watcher,
    answered_in,
    host,
    host_env,
    leftovers,
    past_the_deadline,
    wait_for,
    write_request,
)

from host_harness.services import HostServices
from host_harness.spool.lock import LockHeld, SpoolLock, pid_alive
from host_harness.spool.watcher import (
    ANSWERED,
    DEFERRED,
    BodyError,
    Spool,
    decode_body,
    ignored,
    scan,
)
from host_harness.targets.base import BaseGuest
from host_harness.targets.component import WasmGuest
from host_harness.targets.runtime import Runtime


def spool_dir(project: Path) -> Path:
    return project / ".gm" / "exec-spool"


def answer(project: Path, n: str) -> dict:
    return json.loads((spool_dir(project) / "out" / f"{n}.json").read_text(encoding="utf-8"))


def put(project: Path, verb: str, name: str, body: bytes | str, age_s: float = 0.0) -> Path:
    path = write_request(project, verb, name, body.encode("utf-8") if isinstance(body, str) else body)
    if age_s:
        stamp = time.time() - age_s
        os.utime(path, (stamp, stamp))
    return path


# bodies


@pytest.mark.parametrize(("raw", "suffix", "text"), [
    (b'{"text": "plain"}', ".json", '{"text": "plain"}'),
    (codecs.BOM_UTF8 + b'{"text": "bom"}', ".txt", '{"text": "bom"}'),
    (codecs.BOM_UTF16_LE + '{"text": "le é"}'.encode("utf-16-le"), ".txt", '{"text": "le é"}'),
    (codecs.BOM_UTF16_BE + "raw ü".encode("utf-16-be"), ".txt", "raw ü"),
    (codecs.BOM_UTF32_LE + "thirty-two".encode("utf-32-le"), ".txt", "thirty-two"),
    (b"[link](x) is markdown", ".md", '"[link](x) is markdown"'),
    (b"# Title\n{not json}", ".MD", '"# Title\\n{not json}"'),
    (b"", ".txt", ""),
])
def test_decode_body(raw: bytes, suffix: str, text: str):
    assert decode_body(raw, suffix) == text


@pytest.mark.parametrize(("raw", "message"), [
    (b"ok \xff\xfe then", "not valid UTF-8 (byte 3: invalid start byte)"),
    (b"\xe2\x82", "not valid UTF-8 (byte 0: unexpected end of data)"),
    (codecs.BOM_UTF16_LE + b"\x00\xd8", "not valid UTF-16-LE"),
])
def test_undecodable_bodies_name_the_problem(raw: bytes, message: str):
    with pytest.raises(BodyError, match=message.replace("(", r"\(").replace(")", r"\)")):
        decode_body(raw, ".txt")


def test_ignored_names_and_processing_order(tmp_path: Path):
    assert ignored(".hidden") and ignored("5.tmp.123") and ignored("5.json.tmp") and not ignored("5.json")
    files = [("recall", "10.txt"), ("memorize", "2.json"), ("recall", "2.txt"), ("version", "b.txt"),
             ("version", "a.txt"), ("memorize", "9"), ("memorize", ".7.json"), ("stats", "3.tmp.9")]
    for verb, name in files:
        (tmp_path / verb).mkdir(exist_ok=True)
        (tmp_path / verb / name).write_text("x")
    (tmp_path / ".hidden-verb").mkdir()
    (tmp_path / ".hidden-verb" / "1.txt").write_text("x")
    order = [f"{r.verb}/{r.name}" for r in scan(tmp_path)[0]]
    assert order == ["memorize/2.json", "recall/2.txt", "memorize/9", "recall/10.txt", "version/a.txt",
                     "version/b.txt"]


# one spool, in process, on both targets


def test_requests_are_answered_and_removed(guest: BaseGuest, project: Path):
    put(project, "memorize", "1.json", '{"text": "Deploys go through ArgoCD."}')
    put(project, "memorize", "2.txt", '"A bare JSON string is a text."')
    put(project, "memorize", "3.txt", "Raw text is a text too.")
    put(project, "memorize", "4.md", "[docs](https://x) live in the wiki.")
    put(project, "recall", "5.txt", "argocd deploys")
    put(project, "stats", "6.json", "{}")
    put(project, "nope", "7.txt", "hi")
    put(project, "memorize", "8.txt", b"bad \xc3\x28 utf-8")
    put(project, "memorize", "9.json", '{"text": ')
    spool = Spool(project, guest)
    counts = spool.drain_all(threading.Event())
    assert counts == {ANSWERED: 9, DEFERRED: 0}
    assert [answer(project, n)["ok"] for n in "1234"] == [True] * 4
    assert answer(project, "4")["data"]["deduped"] is False
    assert answer(project, "5")["data"][0]["text"] == "Deploys go through ArgoCD."
    assert answer(project, "6")["data"]["memories"] == 4
    assert set(answer(project, "7")) == {"ok", "verb", "error"} and answer(project, "7")["ok"] is False
    assert "unknown verb 'nope'" in answer(project, "7")["error"]
    assert answer(project, "8")["error"] == (
        "validation: body is not valid UTF-8 (byte 4: invalid continuation byte)")
    assert answer(project, "9")["error"].startswith("validation: body looks like JSON but does not parse")
    assert not [p for p in (spool_dir(project) / "in").rglob("*") if p.is_file()], "every in-file is removed"
    assert not [p for p in (spool_dir(project) / "work").rglob("*") if p.is_file()], "no claim is left"
    assert not list((spool_dir(project) / "out").glob(".*")), "no temp answer is left"


def test_oversized_and_symlinked_requests_get_errors(guest: BaseGuest, project: Path, tmp_path: Path):
    secret = tmp_path / "secret.txt"
    secret.write_text("not for the spool")
    put(project, "memorize", "1.txt", "x" * 101)
    link = spool_dir(project) / "in" / "memorize" / "2.txt"
    link.symlink_to(secret)
    Spool(project, guest, max_body_bytes=100).drain_all(threading.Event())
    assert answer(project, "1") == {"ok": False, "verb": "memorize",
                                    "error": "validation: body is 101 bytes; the limit is 100"}
    assert "not a symlink" in answer(project, "2")["error"]
    assert secret.exists() and not link.exists()


def test_a_claim_left_by_a_crash_is_answered_exactly_once(guest: BaseGuest, project: Path):
    work = spool_dir(project) / "work" / "memorize"
    work.mkdir(parents=True)
    (work / "1.txt").write_text("Crashed before answering.")  # claimed, no answer: process it
    (work / "2.txt").write_text("Crashed after answering.")  # claimed and answered: just drop the claim
    out = spool_dir(project) / "out"
    out.mkdir(parents=True)
    (out / "2.json").write_text('{"ok": true, "verb": "memorize", "data": "the first answer"}')
    (out / ".3.json.tmp.999999").write_text("torn")
    spool = Spool(project, guest)
    assert spool.recover() == 1
    assert answer(project, "1")["ok"] is True
    assert answer(project, "2")["data"] == "the first answer"
    assert sorted(p.name for p in out.iterdir()) == ["1.json", "2.json"]
    assert not list(work.iterdir())
    assert json.loads(guest.dispatch("stats", "{}"))["data"]["memories"] == 1


def test_same_id_under_two_verbs_waits_for_the_first_answer_to_be_read(guest: BaseGuest, project: Path):
    put(project, "recall", "5.txt", "anything", age_s=2)
    put(project, "memorize", "5.txt", "The first request with id 5.", age_s=2)
    spool = Spool(project, guest)
    assert spool.drain_all(threading.Event()) == {ANSWERED: 1, DEFERRED: 1}
    assert answer(project, "5")["verb"] == "memorize"  # memorize < recall: the first in order
    assert (spool_dir(project) / "in" / "recall" / "5.txt").exists()
    assert spool.drain_all(threading.Event())[DEFERRED] == 1, "still unread: the recall keeps waiting"
    (spool_dir(project) / "out" / "5.json").unlink()  # the client read its answer
    assert spool.drain_all(threading.Event()) == {ANSWERED: 1, DEFERRED: 0}
    assert answer(project, "5")["verb"] == "recall"


def test_a_request_written_after_an_answer_reuses_its_id(guest: BaseGuest, project: Path):
    put(project, "version", "1.txt", "")
    os.utime(spool_dir(project) / "in" / "version" / "1.txt", (time.time() - 1, time.time() - 1))
    spool = Spool(project, guest)
    spool.drain_all(threading.Event())
    assert answer(project, "1")["verb"] == "version"
    time.sleep(0.01)
    put(project, "memorize", "1.txt", "Reusing an id after reading its answer.")
    spool.drain_all(threading.Event())
    assert answer(project, "1")["verb"] == "memorize" and answer(project, "1")["ok"] is True


def test_a_fresh_empty_file_is_left_for_the_next_poll(guest: BaseGuest, project: Path,
                                                      monkeypatch: pytest.MonkeyPatch):
    from host_harness.spool import watcher

    path = put(project, "version", "1.txt", "")
    spool = Spool(project, guest)
    with monkeypatch.context() as fresh:
        fresh.setattr(watcher, "FRESH_EMPTY_NS", 3600 * 10**9)  # fresh however slow the machine is
        assert spool.drain()["postponed"] == 1
    os.utime(path, (time.time() + 0.2, time.time() + 0.2))  # and still fresh for a moment
    assert not (spool_dir(project) / "out" / "1.json").exists()
    assert spool.drain_all(threading.Event())[ANSWERED] == 1  # --once waits for it
    assert answer(project, "1")["ok"] is True


def test_a_guest_trap_costs_one_request(wasm_runtime: Runtime, project: Path):
    slow = threading.Event()

    def clock() -> int:
        if slow.is_set():
            past_the_deadline(wasm_runtime, 1.0)  # the component traps
        return 1_700_000_000_000

    guest = WasmGuest(wasm_runtime, HostServices(project, clock=clock), timeout_s=1.0)
    spool = Spool(project, guest)
    put(project, "memorize", "1.txt", "This one traps.")
    slow.set()
    spool.drain_all(threading.Event())
    slow.clear()
    guest.timeout_s = 30.0
    put(project, "memorize", "2.txt", "This one is stored.")
    spool.drain_all(threading.Event())
    assert answer(project, "1")["ok"] is False and "trapped" in answer(project, "1")["error"]
    assert answer(project, "2")["ok"] is True
    assert guest.instantiations == 2
    assert json.loads(guest.dispatch("stats", "{}"))["data"]["memories"] == 1
    guest.services.close()


# the lock


def test_the_lock_is_exclusive_and_released(tmp_path: Path):
    path = tmp_path / ".lock"
    first, second = SpoolLock(path), SpoolLock(path)
    first.acquire()
    record = json.loads(path.read_text())
    assert record["pid"] == os.getpid() and record["token"] == first.token
    with pytest.raises(LockHeld, match=f"pid {os.getpid()}"):
        second.acquire()
    assert first.refresh()
    first.release()
    assert not path.exists()
    second.acquire()
    second.release()


def test_a_stale_or_dead_holder_is_replaced_and_the_loser_notices(tmp_path: Path):
    path = tmp_path / ".lock"
    now = [1000.0]
    old = SpoolLock(path, clock=lambda: now[0])
    old.acquire()
    now[0] += 4.0
    with pytest.raises(LockHeld):
        SpoolLock(path, clock=lambda: now[0]).acquire()
    now[0] += 2.0  # the heartbeat is now 6 s old: stale
    new = SpoolLock(path, clock=lambda: now[0])
    new.acquire()
    assert not old.refresh() and not old.owned, "the old owner learns it lost the lock"
    old.release()
    assert path.exists(), "releasing a lost lock leaves the new owner's file alone"
    new.release()
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait()
    assert not pid_alive(child.pid)
    path.write_text(json.dumps({"pid": child.pid, "host": new.host, "token": "x", "heartbeat": time.time()}))
    SpoolLock(path).acquire()  # a dead pid on this host: no need to wait for staleness


def test_racing_threads_get_the_lock_exactly_once(tmp_path: Path):
    path = tmp_path / ".lock"
    winners: list[SpoolLock] = []
    barrier = threading.Barrier(8)

    def contend() -> None:
        lock = SpoolLock(path)
        barrier.wait()
        try:
            lock.acquire()
        except LockHeld:
            return
        winners.append(lock)

    threads = [threading.Thread(target=contend) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(winners) == 1


# real watchers (the component, subprocesses)


def mixed_batch(project: Path) -> tuple[dict[str, tuple[bool, str, str]], int]:
    """Write 200 mixed requests; return ``{N: (ok, verb, check)}`` and the number of distinct memories."""
    expect: dict[str, tuple[bool, str, str]] = {}
    texts = 0
    for i in range(200):
        n = str(i + 1)
        kind = i % 20
        text = f"Fact number {i}: the service {i} listens on port {8000 + i}."
        if kind in (0, 1, 2):
            put(project, "memorize", f"{n}.json", json.dumps({"text": text}))
            expect[n], texts = (True, "memorize", ""), texts + 1
        elif kind == 3:
            put(project, "memorize", f"{n}.txt", json.dumps(text))
            expect[n], texts = (True, "memorize", ""), texts + 1
        elif kind == 4:
            put(project, "memorize", f"{n}.txt", text)
            expect[n], texts = (True, "memorize", ""), texts + 1
        elif kind == 5:
            put(project, "memorize", f"{n}.md", f"[{text}](https://example.com)\n\n- a list")
            expect[n], texts = (True, "memorize", ""), texts + 1
        elif kind == 6:
            put(project, "memorize", f"{n}.txt", codecs.BOM_UTF8 + json.dumps({"text": text}).encode())
            expect[n], texts = (True, "memorize", ""), texts + 1
        elif kind == 7:
            put(project, "memorize", f"{n}.txt", codecs.BOM_UTF16_LE + f"{text} é".encode("utf-16-le"))
            expect[n], texts = (True, "memorize", ""), texts + 1
        elif kind == 8:
            put(project, "memorize", f"{n}.txt", codecs.BOM_UTF16_BE + f"{text} ü".encode("utf-16-be"))
            expect[n], texts = (True, "memorize", ""), texts + 1
        elif kind in (9, 10, 11):
            put(project, "recall", f"{n}.json", json.dumps({"query": f"port of service {i}", "limit": 3}))
            expect[n] = (True, "recall", "list")
        elif kind == 12:
            put(project, "stats", f"{n}.json", "{}")
            expect[n] = (True, "stats", "")
        elif kind == 13:
            put(project, "version", f"{n}.txt", "{}")
            expect[n] = (True, "version", "")
        elif kind == 14:
            put(project, "memorize", f"{n}.txt", b"broken \xff utf-8")
            expect[n] = (False, "memorize", "not valid UTF-8 (byte 7")
        elif kind == 15:
            put(project, "memorize", f"{n}.json", '{"text": "unterminated')
            expect[n] = (False, "memorize", "does not parse")
        elif kind == 16:
            put(project, f"frobnicate{i}", f"{n}.txt", "hi")
            expect[n] = (False, f"frobnicate{i}", "unknown verb")
        elif kind == 17:
            put(project, "memorize", f"{n}.json", json.dumps({"text": text, "namespace": "../escape"}))
            expect[n] = (False, "memorize", "not a valid name")
        elif kind == 18:
            put(project, "recall", f"{n}.json", json.dumps({"query": "x", "limit": 101}))
            expect[n] = (False, "recall", "between 0 and 100")
        else:
            put(project, "memorize", f"{n}.json", json.dumps({"text": text}))  # the same text again
            put(project, "memorize", f"{n}b.json", json.dumps({"text": text}))
            expect[n], expect[f"{n}b"] = (True, "memorize", ""), (True, "memorize", "deduped")
            texts += 1
    big = spool_dir(project) / "in" / "memorize" / "201.txt"
    with open(big, "wb") as handle:
        handle.truncate(2 * 1024 * 1024 + 1)  # sparse: the watcher must not read it to refuse it
    expect["201"] = (False, "memorize", "body is 2097153 bytes; the limit is 2097152")
    return expect, texts


def test_watch_answers_a_mixed_batch_and_stops_cleanly(wasm_path: Path, wasm_runtime: Runtime, project: Path):
    env = host_env(project)
    watcher = Watcher(env)
    watcher.wait_ready()
    expect, texts = mixed_batch(project)
    out = spool_dir(project) / "out"
    wait_for(lambda: len(list(out.glob("*.json"))) == len(expect), 90, "every answer")
    assert watcher.stop() == 0
    for n, (ok, verb, check) in expect.items():
        got = answer(project, n)
        assert got["ok"] is ok and got["verb"] == verb, (n, got)
        if not ok:
            assert check in got["error"], (n, got)
        elif check == "list":
            assert isinstance(got["data"], list) and got["data"], (n, got)
        elif check == "deduped":
            assert got["data"]["deduped"] is True
    assert len(watcher.answered()) == len(expect) == len(set(watcher.answered()))
    assert not [p for p in (spool_dir(project) / "in").rglob("*") if p.is_file()]
    assert not (spool_dir(project) / ".lock").exists(), "SIGTERM releases the lock"
    assert leftovers(project) == []
    stats = json.loads(host("stats", "--json", env=env).stdout)
    assert stats["memories"] == texts


def test_kill_9_mid_batch_then_restart_answers_everything_once(wasm_path: Path, wasm_runtime: Runtime,
                                                              project: Path):
    env = host_env(project)
    for i in range(80):
        put(project, "memorize", f"{i + 1}.txt", f"Crash-test fact {i}: shard {i} is owned by team {i % 7}.")
    watcher = Watcher(env)
    out = spool_dir(project) / "out"
    wait_for(lambda: len(list(out.glob("*.json"))) >= 15, 60, "some answers")
    assert watcher.stop(signal.SIGKILL) == -signal.SIGKILL
    first = watcher.answered()
    assert 10 <= len(first) < 80, "killed mid-batch"
    lock = json.loads((spool_dir(project) / ".lock").read_text())
    assert lock["pid"] == watcher.proc.pid, "a kill -9 leaves its lock behind"

    again = subprocess.run([*HOST, "-v", "spool", "--once"], env=env,
                           capture_output=True, text=True, timeout=90)
    assert again.returncode == 0, again.stderr
    assert "taking over the spool lock" in again.stderr
    second = answered_in(again.stderr.splitlines())
    recovered = [line.split(": ", 1)[1].split(" was answered")[0] for line in again.stderr.splitlines()
                 if "was answered before a crash" in line]
    logged = first + second
    assert len(logged) == len(set(logged)), "no request is answered twice"
    assert not set(recovered) & set(second)
    assert len(set(logged) | set(recovered)) >= 79, "one answer at most fell between its write and its log"
    answers = [answer(project, str(i + 1)) for i in range(80)]
    assert all(a["ok"] for a in answers)
    assert sum(a["data"]["deduped"] for a in answers) == 0, "no request ran twice (the replay ledger)"
    assert json.loads(host("stats", "--json", env=env).stdout)["memories"] == 80
    assert leftovers(project) == []
    assert not (spool_dir(project) / ".lock").exists()
    assert not [p for p in (spool_dir(project) / "work").rglob("*") if p.is_file()]


def test_sigterm_mid_batch_finishes_the_current_request(wasm_path: Path, wasm_runtime: Runtime,
                                                         project: Path):
    env = host_env(project)
    for i in range(60):
        put(project, "memorize", f"{i + 1}.txt", f"Term-test fact {i}: queue {i} drains into topic {i % 5}.")
    watcher = Watcher(env)
    out = spool_dir(project) / "out"
    wait_for(lambda: len(list(out.glob("*.json"))) >= 10, 60, "some answers")
    assert watcher.stop() == 0
    answered = len(list(out.glob("*.json")))
    pending = [p for p in (spool_dir(project) / "in").rglob("*.txt")]
    assert answered + len(pending) == 60
    assert not [p for p in (spool_dir(project) / "work").rglob("*") if p.is_file()], "no half-done request"
    assert not (spool_dir(project) / ".lock").exists() and leftovers(project) == []
    assert json.loads(host("stats", "--json", env=env).stdout)["memories"] == answered


def test_two_watchers_racing_exactly_one_wins(wasm_path: Path, wasm_runtime: Runtime, project: Path):
    env = host_env(project)
    first, second = Watcher(env), Watcher(env)
    assert first.ready.wait(60) and second.ready.wait(60)  # watching, or exited
    wait_for(lambda: any(w.proc.poll() is not None for w in (first, second)), 60, "the loser to exit")
    running = [w for w in (first, second) if w.proc.poll() is None]
    assert len(running) == 1, [w.lines for w in (first, second)]
    loser = second if running[0] is first else first
    assert loser.proc.wait(10) == 3 and running[0].proc.poll() is None
    assert "another spool watcher holds the lock" in "\n".join(loser.lines)
    put(project, "version", "1.txt", "{}")
    once = host("spool", "--once", env=env)
    assert once.returncode == 3, "--once respects a live watcher too"
    wait_for(lambda: (spool_dir(project) / "out" / "1.json").exists(), 30, "the winner's answer")
    assert running[0].stop() == 0


def test_a_stale_lock_of_a_live_process_is_taken_over(wasm_path: Path, wasm_runtime: Runtime, project: Path):
    env = host_env(project)
    lock = spool_dir(project) / ".lock"
    put(project, "version", "1.txt", "{}")
    live = SpoolLock(lock, heartbeat_s=0.1)  # a live watcher, beating however long the CLI takes to start
    live.acquire()
    live.start_heartbeat(lambda: None)
    try:
        assert host("spool", "--once", env=env).returncode == 3, "a live, fresh holder is respected"
    finally:
        live.release()
    holder = {"pid": os.getpid(), "host": socket.gethostname(), "token": "hung", "started": 0}
    lock.write_text(json.dumps({**holder, "heartbeat": time.time() - 60}))  # alive, but silent for a minute
    done = host("spool", "--once", env=env)
    assert done.returncode == 0, done.stderr
    assert answer(project, "1")["ok"] is True and not lock.exists()


def test_once_without_a_spool_creates_nothing(project: Path):
    done = host("spool", "--once", env=host_env(project))
    assert done.returncode == 0 and done.stdout == b"answered 0 request(s)\n"
    assert not (project / ".gm").exists()
    assert host("spool", env=host_env(project)).returncode == 2, "--once or --watch is required"
