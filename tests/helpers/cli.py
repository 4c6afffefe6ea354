"""``rs-learn-host`` run in this process through click's runner, on the test's target."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from subprocess import CompletedProcess

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


def host_in_process(*args: str, env: dict[str, str], input: bytes | None = None) -> CompletedProcess[bytes]:
    """``hostprocs.host``'s answer without a process: ``rs-learn-host ARGS`` through click's runner,
    with ``env`` and the project as the working folder, as ``host`` starts it.

    For the commands whose process is not what the test is about (``why``, ``list``...); a hook's
    stdout, exit codes on signals and the real agents stay in processes.
    """
    project = Path(env["RS_LEARN_PROJECT"])
    return host_in_folder(*args, env=env, cwd=project if project.is_dir() else None, input=input)


def host_in_folder(*args: str, env: dict[str, str], cwd: Path | None,
                   input: bytes | None = None) -> CompletedProcess[bytes]:
    """``rs-learn-host ARGS`` through click's runner with exactly ``env`` and ``cwd`` as the working
    folder (``None``: this one), as a process started there would see them."""
    before = Path.cwd()
    if cwd is not None:
        os.chdir(cwd)
    try:
        environment = {**dict.fromkeys(os.environ.keys() - env.keys()), **env}  # exactly env, as a process
        result = CliRunner().invoke(cli, list(args), input=input, env=environment, catch_exceptions=False,
                                    prog_name="rs-learn-host")
    finally:
        os.chdir(before)
    return CompletedProcess(list(args), result.exit_code, result.stdout_bytes, result.stderr_bytes)
