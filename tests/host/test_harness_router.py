"""Namespace routing, hostile names and the read-only ``host`` namespace."""

from __future__ import annotations

import json
import logging
from pathlib import Path

import pytest

from host_harness.errors import HostError, StoreError
from host_harness.services import HostServices
from host_harness.store import Project, Route, StoreRouter


def tree(root: Path) -> list[str]:
    return sorted(str(p.relative_to(root)) for p in root.rglob("*"))


@pytest.mark.parametrize(
    ("ns", "db", "inner"),
    [
        ("memories", ".gm/rs-learn.db", "memories"),
        ("vectors/minilm", ".gm/rs-learn.db", "vectors/minilm"),
        ("default", ".gm/rs-learn.db", "default"),
        ("hosted", ".gm/rs-learn.db", "hosted"),
        ("disciplinesX/a/b", ".gm/rs-learn.db", "disciplinesX/a/b"),
        ("disciplines/frontend/memories", ".gm/disciplines/frontend/rs-learn.db", "memories"),
        ("disciplines/Front_end-2/vectors/m", ".gm/disciplines/Front_end-2/rs-learn.db", "vectors/m"),
        ("disciplines/" + "n" * 64 + "/x", f".gm/disciplines/{'n' * 64}/rs-learn.db", "x"),
    ],
)
def test_routes(project: Path, ns: str, db: str, inner: str):
    assert StoreRouter(Project(project)).route(ns) == Route(project / db, inner)


HOSTILE = [
    "disciplines/../memories",
    "disciplines/../../etc/x",
    "disciplines/./x",
    "disciplines//x",
    "disciplines/-lead/x",
    "disciplines/_lead/x",
    "disciplines/a b/x",
    "disciplines/é/x",
    "disciplines/" + "n" * 65 + "/x",
    "disciplines/a\\b/x",
    "disciplines/frontend",
    "disciplines/frontend/",
    "disciplines",
    "disciplines/",
    "a\x00b",
    "disciplines/a\x00/x",
    "",
]


@pytest.mark.parametrize("ns", HOSTILE)
def test_hostile_namespaces_are_refused_and_touch_nothing(project: Path, services: HostServices, ns: str):
    with pytest.raises(StoreError):
        StoreRouter(Project(project)).route(ns)
    with pytest.raises(HostError):
        services.kv_put(ns, "k", b"v")
    with pytest.raises(HostError):
        services.kv_get(ns, "k")
    assert tree(project.parent) == ["project"], "nothing may be created anywhere"
    assert services.failures == [], "a contract error is not a storage failure"


def test_absolute_discipline_path_cannot_escape(project: Path):
    with pytest.raises(StoreError, match="not valid"):
        Project(project).discipline_db("/etc")


def test_disciplines_are_separate_files(project: Path, services: HostServices):
    services.kv_put("disciplines/frontend/memories", "k", b"front")
    services.kv_put("memories", "k", b"default")
    assert services.kv_get("disciplines/frontend/memories", "k") == b"front"
    assert services.kv_get("memories", "k") == b"default"
    assert services.kv_get("disciplines/backend/memories", "k") is None
    assert (project / ".gm" / "disciplines" / "frontend" / "rs-learn.db").is_file()
    assert not (project / ".gm" / "disciplines" / "backend").exists()


def test_reads_create_no_gm_directory(project: Path, services: HostServices):
    assert services.kv_get("memories", "k") is None
    assert services.kv_query("disciplines/x/terms", "", 0) == []
    assert services.vec_search("vectors/m", [1.0, 0.0], 3) == []
    assert services.kv_get("host", "enabled-disciplines") == b"[]"
    assert tree(project) == []


def test_enabled_disciplines(project: Path, services: HostServices, caplog: pytest.LogCaptureFixture):
    enabled = project / ".gm" / "disciplines" / "enabled.txt"
    enabled.parent.mkdir(parents=True)
    enabled.write_text(
        "\ufeff# comment\n  frontend  \n\nbackend\nfrontend\n../etc\nbad name\n" + "x" * 65 + "\r\nops\n",
        encoding="utf-8",
    )
    with caplog.at_level(logging.WARNING, logger="rs_learn.host"):
        value = services.kv_get("host", "enabled-disciplines")
    assert json.loads(value) == ["frontend", "backend", "ops"]
    assert sum("invalid discipline name" in r.message for r in caplog.records) == 3


def test_known_disciplines_are_folders_and_enabled_names(project: Path, services: HostServices):
    assert json.loads(services.kv_get("host", "disciplines")) == []
    base = project / ".gm" / "disciplines"
    for name in ("notes", "default", "not valid!", "frontend"):
        (base / name).mkdir(parents=True, exist_ok=True)
    (base / "stray.txt").write_text("a file, not a discipline", encoding="utf-8")
    (base / "enabled.txt").write_text("ops\nfrontend\n", encoding="utf-8")
    assert json.loads(services.kv_get("host", "disciplines")) == ["frontend", "notes", "ops"]


def test_authored_skills(project: Path, services: HostServices):
    for base, name, with_file in [
        (".gm/skills", "deploy", True),
        (".claude/skills", "review", True),
        (".claude/skills", "deploy", True),
        (".claude/skills", "draft", False),
    ]:
        directory = project / base / name
        directory.mkdir(parents=True)
        if with_file:
            (directory / "SKILL.md").write_text("---\nname: x\n---\n", encoding="utf-8")
    (project / ".gm" / "skills" / "stray.md").write_text("not a skill dir", encoding="utf-8")
    assert json.loads(services.kv_get("host", "authored-skills")) == ["deploy", "review"]


def test_scope_comes_from_trusted_configuration(project: Path):
    scope = {"actorId": "a1", "projectId": "p", "global": False}
    with_scope = HostServices(project, scope=scope)
    assert json.loads(with_scope.kv_get("host", "scope")) == scope
    assert HostServices(project).kv_get("host", "scope") is None


def test_host_namespace_is_read_only(project: Path, services: HostServices):
    for ns in ("host", "host/sub"):
        with pytest.raises(StoreError, match="read-only"):
            services.kv_put(ns, "enabled-disciplines", b'["x"]')
        with pytest.raises(StoreError, match="read-only"):
            services.kv_put(ns, "k", b"")
    assert services.kv_get("host", "unknown") is None
    assert services.kv_get("host/sub", "enabled-disciplines") is None
    assert services.vec_search("host", [1.0], 3) == []
    keys = [k for k, _ in services.kv_query("host", "", 0)]
    assert keys == [
        "authored-skills", "disciplines", "enabled-disciplines", "managed-skills", "memory-config", "redact",
        "skills",
    ]
    assert services.kv_query("host", "ENABLED-DISC", 0) == [("enabled-disciplines", b"[]")]
    assert tree(project) == []
