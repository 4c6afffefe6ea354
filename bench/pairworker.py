"""One side of a paired run (``bench/compare.py``): measures one operation of one checkout.

Run by ``bench.compare`` as ``python -P bench/pairworker.py OP ARGS_JSON`` with ``PYTHONPATH`` set to
the checkout under test, so ``host_harness`` and ``guest`` are that checkout's. It imports nothing
from ``bench`` (the other checkout's ``bench`` may differ): its inputs are files the parent wrote.
Prints one JSON line: ``{"wall": [ms...], "cpu": [ms...]}`` (per call: wall clock and this
thread's CPU time), or ``{"rate": per_second}`` for throughput rows.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

Samples = dict[str, list[float]]


def _timed(call: Callable[[], object], n: int) -> Samples:
    """Wall-clock and thread-CPU milliseconds of ``n`` calls."""
    wall, cpu = [], []
    for _ in range(n):
        w, c = time.perf_counter(), time.thread_time()
        call()
        cpu.append((time.thread_time() - c) * 1000)
        wall.append((time.perf_counter() - w) * 1000)
    return {"wall": wall, "cpu": cpu}


def _guest(target: str, project: Path, wasm: str) -> tuple[Any, Any, Any]:
    """(guest, services, runtime or None) of ``target`` over ``project``."""
    from host_harness.services import HostServices
    from host_harness.targets.native import NativeGuest

    project.mkdir(parents=True, exist_ok=True)
    services = HostServices(project)
    if target == "native":
        return NativeGuest(services), services, None
    from host_harness.targets.component import WasmGuest
    from host_harness.targets.runtime import Runtime

    runtime = Runtime.load(wasm)
    return WasmGuest(runtime, services), services, runtime


def _close(guest: Any, services: Any, runtime: Any) -> None:
    guest.close()
    services.close()
    if runtime is not None:
        runtime.close()


def _call(guest: Any, verb: str, body: object) -> object:
    envelope = json.loads(guest.dispatch(verb, json.dumps(body)))
    if not envelope["ok"]:
        raise SystemExit(f"{verb} failed: {envelope['error']}")
    return envelope["data"]


def _lines(path: str) -> list[str]:
    return Path(path).read_text(encoding="utf-8").splitlines()


def build(args: dict[str, Any]) -> Samples:
    """Import ``args['texts']`` (one JSON string a line) into ``args['project']``, natively."""
    guest, services, runtime = _guest("native", Path(args["project"]), "")
    texts = [json.loads(line) for line in _lines(args["texts"])]
    for first in range(0, len(texts), 2000):
        _call(guest, "import", {"memories": [{"text": t} for t in texts[first:first + 2000]]})
    _close(guest, services, runtime)
    return {"wall": [], "cpu": []}


def recall(args: dict[str, Any]) -> Samples:
    """Warm recall over a kept store: one query a call."""
    guest, services, runtime = _guest(args["target"], Path(args["project"]), args["wasm"])
    queries = [json.loads(line) for line in _lines(args["queries"])]
    _call(guest, "recall", {"query": "warm up the index"})
    it = iter(queries)
    out = _timed(lambda: _call(guest, "recall", {"query": next(it)}), len(queries))
    _close(guest, services, runtime)
    return out


def memorize(args: dict[str, Any]) -> Samples:
    """Memorize into a copy of a kept store, one committed transaction a call."""
    with tempfile.TemporaryDirectory() as tmp:
        project = Path(tmp) / "p"
        shutil.copytree(args["project"], project)
        guest, services, runtime = _guest(args["target"], project, args["wasm"])
        texts = iter([json.loads(line) for line in _lines(args["texts"])])
        _timed(lambda: _call(guest, "memorize", {"text": next(texts)}), 20)
        out = _timed(lambda: _call(guest, "memorize", {"text": next(texts)}), args["n"])
        _close(guest, services, runtime)
    return out


def bulk(args: dict[str, Any]) -> dict[str, float]:
    """Lines per second of ``import`` into a fresh store, 500 lines a call (the CLI's batch).

    ``vectors``: the lines carry their vectors (an ``export --vectors`` of the same texts, made
    first), so import skips embedding; else text-only lines, embedded on the way in.
    """
    texts = [json.loads(line) for line in _lines(args["texts"])]
    items: list[dict[str, Any]] = [{"text": t} for t in texts]
    with tempfile.TemporaryDirectory() as tmp:
        if args["vectors"]:
            source, services, runtime = _guest("native", Path(tmp) / "source", "")
            _call(source, "import", {"memories": items})
            page = _call(source, "export", {"vectors": True, "limit": len(items)})
            items = page["memories"]  # type: ignore[index]
            _close(source, services, runtime)
        guest, services, runtime = _guest(args["target"], Path(tmp) / "target", args["wasm"])
        _call(guest, "memorize", {"text": "warm up the component"})
        start = time.perf_counter()
        for first in range(0, len(items), 500):
            _call(guest, "import", {"memories": items[first:first + 500]})
        seconds = time.perf_counter() - start
        _close(guest, services, runtime)
    return {"rate": len(items) / seconds}


def embed(args: dict[str, Any]) -> dict[str, float]:
    """Short texts embedded per second through ``dispatch('embed')``."""
    texts = [json.loads(line) for line in _lines(args["texts"])]
    with tempfile.TemporaryDirectory() as tmp:
        guest, services, runtime = _guest(args["target"], Path(tmp), args["wasm"])
        _call(guest, "embed", {"text": texts[0]})
        start = time.perf_counter()
        for text in texts:
            _call(guest, "embed", {"text": text})
        seconds = time.perf_counter() - start
        _close(guest, services, runtime)
    return {"rate": len(texts) / seconds}


def redact(args: dict[str, Any]) -> dict[str, float]:
    """Notes per second through the side's own redaction (best of ``n`` passes).

    ``target`` native: ``guest.screening.redact.redact`` called in this process; wasm: the
    component's ``redact {texts}`` verb, 1,000 notes a call (the boundary's cost spread thin).
    """
    texts = [json.loads(line) for line in _lines(args["texts"])]
    passes = max(1, args["n"] // 3)
    if args.get("target", "native") == "wasm":
        with tempfile.TemporaryDirectory() as tmp:
            guest, services, runtime = _guest("wasm", Path(tmp), args["wasm"])
            chunks = [texts[i:i + 1000] for i in range(0, len(texts), 1000)]
            _call(guest, "redact", {"texts": chunks[0]})
            best = float("inf")
            for _ in range(passes):
                start = time.perf_counter()
                for chunk in chunks:
                    _call(guest, "redact", {"texts": chunk})
                best = min(best, time.perf_counter() - start)
            _close(guest, services, runtime)
        return {"rate": len(texts) / best}
    from guest.screening.redact import redact as redacted

    for text in texts[:200]:
        redacted(text)
    best = float("inf")
    for _ in range(passes):
        start = time.perf_counter()
        for text in texts:
            redacted(text)
        best = min(best, time.perf_counter() - start)
    return {"rate": len(texts) / best}


def _run(cmd: list[str], stdin: bytes, cwd: str) -> None:
    subprocess.run(cmd, input=stdin, check=True, capture_output=True, cwd=cwd, timeout=120)


def hook(args: dict[str, Any]) -> Samples:
    """The prompt-submit hook as a new process; ``warm``: with a spool watcher serving it."""
    cmd = [sys.executable, "-m", "host_harness", "hook", "prompt-submit"]
    project = args["project"]
    prompts = iter(range(10_000))

    def once() -> None:
        body = {"hook_event_name": "UserPromptSubmit", "cwd": project, "prompt": args["prompt"],
                "session_id": f"bench-{time.time_ns()}-{next(prompts)}"}
        _run(cmd, json.dumps(body).encode(), project)

    watcher = None
    if args["warm"]:
        watcher = subprocess.Popen([sys.executable, "-m", "host_harness", "-p", project, "spool", "--watch"],
                                   stderr=subprocess.PIPE, stdout=subprocess.DEVNULL)
        assert watcher.stderr is not None
        watcher.stderr.readline()  # "watching ...": the warm socket listens
    try:
        once()
        return _timed(once, args["n"])
    finally:
        if watcher is not None:
            watcher.terminate()
            watcher.wait(30)


def _send(proc: subprocess.Popen[bytes], message: dict[str, Any]) -> None:
    assert proc.stdin is not None
    proc.stdin.write(json.dumps({"jsonrpc": "2.0", **message}).encode() + b"\n")
    proc.stdin.flush()


def _answer(proc: subprocess.Popen[bytes], ident: int) -> None:
    """Read the server's lines until the answer to request ``ident``."""
    assert proc.stdout is not None
    while True:
        line = proc.stdout.readline()
        if not line:
            raise SystemExit("the MCP server closed its output")
        if json.loads(line).get("id") == ident:
            return


def mcp(args: dict[str, Any]) -> Samples:
    """``rs-learn-host mcp`` from spawn: ``initialize`` answered (``wall``), then ``tools/list`` (``cpu``).

    Both are wall-clock milliseconds from the spawn; the second reuses the ``cpu`` column.
    """
    init = {"id": 1, "method": "initialize",
            "params": {"protocolVersion": "2025-06-18", "capabilities": {},
                       "clientInfo": {"name": "bench", "version": "0"}}}
    initialized: list[float] = []
    listed: list[float] = []
    for _ in range(args["n"]):
        start = time.perf_counter()
        proc = subprocess.Popen([sys.executable, "-m", "host_harness", "-p", args["project"], "mcp"],
                                stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        _send(proc, init)
        _answer(proc, 1)
        initialized.append((time.perf_counter() - start) * 1000)
        _send(proc, {"method": "notifications/initialized"})
        _send(proc, {"id": 2, "method": "tools/list"})
        _answer(proc, 2)
        listed.append((time.perf_counter() - start) * 1000)
        assert proc.stdin is not None
        proc.stdin.close()
        proc.wait(60)
    return {"wall": initialized, "cpu": listed}


def version(args: dict[str, Any]) -> Samples:
    """``rs-learn-host --version`` as a new process."""
    cmd = [sys.executable, "-m", "host_harness", "--version"]
    return _timed(lambda: _run(cmd, b"", args["project"]), args["n"])


def compile_cache(args: dict[str, Any]) -> Samples:
    """Load the component once, so its precompiled artifact is in this side's cache."""
    from host_harness.targets.runtime import Runtime

    Runtime.load(args["wasm"]).close()
    return {"wall": [], "cpu": []}


OPS: dict[str, Callable[[dict[str, Any]], Any]] = {
    "compile": compile_cache, "build": build, "recall": recall, "memorize": memorize, "import": bulk,
    "embed": embed, "hook": hook, "mcp": mcp, "version": version, "redact": redact,
}

if __name__ == "__main__":
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
    print(json.dumps(OPS[sys.argv[1]](json.loads(sys.argv[2]))))
