"""MCP tool-call round trip: ``recall`` at 1k memories through the MCP server (issue 14).

Three ways to the same warm component over the same store, 50 recalls each (after 5 to warm up):

* ``dispatch`` -- the guest called directly (the floor: what any host pays);
* in-process -- the SDK's ``Client`` on the ``RsLearnServer`` object (tool lookup, argument checks,
  the guest worker thread, result shaping): the target row;
* stdio -- ``rs-learn-host mcp`` as a subprocess, JSON-RPC over pipes, as an agent runs it.

Then a first start (issue 26), one run each, from the process start: ``initialize`` answered and the
first ``recall`` answered, with an empty compile cache (the first start after an install or upgrade:
the component compiles in the background) and with the compiled cache; ``server/discover`` answered
(issue 44); and each hook's start, from spawn to exit, as Claude Code runs it: the capture hooks'
hand-off, session-context, prompt-submit cold and warm (issue 44 item 2).

Numbers are wall-clock on whatever machine runs this: compare the rows of one run.

    python -m bench.mcp
    python -m bench.mcp --size 10000
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from mcp import Client
from mcp.client.stdio import StdioServerParameters, stdio_client

from bench.common import WASM, dispatch, pct, populate, sentences, timed
from host_harness.mcp.server import RsLearnServer
from host_harness.mcp.worker import GuestWorker
from host_harness.services import HostServices
from host_harness.targets.component import WasmGuest
from host_harness.targets.runtime import Runtime

CALLS, WARM = 50, 5
Row = Callable[..., None]


async def tool_calls(client: Client, queries: list[str]) -> list[float]:
    """Milliseconds of one ``recall`` tool call per query (the first :data:`WARM` not counted)."""
    samples = []
    for query in queries:
        start = time.perf_counter()
        result = await client.call_tool("recall", {"query": query})
        samples.append((time.perf_counter() - start) * 1000)
        if result.is_error:
            raise SystemExit(f"recall failed: {result.content}")
    return samples[WARM:]


def bench_mcp(runtime: Runtime, row: Row, size: int = 1000) -> None:
    """The three rows for a store of ``size`` memories."""
    print(f"MCP tool call round trip (recall at {size // 1000}k memories; warm; {CALLS} calls)")
    queries = sentences(CALLS + WARM, 6, seed=41)
    with tempfile.TemporaryDirectory() as tmp:
        project = Path(tmp)
        populate(project, sentences(size, 28, seed=size + 1))
        worker = GuestWorker.of(lambda: WasmGuest(runtime, HostServices(project)))
        guest = worker.start()
        services = guest.services
        direct = iter(queries)
        samples = worker.run_sync(
            lambda: timed(lambda: dispatch(guest, "recall", {"query": next(direct)}), len(queries))
        )[WARM:]
        row(f"recall via dispatch p50 / p95 at {size}, wasm", pct(samples))
        server = RsLearnServer(worker, services.project, services.router.memory_config)

        async def in_process() -> list[float]:
            async with Client(server) as client:
                return await tool_calls(client, queries)

        row(f"MCP recall in-process p50 / p95 at {size}, wasm", pct(asyncio.run(in_process())))
        worker.close()

        params = StdioServerParameters(command=sys.executable, args=["-m", "host_harness", "mcp"],
                                       env={**os.environ, "RS_LEARN_PROJECT": str(project)}, cwd=project)

        async def over_stdio() -> list[float]:
            with open(os.devnull, "w") as errlog:
                async with Client(stdio_client(params, errlog=errlog), mode="legacy") as client:
                    return await tool_calls(client, queries)

        row(f"MCP recall over stdio p50 / p95 at {size}, wasm", pct(asyncio.run(over_stdio())))
    bench_first_start(row)


async def first_start(env: dict[str, str], project: Path) -> tuple[float, float]:
    """Seconds from starting ``rs-learn-host mcp`` to ``initialize`` answered, and to a first recall."""
    params = StdioServerParameters(command=sys.executable, args=["-m", "host_harness", "mcp"], env=env,
                                   cwd=project)
    start = time.perf_counter()
    with open(os.devnull, "w") as errlog:
        transport = stdio_client(params, errlog=errlog)
        async with Client(transport, mode="legacy", read_timeout_seconds=900) as client:
            initialized = time.perf_counter() - start
            result = await client.call_tool("recall", {"query": "first start"})
            if result.is_error:
                raise SystemExit(f"recall failed: {result.content}")
            return initialized, time.perf_counter() - start


DISCOVER = {"jsonrpc": "2.0", "id": 1, "method": "server/discover", "params": {"_meta": {
    "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {},
    "io.modelcontextprotocol/clientInfo": {"name": "bench", "version": "0"}}}}


def discovered(env: dict[str, str], project: Path) -> float:
    """Seconds from starting ``rs-learn-host mcp`` to its answer to ``server/discover`` (issue 44)."""
    start = time.perf_counter()
    proc = subprocess.Popen([sys.executable, "-m", "host_harness", "mcp"], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env, cwd=project)
    assert proc.stdin is not None and proc.stdout is not None
    proc.stdin.write(json.dumps(DISCOVER).encode() + b"\n")
    proc.stdin.flush()
    while (line := proc.stdout.readline()) and json.loads(line).get("id") != 1:
        pass
    took = time.perf_counter() - start
    proc.stdin.close()
    proc.wait(60)
    return took


HAND_OFF = ("stop", "pre-compact", "session-end")


def bench_hook_starts(row: Row, runs: int = 5) -> None:
    """Each hook from spawn to exit, as Claude Code runs it (issue 44: lean hooks), p50 of ``runs``.

    A project with 200 memories and a session transcript where Claude Code keeps them (a ``HOME`` of
    its own), with the compile cache warm: the capture hooks hand the transcript off to a detached
    ``capture`` (their cost to the turn is the hand-off), ``session-context`` and ``session-start``
    read the store, ``prompt-submit`` recalls cold (the component loaded in the hook) and warm (a
    running ``rs-learn-host mcp`` answers on its socket).
    """
    from host_harness.cachedir import default_cache_dir
    from host_harness.capture.transcript import folder_name
    from host_harness.hooks.protocol import WARM_SOCKET

    print(f"Hook start, from spawn to exit (p50 of {runs}, warm compile cache)")
    with tempfile.TemporaryDirectory() as tmp:
        project, home = Path(tmp) / "project", Path(tmp) / "home"
        (project / ".gm").mkdir(parents=True)
        populate(project, sentences(200, 20, seed=44))
        transcript = home / ".claude" / "projects" / folder_name(project.resolve()) / "bench-session.jsonl"
        transcript.parent.mkdir(parents=True)
        line = {"type": "user", "sessionId": "bench-session", "cwd": str(project),
                "message": {"role": "user", "content": "From now on, always run the linter first."}}
        transcript.write_text(json.dumps(line) + "\n", encoding="utf-8")
        event = json.dumps({"cwd": str(project), "session_id": "bench-session", "prompt": "how do we deploy?",
                            "transcript_path": str(transcript), "source": "startup"}).encode()
        env = {**os.environ, "HOME": str(home), "RS_LEARN_PROJECT": str(project), "RS_LEARN_WASM": str(WASM),
               "RS_LEARN_HOOK_TIMEOUT": "30",
               "RS_LEARN_CACHE_DIR": str(default_cache_dir())}  # not HOME's own: that one is cold

        def p50(hook: str) -> str:
            samples = []
            for _ in range(runs):
                start = time.perf_counter()
                subprocess.run([sys.executable, "-m", "host_harness", "hook", hook], input=event, env=env,
                               cwd=project, capture_output=True, check=False)
                samples.append((time.perf_counter() - start) * 1000)
            return f"{sorted(samples)[runs // 2]:.0f} ms"

        for hook in (*HAND_OFF, "session-context", "session-start"):
            row(f"hook {hook}, start to exit", p50(hook), "≤ 150 ms p50 quiet" if hook in HAND_OFF
                else "≤ 300 ms p50 quiet" if hook == "session-context" else "")
        row("hook prompt-submit, cold (no server)", p50("prompt-submit"))
        server = subprocess.Popen([sys.executable, "-m", "host_harness", "mcp"], stdin=subprocess.PIPE,
                                  stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env, cwd=project)
        try:
            deadline = time.monotonic() + 300
            while not (project / ".gm" / WARM_SOCKET).exists() and time.monotonic() < deadline:
                time.sleep(0.1)
            row("hook prompt-submit, warm (a running mcp server)", p50("prompt-submit"))
        finally:
            assert server.stdin is not None
            server.stdin.close()
            server.wait(60)


def bench_first_start(row: Row) -> None:
    """``initialize`` and the first ``recall`` of a new server, with an empty and a compiled cache."""
    print("MCP first start (one run each, from the process start)")
    with tempfile.TemporaryDirectory() as tmp:
        project, cache = Path(tmp) / "project", Path(tmp) / "cache"
        project.mkdir()
        env = {**os.environ, "RS_LEARN_PROJECT": str(project), "RS_LEARN_CACHE_DIR": str(cache),
               "RS_LEARN_WASM": str(WASM)}
        for state in ("empty", "compiled"):
            initialized, recalled = asyncio.run(first_start(env, project))
            row(f"MCP initialize, {state} compile cache", f"{initialized * 1000:.0f} ms",
                "< 1 s" if state == "empty" else "")
            row(f"MCP first recall, {state} compile cache", f"{recalled:.1f} s")
        row("MCP server/discover, compiled compile cache", f"{discovered(env, project) * 1000:.0f} ms")
    bench_hook_starts(row)


def main() -> None:
    """Run the MCP rows alone."""
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--size", type=int, default=1000, help="memories in the store (default 1000)")
    args = parser.parse_args()
    runtime = Runtime.load(WASM)

    def row(name: str, value: str, target: str = "") -> None:
        print(f"  {name:<48} {value:>22}  {target}", flush=True)

    bench_mcp(runtime, row, args.size)
    runtime.close()


if __name__ == "__main__":
    main()
