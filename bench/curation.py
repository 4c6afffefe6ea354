"""Issue 27 rows: correcting memories in a store of 10k realistic memories, native beside wasm.

* ``list_memories``: the first page (20), a page deep in the store (from a cursor 5,000 entries
  down), and paging through the whole store 200 at a time;
* ``forget``: one call forgetting one memory (a different one each time; each call one committed
  transaction, the keyword index kept exact);
* ``memorize`` into the 10k store: what a memorize costs there with ``similar`` (a vector search of
  the store and a few records read) and the timeline;
* ``similar`` alone, natively: the function the memorize verb calls, timed in process.

The bench store is copied first (forget and memorize write). ``python -m bench.curation`` runs only
these rows.
"""

from __future__ import annotations

import shutil
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from bench import corpus, stores
from bench.common import WASM, dispatch, pct, timed
from guest.memory.similar import similar
from guest.text.embed import EMBEDDER
from host_harness.services import HostServices
from host_harness.targets.base import BaseGuest
from host_harness.targets.component import WasmGuest
from host_harness.targets.native import NativeGuest
from host_harness.targets.runtime import Runtime
from host_harness.vectors import IndexPolicy

Row = Callable[..., None]
SIZE = 10000
FORGETS = 30
MEMORIZES = 40


def bench_curation(row: Row, runtime: Runtime, project: Path, tmp: Path, cache: Path) -> None:
    """The rows above, on a copy of ``project`` (a store of :data:`SIZE` memories)."""
    print(f"correcting memories at {SIZE // 1000}k (warm; each call one transaction)")
    for target in ("native", "wasm"):
        copy = tmp / f"curation-{target}"
        shutil.copytree(project, copy)
        services = HostServices(copy, index_policy=IndexPolicy(cache))
        guest: BaseGuest = NativeGuest(services) if target == "native" else WasmGuest(runtime, services)
        dispatch(guest, "recall", {"query": "warm up the index"})
        row(f"list first page (20) at {SIZE // 1000}k, {target}",
            pct(timed(lambda g=guest: dispatch(g, "list_memories", {}), 30)))
        deep = {"cursor": f"m{SIZE // 2}"}
        row(f"list a page 5,000 deep at {SIZE // 1000}k, {target}",
            pct(timed(lambda g=guest, d=deep: dispatch(g, "list_memories", d), 30)))
        row(f"list every page (200 each) at {SIZE // 1000}k, {target}", f"{_page_through(guest):.0f} ms")
        ids = iter(_ids(services, FORGETS))
        row(f"forget one at {SIZE // 1000}k, {target}",
            pct(timed(lambda g=guest, i=ids: dispatch(g, "forget", {"ids": [next(i)]}), FORGETS)))
        texts = iter(corpus.memories(SIZE + MEMORIZES)[SIZE:])
        row(f"memorize into {SIZE // 1000}k (with similar), {target}",
            pct(timed(lambda g=guest, i=texts: dispatch(g, "memorize", {"text": next(i)}), MEMORIZES)))
        if target == "native":
            row(f"  of which similar, native at {SIZE // 1000}k", pct(_similar_alone(services)))
        guest.close()
        services.close()


def _page_through(guest: BaseGuest) -> float:
    """Milliseconds to list every memory, 200 per page."""
    total, cursor, seen = 0.0, None, 0
    while True:
        body = {"limit": 200, **({"cursor": cursor} if cursor else {})}
        start = time.perf_counter()
        page: Any = dispatch(guest, "list_memories", body)
        total += (time.perf_counter() - start) * 1000
        seen += len(page["memories"])
        cursor = page["next"]
        if cursor is None:
            if seen < SIZE - FORGETS:
                raise SystemExit(f"listing saw {seen} memories, not {SIZE}")
            return total


def _ids(services: HostServices, count: int) -> list[str]:
    """``count`` memory ids spread over the store."""
    step = SIZE // count
    out = []
    for doc in range(0, SIZE, step)[:count]:
        raw = services.kv_get("docs", f"{doc:010d}")
        assert raw is not None
        out.append(raw.decode())
    return out


def _similar_alone(services: HostServices) -> list[float]:
    """Milliseconds of :func:`guest.memory.similar.similar` for new texts, in process."""
    texts = corpus.memories(SIZE + 2 * MEMORIZES)[SIZE + MEMORIZES:]
    vectors = [EMBEDDER.embed(text) for text in texts]
    pairs = iter(zip(texts, vectors, strict=True))

    def once() -> None:
        text, vector = next(pairs)
        services.begin()
        try:
            similar(services, EMBEDDER, "default", text, vector, set())
        finally:
            services.rollback()

    return timed(once, MEMORIZES)


def main() -> None:
    """``python -m bench.curation``: only these rows."""
    runtime = Runtime.load(WASM)
    project, _ = stores.store(SIZE)

    def row(name: str, value: str, target: str = "") -> None:
        print(f"  {name:<48} {value:>22}  {target}", flush=True)

    with tempfile.TemporaryDirectory(prefix="rs-learn-bench-") as tmp:
        cache = Path(tmp) / "cache"
        cache.mkdir()
        bench_curation(row, runtime, project, Path(tmp), cache)
    runtime.close()


if __name__ == "__main__":
    main()
