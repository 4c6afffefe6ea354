"""The hooks' in-process transport: this process loads the component (wasmtime, the guest) and asks it.

The pipeline (:mod:`host_harness.hooks.pipeline`) asks here when no warm server answers. The
component is loaded only from the precompiled cache (a miss starts a background compile and this
event gets nothing: :func:`~host_harness.hooks.background.cached_runtime`); the SQLite busy timeout
and the guest's epoch deadline are what is left of the hook's budget. A missing or stale persisted
vector index is not built inside the budget: the call scans the store (or answers from keywords
alone above ``scan_max``), and a background process builds the index for the next prompts.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from host_harness.config import ProjectContext, read_memory_config
from host_harness.envelope import Envelope
from host_harness.errors import GuestError
from host_harness.hooks import protocol
from host_harness.hooks.background import cached_runtime, hook_index_policy, warm_vector_indexes
from host_harness.hooks.protocol import Skip
from host_harness.services import HostServices
from host_harness.targets.base import BaseGuest
from host_harness.targets.runtime import Runtime, default_cache_dir
from host_harness.vectors import HOOK_SCAN_MAX


def ask(context: ProjectContext, verb: str, body: dict[str, Any], *, wasm: Path, native: bool,
        cache_dir: Path | None, scan_max: int | None, remaining: Callable[[], float],
        log: Callable[[str], None]) -> Envelope:
    """The envelope of ``verb`` with ``body``, from a guest built within the hook's ``remaining()`` budget.

    The project is the run's ``context`` (its configuration read once, by the pipeline).
    The component ``wasm`` (``native``: the native guest, development only), compiled in
    ``cache_dir``; ``scan_max`` (``None``: :data:`HOOK_SCAN_MAX`) as the vector index policy's;
    ``log`` says a warning in the hook log.
    """
    protocol.note_stage("loading the component")
    cache = cache_dir if cache_dir is not None else default_cache_dir()
    policy = hook_index_policy(cache, HOOK_SCAN_MAX if scan_max is None else scan_max)
    services = HostServices(context, busy_timeout_ms=int(remaining() * 1000), index_policy=policy)
    for warning in read_memory_config(context.settings)[1]:  # a bad RS_LEARN_MEMORY_* variable: said
        log(f"warning: {warning}")
    runtime: Runtime | None = None
    guest: BaseGuest
    try:
        if native:
            from host_harness.targets.native import NativeGuest  # loads the model: development only

            guest = NativeGuest(services)
        else:
            from host_harness.targets.component import WasmGuest

            if not wasm.is_file():
                raise Skip(f"component not found: {wasm} (run `make wasm`; RS_LEARN_WASM)")
            runtime = cached_runtime(wasm, cache_dir)
            guest = WasmGuest(runtime, services, timeout_s=remaining())
        protocol.note_stage(f"running {verb} in the component")
        try:
            return Envelope.parse(guest.dispatch(verb, json.dumps(body, ensure_ascii=False)))
        except GuestError as error:
            raise Skip(f"{verb} failed: {error.message}") from None
        finally:
            guest.close()
            if policy.cache_dir is not None:
                warm_vector_indexes(services, policy.cache_dir)
    finally:
        services.close()
        if runtime is not None:
            runtime.close()
