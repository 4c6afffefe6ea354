"""Capture on its dev set (issue 34): precision and recall per kind, the store's size, recall of later
questions against storing every turn, and the reading speed of a 5 MB transcript.

``python -m bench.capture_eval [--native]`` replays ``bench/data/capture_devset/`` (committed; the
suite writes it and checks it is current, docs/capture.md) in order into a fresh project through the
built component -- each session captured as the ``Stop`` hook does, then archived as ``PreCompact``
does -- and compares what
was stored with ``expected.json``:

* directives and lessons: precision and recall over the memories captured (a lesson counts when it
  names the expected command and cites exactly the expected files);
* blocks: archived per session against the expected count; notes: one per session;
* the store after the N sessions (memories, blocks, notes, bytes) against a store of every turn (each
  prompt and each answer of the assistant memorized), and how often each store's top 3 for the dev
  set's later questions holds the rule that answers it;
* the time to read and scan a 5 MB transcript from the start, and one more turn from the saved offset.

No model is called anywhere.
"""

from __future__ import annotations

import argparse
import json
import shutil
import tempfile
import time
from pathlib import Path
from typing import Any

from host_harness.capture import extract, run, transcript
from host_harness.targets.session import DEFAULT_WASM, Session

ROOT = Path(__file__).resolve().parent.parent
DEVSET = ROOT / "bench" / "data" / "capture_devset"
CWD = "/home/dev/shop"


def ratio(hits: int, total: int) -> float:
    return hits / total if total else 1.0


def replay(project: Path, wasm: Path, native: bool) -> dict[str, Any]:
    """Capture every dev-set session into ``project``; the scores per kind."""
    expected = json.loads((DEVSET / "expected.json").read_text(encoding="utf-8"))
    session = Session(project, wasm, native, None)
    work = project.parent / "transcripts"
    work.mkdir()
    archived: dict[str, int] = {}
    try:
        for want in expected:
            text = (
                (DEVSET / f"{want['session']}.jsonl").read_text(encoding="utf-8").replace(CWD, str(project))
            )
            path = work / f"{want['session']}.jsonl"
            path.write_text(text, encoding="utf-8")
            run.capture(project, path, session.dispatch)  # Stop
            report = run.capture(project, path, session.dispatch, archive=True)  # PreCompact
            archived[want["session"]] = len(report.blocks)  # new, or archived already (the same content)
        listed = session.dispatch(
            "list_memories", {"captured": True, "include": ["superseded"], "limit": 200}
        )
        notes = session.dispatch("query_records", {"kinds": ["session_note"], "limit": 100})
    finally:
        session.close()
    memories = listed["memories"]
    rules = {m["text"] for m in memories if m["captured"]["kind"] == "directive"}
    lessons = [m for m in memories if m["captured"]["kind"] == "lesson"]
    want_rules = {r for w in expected for r in w["rules"]}
    want_lessons = [(lesson["command"], lesson["files"]) for w in expected for lesson in w["lessons"]]
    right_lessons = [m for m in lessons if any(_lesson_is(m["text"], c, f) for c, f in want_lessons)]
    superseded = {m["text"]: m.get("superseded_by") for m in memories}
    want_super = [(old, w["rules"][0]) for w in expected for old in w.get("supersedes", [])]
    got_blocks, want_blocks = archived.values(), [w["blocks"] for w in expected]
    block_hits = sum(min(archived[w["session"]], w["blocks"]) for w in expected)
    return {
        "sessions": len(expected),
        "directives": {
            "captured": len(rules),
            "expected": len(want_rules),
            "precision": ratio(len(rules & want_rules), len(rules)),
            "recall": ratio(len(rules & want_rules), len(want_rules)),
            "wrong": sorted(rules - want_rules),
            "missed": sorted(want_rules - rules),
        },
        "lessons": {
            "captured": len(lessons),
            "expected": len(want_lessons),
            "precision": ratio(len(right_lessons), len(lessons)),
            "recall": ratio(len(right_lessons), len(want_lessons)),
            "wrong": [m["text"] for m in lessons if m not in right_lessons],
        },
        "blocks": {
            "archived": sum(got_blocks),
            "expected": sum(want_blocks),
            "precision": ratio(block_hits, sum(got_blocks)),
            "recall": ratio(block_hits, sum(want_blocks)),
        },
        "notes": {"written": len(notes["hits"]), "expected": len(expected)},
        "supersedes": {
            "expected": len(want_super),
            "right": sum(1 for old, _ in want_super if superseded.get(old) is not None),
        },
    }


def _lesson_is(text: str, command: str, files: list[str]) -> bool:
    cited = text.rsplit("fixed by editing ", 1)[-1].rstrip(".").split(", ")
    return text.startswith(f"`{command}` failed with ") and sorted(cited) == sorted(files)


def every_turn(project: Path, wasm: Path, native: bool) -> None:
    """The baseline: every prompt and every answer of the assistant of the dev set memorized."""
    session = Session(project, wasm, native, None)
    try:
        for path in sorted(DEVSET.glob("*.jsonl")):
            for line in path.read_text(encoding="utf-8").splitlines():
                entry = json.loads(line)
                content = entry["message"]["content"]
                texts = (
                    [content]
                    if isinstance(content, str)
                    else [
                        b.get("text") or (b.get("content") if isinstance(b.get("content"), str) else "")
                        for b in content
                        if isinstance(b, dict)
                    ]
                )
                for text in texts:
                    if text and text.strip():
                        session.dispatch("memorize", {"text": text[:60_000]})
    finally:
        session.close()


def asked(project: Path, wasm: Path, native: bool) -> tuple[int, int, int]:
    """(questions, answered by the top 3, memories in the store)."""
    expected = json.loads((DEVSET / "expected.json").read_text(encoding="utf-8"))
    questions = [(q, a) for w in expected for q, a in w["asks"].items()]
    session = Session(project, wasm, native, None)
    try:
        hits = 0
        for question, answer in questions:
            top = session.dispatch("recall", {"query": question, "limit": 3})
            hits += any(answer in hit["text"] for hit in top)
        size = session.dispatch("stats", {})["memories"]
    finally:
        session.close()
    return len(questions), hits, size


def reading_speed(folder: Path) -> dict[str, float]:
    """Seconds to read and scan a 5 MB transcript from the start, and one more turn from the offset."""
    lines = "".join((DEVSET / p.name).read_text(encoding="utf-8") for p in sorted(DEVSET.glob("*.jsonl")))
    big = folder / "big.jsonl"
    with open(big, "w", encoding="utf-8") as out:
        while out.tell() < 5 * 1024 * 1024:
            out.write(lines)
    size = big.stat().st_size
    started = time.perf_counter()
    reader = transcript.Reader(big, 0)
    extract.scan(reader, extract.Tracker(), Path(CWD), 2048)
    whole = time.perf_counter() - started
    with open(big, "a", encoding="utf-8") as out:
        out.write(lines.splitlines(keepends=True)[0])
    started = time.perf_counter()
    extract.scan(transcript.Reader(big, reader.offset), extract.Tracker(), Path(CWD), 2048)
    return {
        "bytes": size,
        "entries": reader.entries,
        "whole_s": whole,
        "one_more_s": time.perf_counter() - started,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--native", action="store_true", help="the guest in-process instead of the component")
    parser.add_argument("--wasm", type=Path, default=DEFAULT_WASM)
    args = parser.parse_args()
    base = Path(tempfile.mkdtemp(prefix="rs-capture-eval-"))
    try:
        captured, everything = base / "captured" / "project", base / "every-turn" / "project"
        for folder in (captured, everything):
            (folder / ".gm").mkdir(parents=True)
        scores = replay(captured, args.wasm, args.native)
        every_turn(everything, args.wasm, args.native)
        questions, hits, size = asked(captured, args.wasm, args.native)
        _, base_hits, base_size = asked(everything, args.wasm, args.native)
        speed = reading_speed(base)
        db = captured / ".gm" / "rs-learn.db"
        scores["store"] = {
            "memories": size,
            "bytes": db.stat().st_size,
            "every_turn_memories": base_size,
            "every_turn_bytes": (everything / ".gm" / "rs-learn.db").stat().st_size,
        }
        scores["later_questions"] = {
            "questions": questions,
            "captured_top3": hits,
            "every_turn_top3": base_hits,
        }
        scores["reading"] = speed
    finally:
        shutil.rmtree(base, ignore_errors=True)
    print(json.dumps(scores, indent=1))
    for kind in ("directives", "lessons", "blocks"):
        s = scores[kind]
        print(f"{kind:10s} precision {s['precision']:.2f} recall {s['recall']:.2f}")
    print(
        f"notes      {scores['notes']['written']} of {scores['notes']['expected']} sessions; supersedes "
        f"{scores['supersedes']['right']} of {scores['supersedes']['expected']}"
    )
    store, later = scores["store"], scores["later_questions"]
    print(
        f"store after {scores['sessions']} sessions: {store['memories']} memories, {store['bytes']:,} bytes; "
        f"every turn: {store['every_turn_memories']} memories, {store['every_turn_bytes']:,} bytes"
    )
    print(
        f"later questions answered in the top 3: captured {later['captured_top3']}/{later['questions']}, "
        f"every turn {later['every_turn_top3']}/{later['questions']}"
    )
    print(
        f"5 MB transcript: read and scanned in {speed['whole_s']:.2f} s ({speed['entries']:,} entries); "
        f"one more turn from the offset in {speed['one_more_s'] * 1000:.1f} ms"
    )


if __name__ == "__main__":
    main()
