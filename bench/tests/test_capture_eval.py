"""Capture keeps what its dev set expects (issue 34): ``bench/capture_eval.py``'s replay, on both targets.

The dev set (``bench/data/capture_devset/``, written by ``tests/helpers/capture_devset.py``) is
replayed into a fresh project as ``python -m bench.capture_eval`` does; every rule, lesson and
archived block the set expects is kept, and nothing else.
"""

from __future__ import annotations

import pytest
from built import component

from bench.capture_eval import replay


@pytest.mark.parametrize("target", ["native", "wasm"])
def test_capture_keeps_what_the_dev_set_expects(tmp_path, target):
    path = component(target)
    project = tmp_path / "project"
    (project / ".gm").mkdir(parents=True)
    scores = replay(project, path, native=target == "native")
    for kind in ("directives", "lessons", "blocks"):
        assert (scores[kind]["precision"], scores[kind]["recall"]) == (1.0, 1.0), scores[kind]
    assert scores["notes"] == {"written": 12, "expected": 12}
