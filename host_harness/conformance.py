"""The conformance-kit runner of this host: replay ``conformance/traces/*.json``.

The trace format is ``conformance/README.md``.

A trace is a sequence of export calls with their expected results plus the host behaviours it
needs: a settable clock, a trusted scope, project files and store contents before the first call,
files written between calls, an injected storage failure, and checks of what the stores and the
project hold afterwards. Every host replays the same traces (``hosts/node`` has its own runner);
:func:`matches` is the comparison rule both implement.

    python -m host_harness.conformance conformance/traces/*.json            # the built component
    python -m host_harness.conformance --record conformance/traces/new.json # fill missing "expect"
"""

from __future__ import annotations

import argparse
import base64
import json
import math
import shutil
import struct
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

from host_harness.config import SQLITE
from host_harness.errors import GuestError
from host_harness.services import HostServices, ManualClock
from host_harness.targets.base import BaseGuest

FLOAT_TOLERANCE = 1e-6  # relative (absolute below 1): host cosine scores may differ in the last f32 bits
FORMAT = 1
ACTION: Any = object()  # what a pure host action (clock, fault, files) observes: nothing to compare

GuestFactory = Callable[[HostServices], BaseGuest]


def matches(expected: Any, actual: Any) -> bool:
    """The comparison rule of the kit: exact, except ``{"$startswith": s}`` and float tolerance."""
    if isinstance(expected, dict) and set(expected) == {"$startswith"}:
        return isinstance(actual, str) and actual.startswith(expected["$startswith"])
    if isinstance(expected, bool) or isinstance(actual, bool):
        return expected is actual
    if isinstance(expected, (int, float)) and isinstance(actual, (int, float)):
        return expected == actual or math.isclose(expected, actual, rel_tol=FLOAT_TOLERANCE,
                                                  abs_tol=FLOAT_TOLERANCE)
    if isinstance(expected, list) and isinstance(actual, list):
        return len(expected) == len(actual) and all(map(matches, expected, actual))
    if isinstance(expected, dict) and isinstance(actual, dict):
        return expected.keys() == actual.keys() and all(matches(v, actual[k]) for k, v in expected.items())
    return type(expected) is type(actual) and bool(expected == actual)


def decode_value(spec: dict[str, Any]) -> bytes:
    """A store value of a trace: ``utf8``, ``json`` (compact), ``base64`` or ``f32`` (little-endian)."""
    if "utf8" in spec:
        return str(spec["utf8"]).encode("utf-8")
    if "json" in spec:
        return json.dumps(spec["json"], ensure_ascii=False, separators=(",", ":")).encode("utf-8")
    if "base64" in spec:
        return base64.b64decode(spec["base64"])
    if "f32" in spec:
        return struct.pack(f"<{len(spec['f32'])}f", *spec["f32"])
    raise ValueError(f"a store value needs utf8, json, base64 or f32: {spec}")


class TraceServices(HostServices):
    """Host services with the trace's one injected behaviour: a failing ``host-kv-put``."""

    fail_put_after: int | None = None  # the put after this many successful ones fails (storage failure)

    def kv_put(self, ns: str, key: str, value: bytes) -> None:
        """``host-kv-put``, failing like a full disk when the trace asks for it."""
        if self.fail_put_after is not None:
            if self.fail_put_after == 0:
                self.fail_put_after = None
                with self._op("kv_put"):
                    raise OSError("injected storage failure")
            self.fail_put_after -= 1
        super().kv_put(ns, key, value)


def write_files(root: Path, files: dict[str, str | None]) -> None:
    """Write (or, for ``None``, remove) project files, creating folders."""
    for rel, content in files.items():
        path = root / rel
        if content is None:
            path.unlink(missing_ok=True)
        else:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(content, encoding="utf-8")


def call_step(guest: BaseGuest, step: dict[str, Any]) -> Any:
    """Run one export call; the result as the trace records it."""
    name = step["call"]
    if name == "dispatch":
        body = step["body"] if "body" in step else json.dumps(step["json"], ensure_ascii=False,
                                                                 separators=(",", ":"))
        return json.loads(guest.dispatch(step["verb"], body))
    try:
        if name == "version":
            return {"ok": guest.version()}
        if name == "memorize":
            return {"ok": guest.memorize(step["text"], step.get("namespace", "default"))}
        if name == "recall":
            return {"ok": guest.recall(step["query"], step.get("limit", 0))}
    except GuestError as error:
        return {"err": error.message}
    raise ValueError(f"unknown call {name!r}")


def run_trace(trace: dict[str, Any], make_guest: GuestFactory, workdir: Path,
              record: bool = False) -> list[str]:
    """Replay ``trace`` in a fresh project under ``workdir``; return the mismatches (recording fills gaps)."""
    if trace.get("format") != FORMAT:
        return [f"unsupported trace format {trace.get('format')!r}"]
    setup = trace.get("host", {})
    root = workdir / "project"
    root.mkdir(parents=True)
    write_files(root, setup.get("files", {}))
    clock = ManualClock(int(setup.get("now_ms", 1_700_000_000_000)))
    services = TraceServices(root, scope=setup.get("scope"), clock=clock, store=SQLITE)  # the kit is on files
    for entry in setup.get("store", []):
        services.kv_put(entry["ns"], entry["key"], decode_value(entry))  # outside a call: committed at once
    guest = make_guest(services)
    problems: list[str] = []
    try:
        for number, step in enumerate(trace["steps"], start=1):
            actual = run_step(step, guest, services, clock, root)
            if actual is ACTION:
                continue
            if "expect" not in step:
                if record:
                    step["expect"] = actual
                else:
                    problems.append(f"step {number}: no expectation")
            elif not matches(step["expect"], actual):
                expected = json.dumps(step["expect"], ensure_ascii=False)[:2000]
                got = json.dumps(actual, ensure_ascii=False)[:2000]
                problems.append(f"step {number} ({describe(step)}): expected {expected}\n  got {got}")
    finally:
        guest.close()
        services.close()
    return problems


def run_step(step: dict[str, Any], guest: BaseGuest, services: TraceServices, clock: ManualClock,
             root: Path) -> Any:
    """Perform one step; return what it observed (:data:`ACTION` for a pure host action).

    ``None`` is an observation (a value or file that is absent) and is checked like any other.
    """
    if "call" in step:
        result = call_step(guest, step)
        services.fail_put_after = None
        return result
    if "clock" in step:
        change = step["clock"]
        clock.now_ms = change["set"] if "set" in change else clock.now_ms + change["advance"]
    elif "fault" in step:
        if step["fault"].get("import") != "host-kv-put":
            raise ValueError(f"unsupported fault {step['fault']}")
        services.fail_put_after = int(step["fault"]["after"])
    elif "files" in step:
        write_files(root, step["files"])
    elif "keys" in step:
        return [key for key, _ in services.kv_query(step["keys"], "", 0)]
    elif "value" in step:
        raw = services.kv_get(step["value"]["ns"], step["value"]["key"])
        return None if raw is None else raw.decode("utf-8", "replace") if step["value"].get("as") == "utf8" \
            else json.loads(raw)
    elif "exists" in step:
        return {rel: (root / rel).is_file() for rel in step["exists"]}
    elif "read" in step:
        path = root / step["read"]
        return path.read_text(encoding="utf-8") if path.is_file() else None
    else:
        raise ValueError(f"unknown step {step}")
    return ACTION


def describe(step: dict[str, Any]) -> str:
    """A short label of a step for messages."""
    if step.get("call") == "dispatch":
        return f"dispatch {step['verb']}"
    if "value" in step:
        return f"value {step['value']['ns']}/{step['value']['key']}"
    if "keys" in step:
        return f"keys {step['keys']}"
    return str(step.get("call") or next(iter(step)))


def main(argv: list[str] | None = None) -> int:
    """Replay traces on the built component (or ``--native``); exit 1 on any mismatch."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("traces", nargs="+", type=Path)
    parser.add_argument("--wasm", type=Path, default=None, help="the component (default: the installed one)")
    parser.add_argument("--native", action="store_true", help="run the guest package in-process")
    parser.add_argument("--record", action="store_true", help="fill missing expectations in")
    args = parser.parse_args(argv)
    make_guest = guest_factory(args.native, args.wasm)
    failed = 0
    for path in args.traces:
        trace = json.loads(path.read_text(encoding="utf-8"))
        workdir = Path(tempfile.mkdtemp(prefix="rs-learn-trace-"))
        try:
            problems = run_trace(trace, make_guest, workdir, record=args.record)
        finally:
            shutil.rmtree(workdir, ignore_errors=True)
        if args.record:
            path.write_text(json.dumps(trace, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
        status = "ok" if not problems else "FAIL"
        sys.stdout.write(f"{status} {path.name} ({len(trace['steps'])} steps)\n")
        for problem in problems:
            sys.stdout.write(f"  {problem}\n")
        failed += bool(problems)
    return 1 if failed else 0


def guest_factory(native: bool, wasm: Path | None) -> GuestFactory:
    """Make guests of the chosen target (the component is compiled once)."""
    if native:
        from host_harness.targets.native import NativeGuest

        return NativeGuest
    from host_harness.targets import DEFAULT_WASM
    from host_harness.targets.component import WasmGuest
    from host_harness.targets.runtime import Runtime

    runtime = Runtime.load(wasm or DEFAULT_WASM)
    return lambda services: WasmGuest(runtime, services)


if __name__ == "__main__":
    sys.exit(main())
