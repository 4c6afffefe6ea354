"""Realistic fake secrets and the texts they hide in, for the redaction tests (issue 28).

Every generator makes a secret in its real format -- prefix, alphabet, length, and the CRC32
checksum GitHub and npm tokens end with -- from a seeded random generator, so the corpus is the same
on every run. :func:`true_cases` puts each kind into hand-written contexts people paste into an
agent (``.env`` lines, shell history, JSON and YAML configs, curl commands, code, prose) and yields
``(kind, text, secret)``. :func:`false_alarm_corpus` yields texts with nothing secret in them that
look random: git object ids, UUIDs, lockfile and pip hashes, base64 images.
"""

from __future__ import annotations

import base64
import hashlib
import json
import os
import random
import string
import subprocess
import uuid
import zlib
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def datasets() -> Path:
    """``$RS_LEARN_DATASETS``, else ``shared/datasets`` beside the main checkout (git's common directory's
    parent; the same folder for a worktree), where ``make eval`` finds them too."""
    if os.environ.get("RS_LEARN_DATASETS"):
        return Path(os.environ["RS_LEARN_DATASETS"])
    common = subprocess.run(["git", "rev-parse", "--path-format=absolute", "--git-common-dir"], cwd=ROOT,
                            capture_output=True, text=True, check=False).stdout.strip()
    return (Path(common).parent if common else ROOT).parent / "shared" / "datasets"


LOCOMO = datasets() / "locomo-dev"
ALNUM = string.ascii_letters + string.digits
BASE62 = string.digits + string.ascii_uppercase + string.ascii_lowercase
B64 = ALNUM + "+/"
URLSAFE = ALNUM + "-_"
BASE32 = string.ascii_uppercase + "234567"
HEX = "0123456789abcdef"
BECH32 = "qpzry9x8gf2tvdw0s3jn54khce6mua7l"


def draw(rng: random.Random, alphabet: str, n: int) -> str:
    return "".join(rng.choice(alphabet) for _ in range(n))


def base62(number: int, width: int) -> str:
    out = ""
    while number:
        number, digit = divmod(number, 62)
        out = BASE62[digit] + out
    return out.rjust(width, "0")


def checksummed(prefix: str, rng: random.Random, body: int = 30) -> str:
    """A GitHub/npm-style token: random base62 body, then base62(CRC32(body)) in 6 characters."""
    entropy = draw(rng, ALNUM, body)
    return prefix + entropy + base62(zlib.crc32(entropy.encode()), 6)


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def jwt(rng: random.Random) -> str:
    header = {"alg": rng.choice(["HS256", "RS256", "ES256"]), "typ": "JWT"}
    payload = {
        "sub": str(rng.randrange(10**9)),
        "iat": 1_700_000_000 + rng.randrange(10**6),
        "scope": rng.choice(["read", "admin", "repo"]),
    }
    parts = [
        b64url(json.dumps(header).encode()),
        b64url(json.dumps(payload).encode()),
        b64url(rng.randbytes(32)),
    ]
    return ".".join(parts)


def pem(rng: random.Random, kind: str) -> str:
    body = base64.b64encode(rng.randbytes(rng.choice([120, 270, 600]))).decode()
    lines = "\n".join(body[i : i + 64] for i in range(0, len(body), 64))
    return f"-----BEGIN {kind}PRIVATE KEY-----\n{lines}\n-----END {kind}PRIVATE KEY-----"


# kind -> a generator of one secret
SECRETS: dict[str, Callable[[random.Random], str]] = {
    "aws-access-key-id": lambda r: r.choice(["AKIA", "ASIA"]) + draw(r, BASE32, 16),
    "aws-secret-access-key": lambda r: draw(r, B64, 38) + r.choice("ABCXYZ") + r.choice("0123456789"),
    "gcp-api-key": lambda r: "AIza" + draw(r, URLSAFE, 35),
    "gcp-client-secret": lambda r: "GOCSPX-" + draw(r, URLSAFE, 28),
    "azure-storage-key": lambda r: draw(r, B64, 86) + "==",
    "azure-client-secret": lambda r: (
        draw(r, ALNUM, 3) + r.choice("0123456789") + "Q~" + draw(r, ALNUM + "_~.", 34)
    ),
    "azure-sas-signature": lambda r: draw(r, ALNUM, 40) + "%2B" + draw(r, ALNUM, 8) + "%3D",
    "github-token": lambda r: (
        checksummed(r.choice(["ghp_", "gho_", "ghu_", "ghs_", "ghr_"]), r)
        if r.random() < 0.7
        else "github_pat_" + draw(r, ALNUM, 22) + "_" + draw(r, ALNUM, 59)
    ),
    "gitlab-token": lambda r: r.choice(["glpat-", "glptt-", "gldt-", "glrt-"]) + draw(r, URLSAFE, 20),
    "slack-token": lambda r: (
        f"xox{r.choice('bpa')}-{r.randrange(10**11, 10**12)}-{r.randrange(10**11, 10**12)}-"
        + draw(r, ALNUM, 24)
    ),
    "slack-webhook": lambda r: (
        "https://hooks.slack.com/services/T"
        + draw(r, BASE32, 8)
        + "/B"
        + draw(r, BASE32, 10)
        + "/"
        + draw(r, ALNUM, 24)
    ),
    "stripe-key": lambda r: (
        r.choice(["sk_live_", "sk_test_", "rk_live_"]) + draw(r, ALNUM, r.choice([24, 99]))
    ),
    "openai-key": lambda r: (
        ("sk-proj-" + draw(r, URLSAFE, 124) + "T3BlbkFJ" + draw(r, URLSAFE, 32))
        if r.random() < 0.6
        else "sk-" + draw(r, ALNUM, 20) + "T3BlbkFJ" + draw(r, ALNUM, 20)
    ),
    "anthropic-key": lambda r: f"sk-ant-{r.choice(['api03', 'admin01'])}-" + draw(r, URLSAFE, 93) + "AA",
    "npm-token": lambda r: checksummed("npm_", r),
    "pypi-token": lambda r: "pypi-AgEIcHlwaS5vcmc" + draw(r, URLSAFE, 150),
    "huggingface-token": lambda r: "hf_" + draw(r, string.ascii_letters, 30) + draw(r, string.digits, 4),
    "jwt": jwt,
    "private-key": lambda r: pem(r, r.choice(["RSA ", "EC ", "OPENSSH ", "", "ENCRYPTED "])),
    # issue 38, item 2: kinds people paste that the first round missed
    "twilio-key": lambda r: "SK" + draw(r, HEX, 32),
    "sendgrid-key": lambda r: "SG." + draw(r, URLSAFE, 22) + "." + draw(r, URLSAFE, 43),
    "mailgun-key": lambda r: "key-" + draw(r, HEX, 32),
    "heroku-key": lambda r: "HRKU-AA" + draw(r, URLSAFE, 58),
    "digitalocean-token": lambda r: r.choice(["dop_v1_", "doo_v1_"]) + draw(r, HEX, 64),
    "telegram-bot-token": lambda r: str(r.randrange(10**8, 10**10)) + ":AA" + draw(r, URLSAFE, 33),
    "vault-token": lambda r: "hvs." + draw(r, URLSAFE, r.choice([24, 90])),
    "shopify-token": lambda r: r.choice(["shpat_", "shpss_", "shpca_"]) + draw(r, HEX, 32),
    "databricks-token": lambda r: "dapi" + draw(r, HEX, 32),
    "postman-key": lambda r: "PMAK-" + draw(r, HEX, 24) + "-" + draw(r, HEX, 34),
    "grafana-token": lambda r: "glsa_" + draw(r, ALNUM, 32) + "_" + draw(r, HEX, 8),
    "linear-key": lambda r: "lin_api_" + draw(r, ALNUM, 40),
    "age-secret-key": lambda r: "AGE-SECRET-KEY-1" + draw(r, BECH32.upper(), 58),
}

# Contexts: {s} is the secret. The kind a context is for comes first; "*" fits any token kind.
CONTEXTS: dict[str, list[str]] = {
    "*": [
        "{s}",
        "export API_CREDENTIAL={s}",
        "The CI uses {s} to publish; rotate it after the release.",
        '{{"service": "deploy", "credential": "{s}"}}',
        "echo '{s}' | gh auth login --with-token",
        "https://api.example.com/hook?next=%2Fdone%3D{s}&x=1",  # after a URL-encoded '='
        "MY_SERVICE_{s}",  # after an underscore
        "remember: the staging key is {s} (expires in June)",
        "  credential: {s}\n  region: eu-west-1",
        "client = Client(auth='{s}')",
    ],
    "aws-secret-access-key": [
        "aws_secret_access_key = {s}",
        "AWS_SECRET_ACCESS_KEY={s}",
        "[default]\naws_access_key_id = AKIAQYLPMN5HHHFPZAM2\naws_secret_access_key = {s}\n",
        "AKIAQYLPMN5HHHFPZAM2,{s}",
        '{{"AccessKeyId": "ASIAQYLPMN5HHHFPZAM2", "SecretAccessKey": "{s}"}}',
        "aws configure set aws_secret_access_key {s}",
    ],
    "azure-storage-key": [
        "DefaultEndpointsProtocol=https;AccountName=acme;AccountKey={s};EndpointSuffix=core.windows.net",
        "az storage blob list --connection-string 'AccountName=acme;AccountKey={s}'",
    ],
    "azure-sas-signature": [
        "https://acme.blob.core.windows.net/logs?sv=2022-11-02&ss=b&srt=o&sp=r&se=2026-01-01&sig={s}",
        "SAS url: https://x.blob.core.windows.net/c/b.txt?sp=r&sig={s}&sr=b",
    ],
    "slack-webhook": [
        "curl -X POST -H 'Content-type: application/json' --data '{{\"text\":\"hi\"}}' {s}",
        "SLACK_WEBHOOK_URL={s}",
        "alerts go to {s} (channel #ops)",
    ],
    "private-key": [
        "{s}",
        "id_rsa:\n{s}\n",
        "cat ~/.ssh/id_ed25519\n{s}",
        "PEM-ESCAPED",
    ],
}
ASSIGNMENTS = [  # (kind, text, secret)
    ("password", "DB_PASSWORD=Tr0ub4dor&3", "Tr0ub4dor&3"),
    ("password", "DB_PASSWORD = hunter2", "hunter2"),
    ("password", "PGPASSWORD=s3cr3t-pg psql -h db -U app", "s3cr3t-pg"),
    ("password", 'password: "correct-horse-99"', "correct-horse-99"),
    ("password", "password: kx9!Lm2#pq", "kx9!Lm2#pq"),
    ("password", '{"user": "admin", "password": "P@ssw0rd2024!"}', "P@ssw0rd2024!"),
    ("password", "mysql -u root --password=Qw3rty!x db", "Qw3rty!x"),
    ("password", "mysql -u root --password Qw3rty!y db", "Qw3rty!y"),
    ("password", "spring.datasource.password=jdbcPass77", "jdbcPass77"),
    ("password", "smtp_pass: 'mailpw-4411'", "mailpw-4411"),
    ("password", "passwd=rootroot9", "rootroot9"),
    ("password", "REDIS_PASSWORD='r3d1s-pw'", "r3d1s-pw"),
    ("password", "userPassword: Zz0912aa", "Zz0912aa"),
    ("password", "MYSQL_PWD=myqlpw55", "myqlpw55"),
    ("password", 'conn = connect(host="db", password="pg-88-secret")', "pg-88-secret"),
    ("secret", "CLIENT_SECRET=9f8e7d6c5b4a", "9f8e7d6c5b4a"),
    ("secret", "SECRET_KEY = 'django-insecure-8x#k2$v!qz'", "django-insecure-8x#k2$v!qz"),
    ("secret", '"client_secret": "oauth-cs-772211"', "oauth-cs-772211"),
    ("secret", "webhook_secret: whk_3344aa", "whk_3344aa"),
    ("secret", "JWT_SECRET=supersecretjwt2024", "supersecretjwt2024"),
    ("secret", "encryption_key = 'aes-key-0011223344'", "aes-key-0011223344"),
    ("secret", "aws.secretKey=abcd1234efgh", "abcd1234efgh"),
    ("token", "GITHUB_TOKEN=tok-not-a-real-format-123", "tok-not-a-real-format-123"),
    ("token", "https://api.example.com/v1/items?access_token=abc123def456&page=2", "abc123def456"),
    ("token", "refresh_token: 1//0gAbCdEf123", "1//0gAbCdEf123"),
    ("token", "--token 7b2e9a1c44d0", "7b2e9a1c44d0"),
    ("token", 'auth_token="tkn_55aa66bb"', "tkn_55aa66bb"),
    (
        "token",
        "curl -H 'Authorization: Bearer 9a8b7c6d5e4f3a2b1c0d' https://api.example.com",
        "9a8b7c6d5e4f3a2b1c0d",
    ),
    ("token", "Authorization: Basic YWRtaW46c2VjcmV0cGFzcw==", "YWRtaW46c2VjcmV0cGFzcw=="),
    ("token", "accessToken: 'eyl-not-jwt-88'", "eyl-not-jwt-88"),
    ("api-key", "API_KEY=k_live_2233445566", "k_live_2233445566"),
    ("api-key", "api_key: 0a1b2c3d4e5f", "0a1b2c3d4e5f"),
    ("api-key", "curl -H 'x-api-key: 55aa77bb99cc' https://api.example.com", "55aa77bb99cc"),
    ("api-key", '{"apiKey": "mapbox-key-4455"}', "mapbox-key-4455"),
    ("api-key", "SENDGRID_API_KEY='sg-key-abc-123'", "sg-key-abc-123"),
    ("url-credentials", "DATABASE_URL=postgres://app:pgS3cret@db.internal:5432/app", "pgS3cret"),
    ("url-credentials", "redis://:r3dispass@cache:6379/0", "r3dispass"),
    (
        "url-credentials",
        "git clone https://x-access-token:gho-token-value-1@github.com/acme/app.git",
        "gho-token-value-1",
    ),
    ("url-credentials", "amqp://guest:rabbit-pw-1@mq.local:5672/", "rabbit-pw-1"),
    ("url-credentials", "mongodb+srv://admin:m0ng0pw@cluster0.example.net/test", "m0ng0pw"),
    (
        "url-credentials",
        "pip install --index-url https://user:idx-pass-9@pypi.example.com/simple pkg",
        "idx-pass-9",
    ),
    (
        "private",
        "Deploys go through bastion. <private>The root password is Winter2024!</private> Use the runbook.",
        "Winter2024!",
    ),
    ("private", "<private>\nmy home address: 12 Example Street\n</private>", "12 Example Street"),
    ("private", "notes <PRIVATE>card 4111 1111 1111 1111</PRIVATE> end", "4111 1111 1111 1111"),
    # issue 38, item 2: the forms the first round missed
    ("url-credentials", "DATABASE_URL=postgres://app:pa/ss#w0rd9@db.internal:5432/app", "pa/ss#w0rd9"),
    ("url-credentials", "mysql://root:a#b/c!d@127.0.0.1/shop", "a#b/c!d"),
    ("password", "mysql -u root -pS3cr3tPw shop < dump.sql", "S3cr3tPw"),
    ("password", "mysqldump -h db -uadmin -p'x9!k2Lp' shop", "'x9!k2Lp'"),
    ("password", "curl -u admin:Adm1nPass! https://ci.example.com/api/json", "Adm1nPass!"),
    ("password", "curl --user deploy:dpl-7781 -X POST https://nexus.example.com/upload", "dpl-7781"),
    ("password", "machine api.heroku.com login dev@example.com password 0b1f-77aa-secret",
     "0b1f-77aa-secret"),
    ("password", "machine github.com\n  login octocat\n  password hunter2x", "hunter2x"),
    ("password", "The staging password is Winter2025! and the user is admin.", "Winter2025!"),
    ("password", "fyi the admin password is hunter22", "hunter22"),
    ("password", "passphrase: correct horse battery staple", "correct horse battery staple"),
    ("password", "GPG_PASSPHRASE=open sesame 42", "open sesame 42"),
    ("token", "the new token is tkn-8812-aa91", "tkn-8812-aa91"),
    ("api-key", "Our api key is ak_99x1c2v3.", "ak_99x1c2v3"),
]


def true_cases(seed: int = 28, per_kind: int = 10) -> Iterator[tuple[str, str, str]]:
    """``(kind, text, secret)``: every kind in several contexts, then the named assignments.

    A kind that is only a secret in its context (an AWS secret key is 40 base64 characters) gets only
    its own contexts; a kind its format gives away gets the generic ones too.
    """
    rng = random.Random(seed)
    for kind, make in SECRETS.items():
        contexts = CONTEXTS.get(kind) or CONTEXTS["*"]
        for i in range(per_kind):
            secret = make(rng)
            context = contexts[i % len(contexts)]
            if context == "PEM-ESCAPED":  # a GCP service-account file: the key with JSON's \n escapes
                text = json.dumps(
                    {"type": "service_account", "project_id": "acme", "private_key": secret + "\n"}
                )
                yield kind, text, secret.split("\n")[1]
                continue
            yield kind, context.format(s=secret), secret
    yield from ASSIGNMENTS


def git_shas(n: int) -> Iterator[str]:
    for i in range(n):
        sha = hashlib.sha1(f"commit {i}".encode()).hexdigest()
        parent = hashlib.sha1(f"parent {i}".encode()).hexdigest()
        yield [
            f"commit {sha}\nMerge: {sha[:7]} {parent[:7]}\nAuthor: Dev <dev@example.com>",
            f"Fixed in {sha} (cherry-picked from {parent}).",
            f"git revert {sha[:12]} && git push origin HEAD:refs/heads/fix-{i}",
            f"tree {parent}\nparent {sha}",
        ][i % 4]


def uuids(n: int) -> Iterator[str]:
    for i in range(n):
        u = uuid.uuid5(uuid.NAMESPACE_URL, f"https://example.com/{i}")
        yield [
            f"request_id={u}",
            f'{{"id": "{u}", "kind": "order"}}',
            f"Trace {u} failed at step {i}",
            f"DELETE /api/v1/users/{u}",
        ][i % 4]


def lockfile_hashes(limit: int = 2000) -> Iterator[str]:
    """``integrity`` lines of the Node host's package-lock.json, and pip ``--hash`` lines like them."""
    lock = json.loads((ROOT / "hosts" / "node" / "package-lock.json").read_text(encoding="utf-8"))
    count = 0
    for name, package in lock.get("packages", {}).items():
        if "integrity" in package and count < limit:
            count += 1
            version, integrity = package.get("version"), package["integrity"]
            yield f'"{name}": {{"version": "{version}", "integrity": "{integrity}"}}'
    for i in range(limit - count):
        digest = hashlib.sha256(f"wheel {i}".encode()).hexdigest()
        sha512 = base64.b64encode(hashlib.sha512(f"tgz {i}".encode()).digest()).decode()
        yield [
            f"requests==2.{i}.0 \\\n    --hash=sha256:{digest}",
            f"resolved https://registry.example.org/pkg/-/pkg-{i}.tgz integrity sha512-{sha512}",
            f"sha256:{digest}  dist/pkg-{i}.tar.gz",
        ][i % 3]


def images(n: int, seed: int = 7) -> Iterator[str]:
    """Markdown and HTML with base64 image data URIs (deflated noise: base64 like a real PNG's)."""
    rng = random.Random(seed)
    for i in range(n):
        data = base64.b64encode(
            b"\x89PNG\r\n\x1a\n" + zlib.compress(rng.randbytes(rng.choice([60, 300, 1500])))
        ).decode()
        yield [
            f"![diagram](data:image/png;base64,{data})",
            f'<img alt="logo" src="data:image/png;base64,{data}">',
            f"background: url(data:image/webp;base64,{data});",
        ][i % 3]


# Ordinary project text that looks like the forms above without holding a secret (issue 38, item 2).
LOOK_ALIKES = [
    "arn:aws:secretsmanager:us-east-1:123456789012:secret:production/myapp/DatabaseCredentials2024",
    "Read it with aws secretsmanager get-secret-value --secret-id "
    "arn:aws:secretsmanager:eu-west-1:210987654321:secret:prod/payments/StripeWebhookSecret2025",
    "The test secret fixture is dGhpcyBpcyBhIHRlc3QgZml4dHVyZSBmb3IgdGVzdHM2 (base64 of a sentence).",
    "secret_fixture = 'c2VjcmV0IGZpeHR1cmUgZm9yIHRoZSB1bml0IHRlc3Rz'",
    "https://example.com:8080/users/@alice",
    "ssh://git@example.com:22/org/repo.git@v1.2",
    "http://localhost:3000#/route@home",
    "mysql -u root -p shop  # prompts for the password",
    "mysql -u root -p$MYSQL_PWD shop",
    "mysql -h db -P 3306 -u app -p",
    "docker run -u 1000:1000 -v $PWD:/src image",
    "curl -u $CI_USER:$CI_TOKEN https://ci.example.com/api/json",
    "curl -u \"${USER}:${PASS}\" https://example.com",
    "git push -u origin main:main",
    "The password is required for the admin page.",
    "The password is stored in 1Password under 'staging'.",
    "The token is valid for 24h, then refresh it.",
    "The secret is base64-encoded.",
    "The api key is optional for local runs.",
    "The token is JWT-based and signed with RS256.",
    "The secret key is sha256-derived.",
    "the password is at least 12 characters long",
    "passphrase: <your passphrase>",
    "passphrase: ${GPG_PASSPHRASE}",
    "machine learning models need a password manager integration",
    "Add the machine to the pool; its password policy is in the wiki.",
    "The bot id is 123456789 and the chat id is -100123.",
    "key-value store; cache key-prefix v2",
    "SKU SK-1234 ships in June",
    "See HRKU docs and the dapi endpoint /api/2.0/token/create.",
]


def false_alarm_corpus() -> dict[str, list[str]]:
    """Named corpora of texts that hold no secret."""
    return {
        "git object ids": list(git_shas(1000)),
        "uuids": list(uuids(1000)),
        "lockfile hashes": list(lockfile_hashes()),
        "base64 images": list(images(500)),
        "look-alikes": LOOK_ALIKES,
    }


def locomo_turns() -> list[str]:
    """LoCoMo's development turns as ``speaker: text`` (the test skips when the folder is absent).

    The data set lives outside the repository (CC BY-NC 4.0): ``../shared/datasets/locomo-dev``, or
    ``$RS_LEARN_DATASETS/locomo-dev``.
    """
    if not LOCOMO.is_dir():
        pytest.skip(f"{LOCOMO} is absent (the LoCoMo development half lives outside the repository)")
    turns = [
        f"{t['speaker']}: {t['text']}"
        for path in sorted(LOCOMO.glob("*.json"))
        for key, session in json.loads(path.read_text(encoding="utf-8")).items()
        if key.startswith("session_") and isinstance(session, list)
        for t in session
    ]
    assert len(turns) > 2000
    return turns


def corpus_sample() -> list[str]:
    """Every 100th paragraph of the bench corpus (``tests/data/corpus_sample.txt``, written by
    ``scripts/gen_corpus_sample.py``; the whole corpus is ``python -m bench.corpus_alarms``'s)."""
    text = (ROOT / "tests" / "data" / "corpus_sample.txt").read_text(encoding="utf-8")
    return text.removesuffix("\n").split("\n\x1e\n")
