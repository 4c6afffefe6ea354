"""Spool liveness: every entry is answered or set aside, nothing hangs the watcher (issue 11, item 7)."""

from __future__ import annotations

import contextlib
import errno
import json
import os
import shutil
import signal
import socket
import subprocess
import threading
import time
from pathlib import Path

import pytest
from envelopes import ok
from hostprocs import HOST, Watcher, host, host_env, wait_for, write_request

from host_harness.cli.spool import stop_handler
from host_harness.spool import claims as claims_module
from host_harness.spool.lock import SpoolLock
from host_harness.spool.watcher import ANSWERED, Spool


def spool_dir(project: Path) -> Path:
    return project / ".gm" / "exec-spool"


def answer(project: Path, n: str) -> dict:
    return json.loads((spool_dir(project) / "out" / f"{n}.json").read_text(encoding="utf-8"))


def in_folder(project: Path, verb: str = "memorize") -> Path:
    folder = spool_dir(project) / "in" / verb
    folder.mkdir(parents=True, exist_ok=True)
    return folder


class Hung(Exception):
    pass


def drain_within(spool: Spool, seconds: float = 30) -> dict[str, int]:
    """Drain with an alarm: a hang (the old FIFO behaviour: open() blocks) fails the test instead."""

    def alarm(_signum, _frame):
        raise Hung("the spool hung")

    previous = signal.signal(signal.SIGALRM, alarm)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        return spool.drain_all(threading.Event())
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def test_fifos_directories_and_sockets_are_answered_and_removed(guest, project: Path):
    folder = in_folder(project)
    os.mkfifo(folder / "1.json")
    (folder / "2.json").mkdir()
    (folder / "2.json" / "inside.txt").write_text("kept")
    server = socket.socket(socket.AF_UNIX)
    with contextlib.chdir(folder):  # a relative name: a worker's temporary folder is too deep for AF_UNIX
        server.bind("3.json")
    write_request(project, "memorize", "4.json", b'{"text": "A real request still works."}')
    spool = Spool(project, guest)
    counts = drain_within(spool)
    server.close()
    spool.close()
    assert counts[ANSWERED] == 4
    assert "not a FIFO" in answer(project, "1")["error"]
    assert "not a directory" in answer(project, "2")["error"]
    assert "not a FIFO, socket" in answer(project, "3")["error"]
    assert answer(project, "4")["ok"] is True
    assert sorted(p.name for p in folder.iterdir()) == [".rejected"], "nothing is left to be seen again"
    kept = list((folder / ".rejected").rglob("inside.txt"))
    assert [p.read_text() for p in kept] == ["kept"], "a directory is set aside, not deleted"


def test_a_fifo_swapped_in_after_the_check_does_not_hang(guest, project: Path):
    """The FIFO is renamed over the request after it was claimed: reading never blocks."""
    spool = Spool(project, guest)
    write_request(project, "memorize", "1.json", b'{"text": "about to be swapped"}')
    original = claims_module.os.rename

    def swap_then_rename(src, dst, *args, **kwargs):
        os.unlink(src)
        os.mkfifo(src)
        return original(src, dst, *args, **kwargs)

    claims_module.os.rename = swap_then_rename
    try:
        drain_within(spool)
    finally:
        claims_module.os.rename = original
    spool.close()
    assert "not a FIFO" in answer(project, "1")["error"]
    assert not [p for p in (spool_dir(project) / "work").rglob("*") if not p.is_dir()]
    assert ok(guest, "stats")["memories"] == 0


def test_a_watcher_with_a_fifo_request_answers_it_and_stops_on_sigterm(wasm_path: Path, project: Path):
    env = host_env(project)
    watcher = Watcher(env)
    watcher.wait_ready()
    os.mkfifo(in_folder(project) / "1.json")
    wait_for(lambda: (spool_dir(project) / "out" / "1.json").exists(), 30, "the FIFO's answer")
    assert watcher.stop() == 0, "SIGTERM stops it"
    assert "not a FIFO" in answer(project, "1")["error"]


def test_a_stop_signal_inside_the_wait_still_stops_the_watcher():
    """SIGTERM can land while the main thread holds the stop event's lock inside ``Event.wait``.

    The handler then runs on that thread: one that took the lock itself (``Event.set``) waited for
    itself forever, and ``spool --watch`` never stopped (seen once in a whole-suite run). Here the
    lock is held as ``Event.wait`` holds it, and the handler must return at once.
    """
    stop = threading.Event()
    handle = stop_handler(stop)
    with stop._cond:  # what the main thread holds inside Event.wait (CPython's threading)
        worker = threading.Thread(target=handle, args=(signal.SIGTERM, None), daemon=True)
        worker.start()
        worker.join(10)
        assert not worker.is_alive(), "the handler waited for the stop event's lock"
    assert stop.wait(10), "the signal did not set the stop event"


def test_long_ids_are_answered_or_set_aside(guest, project: Path):
    folder = in_folder(project)
    long_id, too_long = "7" * 220, "8" * 251  # out/<N>.json: 225 bytes (fits), 256 (cannot exist)
    (folder / f"{long_id}.json").write_text('{"text": "a long id"}')
    (folder / f"{too_long}.txt").write_text("an id that cannot name its answer")
    spool = Spool(project, guest)
    drain_within(spool)
    spool.close()
    assert answer(project, long_id)["error"] == "validation: the request id is longer than 200 bytes"
    assert sorted(p.name for p in folder.iterdir()) == [".rejected"]
    rejected = [p.name for p in (folder / ".rejected").rglob("8*") if p.is_file()]  # a token may start with 8
    assert rejected == [f"{too_long}.txt"]
    assert ok(guest, "stats")["memories"] == 0


def test_a_heartbeat_from_the_future_is_stale(tmp_path: Path):
    path = tmp_path / ".lock"
    now = [1000.0]
    other = {"pid": 999_999_999, "host": "elsewhere", "token": "forged", "heartbeat": now[0] + 3}
    path.write_text(json.dumps(other))
    lock = SpoolLock(path, clock=lambda: now[0])
    with pytest.raises(Exception, match="another spool watcher"):
        lock.acquire()  # 3 s ahead: within the tolerance (clocks of two hosts differ a little)
    path.write_text(json.dumps({**other, "heartbeat": now[0] + 3600}))
    lock.acquire()  # an hour ahead: it would never grow stale
    assert json.loads(path.read_text())["token"] == lock.token
    lock.release()


def test_a_future_lock_does_not_block_real_watchers(wasm_path: Path, project: Path):
    lock = spool_dir(project) / ".lock"
    lock.parent.mkdir(parents=True)
    lock.write_text(json.dumps({"pid": os.getpid(), "host": socket.gethostname(), "token": "future",
                                "started": 0, "heartbeat": time.time() + 86_400}))
    write_request(project, "version", "1.txt", b"{}")
    done = host("spool", "--once", env=host_env(project))
    assert done.returncode == 0, done.stderr
    assert answer(project, "1")["ok"] is True


def test_a_cross_device_in_folder_is_claimed_by_copy(guest, project: Path, monkeypatch):
    """``rename(in -> work)`` fails with EXDEV: the request is copied, then its source removed."""
    original = os.rename

    def cross_device(src, dst, *args, **kwargs):
        if "/in/" in str(src) and "/work/" in str(dst):
            raise OSError(errno.EXDEV, "Invalid cross-device link")
        return original(src, dst, *args, **kwargs)

    monkeypatch.setattr(claims_module.os, "rename", cross_device)
    for i in range(1, 4):
        write_request(project, "memorize", f"{i}.json", json.dumps({"text": f"Copied fact {i}."}).encode())
    spool = Spool(project, guest)
    assert drain_within(spool)[ANSWERED] == 3
    spool.close()
    assert [answer(project, str(i))["ok"] for i in range(1, 4)] == [True] * 3
    assert not [p for p in (spool_dir(project) / "in").rglob("*") if p.is_file()]
    assert not [p for p in (spool_dir(project) / "work").rglob("*") if p.is_file()]
    assert ok(guest, "stats")["memories"] == 3


def test_an_interrupted_cross_device_copy_is_finished_once(guest, project: Path):
    """The copy and its marker are on disk, the source was not removed yet: recovery removes it."""
    write_request(project, "memorize", "1.json", b'{"text": "Claimed by copy before a crash."}')
    spool = Spool(project, guest)
    source = spool_dir(project) / "in" / "memorize" / "1.json"
    token = claims_module.new_token()
    target = spool_dir(project) / "work" / token / "memorize" / "1.json"
    target.parent.mkdir(parents=True)
    marker = {"verb": "memorize", "name": "1.json", "source": claims_module.identity(source.lstat())}
    (target.parent.parent / ".source").write_text(json.dumps(marker))
    shutil.copyfile(source, target)
    counts = drain_within(spool)
    spool.close()
    assert counts[ANSWERED] == 1 and answer(project, "1")["ok"] is True
    assert not source.exists()
    assert ok(guest, "stats")["memories"] == 1


def unshare_works() -> bool:
    try:
        done = subprocess.run(["unshare", "-rm", "true"], capture_output=True, timeout=10)
    except (OSError, subprocess.TimeoutExpired):
        return False
    return done.returncode == 0


@pytest.mark.skipif(not unshare_works(), reason="needs user and mount namespaces (unshare -rm)")
def test_a_real_mount_on_in_is_answered(wasm_path: Path, project: Path):
    """``in/`` is a tmpfs (another file system) in a private mount namespace; ``spool --once`` answers."""
    in_dir = spool_dir(project) / "in"
    in_dir.mkdir(parents=True)
    script = (
        'mount -t tmpfs none "$1" && mkdir "$1/memorize" && '
        "printf '%s' '{\"text\": \"On another file system.\"}' > \"$1/memorize/.1.part\" && "
        'mv "$1/memorize/.1.part" "$1/memorize/1.json" && '
        f'{" ".join(HOST)} spool --once'
    )
    done = subprocess.run(["unshare", "-rm", "sh", "-c", script, "sh", str(in_dir)], env=host_env(project),
                          capture_output=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert answer(project, "1")["ok"] is True
    stats = json.loads(host("stats", "--json", env=host_env(project)).stdout)
    assert stats["memories"] == 1
