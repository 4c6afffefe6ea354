"""learn: lessons, managed skills, precedence and the host's atomic write; both targets."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from stores import nothing_written

from guest.learn.skills import MAX_FILE_BYTES, SkillRequest, sanitize_name

# the PostgreSQL copies: one case per verb and what the store decides (both_stores marks below)


def learn(guest, body) -> dict:
    return json.loads(guest.dispatch("learn", json.dumps(body) if not isinstance(body, str) else body))


def skill(action="create", name="Deploy Checklist", description="How we deploy.", body="1. Build\n2. Ship\n"):
    return {"action": action, "name": name, "description": description, "body": body}


def skill_file(project: Path, name: str) -> Path:
    return project / ".gm" / "managed-skills" / name / "SKILL.md"


def authored(project: Path, folder: str, name: str) -> None:
    path = project / folder / "skills" / name / "SKILL.md"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("---\nname: x\n---\nauthored\n")


@pytest.mark.both_stores
def test_lesson_only(guest, services):
    envelope = learn(guest, {"memory": "  Run the migrations before the tests.\x07 ", "context": "CI failed"})
    assert envelope["ok"]
    data = envelope["data"]
    assert data["text"] == "Lesson stored."
    assert data["details"] == {"skill": None} and data["isError"] is False
    record = json.loads(services.kv_get("memories", data["id"]))
    assert record["text"] == "Run the migrations before the tests."
    assert record["source"] == "learn" and record["importance"] == 0.8 and record["context"] == "CI failed"


def test_lesson_is_recallable(guest):
    learn(guest, {"memory": "Always pin the wasmtime version in pyproject."})
    hits = json.loads(guest.dispatch("recall", json.dumps({"query": "pin wasmtime version"})))["data"]
    assert hits[0]["text"] == "Always pin the wasmtime version in pyproject."


@pytest.mark.both_stores
def test_create_then_update_managed_skill(guest, project):
    data = learn(guest, {"memory": "Deploys need a checklist.", "skill": skill()})["data"]
    assert data["text"] == 'Lesson stored. Created managed skill "deploy-checklist".'
    assert data["details"] == {"skill": "deploy-checklist"} and "write" not in data
    path = skill_file(project, "deploy-checklist")
    assert (
        path.read_text()
        == '---\nname: deploy-checklist\ndescription: "How we deploy."\n---\n\n1. Build\n2. Ship\n'
    )
    data = learn(
        guest, {"memory": "Deploys need a rollback step.", "skill": skill("update", body="1. Roll back")}
    )["data"]
    assert data["text"] == 'Lesson stored. Updated managed skill "deploy-checklist".'
    assert path.read_text().endswith("\n\n1. Roll back\n")
    assert [p.name for p in path.parent.iterdir()] == ["SKILL.md"], "no temp files left"


def test_update_of_missing_skill_is_an_error_after_the_lesson(guest, services):
    data = learn(guest, {"memory": "Lesson A.", "skill": skill("update", name="ghost")})["data"]
    assert data["isError"] is True and data["details"] == {"skill": None, "missing": True}
    assert data["text"] == 'Lesson stored. Managed skill "ghost" does not exist, so it cannot be updated.'
    assert services.kv_get("memories", data["id"]) is not None


@pytest.mark.parametrize("folder", [".gm", ".claude"])
def test_authored_skill_wins(guest, project, services, folder):
    authored(project, folder, "deploy-checklist")
    data = learn(guest, {"memory": "Shadowed lesson.", "skill": skill()})["data"]
    assert data["isError"] is True
    assert data["details"] == {"skill": None, "shadowed": True}
    assert data["text"].startswith('Lesson stored. Managed skill "deploy-checklist" was not created')
    assert not skill_file(project, "deploy-checklist").exists()
    assert services.kv_get("memories", data["id"]) is not None, "the lesson is stored first"


@pytest.mark.both_stores
def test_write_failure_keeps_the_lesson(guest, project, services):
    blocker = project / ".gm" / "managed-skills"
    blocker.parent.mkdir(parents=True, exist_ok=True)
    blocker.write_text("a file where the folder should be")  # root ignores chmod; this fails for anyone
    data = learn(guest, {"memory": "Lesson B.", "skill": skill()})["data"]
    assert data["isError"] is True and data["details"] == {"skill": None}
    assert data["text"].startswith("Lesson stored, but the managed skill could not be written: ")
    assert data["content"] == [{"type": "text", "text": data["text"]}]
    assert services.kv_get("memories", data["id"]) is not None


@pytest.mark.both_stores
@pytest.mark.parametrize(
    ("body", "message"),
    [
        ({"memory": " \x00\x01 \t "}, "validation: Lesson was empty after sanitization; nothing stored."),
        ({}, "missing field 'memory'"),
        ({"memory": 5}, "field 'memory' must be a string"),
        ({"memory": "x" * 65_537}, "the limit is 65536"),
        ({"memory": "x", "context": 3}, "field 'context' must be a string"),
        ({"memory": "x", "namespace": "../x"}, "is not a valid name"),
        ({"memory": "x", "scope": {}}, "unknown fields: scope"),
        ({"memory": "  ", "skill": skill()}, "Lesson was empty after sanitization"),
    ],
)
def test_an_unusable_lesson_stores_nothing(guest, project, body, message):
    envelope = learn(guest, body)
    assert envelope["ok"] is False and message in envelope["error"]
    assert nothing_written(project)


@pytest.mark.parametrize(
    ("bad_skill", "reason"),
    [
        ("deploy", "field 'skill' must be an object"),
        (skill(action="delete"), "'skill.action' must be"),
        (skill(name="!!!"), "skill name '!!!' has no letter or digit"),
        (skill(name=".."), "no letter or digit"),
        (skill(name="日本語"), "no letter or digit"),
        (skill(description="  "), "'skill.description' must be a non-empty string"),
        ({**skill(), "path": "/etc"}, "unknown fields: path"),
        (skill(body="é" * 32_000), "the limit is 64000"),
    ],
)
def test_a_bad_skill_is_reported_after_the_lesson_is_stored(guest, project, services, bad_skill, reason):
    envelope = learn(guest, {"memory": "Lesson stored whatever the skill.", "skill": bad_skill})
    assert envelope["ok"] is True, "the lesson is committed"
    data = envelope["data"]
    prefix = "Lesson stored, but the managed skill could not be written: "
    assert data["text"].startswith(prefix) and reason in data["text"]
    assert data["isError"] is True and data["details"] == {"skill": None}
    assert data["content"] == [{"type": "text", "text": data["text"]}]
    assert json.loads(services.kv_get("memories", data["id"]))["text"] == "Lesson stored whatever the skill."
    assert not (project / ".gm" / "managed-skills").exists()


def test_every_answer_has_the_seeds_tool_result_shape(guest, project):
    authored(project, ".gm", "shadow")
    answers = [
        learn(guest, {"memory": "Only a lesson."})["data"],
        learn(guest, {"memory": "With a skill.", "skill": skill(name="fresh")})["data"],
        learn(guest, {"memory": "Shadowed.", "skill": skill(name="shadow")})["data"],
        learn(guest, {"memory": "Missing.", "skill": skill("update", name="ghost")})["data"],
    ]
    for data in answers:
        assert data["content"] == [{"type": "text", "text": data["text"]}]
        assert isinstance(data["isError"], bool) and isinstance(data["details"], dict)
        assert "write" not in data
    assert [d["isError"] for d in answers] == [False, False, True, True]


@pytest.mark.parametrize(
    ("raw", "name"),
    [
        ("Deploy Checklist", "deploy-checklist"),
        ("  --Deploy_To Prod!! ", "deploy-to-prod"),
        ("Café Setup", "cafe-setup"),
        ("ÜBER straße", "uber-strasse"),
        ("../../etc/passwd", "etc-passwd"),
        ("a/b\\c", "a-b-c"),
        ("_private", "private"),
        ("9lives", "9lives"),
        ("x" * 70, "x" * 64),
        ("a" * 63 + "-b", "a" * 63),
        ("..", ""),
        ("日本語", ""),
    ],
)
def test_sanitize_name(raw, name):
    assert sanitize_name(raw) == name


def test_size_cap_at_the_boundary(guest, project):
    probe = SkillRequest("create", "cap", "d", "")
    overhead = len(probe.render().encode())  # front matter + final newline
    body = "é" * ((MAX_FILE_BYTES - overhead) // 2) + "x" * ((MAX_FILE_BYTES - overhead) % 2)
    assert len(SkillRequest("create", "cap", "d", body).render().encode()) == MAX_FILE_BYTES
    data = learn(guest, {"memory": "cap lesson", "skill": skill(name="cap", description="d", body=body)})[
        "data"
    ]
    assert data["details"] == {"skill": "cap"}
    assert len(skill_file(project, "cap").read_bytes()) == MAX_FILE_BYTES
    data = learn(
        guest, {"memory": "cap lesson 2", "skill": skill(name="cap", description="d", body=body + "x")}
    )["data"]
    assert data["isError"] is True and data["details"] == {"skill": None}
    assert data["text"] == (
        "Lesson stored, but the managed skill could not be written: "
        "SKILL.md for 'cap' would be 64001 bytes; the limit is 64000"
    )
    assert len(skill_file(project, "cap").read_bytes()) == MAX_FILE_BYTES, "the old file is untouched"


@pytest.mark.both_stores
def test_cli_learn_and_skills_list(project, wasm_path, tmp_path):
    from click.testing import CliRunner

    from host_harness.cli.main import cli

    body = tmp_path / "body.md"
    body.write_text("1. Build\n2. Ship\n")
    authored(project, ".claude", "review")
    runner = CliRunner()
    base = ["-p", str(project), "--wasm", str(wasm_path)]
    result = runner.invoke(
        cli,
        [
            *base,
            "learn",
            "Deploys follow a checklist.",
            "--skill",
            "Deploy",
            "--description",
            "How we deploy",
            "--body",
            str(body),
        ],
    )
    assert result.exit_code == 0, result.output
    assert result.output == 'Lesson stored. Created managed skill "deploy".\n'
    result = runner.invoke(
        cli,
        [
            *base,
            "learn",
            "Reviews need two approvals.",
            "--skill",
            "Review",
            "--description",
            "How we review",
            "--body",
            str(body),
        ],
    )
    assert result.exit_code == 1 and "authored skills always win" in result.output
    managed = project / ".gm" / "managed-skills" / "review" / "SKILL.md"
    managed.parent.mkdir(parents=True)
    managed.write_text("---\nname: review\n---\n")
    result = runner.invoke(cli, [*base, "skills", "list", "--json"])
    rows = json.loads(result.output)
    assert [(r["name"], r["kind"], r["wins"]) for r in rows] == [
        ("deploy", "managed", True),
        ("review", "authored", True),
        ("review", "managed", False),
    ]
