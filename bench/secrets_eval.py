"""Secret redaction on a dev set of our own (issue 45, item 5): secrets stored, ordinary notes changed.

``make eval`` (set ``secrets``) and ``python -m bench.secrets_eval`` run the guest's
:func:`guest.screening.redact.redact` over ``bench/data/secrets_devset.jsonl``: 204 secret forms
written for this purpose (never copied from a fixture), of the kinds gitleaks' and detect-secrets'
test fixtures cover -- tokens by their format in four contexts each, and parsed forms (a URL password
holding ``@``, YAML values on the next line or in a block, XML elements, JSON-escaped URLs, split
JWTs, connection strings, docker and npm auth, kubeconfig key data, cookies, webhooks, presigned S3
URLs, ``.pgpass``, SQL, redis, sshpass, docker login, openssl, WireGuard, Vault, PuTTY, OpenVPN) --
and 520 ordinary coding notes that look secret-ish without being secrets (hashes, UUIDs, placeholders,
settings named without a value). Targets: secrets stored <= 5 %, false positives 0. No store: the
function is the guest's, the same natively and in the component (``tests/guest/test_redact.py``).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from guest.screening.redact import redact

DATA = Path(__file__).resolve().parent / "data" / "secrets_devset.jsonl"


def load() -> list[dict[str, Any]]:
    """The cases: ``{text, secret, kind, form, secret_form}``."""
    lines = DATA.read_text(encoding="utf-8").splitlines()
    return [json.loads(line) for line in lines if line.strip()]


def evaluate() -> dict[str, Any]:
    """Secrets stored (the secret still in the redacted text) and ordinary notes changed."""
    cases = load()
    secrets = [c for c in cases if c["secret_form"]]
    ordinary = [c for c in cases if not c["secret_form"]]
    stored = [c for c in secrets if c["secret"] in redact(c["text"])[0]]
    changed = [c for c in ordinary if redact(c["text"])[0] != c["text"]]
    return {"secrets": len(secrets), "stored": len(stored), "stored_share": len(stored) / len(secrets),
            "ordinary": len(ordinary), "false_positives": len(changed),
            "stored_cases": [f"{c['kind']}: {c['text'][:80]!r}" for c in stored],
            "changed_cases": [redact(c["text"])[0][:100] for c in changed]}


def section(r: dict[str, Any]) -> str:
    """``make eval``'s lines for the secrets dev set."""
    lines = ["Secrets dev set (guest/screening/redact.py; target stored <= 5 %, false positives 0)\n",
             "| secret forms | stored | share | ordinary notes | false positives |", "|---:|---:|---:|---:|---:|",  # noqa: E501
             f"| {r['secrets']} | {r['stored']} | {r['stored_share']:.1%} | {r['ordinary']} | "
             f"{r['false_positives']} |"]
    lines += [f"stored: {case}" for case in r["stored_cases"]]
    lines += [f"false positive: {case!r}" for case in r["changed_cases"]]
    return "\n".join(lines)


def main() -> None:
    print(section(evaluate()))


if __name__ == "__main__":
    main()
