"""No secrets in memory (issue 28, item 4): redacted before anything is stored, on both targets.

The pure rules are checked on corpora -- 378 realistic secrets of 38 kinds in the contexts people
paste them in, and texts that only look random (git object ids, UUIDs, lockfile hashes, base64
images, the bench corpus, LoCoMo's conversations) of which at most 0.1 % may change. Then every
storing verb through the native guest and the component: the secret never reaches the database
file, ``git diff``'s text, an export, an answer, an error or a log line.
"""

from __future__ import annotations

import json
import subprocess
from collections import Counter
from pathlib import Path

import pytest
from envelopes import call, ok
from secret_corpus import SECRETS, corpus_sample, false_alarm_corpus, locomo_turns, true_cases

from guest.screening.redact import redact
from host_harness.git import driver
from host_harness.services import HostServices

AWS_ID = "AKIAQYLPMN5HHHFPZAM2"
AWS_SECRET = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYzEXAMPLEK9"
CASES = list(true_cases())


def altered(texts: list[str]) -> list[str]:
    return [t for t in texts if redact(t)[0] != t]


def test_the_true_corpus_covers_every_kind_with_200_cases():
    kinds = Counter(kind for kind, _, _ in CASES)
    assert len(CASES) >= 200
    assert set(SECRETS) | {"password", "secret", "token", "api-key", "url-credentials", "private"} == set(
        kinds
    )


def test_every_true_case_is_redacted_with_its_kind():
    missed = []
    for kind, text, secret in CASES:
        out, counts = redact(text)
        if secret in out or f"[REDACTED:{kind}]" not in out or counts.get(kind, 0) < 1:
            missed.append((kind, text[:80], out[:80]))
    assert missed == []


def test_redaction_is_idempotent_so_a_secret_stored_twice_dedupes():
    for _, text, _ in CASES:
        once = redact(text)[0]
        assert redact(once) == (once, {})


@pytest.mark.parametrize("name", sorted(false_alarm_corpus()))
def test_random_looking_texts_are_left_alone(name: str):
    texts = false_alarm_corpus()[name]
    assert len(altered(texts)) <= len(texts) // 1000, altered(texts)[:3]


def test_a_sample_of_the_bench_corpus_is_left_alone():
    """Every 100th paragraph of the bench corpus; the whole of it is ``python -m bench.corpus_alarms``
    (``make eval``: 10 of 33,011 changed on 2026-12-07, test passwords and cookies in docs)."""
    texts = corpus_sample()
    assert len(texts) == 331
    assert altered(texts) == []


def test_locomo_conversations_are_left_alone():
    turns = locomo_turns()
    assert altered(turns) == []


@pytest.mark.parametrize(
    "text, expected",
    [
        ("password = getpass.getpass()", None),  # code, not a value
        ("token = next_token(stream)", None),
        ("token: the one the server sent back", None),  # prose after a colon
        ("if password == stored:", None),
        ("DB_PASSWORD=${DB_PASSWORD}", None),  # a variable, not a value
        ("postgresql://rs:***@db.example/memory", None),  # already masked
        ("max_tokens=4096 token_type=bearer password_file=/run/secret", None),
        ("commit 3f786850e387550fdab836ed7e6dc881de23001b", None),
        ("DB_PASSWORD = hunter2", "DB_PASSWORD = [REDACTED:password]"),  # an upper-case variable: a .env line
        ("export GITHUB_TOKEN=ghp_" + "a1B2" * 9, "export GITHUB_TOKEN=[REDACTED:github-token]"),
    ],
)
def test_code_and_prose_against_values(text: str, expected: str | None):
    assert redact(text)[0] == (text if expected is None else expected)


# Through the guest: native and the component.


def secret_text() -> str:
    return f"staging deploy: aws_access_key_id={AWS_ID} aws_secret_access_key={AWS_SECRET}"


def test_a_memorized_aws_key_is_redacted_everywhere(guest, services, project: Path, target, request, caplog):
    caplog.set_level("DEBUG")
    first = ok(guest, "memorize", {"text": secret_text()})
    assert first["redacted"] == {"aws-access-key-id": 1, "aws-secret-access-key": 1}
    again = ok(guest, "memorize", {"text": secret_text()})
    assert again["id"] == first["id"] and again["deduped"] is True  # the id is the redacted text's
    hits = ok(guest, "recall", {"query": "staging deploy"})
    assert hits[0]["text"] == (
        "staging deploy: aws_access_key_id=[REDACTED:aws-access-key-id] "
        "aws_secret_access_key=[REDACTED:aws-secret-access-key]"
    )
    exported = json.dumps(ok(guest, "export", {"vectors": True}))
    assert "[REDACTED:aws-access-key-id]" in exported
    services.close()
    db = (project / ".gm" / "rs-learn.db").read_bytes()
    from conftest import make_guest

    text = driver.textconv(project / ".gm" / "rs-learn.db", lambda s: make_guest(target, s, request))
    assert "[REDACTED:aws-access-key-id]" in text
    logs = caplog.text + "\n".join(r.msg for r in services.logs)
    for where in (db, text.encode(), exported.encode(), json.dumps(hits).encode(), logs.encode()):
        assert AWS_ID.encode() not in where and AWS_SECRET.encode() not in where


def test_every_storing_verb_redacts(guest, project: Path):
    token = "ghp_" + "Zx9Q" * 9
    lesson = ok(
        guest,
        "learn",
        {
            "memory": f"Publish with GH_TOKEN={token}",
            "context": f"from {token}",
            "skill": {
                "action": "create",
                "name": "publish",
                "description": "How to publish",
                "body": f"Run `gh auth login --with-token {token}`\n",
            },
        },
    )
    assert lesson["redacted"] == {"github-token": 3} and not lesson["isError"]
    skill = (project / ".gm" / "managed-skills" / "publish" / "SKILL.md").read_text(encoding="utf-8")
    assert token not in skill and "[REDACTED:github-token]" in skill
    block = ok(guest, "archive", {"label": f"env {token}", "content": f"GH={token}\nother=1\n"})
    assert block["redacted"] == {"github-token": 2} and "Secrets redacted: github-token x2." in block["text"]
    recalled = ok(guest, "archive_recall", {"id": block["id"]})
    assert recalled["content"] == "GH=[REDACTED:github-token]\nother=1\n"  # verbatim but for the secret
    imported = ok(
        guest,
        "import",
        {"memories": [{"text": f"npm publish uses {token}", "context": token, "source": "notes"}]},
    )
    assert imported["redacted"] == {"github-token": 2} and imported["imported"] == 1
    note = ok(guest, "create_session_note", {"content": f"rotated {token} today", "tags": ["ops"]})
    assert note["redacted"] == {"github-token": 1}  # the title is derived from the redacted content
    assert token not in json.dumps(note)
    todo = ok(guest, "create_todo", {"title": "rotate the key", "description": f"old one: {token}"})
    updated = ok(guest, "update_todo", {"id": todo["id"], "description": "db password=hunter22"})
    assert updated["description"] == "db password=[REDACTED:password]" and updated["redacted"] == {
        "password": 1
    }
    dump = json.dumps(ok(guest, "export", {})) + json.dumps(ok(guest, "query_records", {"query": "rotate"}))
    assert token not in dump


def test_an_error_never_quotes_a_secret(guest):
    key = "sk_live_" + "4eC39HqLyjWDarjtT1zdp7dc"
    for verb, body in [
        ("create_todo", {"title": "t", "due": f"soon {key}"}),
        ("archive", {"content": "x", "label": f"two\nlines {key}"}),
        ("update_todo", {"id": f"td-1 {key}"}),
        (f"no such verb {key}", {}),
    ]:
        envelope = call(guest, verb, body)
        assert envelope["ok"] is False, envelope
        assert key not in envelope["error"] and "[REDACTED:stripe-key]" in envelope["error"]


def test_redaction_off_stores_the_text_as_given(guest_factory, project: Path, clock):
    (project / ".gm").mkdir(exist_ok=True)
    config = project / ".gm" / "config.json"
    document = json.loads(config.read_text()) if config.exists() else {}
    config.write_text(json.dumps({**document, "redact": False}), encoding="utf-8")
    services = HostServices(project, clock=clock)
    guest = guest_factory(services)
    answer = ok(guest, "memorize", {"text": secret_text()})
    assert "redacted" not in answer
    assert ok(guest, "recall", {"query": "staging deploy"})[0]["text"] == secret_text()
    guest.close()
    services.close()


def test_a_bad_redact_setting_stops_the_host(project: Path):
    (project / ".gm").mkdir(exist_ok=True)
    (project / ".gm" / "config.json").write_text('{"redact": "no"}', encoding="utf-8")
    from host_harness.config import ConfigError

    with pytest.raises(ConfigError, match='redact must be true or false, got "no"'):
        HostServices(project)


def test_the_spool_and_cli_logs_never_carry_the_secret(project: Path, wasm_path: Path):
    from hostprocs import HOST, host_env, write_request

    env = host_env(project)
    write_request(project, "memorize", "1.json", json.dumps({"text": secret_text()}).encode())
    write_request(project, "create_todo", "2.json", json.dumps({"title": "x", "due": AWS_ID}).encode())
    done = subprocess.run([*HOST, "-v", "spool", "--once"], env=env, capture_output=True, timeout=300)
    assert done.returncode == 0, done.stderr
    cli = subprocess.run(
        [*HOST, "-v", "memorize", f"again {AWS_ID}"], env=env, capture_output=True, timeout=300
    )
    assert cli.returncode == 0 and b"secrets redacted: aws-access-key-id x1" in cli.stderr
    answers = b"".join(p.read_bytes() for p in (project / ".gm" / "exec-spool" / "out").glob("*.json"))
    assert b"[REDACTED:aws-access-key-id]" in answers  # the error quotes the redacted value
    logs = b"".join(p.read_bytes() for p in (project / ".gm").rglob("*.log"))
    for where in (
        done.stdout,
        done.stderr,
        cli.stdout,
        cli.stderr,
        answers,
        logs,
        (project / ".gm" / "rs-learn.db").read_bytes(),
    ):
        assert AWS_ID.encode() not in where and AWS_SECRET.encode() not in where


def test_an_imported_vector_of_a_secret_is_not_kept(guest):
    items = []
    for text in (f"deploy with {AWS_ID}", "deploy with the usual key"):
        vector = ok(guest, "embed", {"text": text})
        items.append({"text": text, "embedder": vector["embedder"], "vector": vector["vector"]})
    answer = ok(guest, "import", {"memories": items})
    assert answer["redacted"] == {"aws-access-key-id": 1}
    assert answer["embedded"] == 1  # the redacted text's vector is computed again; the clean one is kept
