"""``rs-learn-host discipline``: enabled.txt edited atomically, hostile names refused, list with counts."""

from __future__ import annotations

import codecs
import json
import threading
from pathlib import Path

import pytest
from click.testing import CliRunner
from hostprocs import host, host_env

from host_harness.cli.main import cli
from host_harness.store import Project
from host_harness.store.enabled_list import EnabledList


def enabled_file(project: Path) -> Path:
    return project / ".gm" / "disciplines" / "enabled.txt"


@pytest.fixture
def run(project: Path):
    runner = CliRunner()

    def invoke(*args: str, native: bool = False):
        base = ["-p", str(project)] + (["--native"] if native else [])
        return runner.invoke(cli, [*base, *args], catch_exceptions=False)

    return invoke


def test_enable_appends_once_and_creates_the_file(run, project: Path):
    result = run("discipline", "enable", "frontend")
    assert result.exit_code == 0 and result.stdout == "enabled frontend\n"  # compile progress goes to stderr
    assert enabled_file(project).read_text() == "frontend\n"
    stat = enabled_file(project).stat()
    again = run("discipline", "enable", "frontend")
    assert again.exit_code == 0 and again.output == "frontend is already enabled\n"
    after = enabled_file(project).stat()
    assert (after.st_ino, after.st_mtime_ns) == (stat.st_ino, stat.st_mtime_ns), "no write: nothing changed"
    assert run("discipline", "enable", "ops-2").exit_code == 0
    assert enabled_file(project).read_text() == "frontend\nops-2\n"


def test_edits_preserve_comments_blank_lines_and_encoding(run, project: Path):
    path = enabled_file(project)
    path.parent.mkdir(parents=True)
    original = (codecs.BOM_UTF8 + b"# team disciplines\r\n\r\nfrontend\r\n  ops  \r\n# ops is noisy\r\n"
                b"frontend\r\nlegacy \xff")
    path.write_bytes(original)
    assert run("discipline", "enable", "data").exit_code == 0
    assert path.read_bytes() == original + b"\r\ndata\r\n"
    assert run("discipline", "disable", "frontend").output == "disabled frontend\n"
    assert path.read_bytes() == (codecs.BOM_UTF8 + b"# team disciplines\r\n\r\n  ops  \r\n# ops is noisy\r\n"
                                 b"legacy \xff\r\ndata\r\n")
    assert run("discipline", "disable", "ops").exit_code == 0
    assert b"ops  " not in path.read_bytes() and b"# ops is noisy" in path.read_bytes()
    before = path.stat()
    assert run("discipline", "disable", "frontend").output == "frontend was not enabled\n"
    assert path.stat().st_mtime_ns == before.st_mtime_ns
    assert Project(project).enabled_disciplines() == ["data"]
    assert not list(path.parent.glob(".*tmp*")), "no temp file is left"


@pytest.mark.parametrize("name", [
    "..", "../escape", "a/b", "/etc", "/abs/path", "x\x00y", "a" * 65, "-lead", "_lead", ".hidden", "",
    "a b", "café", "default", "ok\n",
])
@pytest.mark.parametrize("verb", ["enable", "disable", "create"])
def test_hostile_names_are_refused(run, project: Path, verb: str, name: str):
    result = CliRunner().invoke(cli, ["-p", str(project), "discipline", verb, "--", name])
    assert result.exit_code == 2, result.output
    assert "Invalid value for 'NAME'" in result.output
    assert ("not a valid discipline name" in result.output) or ("project store" in result.output)
    assert not (project / ".gm").exists()


def test_the_longest_valid_name_is_accepted(run, project: Path):
    name = "a" + "b-_9" * 15 + "xyz"
    assert len(name) == 64
    assert run("discipline", "enable", name).exit_code == 0


def test_concurrent_enables_all_land(project: Path):
    names = [f"team{i}" for i in range(12)]
    threads = [threading.Thread(target=EnabledList(Project(project)).enable, args=(n,)) for n in names]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(Project(project).enabled_disciplines()) == sorted(names)


def test_list_shows_directories_enabled_names_and_counts(target: str, run, project: Path):
    native = target == "native"
    assert run("discipline", "list", native=native).output.startswith("No disciplines.")
    assert run("memorize", "-n", "frontend", "The app is built with vite.", native=native).exit_code == 0
    assert run("memorize", "-n", "frontend", "Components live in src/ui.", native=native).exit_code == 0
    assert run("memorize", "-n", "ops", "Alerts page the on-call engineer.", native=native).exit_code == 0
    (project / ".gm" / "disciplines" / "not valid!").mkdir()
    assert run("discipline", "enable", "frontend").exit_code == 0
    assert run("discipline", "enable", "planned").exit_code == 0
    rows = json.loads(run("discipline", "list", "--json", native=native).output)
    assert rows == [
        {"name": "frontend", "enabled": True, "store": True, "memories": 2},
        {"name": "ops", "enabled": False, "store": True, "memories": 1},
        {"name": "planned", "enabled": True, "store": False, "memories": 0},
    ]
    text = run("discipline", "list", native=native).output.splitlines()
    assert text == ["frontend  enabled   2 memories", "ops       disabled  1 memories",
                    "planned   enabled   0 memories"]
    quick = json.loads(run("discipline", "list", "--no-counts", "--json", native=native).output)
    assert [row["memories"] for row in quick] == [None, None, None]


def test_create_makes_a_sigil_known_without_enabling_it(run, project: Path):
    assert run("discipline", "create", "notes").output == "created notes\n"
    assert (project / ".gm" / "disciplines" / "notes").is_dir() and not enabled_file(project).exists()
    assert run("discipline", "create", "notes").output == "notes already exists\n"
    listed = json.loads(run("discipline", "list", "--json", "--no-counts").output)
    assert listed == [{"name": "notes", "enabled": False, "store": False, "memories": None}]


def test_a_sigil_reaches_a_discipline_once_the_project_knows_it(target: str, run, project: Path):
    native = target == "native"

    def memorize(text: str) -> dict:
        result = run("memorize", text, "--json", native=native)  # the CLI always sends namespace "default"
        assert result.exit_code == 0, result.output
        return json.loads(result.output)

    assert memorize("@frontend The app is built with vite.")["namespace"] == "default", "unknown: text"
    assert not (project / ".gm" / "disciplines").exists()
    assert run("discipline", "enable", "frontend").exit_code == 0
    assert memorize("@frontend The app is built with vite.")["namespace"] == "frontend"
    assert run("discipline", "create", "notes").exit_code == 0
    assert memorize("@notes Standup moved to 10:00.")["namespace"] == "notes"
    hits = json.loads(run("recall", "@frontend vite", "--json", native=native).output)
    assert [(h["namespace"], h["text"]) for h in hits] == [("frontend", "The app is built with vite.")]
    fanned = json.loads(run("recall", "vite standup", "--json", native=native).output)
    assert {h["namespace"] for h in fanned} == {"default", "frontend"}, "notes is known, not enabled"


def test_a_real_process_refuses_a_traversal(project: Path):
    done = host("discipline", "enable", "../../etc", env=host_env(project))
    assert done.returncode == 2 and b"not a valid discipline name" in done.stderr
    assert not (project / ".gm").exists()
    listed = host("discipline", "list", env=host_env(project, RS_LEARN_WASM=str(project / "missing.wasm")))
    assert listed.returncode == 0 and listed.stdout.startswith(b"No disciplines.")


def test_list_does_not_show_default_even_when_enabled_txt_names_it(run, project: Path):
    """Issue 25, item 19: `default` is the project store, not a discipline."""
    enabled_file(project).parent.mkdir(parents=True)
    enabled_file(project).write_text("default\nfrontend\n", encoding="utf-8")
    rows = json.loads(run("discipline", "list", "--json", "--no-counts").output)
    assert [row["name"] for row in rows] == ["frontend"]


def test_a_fanned_out_hit_names_its_discipline_once(target: str, run, project: Path):
    """Issue 25, item 19: not `[discipline:frontend] … [frontend]`."""
    native = target == "native"
    assert run("discipline", "enable", "frontend").exit_code == 0
    assert run("memorize", "@frontend The app is built with vite.", native=native).exit_code == 0
    fanned = run("recall", "vite build", native=native).output
    assert "[discipline:frontend] The app is built with vite." in fanned and "[frontend]" not in fanned
    chosen = run("recall", "@frontend vite build", native=native).output
    assert "The app is built with vite. [frontend]" in chosen and "[discipline:" not in chosen


def test_a_corrupt_discipline_store_is_named_with_where_it_is(target: str, run, project: Path):
    """Issue 25, item 19: not `internal: … DatabaseError`."""
    native = target == "native"
    store = project / ".gm" / "disciplines" / "web" / "rs-learn.db"
    store.parent.mkdir(parents=True)
    store.write_bytes(b"this is not a SQLite database, it is a text file " * 100)
    for args in (("memorize", "@web The site uses astro."), ("recall", "@web astro"), ("stats", "-n", "web")):
        result = run(*args, native=native)
        assert result.exit_code == 1, args
        said = ("the store of discipline 'web' (.gm/disciplines/web/rs-learn.db) is not a usable SQLite "
                "database (file is not a database): move the file aside, or restore it from git")
        assert said in result.output, result.output
        assert "DatabaseError" not in result.output, args
    assert store.read_bytes().startswith(b"this is not"), "left as it was"


@pytest.mark.parametrize("verb", ["enable", "create"])
def test_a_secret_as_a_name_is_refused_and_not_echoed(run, project: Path, verb: str):
    """Issue 38, item 4: the host's commands refuse what the guest refuses: no folder named by a token."""
    token = "ghp_" + "a1B2c3D4" * 4 + "e5F6"
    result = run("discipline", verb, token)
    assert result.exit_code == 2 and "reads as a secret (github-token)" in result.output
    assert token not in result.output
    assert not (project / ".gm").exists()
    memorize = run("memorize", "--namespace", token, "a fact", native=True)
    assert memorize.exit_code == 1 and "reads as a secret" in memorize.output and token not in memorize.output
    assert not (project / ".gm" / "disciplines" / token).exists()
