"""``Typed``: a host function registered with the component, whose wasm types can be cached on it.

On the stock wasmtime-py path it is a plain callable; the accelerated callback
(:mod:`host_harness.targets.wasmtime50`) keeps the function's parameter and result types on it after
the first call.
"""

from __future__ import annotations

from typing import Any


class Typed:
    """A host function whose wasm parameter/result types are cached after the first call."""

    __slots__ = ("func", "params", "result")

    def __init__(self, func: Any) -> None:
        self.func = func
        self.params: list[Any] | None = None
        self.result: Any = None

    def __call__(self, *args: Any) -> Any:
        """Call the wrapped function (the stock callback path)."""
        return self.func(*args)
