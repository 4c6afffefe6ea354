"""``archive_search`` in bounded memory (issue 11, item 3): ``bench/archive.py``'s measurement, small.

The archive is filled through the native guest and searched by the built component in a fresh
process (``measure_search``: its peak memory growth); ``python -m bench.archive`` measures 8, 16
and 52 blocks.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from built import component

from bench.archive import fill, measure_search


@pytest.mark.skipif(not Path("/proc/self/clear_refs").exists(), reason="needs Linux /proc to measure memory")
def test_search_memory_does_not_grow_with_the_archive(tmp_path: Path):
    """1, then 4 blocks of ~1.9 MB: the host used ~80 bytes per archived byte before. The growth at
    8, 16 and 52 blocks is ``python -m bench.archive``'s (this took 256 s at 2 and 16 blocks)."""
    project, wasm_path = tmp_path / "project", component()
    project.mkdir()
    archived = fill(project, 1)
    small = measure_search(project, wasm_path, "deploy4 latency")
    archived += fill(project, 4, start=1)
    large = measure_search(project, wasm_path, "deploy4 latency")
    print(f"\narchive_search memory growth: {small['growth'] / 2**20:.1f} MiB at 1 block, "
          f"{large['growth'] / 2**20:.1f} MiB at 4 blocks ({archived / 2**20:.1f} MiB archived)")
    assert len(large["results"]) == 4
    assert large["growth"] < 64 * 2**20, "bounded: far below the archive's size"
    assert large["growth"] < small["growth"] + 32 * 2**20, "does not grow with the number of blocks"
