"""Running the guest: the wasmtime runtime, the component and the native guest, one session."""
