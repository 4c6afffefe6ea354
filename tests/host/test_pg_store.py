"""The PostgreSQL + pgvector store's own promises (issue 13): what the SQLite suite cannot say.

The storage suite runs on both stores (``both_stores``); these tests are about PostgreSQL alone:
choosing the store, one-line errors without the password, two checkouts sharing one memory and
no SQLite file, reads beside writers and stale reads run again, HNSW, migrations, a server
restart, and writers from two checkouts that lose nothing.
"""

from __future__ import annotations

import json
import os
import re
import socket
import subprocess
import sys
import threading
import uuid
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner
from conftest import ROOT, use_postgresql
from envelopes import ok
from hostprocs import Watcher, host, host_env, wait_for, write_request

from host_harness.cachedir import default_cache_dir
from host_harness.cli.main import cli
from host_harness.config import SQLITE, ConfigError, StoreChoice, redact, resolve_store
from host_harness.errors import HostError
from host_harness.services import HostServices
from host_harness.store.pg import schema
from host_harness.store.pg.connect import connect
from host_harness.store.pg.driver import PostgresError
from host_harness.store.pg.kv import PgKV, PgSession
from host_harness.store.pg.vectors import PgSearchPolicy, PgVectorIndex
from host_harness.targets.native import NativeGuest

SECRET = "s3cr3t-PassW0rd"


def in_threads(*work) -> None:
    """Run every callable in a thread of its own, all at once; wait for all."""
    threads = [threading.Thread(target=job) for job in work]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()


def write_config(root: Path, **document) -> Path:
    (root / ".gm").mkdir(parents=True, exist_ok=True)
    (root / ".gm" / "config.json").write_text(json.dumps(document))
    return root


# choosing the store


def test_the_store_is_chosen_by_flag_then_environment_then_config(tmp_path: Path):
    url = f"postgresql://rs:{SECRET}@db.example:5433/memory"
    assert resolve_store(tmp_path, environ={}) == SQLITE
    write_config(tmp_path, store=url, project="acme-app")
    assert resolve_store(tmp_path, environ={}) == StoreChoice(url, "acme-app")
    other = "postgres://other@db2.example/mem"
    assert resolve_store(tmp_path, environ={"RS_LEARN_STORE": other}).url == other
    assert resolve_store(tmp_path, "sqlite", environ={"RS_LEARN_STORE": other}) == SQLITE
    assert resolve_store(tmp_path, environ={"RS_LEARN_STORE_PROJECT": "x"}).project_id == "x"
    assert redact(url) == "postgresql://rs:***@db.example:5433/memory"
    assert redact("postgresql://h/db?password=" + SECRET + "&sslmode=require") == \
        "postgresql://h/db?password=***&sslmode=require"


@pytest.mark.parametrize(("document", "environ", "message"), [
    ({"store": "postgresql://h/db"}, {}, "needs the project's id"),
    ({"store": f"mysql://u:{SECRET}@h/db", "project": "p"}, {}, "must be \"sqlite\" or a postgresql:// URL"),
    ({"store": f"postgresql://u:{SECRET}@h:port/db", "project": "p"}, {}, "is not a number from 1 to 65535"),
    ({"store": f"postgresql://u:{SECRET}@h:5432", "project": "p"}, {}, "names no database"),
    ({"store": 5432, "project": "p"}, {}, "must be a string"),
    ({"store": "postgresql://h/db", "project": ""}, {}, "1 to 200 printable characters"),
    ({}, {"RS_LEARN_STORE": f"http://u:{SECRET}@h/db", "RS_LEARN_STORE_PROJECT": "p"},
     "RS_LEARN_STORE must be"),
])
def test_a_bad_choice_is_one_line_naming_it_without_the_password(tmp_path: Path, document, environ, message):
    write_config(tmp_path, **document)
    with pytest.raises(ConfigError) as caught:
        resolve_store(tmp_path, environ=environ)
    text = str(caught.value)
    assert message in text and "\n" not in text and SECRET not in text


def cli_run(project: Path, *args: str, env: dict[str, str] | None = None):
    return CliRunner().invoke(cli, ["-p", str(project), *args], env=env, catch_exceptions=False)


def closed_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])  # nothing listens there once the socket closes


def test_bad_connection_strings_are_one_line_errors_without_the_password(pg_cluster, project: Path):
    port = pg_cluster.port
    cases = [
        (f"postgresql://postgres:{SECRET}@127.0.0.1:{closed_port()}/x", "cannot connect to"),
        (f"postgresql://postgres:{SECRET}@127.0.0.1:{port}/postgres", "password authentication failed"),
        (f"postgresql://postgres:{pg_cluster.password}@127.0.0.1:{port}/no_such_db", 'database "no_such_db"'),
        (f"postgresql://postgres:{SECRET}@127.0.0.1:{port}/x?sslmode=sometimes", "sslmode"),
        (f"postgresql://postgres:{SECRET}@127.0.0.1:99999/x", "is not a number from 1 to 65535"),
    ]
    for url, message in cases:
        result = cli_run(project, "--store", url, "stats", env={"RS_LEARN_STORE_PROJECT": "p"})
        lines = result.output.strip().splitlines()
        assert result.exit_code == 1, result.output
        assert len(lines) == 1 and lines[0].startswith("Error: ") and message in lines[0], result.output
        assert SECRET not in result.output and pg_cluster.password not in result.output
    assert not (project / ".gm").exists()


# one memory for two checkouts, and no SQLite file


def test_two_checkouts_share_one_memory_and_write_no_sqlite_file(pg_url: str, tmp_path: Path, wasm_path):
    team = f"team-{uuid.uuid4().hex[:8]}"
    laptop, desktop = tmp_path / "laptop", tmp_path / "desktop"
    for root in (laptop, desktop):
        root.mkdir()
        use_postgresql(root, pg_url, team)
    assert cli_run(laptop, "memorize", "Deploys go through ArgoCD, never kubectl apply.").exit_code == 0
    assert cli_run(laptop, "memorize", "-n", "frontend", "The app is built with vite.").exit_code == 0
    (tmp_path / "build.log").write_text("3 warnings, 0 errors\n")
    assert cli_run(laptop, "archive", "put", "--label", "log", str(tmp_path / "build.log")).exit_code == 0
    recalled = json.loads(cli_run(desktop, "recall", "how do we deploy?", "--json").output)
    assert recalled[0]["text"] == "Deploys go through ArgoCD, never kubectl apply."
    # the discipline is known to the other checkout through the store (no folder there)
    hits = json.loads(cli_run(desktop, "recall", "@frontend build tool", "--json").output)
    assert [h["namespace"] for h in hits] == ["frontend"]
    listed = json.loads(cli_run(desktop, "discipline", "list", "--json").output)
    assert listed == [{"name": "frontend", "enabled": False, "store": True, "memories": 1}]
    assert cli_run(desktop, "archive", "get", "r1").output == "3 warnings, 0 errors\n"
    event = {"hook_event_name": "UserPromptSubmit", "cwd": str(desktop), "prompt": "deploy with argocd"}
    done = host("hook", "prompt-submit", env=host_env(desktop), input=json.dumps(event).encode())
    assert "ArgoCD" in done.stdout.decode(), done
    for root in (laptop, desktop):
        assert [p.name for p in root.rglob("*.db")] == [], "a PostgreSQL project writes no SQLite file"


# transactions: readers beside writers, stale reads run again


def pair(pg_url: str, tmp_path: Path, busy_ms: int = 10_000) -> tuple[HostServices, HostServices]:
    root = tmp_path / "shared"
    root.mkdir()
    use_postgresql(root, pg_url)
    return HostServices(root, busy_timeout_ms=busy_ms), HostServices(root, busy_timeout_ms=busy_ms)


def test_a_call_that_read_before_another_write_is_run_again(pg_url: str, tmp_path: Path):
    first, second = pair(pg_url, tmp_path)
    try:
        first.begin()  # a reader: one snapshot, no lock
        assert first.kv_get("meta", "stats") is None
        second.kv_put("meta", "stats", b'{"docs":1}')  # another process commits meanwhile
        with pytest.raises(HostError, match="written by another process since this call read it"):
            first.kv_put("meta", "stats", b'{"docs":1}')
        assert first.write_lock_busy and first.failures == []  # not a failure: run the call again
        first.begin(write_lock=True, retry=True)
        assert first.kv_get("meta", "stats") == b'{"docs":1}'
        first.kv_put("meta", "stats", b'{"docs":2}')
        first.commit()
        assert second.kv_get("meta", "stats") == b'{"docs":2}'
    finally:
        first.close()
        second.close()


def test_readers_never_wait_and_a_busy_writer_is_run_again_then_waits(pg_url: str, tmp_path: Path):
    writer, other = pair(pg_url, tmp_path, busy_ms=300)
    try:
        writer.kv_put("notes", "a", b"1")
        writer.begin(write_lock=True)
        writer.kv_put("notes", "a", b"2")  # holds the project's write lock, uncommitted
        other.begin()
        assert other.kv_get("notes", "a") == b"1"  # a reader does not wait and sees the committed state
        with pytest.raises(HostError, match="another process is writing"):
            other.kv_put("notes", "b", b"x")
        assert other.write_lock_busy
        other.begin(write_lock=True, retry=True)  # the second attempt waits its budget (300 ms) ...
        with pytest.raises(HostError, match="gave up waiting for another process's write"):
            other.kv_get("notes", "a")
        assert other.failure() is not None
        other.rollback()
        writer.commit()
        other.begin(write_lock=True)  # ... and goes on once the writer is done
        other.kv_put("notes", "b", b"x")
        other.commit()
        assert other.kv_get("notes", "a") == b"2" and other.kv_get("notes", "b") == b"x"
    finally:
        writer.close()
        other.close()


def test_concurrent_memorize_in_threads_takes_turns(pg_url: str, tmp_path: Path):
    root = tmp_path / "threads"
    root.mkdir()
    use_postgresql(root, pg_url)
    errors: list[str] = []

    def writer(tag: int) -> None:
        services = HostServices(root)
        guest = NativeGuest(services)
        for i in range(15):
            envelope = json.loads(guest.dispatch("memorize", json.dumps({"text": f"thread {tag} fact {i}"})))
            if not envelope["ok"]:
                errors.append(envelope["error"])
        guest.close()
        services.close()

    in_threads(*(lambda n=n: writer(n) for n in range(4)))
    assert errors == []
    services = HostServices(root)
    guest = NativeGuest(services)
    assert ok(guest, "stats")["memories"] == 60
    docs = services.kv_query("docs", "", 0)
    assert len(docs) == 60 and len({value for _, value in docs}) == 60, "no document number given twice"
    services.close()


# vectors: HNSW above the threshold, exact scores


HNSW_ROWS = 1500  # past the policy's 1,000 (approximate from there), 7.5 times its 200 candidates


@pytest.mark.slow  # an HNSW index over 1,500 vectors
def test_hnsw_candidates_are_rescored_exactly_and_recall_well(pg_url: str):
    session = PgSession(pg_url, f"hnsw-{uuid.uuid4().hex[:8]}")
    store = PgKV(session, "")
    rng = np.random.default_rng(11)
    centres = rng.normal(size=(40, 384))
    picks = rng.integers(0, 40, HNSW_ROWS)
    data = (centres[picks] + 0.6 * rng.normal(size=(HNSW_ROWS, 384))).astype(np.float32)
    keys = [f"mem-{i:05d}" for i in range(HNSW_ROWS)]
    with store.transaction():
        for key, row in zip(keys, data, strict=True):
            store.put("vectors/e", key, row.astype("<f4").tobytes())
    exact = PgVectorIndex(store, PgSearchPolicy(approx_min=None))
    approximate = PgVectorIndex(store, PgSearchPolicy(approx_min=1000))
    found = 0.0
    for query in (centres[:10] + 0.6 * rng.normal(size=(10, 384))):
        truth = exact.search("vectors/e", query.tolist(), 10)
        hits = approximate.search("vectors/e", query.tolist(), 10)
        scores = dict(exact.search("vectors/e", query.tolist(), HNSW_ROWS))
        assert all(score == scores[key] for key, score in hits), "every score is the exact cosine"
        found += len({k for k, _ in hits} & {k for k, _ in truth}) / 10
    assert found / 10 >= 0.95
    plans: list[str] = []
    execute = session.execute

    def explained(sql, params=(), binary=False):
        if "ORDER BY vec::vector" in sql:
            plans.append(" ".join(row[0] for row in execute("EXPLAIN " + sql, params).fetchall()))
        return execute(sql, params, binary=binary)

    session.execute = explained
    approximate.search("vectors/e", data[0].tolist(), 10)
    del session.execute
    assert len(plans) == 1 and "Index Scan using rs_learn_kv_hnsw_384" in plans[0], plans
    store.commit()
    session.close()


# the schema


def test_migrations_run_once_and_a_newer_schema_is_refused(pg_cluster):
    url = pg_cluster.create_database(f"rs_learn_{uuid.uuid4().hex[:8]}")
    errors: list[BaseException] = []

    def connect_once() -> None:
        try:
            connect(url).close()
        except BaseException as error:
            errors.append(error)

    in_threads(*[connect_once] * 4)  # a new database, four processes at once
    assert errors == []
    conn = connect(url)
    assert schema.version(conn) == len(schema.MIGRATIONS)
    conn.execute("INSERT INTO rs_learn_schema (version) VALUES (99)")
    conn.close()
    with pytest.raises(PostgresError, match="version 99, newer than this rs-learn"):
        connect(url)


# faults: a server restart costs the calls in flight, not the process


def test_a_restart_fails_the_call_in_flight_and_the_next_one_reconnects(tmp_path: Path, wasm_path: Path):
    from host_harness.store.pg.cluster import Cluster

    with Cluster() as cluster:
        root = tmp_path / "project"
        root.mkdir()
        use_postgresql(root, cluster.create_database("rs_learn"))
        services = HostServices(root)
        guest = NativeGuest(services)
        ok(guest, "memorize", "Before the restart.")
        services.begin()
        services.kv_get("meta", "stats")
        cluster.restart()  # the call in flight loses its connection
        with pytest.raises(HostError, match=r"lost the connection to postgresql://postgres@127\.0\.0\.1:\d+/rs_learn\?password=\*\*\*"):
            services.kv_put("notes", "n", b"x")
        assert cluster.password not in services.failure()
        services.rollback()
        ok(guest, "memorize", "After the restart.")  # a new connection, nothing lost
        assert ok(guest, "stats")["memories"] == 2
        guest.close()
        services.close()

        env = host_env(root)
        watcher = Watcher(env)
        watcher.wait_ready()
        try:
            write_request(root, "memorize", "1.json", b'{"text": "Spooled before the restart."}')
            wait_for(lambda: (root / ".gm/exec-spool/out/1.json").exists(), 60, "answer 1")
            cluster.restart()
            for n in range(2, 5):
                write_request(root, "memorize", f"{n}.json", json.dumps({"text": f"Spooled {n}."}).encode())
            wait_for(lambda: all((root / f".gm/exec-spool/out/{n}.json").exists() for n in range(2, 5)), 60,
                     "answers after the restart")
            assert watcher.proc.poll() is None, "the watcher survives a server restart"
            answers = [json.loads((root / f".gm/exec-spool/out/{n}.json").read_text()) for n in range(1, 5)]
            assert all(answer["ok"] for answer in answers), answers
        finally:
            watcher.stop()


# concurrency: writers of two checkouts lose nothing and never answer "locked"


@pytest.mark.slow  # eight writing processes
def test_eight_writers_from_two_checkouts_lose_nothing(pg_url: str, wasm_path: Path):
    """The bench's soak as a process (``python -m bench.pgsoak``: the suite imports nothing of bench/);
    it exits 1 when a memory is lost, a call answers "locked", a writer crashes or any call fails."""
    seconds = os.environ.get("RS_LEARN_SOAK_SECONDS", "15")
    soak = [sys.executable, "-m", "bench.pgsoak", "--url", pg_url, "--seconds", seconds, "--writers", "8",
            "--min-calls", "7"]  # six memorizes each however loaded the machine: more than 8 x 5 below
    done = subprocess.run(soak, cwd=ROOT, capture_output=True, text=True, timeout=900, check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    (line,) = [line for line in done.stdout.splitlines() if " writers in 2 checkouts " in line]
    assert "missing 0, errors 0 (locked 0), crashed 0" in line, line
    found = re.search(r"(\d+) memorized .* store counts (\d+),", line)
    assert found is not None, line
    memorized, counted = found.groups()
    assert int(memorized) == int(counted) > 8 * 5, line


# the password stays out of the committed config (issue 25, item 20)


def bare(pg_cluster, database: str) -> str:
    """The URL of ``database`` on the session's server, without a password (as a committed config has it)."""
    return f"postgresql://postgres@127.0.0.1:{pg_cluster.port}/{database}"


def without_passwords(env: dict[str, str]) -> dict[str, str]:
    return {k: v for k, v in env.items() if k != "PGPASSWORD" and not k.startswith("PG_TEST_PASSWORD")}


def test_the_password_comes_from_the_environment_or_pgpass(pg_cluster, pg_url: str, tmp_path: Path):
    database, team = pg_url.rsplit("/", 1)[1], f"pw-{uuid.uuid4().hex}"
    project = write_config(tmp_path / "project", store=bare(pg_cluster, database), project=team)
    home = tmp_path / "home"
    home.mkdir()
    env = {**without_passwords(host_env(project)), "HOME": str(home),
           "RS_LEARN_CACHE_DIR": str(default_cache_dir())}  # the compiled component, not the new HOME's
    refused = host("stats", "--json", env=env)  # no password anywhere
    assert refused.returncode == 1 and b"password" in refused.stderr, refused.stderr
    assert pg_cluster.password.encode() not in refused.stderr
    by_libpq = host("stats", "--json", env={**env, "PGPASSWORD": pg_cluster.password})
    assert by_libpq.returncode == 0, by_libpq.stderr
    pgpass = home / ".pgpass"
    pgpass.write_text(f"127.0.0.1:{pg_cluster.port}:*:postgres:{pg_cluster.password}\n")
    pgpass.chmod(0o600)
    assert host("memorize", "The password came from ~/.pgpass.", env=env).returncode == 0
    pgpass.unlink()
    write_config(project, store=bare(pg_cluster, database), project=team, password_env="TEAM_PG_PASSWORD")
    named = host("recall", "pgpass", "--json", env={**env, "TEAM_PG_PASSWORD": pg_cluster.password})
    assert named.returncode == 0 and "~/.pgpass" in json.loads(named.stdout)[0]["text"], named.stderr
    for done in (by_libpq, named):
        assert b"holds the database password" not in done.stderr
    assert host("stats", env=env).returncode == 1, "password_env set but the variable is not: no password"


@pytest.mark.parametrize(("document", "message"), [
    ({"password_env": "TEAM_PG_PASSWORD", "store": f"postgresql://u:{SECRET}@h/db"}, "holds a password and"),
    ({"password_env": "not a variable"}, "password_env must name an environment variable"),
    ({"password_env": 7}, "password_env must name an environment variable"),
])
def test_a_bad_password_env_is_a_clear_error(tmp_path: Path, document, message: str):
    write_config(tmp_path, **{"store": "postgresql://u@h/db", "project": "p", **document})
    with pytest.raises(ConfigError, match=message) as caught:
        resolve_store(tmp_path, environ={"TEAM_PG_PASSWORD": SECRET})
    assert SECRET not in str(caught.value)


def test_password_env_puts_the_password_in_the_connection_only(tmp_path: Path):
    write_config(tmp_path, store="postgresql://u@h/db?sslmode=require", project="p", password_env="PW")
    choice = resolve_store(tmp_path, environ={"PW": "p@ss:w/rd&x"})
    assert choice.url == "postgresql://u@h/db?sslmode=require&password=p%40ss%3Aw%2Frd%26x"
    assert choice.warnings == () and "p@ss" not in choice.describe()
    assert resolve_store(tmp_path, environ={}).url == "postgresql://u@h/db?sslmode=require"


def test_a_password_in_the_committed_config_is_warned_about(pg_url: str, tmp_path: Path, wasm_path: Path):
    project = write_config(tmp_path / "project", store=pg_url, project=f"warn-{uuid.uuid4().hex}")
    env = without_passwords(host_env(project, RS_LEARN_HOOK_TIMEOUT="30"))
    warning = f"{project / '.gm' / 'config.json'} holds the database password in its store URL"
    done = host("memorize", "Deploys go through ArgoCD.", env=env)
    assert done.returncode == 0 and done.stderr.decode().count(warning) == 1, done.stderr
    assert pg_url.split("@")[0].split(":")[-1] not in done.stderr.decode()
    services = HostServices(project)
    envelope = json.loads(NativeGuest(services).dispatch("stats", "{}"))
    services.close()
    assert envelope["ok"] is True and any(warning in w for w in envelope["warnings"])
    event = {"hook_event_name": "UserPromptSubmit", "cwd": str(project), "prompt": "deploy with argocd"}
    hook = host("hook", "prompt-submit", env=env, input=json.dumps(event).encode())
    assert hook.returncode == 0 and "ArgoCD" in hook.stdout.decode()
    assert warning in (project / ".gm" / "logs" / "hook.log").read_text()
