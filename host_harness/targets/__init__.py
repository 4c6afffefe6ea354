"""Running the guest: the wasmtime runtime, the component and the native guest, one session."""

from pathlib import Path

# An installed wheel carries the component in the package (setup.py); a checkout has it in dist/.
PACKAGED_WASM = Path(__file__).resolve().parents[1] / "assets" / "rs_learn.wasm"
CHECKOUT_WASM = Path(__file__).resolve().parents[2] / "dist" / "rs_learn.wasm"
DEFAULT_WASM = PACKAGED_WASM if PACKAGED_WASM.is_file() else CHECKOUT_WASM
