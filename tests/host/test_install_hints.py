"""The PostgreSQL driver hint names the command for the way rs-learn-host was installed (issue 32.13)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tomllib
from pathlib import Path

from conftest import ROOT

from host_harness.store.pg.driver import DRIVER, install_hint

PACKAGES = "'psycopg[binary]>=3.3,<3.4' 'pgvector>=0.5,<0.6'"


def test_the_driver_is_the_postgresql_extra():
    extras = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert tuple(extras["optional-dependencies"]["postgresql"]) == DRIVER


def test_a_uv_tool_gets_a_uv_command_from_its_receipt(tmp_path: Path):
    (tmp_path / "uv-receipt.toml").write_text(
        '[tool]\nrequirements = [{ name = "rs-learn", directory = "/home/me/src/rs-learn" }]\n'
        'entrypoints = [{ name = "rs-learn-host", install-path = "/home/me/.local/bin/rs-learn-host" }]\n',
        encoding="utf-8")
    assert install_hint(tmp_path) == ("uv tool install --force --with 'psycopg[binary]>=3.3,<3.4' "
                                      "--with 'pgvector>=0.5,<0.6' /home/me/src/rs-learn")
    (tmp_path / "uv-receipt.toml").write_text("[tool\n", encoding="utf-8")  # unreadable: a placeholder
    assert install_hint(tmp_path).endswith("--with 'pgvector>=0.5,<0.6' <the rs-learn checkout or wheel you "
                                           "installed>")


def test_a_pipx_venv_gets_pipx_inject(tmp_path: Path):
    (tmp_path / "pipx_metadata.json").write_text(json.dumps({"main_package": {"package": "rs-learn"}}))
    assert install_hint(tmp_path) == f"pipx inject rs-learn {PACKAGES}"


def test_a_virtualenv_gets_its_own_pip(tmp_path: Path):
    python = "/opt/my env/bin/python"
    assert install_hint(tmp_path, python) == f"'{python}' -m pip install {PACKAGES}"


BLOCKED = "import sys; sys.modules['psycopg'] = None; from host_harness.cli.entry import main; main()"


def test_the_cli_names_this_interpreters_pip_when_psycopg_is_missing(tmp_path: Path):
    project = tmp_path / "project"
    (project / ".gm").mkdir(parents=True)
    (project / ".gm" / "config.json").write_text(json.dumps({"store": "postgresql://u@127.0.0.1:1/db",
                                                             "project": "p"}))
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, "-c", BLOCKED, "-p", str(project), "stats"], capture_output=True,
                          text=True, env=env, cwd=tmp_path, timeout=300)
    assert done.returncode != 0
    assert "needs psycopg 3 and pgvector" in done.stderr, done.stderr
    assert f"{sys.executable} -m pip install {PACKAGES}" in done.stderr, done.stderr


def test_a_wheel_without_the_component_is_refused_at_the_first_question(tmp_path: Path):
    """`pip install .` before `make wasm`: refused before pip downloads the dependencies (issue 42)."""
    import importlib.util

    path = ROOT / "scripts" / "build_backend.py"
    spec = importlib.util.spec_from_file_location("build_backend_under_test", path)
    assert spec is not None and spec.loader is not None
    backend = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(backend)
    backend.COMPONENT = tmp_path / "dist" / "rs_learn.wasm"
    for hook in (backend.get_requires_for_build_wheel, lambda: backend.prepare_metadata_for_build_wheel(
            str(tmp_path)), lambda: backend.build_wheel(str(tmp_path))):
        try:
            hook()
        except SystemExit as refused:
            assert "is missing: run `make wasm`" in str(refused.code)
        else:
            raise AssertionError("a wheel without its component was not refused")
    editable = backend.get_requires_for_build_editable  # setuptools' own: no component needed
    assert editable.__module__ == "setuptools.build_meta"
