"""Regenerate ``guest/generated/secrets.py``: gitleaks' default rules, translated for Python's ``re``.

The source is gitleaks' maintained default configuration (MIT), kept as data in
``scripts/data/gitleaks/gitleaks.toml`` with its licence. Each rule's id, keywords, regex, secret
group, entropy threshold and allow-lists become one row of the table; :mod:`guest.screening.redact`
runs a row only when one of its keywords is in the lower-cased text, after the project's own rules
(which know context gitleaks' regexes do not: placeholders, code, prose) and before the assignments.

Go's RE2 syntax is translated: POSIX classes (``[[:alnum:]]``), ``\\z``, flags switched on in the
middle of a pattern (``\\b(p8e-(?i)[a-z0-9]{32})``: Python takes a global flag only at the start, so
the rest of the enclosing group becomes a scoped ``(?i:…)``, closed and opened again at each ``|``),
and ``[``, ``&``, ``~``, ``|`` inside a class escaped (Python reads ``[[``, ``&&``, ``~~``, ``||`` as
future set operations). Every translated pattern is compiled here with ``re.ASCII`` (Go's ``\\w``,
``\\s``, ``\\b`` are ASCII), so a pattern that CPython cannot take is dropped and listed, not shipped.

Dropped on purpose (:data:`DROPPED`): rules tied to a file path (a note has none), and
``generic-api-key`` (any ``key = value`` with some entropy: the project's assignment parser reads
named secrets with its own rules for code and placeholders; this one changes ordinary notes).

    .venv/bin/python scripts/gen_secrets.py
"""

from __future__ import annotations

import re
import sys
import tomllib
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
SOURCE = ROOT / "scripts" / "data" / "gitleaks" / "gitleaks.toml"
OUT = ROOT / "guest" / "generated" / "secrets.py"
FLAGS = re.ASCII

# gitleaks' id -> the project's kind, where the project's own catalogue names the same secret.
KINDS = {
    "github-pat": "github-token", "github-oauth": "github-token", "github-app-token": "github-token",
    "github-refresh-token": "github-token", "github-fine-grained-pat": "github-token",
    "gitlab-pat": "gitlab-token", "gitlab-ptt": "gitlab-token", "gitlab-rrt": "gitlab-token",
    "gitlab-deploy-token": "gitlab-token", "gitlab-runner-authentication-token": "gitlab-token",
    "gitlab-cicd-job-token": "gitlab-token", "gitlab-feed-token": "gitlab-token",
    "gitlab-incoming-mail-token": "gitlab-token", "gitlab-kubernetes-agent-token": "gitlab-token",
    "gitlab-oauth-app-secret": "gitlab-token", "gitlab-scim-token": "gitlab-token",
    "gitlab-feature-flag-client-token": "gitlab-token", "gitlab-pat-routable": "gitlab-token",
    "gitlab-runner-authentication-token-routable": "gitlab-token", "gitlab-session-cookie": "gitlab-token",
    "slack-bot-token": "slack-token", "slack-user-token": "slack-token", "slack-app-token": "slack-token",
    "slack-config-access-token": "slack-token", "slack-config-refresh-token": "slack-token",
    "slack-legacy-bot-token": "slack-token", "slack-legacy-workspace-token": "slack-token",
    "slack-legacy-token": "slack-token", "slack-webhook-url": "slack-webhook",
    "stripe-access-token": "stripe-key", "openai-api-key": "openai-key",
    "anthropic-api-key": "anthropic-key", "anthropic-admin-api-key": "anthropic-key",
    "npm-access-token": "npm-token", "pypi-upload-token": "pypi-token",
    "huggingface-access-token": "huggingface-token", "huggingface-organization-api-token": "huggingface-token",  # noqa: E501
    "twilio-api-key": "twilio-key", "sendgrid-api-token": "sendgrid-key",
    "mailgun-private-api-token": "mailgun-key", "heroku-api-key-v2": "heroku-key",
    "digitalocean-pat": "digitalocean-token", "digitalocean-access-token": "digitalocean-token",
    "digitalocean-refresh-token": "digitalocean-token", "telegram-bot-api-token": "telegram-bot-token",
    "vault-service-token": "vault-token", "vault-batch-token": "vault-token",
    "shopify-access-token": "shopify-token", "shopify-custom-access-token": "shopify-token",
    "shopify-private-app-access-token": "shopify-token", "shopify-shared-secret": "shopify-token",
    "databricks-api-token": "databricks-token", "postman-api-token": "postman-key",
    "grafana-api-key": "grafana-token", "grafana-cloud-api-token": "grafana-token",
    "grafana-service-account-token": "grafana-token", "linear-api-key": "linear-key",
    "gcp-api-key": "gcp-api-key", "aws-access-token": "aws-access-key-id",
    "azure-ad-client-secret": "azure-client-secret", "private-key": "private-key", "jwt": "jwt",
    "jwt-base64": "jwt", "age-secret-key": "age-secret-key",
}
GENERIC_REASON = ("any `key = value` with some entropy: the project's assignment parser reads named "
                  "secrets with its own rules for code and placeholders")
DROP_ON_PURPOSE = {"generic-api-key": GENERIC_REASON}
POSIX = {"alnum": "a-zA-Z0-9", "alpha": "a-zA-Z", "digit": "0-9", "xdigit": "0-9A-Fa-f", "upper": "A-Z",
         "lower": "a-z", "space": r" \t\n\r\f\v", "word": r"\w", "blank": r" \t",
         "punct": r"!-/:-@\[-`{-~"}
CLASS_ESCAPE = "[&~|"

HEADER = '''# Code generated by scripts/gen_secrets.py. DO NOT EDIT.
"""gitleaks' default secret rules for Python's ``re`` (generated: ``scripts/gen_secrets.py``).

From gitleaks' ``config/gitleaks.toml`` (MIT, Copyright (c) 2019 Zachary Rice; the source and its
licence are ``scripts/data/gitleaks/``), {kept} of its {total} rules. ``RULES``: ``(id, kind, keywords,
pattern, group, entropy, allow)`` -- the keywords (lower case; the rule runs only when one is in the
lower-cased text), the pattern (translated from Go's RE2, compiled with ``re.ASCII``), the group
that holds the secret (0: the first group that matched, or the whole match), the Shannon entropy
the secret must reach (0: none), and the allow-lists ``(target, regexes, stopwords)`` that clear a
finding (target ``secret``, ``match`` or ``line``). ``ALLOW``: the global allow-list's regexes and
stopwords (on the secret). ``DROPPED``: the rules left out, and why.
"""

from __future__ import annotations

SOURCE = "{source}"

'''


def translate(go: str) -> str:
    """``go`` (RE2 syntax) as a Python pattern with the same meaning."""
    out: list[str] = []
    scoped: list[list[str]] = [[]]  # per open group: the scoped flag groups opened in it, to close at its end
    i, n = 0, len(go)
    while i < n:
        c = go[i]
        if c == "\\":
            esc = go[i : i + 2]
            out.append(r"\Z" if esc == r"\z" else esc)
            i += 2
        elif c == "[":
            i = _class(go, i, out)
        elif c == "(":
            flags = re.match(r"\(\?([a-zA-Z-]+)\)", go[i:])
            if flags and i > 0:  # a flag switched on mid-pattern: scope it to the rest of the group
                out.append(f"(?{flags.group(1)}:")
                scoped[-1].append(flags.group(1))
                i += flags.end()
            else:
                out.append(c)
                scoped.append([])
                i += 1
        elif c == ")":
            out.append(")" * len(scoped.pop()) + ")")
            i += 1
        elif c == "|":
            opened = scoped[-1]
            out.append(")" * len(opened) + "|" + "".join(f"(?{f}:" for f in opened))
            i += 1
        else:
            out.append(c)
            i += 1
    out.append(")" * len(scoped.pop()))
    return "".join(out)


def _class(go: str, i: int, out: list[str]) -> int:
    """Copy the character class opening at ``go[i]`` into ``out``; the index after it."""
    out.append("[")
    i += 1
    if go[i] == "^":
        out.append("^")
        i += 1
    first = True
    while True:
        c = go[i]
        if c == "]" and not first:
            out.append("]")
            return i + 1
        first = False
        if c == "\\":
            out.append(go[i : i + 2])
            i += 2
        elif go.startswith("[:", i):
            end = go.index(":]", i)
            out.append(POSIX[go[i + 2 : end]])
            i = end + 2
        elif c in CLASS_ESCAPE or c == "]":
            out.append("\\" + c)
            i += 1
        elif c == "-" and go[i + 1] == "-":
            out.append(r"\-")
            i += 1
        else:
            out.append(c)
            i += 1


def compiles(pattern: str) -> str | None:
    """Why CPython cannot take ``pattern`` (warnings count), or ``None``."""
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        try:
            re.compile(pattern, FLAGS)
        except (re.error, Warning) as exc:
            return f"{type(exc).__name__}: {exc}"
    return None


def allow_lists(rule: dict[str, Any]) -> tuple[list[tuple[str, tuple[str, ...], tuple[str, ...]]], list[str]]:
    """A rule's allow-lists that apply to a note (none tied to a path), and what could not be kept."""
    kept, problems = [], []
    for allow in rule.get("allowlists", []):
        if allow.get("paths") and allow.get("condition", "OR").upper() == "AND":
            continue  # needs a path too: never true of a note
        regexes = tuple(translate(r) for r in allow.get("regexes", []))
        for regex in regexes:
            if (why := compiles(regex)) is not None:
                problems.append(f"allow-list regex {regex!r}: {why}")
        if regexes or allow.get("stopwords"):
            kept.append((allow.get("regexTarget", "secret"), regexes, tuple(allow.get("stopwords", ()))))
    return kept, problems


def rows(config: dict[str, Any]) -> tuple[list[tuple[Any, ...]], list[tuple[str, str]]]:
    """The table's rows and the dropped rules ``(id, why)``."""
    out, dropped = [], []
    for rule in config["rules"]:
        rid = rule["id"]
        if rid in DROP_ON_PURPOSE:
            dropped.append((rid, DROP_ON_PURPOSE[rid]))
            continue
        if "regex" not in rule or rule.get("path"):
            dropped.append((rid, "matches a file's path (a note has none)"))
            continue
        if not rule.get("keywords"):
            dropped.append((rid, "no keywords: it would run on every note"))
            continue
        pattern = translate(rule["regex"])
        allow, problems = allow_lists(rule)
        if (why := compiles(pattern)) is not None:
            problems.insert(0, why)
        if problems:
            dropped.append((rid, "; ".join(problems)))
            continue
        keywords = tuple(sorted({k.lower() for k in rule["keywords"]}))
        out.append((rid, KINDS.get(rid, rid), keywords, pattern, int(rule.get("secretGroup", 0)),
                    float(rule.get("entropy", 0.0)), tuple(allow)))
    return out, dropped


def main() -> None:
    """Write the table from the gitleaks configuration."""
    config = tomllib.loads(SOURCE.read_text(encoding="utf-8"))
    table, dropped = rows(config)
    glob = config.get("allowlist", {})
    allow_regexes = tuple(translate(r) for r in glob.get("regexes", []))
    for regex in allow_regexes:
        if (why := compiles(regex)) is not None:
            sys.exit(f"global allow-list regex {regex!r}: {why}")
    lines = [HEADER.format(kept=len(table), total=len(config["rules"]),
                           source=SOURCE.relative_to(ROOT).as_posix())]
    lines.append("RULES: tuple[tuple[str, str, tuple[str, ...], str, int, float, "
                 "tuple[tuple[str, tuple[str, ...], tuple[str, ...]], ...]], ...] = (\n")
    for rid, kind, keywords, pattern, group, entropy, allow in table:
        lines.append(f"    ({rid!r}, {kind!r}, {keywords!r},\n     {pattern!r},\n     {group}, {entropy!r}, "
                     f"{allow!r}),\n")
    lines.append(")\n\n")
    lines.append(f"ALLOW: tuple[tuple[str, ...], tuple[str, ...]] = (\n    {allow_regexes!r},\n"
                 f"    {tuple(glob.get('stopwords', ()))!r},\n)\n\n")
    lines.append("DROPPED: tuple[tuple[str, str], ...] = (\n")
    lines += [f"    ({rid!r}, {why!r}),\n" for rid, why in dropped]
    lines.append(")\n")
    OUT.write_text("".join(lines), encoding="utf-8")
    print(f"wrote {OUT}: {len(table)} rules, {len(dropped)} dropped")
    for rid, why in dropped:
        print(f"  dropped {rid}: {why}")


if __name__ == "__main__":
    main()
