"""Skill discovery (seed 003): ``session_start`` on both targets, the host's listing, the real hook."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from envelopes import call, ok
from hostprocs import host, host_env

from guest.learn.discovery import CUT, HEADER, INTRO
from host_harness.fs.skills import MAX_HEAD_BYTES, description, discover
from host_harness.hooks.protocol import read_event
from host_harness.targets.runtime import Runtime


def head(path: Path) -> bytes:
    """What the host reads of a SKILL.md."""
    return path.read_bytes()[:MAX_HEAD_BYTES]


def skill(project: Path, where: str, name: str, front: str = "", body: str = "Steps.\n") -> Path:
    path = project / where / name / "SKILL.md"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(f"---\nname: {name}\n{front}---\n\n{body}", encoding="utf-8")
    return path


@pytest.fixture
def skilled(project: Path) -> Path:
    """A project with two managed skills (one shadowed) and two authored ones."""
    deploy = 'description: "How we deploy: build, smoke, ship."\n'
    skill(project, ".gm/managed-skills", "deploy-checklist", deploy)
    skill(project, ".gm/managed-skills", "review", "description: Managed review notes\n")
    skill(project, ".claude/skills", "Review", "description: >\n  How we review\n  pull requests.\n")
    skill(project, ".gm/skills", "release", "description: 'Cut a release, don''t skip tags'\n")
    return project


# the host's listing


@pytest.mark.parametrize(
    ("front", "expected"),
    [
        ('description: "How we deploy"\n', "How we deploy"),
        ('description: "Tab\\tand \\u00e9"\n', "Tab\tand é"),
        ("description: plain words: with a colon\n", "plain words: with a colon"),
        ("description: 'it''s quoted'\n", "it's quoted"),
        ("description: |\n  line one\n  line two\nother: x\n", "line one line two"),
        ("description:\n", None),
        ("other: x\n", None),
    ],
)
def test_description_from_front_matter(tmp_path: Path, front: str, expected: str | None):
    assert description(head(skill(tmp_path, "s", "x", front))) == expected


def test_description_needs_front_matter(tmp_path: Path):
    path = tmp_path / "SKILL.md"
    path.write_text("description: not front matter\n", encoding="utf-8")
    assert description(head(path)) is None
    path.write_text("\ufeff---\ndescription: with a BOM\n---\n", encoding="utf-8")
    assert description(head(path)) == "with a BOM"
    path.write_bytes(b"---\ndescription: caf\xe9 bytes\n---\n")
    assert description(head(path)) == "caf\ufffd bytes"
    assert description(None) is None  # an unreadable file


def test_discover_lists_every_skill_folder(skilled: Path):
    (skilled / ".gm" / "managed-skills" / "Not_Managed").mkdir()
    (skilled / ".gm" / "managed-skills" / "Not_Managed" / "SKILL.md").write_text("---\n---\n")
    (skilled / ".claude" / "skills" / "draft").mkdir()  # no SKILL.md: not a skill
    rows = discover(skilled)
    assert [(r["kind"], r["name"], r["path"]) for r in rows] == [
        ("managed", "deploy-checklist", ".gm/managed-skills/deploy-checklist/SKILL.md"),
        ("managed", "review", ".gm/managed-skills/review/SKILL.md"),
        ("authored", "release", ".gm/skills/release/SKILL.md"),
        ("authored", "Review", ".claude/skills/Review/SKILL.md"),
    ]
    assert rows[3]["description"] == "How we review pull requests."


# the guest, on both targets


def test_session_start_lists_discoverable_skills(guest, skilled: Path):
    data = ok(guest, "session_start", {})
    assert data["context"] == "\n".join([
        HEADER,
        INTRO,
        "- deploy-checklist — How we deploy: build, smoke, ship. "
        "(.gm/managed-skills/deploy-checklist/SKILL.md, managed)",
        "- Review — How we review pull requests. (.claude/skills/Review/SKILL.md, authored)",
        "- release — Cut a release, don't skip tags (.gm/skills/release/SKILL.md, authored)",
    ]) + "\n", "the managed 'review' is shadowed by the authored 'Review'"
    assert [s["name"] for s in data["skills"]] == ["deploy-checklist", "Review", "release"]
    assert data["shown"] == 3


def test_session_start_stays_within_its_budget(guest, project: Path):
    for n in range(30):
        about = f"description: Skill number {n} " + "x" * 80 + "\n"
        skill(project, ".gm/managed-skills", f"skill-{n:02d}", about)
    data = ok(guest, "session_start", {"budget_tokens": 300})
    lines = data["context"].splitlines()
    assert sum((len(line) + 4) // 4 for line in lines) <= 300
    assert 0 < data["shown"] < 30 and len(data["skills"]) == 30
    rest = 30 - data["shown"]
    assert lines[-1] == f"- … and {rest} more in .gm/managed-skills/, .gm/skills/ and .claude/skills/"
    long = ok(guest, "session_start", {"budget_tokens": 100_000})
    assert long["shown"] == 30 and "more in" not in long["context"]


def test_a_budget_too_small_for_any_skill_says_so_or_nothing(guest, skilled: Path):
    """Issue 32, item 14: when not even one skill fits, one line says so (when that line fits)."""
    data = ok(guest, "session_start", {"budget_tokens": 30})
    assert data["shown"] == 0 and len(data["skills"]) == 3
    assert data["context"] == CUT.format("3 skills") + "\n"
    assert (len(data["context"]) + 3) // 4 <= 30
    assert ok(guest, "session_start", {"budget_tokens": 5})["context"] == ""  # not even that line


def test_session_start_without_skills_is_empty(guest, project: Path):
    assert ok(guest, "session_start", "") == {"context": "", "skills": [], "shown": 0}
    assert not (project / ".gm").exists()
    bad = call(guest, "session_start", {"budget_tokens": 0})
    assert bad["ok"] is False and "between 1 and 100000" in bad["error"]


# the real hook


def session_event(cwd: object = None, **extra: object) -> bytes:
    value = {"session_id": "abc", "transcript_path": "/tmp/t.jsonl", "cwd": cwd,
             "hook_event_name": "SessionStart", "source": "startup", **extra}
    return json.dumps(value).encode("utf-8")


def run_session_hook(stdin: bytes, env: dict[str, str], *args: str):
    done = host("hook", "session-start", *args, env=env, input=stdin, timeout=30)
    assert done.returncode == 0, done.stderr
    return done


def test_parse_session_event():
    assert read_event(session_event(cwd="/x"), "SessionStart")[1] == "/x"


def test_the_hook_injects_the_skills(skilled: Path, wasm_runtime: Runtime):
    (skilled / "src").mkdir()
    env = host_env(skilled, RS_LEARN_HOOK_TIMEOUT="20")
    done = run_session_hook(session_event(cwd=str(skilled / "src"), source="compact"), env)
    output = json.loads(done.stdout)["hookSpecificOutput"]
    assert output["hookEventName"] == "SessionStart"
    assert output["additionalContext"].startswith(HEADER + "\n")
    assert "- deploy-checklist — How we deploy" in output["additionalContext"]
    assert not (skilled / ".gm" / "logs").exists(), "nothing to log"
    assert not (skilled / ".gm" / "rs-learn.db").exists(), "listing skills writes no store"


def test_the_hook_is_quiet_without_skills_and_never_fails(project: Path, tmp_path: Path):
    env = host_env(project, RS_LEARN_HOOK_TIMEOUT="20", RS_LEARN_WASM=str(tmp_path / "missing.wasm"))
    assert run_session_hook(session_event(cwd=str(project)), env).stdout == b""  # component never needed
    assert not (project / ".gm").exists()
    skill(project, ".gm/managed-skills", "x", "description: y\n")
    assert run_session_hook(session_event(cwd=str(project)), env).stdout == b""
    log = (project / ".gm" / "logs" / "hook.log").read_text(encoding="utf-8")
    assert "component not found" in log
    for stdin in (b"{oops", json.dumps({"hook_event_name": "UserPromptSubmit", "prompt": "x"}).encode()):
        assert run_session_hook(stdin, env).stdout == b""
    assert run_session_hook(session_event(), {**env, "RS_LEARN_SESSION_BUDGET": "lots"}).stdout == b""
    lines = (project / ".gm" / "logs" / "hook.log").read_text(encoding="utf-8").splitlines()
    assert ["not JSON" in lines[1], "unexpected hook event" in lines[2], "rejected" in lines[3]] == [True] * 3


@pytest.mark.parametrize("warm", [False, True])
def test_the_hook_with_a_small_budget_logs_why_it_lists_nothing(skilled: Path, wasm_runtime: Runtime,
                                                                warm: bool):
    """Issue 32, item 14: the cut is said in one line when it fits, and logged either way, cold or warm."""
    from hostprocs import Watcher

    env = host_env(skilled, RS_LEARN_HOOK_TIMEOUT="20")
    watcher = Watcher(env) if warm else None
    try:
        if watcher is not None:
            watcher.wait_ready()
        said = run_session_hook(session_event(cwd=str(skilled)), env, "--budget", "30")
        quiet = run_session_hook(session_event(cwd=str(skilled)), env, "--budget", "5")
    finally:
        if watcher is not None:
            assert watcher.stop() == 0
    assert json.loads(said.stdout)["hookSpecificOutput"]["additionalContext"] == CUT.format("3 skills") + "\n"
    assert quiet.stdout == b"" and said.stderr == quiet.stderr == b""
    lines = (skilled / ".gm" / "logs" / "hook.log").read_text(encoding="utf-8").splitlines()
    budget = "-token budget (--budget, $RS_LEARN_SESSION_BUDGET)"
    assert [line.split(" ", 2)[2] for line in lines] == [
        f"the 3 skills of this project do not fit in the 30{budget}; said so in one line",
        f"the 3 skills of this project do not fit in the 5{budget}; nothing injected",
    ]
