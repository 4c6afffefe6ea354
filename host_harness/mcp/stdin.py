"""The MCP client's messages on stdin, read so that a signal never waits for the client (issue 32).

The SDK's ``stdio_server`` reads stdin through ``anyio.wrap_file``: each line is read on a worker
thread that a cancellation must wait for, so a SIGTERM while the client keeps stdin open and silent
was held until the client's next line (for ever, when the client waits for the server to exit).
:class:`StdinLines` reads on a daemon thread of its own instead and hands each line to the event
loop; a cancelled server stops waiting at once and the process exits without that thread.

As the SDK does for its own reader, stdin's descriptor is taken over: the lines are read from a
private duplicate, and descriptor 0 points at the null device while the server runs, so nothing
else in the process (or a child it starts) reads the client's messages; :meth:`StdinLines.close`
points it back.
"""

from __future__ import annotations

import os
import threading

import anyio
import anyio.from_thread
import anyio.lowlevel


class StdinLines:
    """An async iterator over the lines of descriptor 0, read on a daemon thread (start it in the loop)."""

    def __init__(self, fd: int = 0) -> None:
        self._fd = fd
        self._private = os.dup(fd)  # not inheritable: no child gets the client's pipe
        devnull = os.open(os.devnull, os.O_RDONLY)
        try:
            os.dup2(devnull, fd)
        finally:
            os.close(devnull)
        # never closed: the reader may still be blocked on it when the server has finished
        self._readline = os.fdopen(self._private, "rb", closefd=False).readline
        self._send, self._receive = anyio.create_memory_object_stream[str](0)
        self._reader = threading.Thread(target=self._read, args=(anyio.lowlevel.current_token(),),
                                        name="rs-learn-mcp-stdin", daemon=True)
        self._reader.start()

    def _read(self, token: anyio.lowlevel.EventLoopToken) -> None:
        """Hand each line to the loop (waiting until it is taken); stop at end of input or of the loop."""
        try:
            for raw in iter(self._readline, b""):
                anyio.from_thread.run(self._send.send, raw.decode("utf-8", errors="replace"), token=token)
        except (OSError, ValueError):  # the descriptor failed: the client is gone
            pass
        except (anyio.RunFinishedError, anyio.BrokenResourceError, anyio.ClosedResourceError):
            return  # the server is no longer listening
        try:
            anyio.from_thread.run_sync(self._send.close, token=token)
        except anyio.RunFinishedError:
            pass

    def __aiter__(self) -> StdinLines:
        return self

    async def __anext__(self) -> str:
        try:
            return await self._receive.receive()
        except anyio.EndOfStream:
            raise StopAsyncIteration from None

    def close(self) -> None:
        """Stop listening and give descriptor 0 back its stream (the reader thread is left to the exit)."""
        self._receive.close()
        os.dup2(self._private, self._fd)
