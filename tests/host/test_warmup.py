"""``warmup()`` and ``rs-learn-host warmup``: the component compiled once, before anyone waits (issue 26).

A compile in progress is another process holding the artifact's compile lock (``HeldCompile``): what
waits for it waits however fast the machine is, and finishing it writes this session's precompiled
artifact, so no test compiles the 35 MB component again.
"""

from __future__ import annotations

import io
import json
import os
import pty
import re
import select
import subprocess
import threading
import time
from pathlib import Path

from conftest import ROOT
from hostprocs import HOST, HeldCompile, wait_for

from host_harness.progress import BAR_WIDTH, Bar, Note
from host_harness.targets.runtime import (
    COMPILE_SECONDS,
    COMPILE_SECONDS_KEEP,
    artifact_is_intact,
    cache_file_name,
    expected_compile_s,
    load_component,
    lock_path,
    make_engine,
    prune,
    record_compile_s,
)
from host_harness.warmup import Warmed, warmup

EMPTY_COMPONENT = b"\x00asm\x0d\x00\x01\x00"  # valid, and compiled in no time
COMPILING = "compiling the component (once after an install or upgrade)..."


def checkout_env(**extra: str) -> dict[str, str]:
    """The environment of an ``rs-learn-host`` process running this checkout's code."""
    return {**os.environ, "PYTHONPATH": str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""), **extra}


def test_warmup_waits_for_a_compile_in_progress_then_is_instant(wasm_runtime, wasm_path: Path,
                                                                tmp_path: Path):
    compile_ = HeldCompile(tmp_path / "cache", wasm_runtime, wasm_path)
    seen: list[tuple[float, float | None]] = []
    done: list[Warmed] = []

    def report(elapsed: float, expected: float | None) -> None:
        seen.append((elapsed, expected))

    worker = threading.Thread(target=lambda: done.append(warmup(wasm_path, compile_.cache, report)))
    try:
        worker.start()
        wait_for(lambda: len(seen) >= 3, 300, "progress reports while the compile runs")
        assert worker.is_alive() and not compile_.artifact.exists()
        assert [s[0] for s in seen] == sorted(s[0] for s in seen) and seen[0][1] is None  # no compile yet
    finally:
        compile_.finish()
        worker.join(300)
    (first,) = done
    assert (first.artifact, first.was_cached) == (compile_.artifact, False)
    assert artifact_is_intact(first.artifact)
    reports = len(seen)
    again = warmup(wasm_path, compile_.cache, report)
    assert (again.artifact, again.was_cached) == (first.artifact, True) and len(seen) == reports


def test_the_cli_draws_a_bar_on_a_terminal(wasm_runtime, wasm_path: Path, tmp_path: Path):
    compile_ = HeldCompile(tmp_path / "cache", wasm_runtime, wasm_path)
    record_compile_s(compile_.cache, compile_.artifact.name, 40.0)  # this compile took 40 s here before
    env = checkout_env(RS_LEARN_CACHE_DIR=str(compile_.cache), RS_LEARN_WASM=str(wasm_path))
    master, slave = pty.openpty()
    proc = subprocess.Popen([*HOST, "warmup"], stdout=subprocess.PIPE, stderr=slave, env=env, cwd=tmp_path)
    os.close(slave)
    screen = b""
    try:
        deadline = time.monotonic() + 300
        while b"of about 40 s" not in screen and time.monotonic() < deadline:
            if select.select([master], [], [], 1.0)[0]:
                screen += os.read(master, 4096)
    finally:
        compile_.finish()
        out, _ = proc.communicate(timeout=300)
        os.close(master)
    assert proc.returncode == 0
    assert b"\rcompiling the component [" in screen and b"of about 40 s" in screen, screen
    assert out.decode().startswith("compiled the component in ") and str(compile_.artifact) in out.decode()


def run_while_compiling(compile_: HeldCompile, args: list[str], env: dict[str, str],
                        tmp_path: Path) -> tuple[int, bytes, list[str]]:
    """``rs-learn-host ARGS`` run while ``compile_`` holds the lock, released once the process says so.

    Its exit code, stdout and stderr lines.
    """
    errors = tmp_path / "stderr"
    with errors.open("wb") as sink:
        proc = subprocess.Popen([*HOST, *args], stdout=subprocess.PIPE, stderr=sink, env=env, cwd=tmp_path)
        try:
            wait_for(lambda: errors.read_bytes().endswith(b"...\n"), 300, "the compiling line")
        finally:
            compile_.finish()
            out, _ = proc.communicate(timeout=300)
    return proc.returncode, out, errors.read_text().splitlines()


def test_the_cli_says_one_plain_line_off_a_terminal_and_nothing_when_compiled(wasm_runtime, wasm_path: Path,
                                                                             tmp_path: Path):
    compile_ = HeldCompile(tmp_path / "cache", wasm_runtime, wasm_path)
    env = checkout_env(RS_LEARN_CACHE_DIR=str(compile_.cache), RS_LEARN_WASM=str(wasm_path))
    code, out, (first, *more) = run_while_compiling(compile_, ["warmup"], env, tmp_path)
    assert code == 0, more
    assert first == COMPILING, first
    assert all(re.fullmatch(r"  still compiling: \d+ s", line) for line in more), more  # every 10 s
    assert out.decode().startswith("compiled the component in ")
    again = subprocess.run([*HOST, "warmup", "--json"], capture_output=True, text=True, env=env, cwd=tmp_path,
                           timeout=120)
    assert again.returncode == 0 and again.stderr == ""
    assert json.loads(again.stdout) == {"artifact": str(compile_.artifact), "wasCached": True,
                                        "seconds": json.loads(again.stdout)["seconds"]}


def test_any_command_that_compiles_says_so_on_stderr(wasm_runtime, wasm_path: Path, tmp_path: Path):
    """Not only warmup: the first recall after an install shows the same line while it waits (issue 42)."""
    compile_ = HeldCompile(tmp_path / "cache", wasm_runtime, wasm_path)
    env = checkout_env(RS_LEARN_CACHE_DIR=str(compile_.cache), RS_LEARN_WASM=str(wasm_path))
    recall = ["-p", str(tmp_path), "recall", "anything"]
    code, out, lines = run_while_compiling(compile_, [*recall, "--json"], env, tmp_path)
    assert code == 0 and lines[0] == COMPILING, lines
    assert json.loads(out) == []
    again = subprocess.run([*HOST, *recall], capture_output=True, text=True, env=env, cwd=tmp_path,
                           timeout=120)
    assert again.returncode == 0 and again.stderr == "", "a compiled component: not a word"


def test_a_missing_component_is_a_clear_error(tmp_path: Path):
    env = checkout_env(RS_LEARN_CACHE_DIR=str(tmp_path / "cache"))
    done = subprocess.run([*HOST, "--wasm", str(tmp_path / "nothing.wasm"), "warmup"], capture_output=True,
                          text=True, env=env, cwd=tmp_path, timeout=120)
    assert done.returncode == 1 and "component not found" in done.stderr
    assert not (tmp_path / "cache").exists()


def test_a_compile_records_how_long_it_took_and_prune_drops_its_lock(tmp_path: Path, wasm_path: Path):
    cache = tmp_path / "cache"
    assert expected_compile_s(EMPTY_COMPONENT, cache) is None
    (cache / "compile-seconds").parent.mkdir()
    (cache / "compile-seconds").write_text("17.0\n", encoding="ascii")  # 0.1.0's figure, of any component
    component = tmp_path / "empty.wasm"
    component.write_bytes(EMPTY_COMPONENT)
    load_component(make_engine(), component, cache)
    seconds = expected_compile_s(EMPTY_COMPONENT, cache)
    assert seconds is not None and seconds >= 0
    assert expected_compile_s(wasm_path.read_bytes(), cache) is None, "another component's time: no estimate"
    (artifact,) = cache.glob("rs_learn-*.cwasm")
    assert lock_path(artifact).exists() and artifact_is_intact(artifact)
    assert prune(cache, keep=0) == [artifact]
    assert sorted(p.name for p in cache.iterdir()) == [COMPILE_SECONDS], "the unkeyed figure is gone"


def test_a_compile_time_is_this_component_on_this_machine(tmp_path: Path):
    other = EMPTY_COMPONENT + b"\x00\x00"  # another component: another artifact name
    record_compile_s(tmp_path, cache_file_name(EMPTY_COMPONENT), 123.0, where="other-box/64cpu/x86_64")
    record_compile_s(tmp_path, cache_file_name(other), 17.0)
    assert expected_compile_s(EMPTY_COMPONENT, tmp_path) is None, "measured on another machine"
    assert expected_compile_s(other, tmp_path) == 17.0
    record_compile_s(tmp_path, cache_file_name(EMPTY_COMPONENT), 9.04)
    assert expected_compile_s(EMPTY_COMPONENT, tmp_path) == 9.0
    for i in range(COMPILE_SECONDS_KEEP):
        record_compile_s(tmp_path, f"rs_learn-{i}.cwasm", float(i))
    assert expected_compile_s(EMPTY_COMPONENT, tmp_path) is None, "only the newest measurements are kept"
    assert len(json.loads((tmp_path / COMPILE_SECONDS).read_text())) == COMPILE_SECONDS_KEEP
    (tmp_path / COMPILE_SECONDS).write_text("[not, json", encoding="utf-8")
    assert expected_compile_s(other, tmp_path) is None


def test_off_a_terminal_a_line_every_ten_seconds_of_compiling():
    out = io.StringIO()
    note = Note(out)
    for elapsed in (0.1, 5.0, 9.9, 10.0, 10.1, 19.0, 35.2, 36.0, 40.0):
        note(elapsed, None)
    assert out.getvalue().splitlines() == [
        "compiling the component (once after an install or upgrade)...",
        "  still compiling: 10 s", "  still compiling: 35 s", "  still compiling: 40 s"]
    estimated = io.StringIO()
    note = Note(estimated, every_s=30.0)
    for elapsed in (0.0, 29.0, 31.0, 61.0):
        note(elapsed, 120.0)
    assert estimated.getvalue().splitlines() == [
        "compiling the component (once after an install or upgrade, about 120 s)...",
        "  still compiling: 31 s of about 120 s", "  still compiling: 61 s of about 120 s"]


def test_the_bar_fills_with_the_expected_time_and_never_claims_done():
    out = io.StringIO()
    bar = Bar(out)
    bar(10.0, 40.0)
    quarter = "#" * 6 + "-" * (BAR_WIDTH - 6)
    assert out.getvalue() == f"\rcompiling the component [{quarter}] 10 s of about 40 s "
    bar(90.0, 40.0)  # slower than last time: almost full, not full
    assert out.getvalue().endswith(f"[{'#' * (BAR_WIDTH - 1)}-] 90 s of about 40 s ")
    bar(1.0, None)  # no compile measured yet: a bouncer
    assert out.getvalue().endswith("<=>" + " " * (BAR_WIDTH - 7) + "] 1 s ")
    bar.clear()
    assert out.getvalue().endswith("\r\033[K")
    note = io.StringIO()
    line = Note(note)
    line(0.1, 35.0)
    line(0.2, 35.0)  # the next line after 10 s
    assert note.getvalue() == "compiling the component (once after an install or upgrade, about 35 s)...\n"


def test_the_suite_compiles_into_a_cache_of_its_own(session_cache: Path, wasm_runtime, wasm_path: Path):
    """The tests never write compiled components into the user's ~/.cache/rs-learn (issue 32.15)."""
    from host_harness.cachedir import default_cache_dir

    assert default_cache_dir() == session_cache != Path.home() / ".cache" / "rs-learn"
    assert os.environ["RS_LEARN_CACHE_DIR"] == str(session_cache), "inherited by every process a test starts"
    assert artifact_is_intact(session_cache / cache_file_name(wasm_path.read_bytes()))
