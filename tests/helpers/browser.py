"""A real browser for the web view's tests (issue 36): Debian's chromium under Playwright, never a download.

``make test`` installs ``chromium`` with apt when it is missing and it runs as root with apt-get
(the Makefile's ``browser`` step). Where no browser can be installed the browser tests skip, saying
why -- except under ``CI=true`` with apt-get available, where a missing browser fails them.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import threading
from pathlib import Path

import pytest
from hostprocs import HOST

CHROMIUM = Path(os.environ.get("RS_LEARN_CHROMIUM", "/usr/bin/chromium"))
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]


def require_browser() -> None:
    """Skip (or, on CI with apt, fail) unless Playwright and the system chromium are here."""
    missing = []
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        missing.append("Playwright for Python (pip install playwright pytest-playwright: the dev extra)")
    if not os.access(CHROMIUM, os.X_OK):
        missing.append(f"a chromium at {CHROMIUM} (apt-get install chromium, as root; `make test` does it)")
    if not missing:
        return
    message = "no browser for the web view's tests: missing " + " and ".join(missing)
    if os.environ.get("CI") == "true" and shutil.which("apt-get"):
        pytest.fail(message + " (CI=true with apt-get available: the browser must be installed)")
    pytest.skip(message)


def launch(playwright):
    """The system chromium, headless, without any of its network chatter."""
    return playwright.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)


class UiServer:
    """A real ``rs-learn-host ui`` process; :attr:`url` is the URL it printed (token included)."""

    def __init__(self, env: dict[str, str], *args: str) -> None:
        self.proc = subprocess.Popen([*HOST, "ui", *args], env=env, stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, text=True)
        self.url = ""
        self.err: list[str] = []
        self.ready = threading.Event()
        self.readers = [threading.Thread(target=self._read_out, daemon=True),
                        threading.Thread(target=self._read_err, daemon=True)]
        for reader in self.readers:
            reader.start()

    def _read_out(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            if ": http://127.0.0.1:" in line and not self.url:
                self.url = line.rsplit(": ", 1)[1].strip()
                self.ready.set()
        self.ready.set()

    def _read_err(self) -> None:
        assert self.proc.stderr is not None
        self.err += self.proc.stderr

    def wait(self, timeout: float = 180) -> str:
        """The URL, once the server listens (fails with its stderr when it exits instead)."""
        assert self.ready.wait(timeout), "rs-learn-host ui printed no URL"
        assert self.url, f"rs-learn-host ui exited ({self.proc.poll()}):\n{''.join(self.err)}"
        return self.url

    @property
    def base(self) -> str:
        """``http://127.0.0.1:PORT``."""
        return self.url.split("/?", 1)[0]

    @property
    def token(self) -> str:
        """The token the URL carries."""
        return self.url.rsplit("token=", 1)[1]

    def stop(self, sig: int = signal.SIGINT) -> int:
        """Interrupt the server (as Ctrl-C does, or with ``sig``) and wait for it."""
        if self.proc.poll() is None:
            self.proc.send_signal(sig)
        code = self.proc.wait(60)
        for reader in self.readers:  # all it said, once it has left
            reader.join(10)
        return code
