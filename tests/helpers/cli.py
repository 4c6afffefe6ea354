"""``rs-learn-host`` run in this process through click's runner, on the test's target."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from click.testing import CliRunner, Result

from host_harness.cli.main import cli

Invoke = Callable[..., Result]


def host_cli(project: Path, target: str) -> Invoke:
    """``invoke(*args, input=None)``: ``rs-learn-host -p PROJECT [--native] ARGS``; click's Result.

    Exceptions propagate (``catch_exceptions=False``): a crash fails the test with its traceback.
    """
    runner = CliRunner()
    base = ["-p", str(project), *(["--native"] if target == "native" else [])]

    def invoke(*args: str, input: bytes | str | None = None) -> Result:
        return runner.invoke(cli, [*base, *args], input=input, catch_exceptions=False)

    return invoke
