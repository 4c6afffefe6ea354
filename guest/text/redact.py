"""Secrets out of stored text: each credential becomes ``[REDACTED:<kind>]`` (issue 28).

:func:`redact` runs before anything is stored (memories, lessons, skill bodies, archived blocks,
structured records, imports), so a pasted key never reaches the store, git, an export or a log.
The rules, in the order they apply (an earlier rule's marker is never matched again):

* ``private``: a ``<private>…</private>`` span, tags included (an unclosed one runs to the end);
* ``private-key``: a PEM private key block (``-----BEGIN … PRIVATE KEY-----`` to its ``END`` line,
  or to the end of its base64 when the ``END`` line is missing; JSON's ``\\n`` escapes included);
* tokens recognised by their format alone (:data:`TOKENS`): AWS access key ids, GCP API keys and
  OAuth client secrets, Azure AD client secrets, GitHub, GitLab, Slack, Stripe, OpenAI, Anthropic,
  npm, PyPI and Hugging Face tokens, Slack webhooks, JWTs;
* values named by their context: an AWS secret access key (40 base64 characters after ``aws`` or
  ``secret`` or an access key id nearby), an Azure storage or shared access key
  (``AccountKey=…``), an Azure SAS signature (``sig=…``), the password of a URL
  (``scheme://user:PASSWORD@host``), an ``Authorization:`` or ``Bearer`` credential;
* assignments (:mod:`guest.text.assignments`): ``password=…``, ``"secret": "…"``,
  ``API_KEY: …``, ``--token …`` and the like, whose key's last word names a secret.

Patterns are ASCII-only (``re.ASCII``): the same matches on CPython 3.11 and 3.14 whatever the
Unicode tables. Each rule is tried only when a literal it needs occurs in the text, so text without
any (most memories) costs a few substring searches. Redaction is idempotent: redacting a redacted
text changes nothing, so the same secret memorized twice gives the same text and the same id.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from guest.text import assignments

MARK = "[REDACTED:{}]"
PREFIX = "[REDACTED:"
MARKER = re.compile(r"\[REDACTED:[a-z0-9-]+\]", re.ASCII)  # a marker :func:`redact` left
_F = re.ASCII
_FI = re.ASCII | re.IGNORECASE
_L = r"(?<![A-Za-z0-9_-])"  # a token starts here
_R = r"(?![A-Za-z0-9_-])"  # and ends here


@dataclass(frozen=True)
class Rule:
    """A pattern, the literals one of which must occur for it to be tried, its kind.

    ``group``: the group that holds the secret (0: the whole match); ``check``: a last test of
    the secret (``False``: leave it).
    """

    kind: str
    pattern: re.Pattern[str]
    literals: tuple[str, ...]
    group: int = 0
    check: Callable[[str], bool] | None = None
    folded: bool = False  # the literals are lower case and looked for in the lower-cased text


def _random(value: str) -> bool:
    """Whether a token looks generated: it mixes letters and digits (words and names do not)."""
    return any(c.isdigit() for c in value) and any(c.isalpha() for c in value)


def _mixed(value: str) -> bool:
    """Upper case, lower case and digits, and not hexadecimal (a git object id, a digest)."""
    return (any(c.isupper() for c in value) and any(c.islower() for c in value)
            and any(c.isdigit() for c in value))


def _url_password(value: str) -> bool:
    return not assignments.placeholder(value)


def _rule(kind: str, pattern: str, *literals: str, group: int = 0, check: Callable[[str], bool] | None = None,
          folded: bool = False, flags: int = _F) -> Rule:
    return Rule(kind, re.compile(pattern, flags), literals, group, check, folded)


TOKENS = (
    _rule("private", r"<private[ \t]*>.*?(?:</private[ \t]*>|\Z)", "<private", folded=True,
          flags=_FI | re.DOTALL),
    _rule("private-key", r"-----BEGIN[ A-Z0-9]*PRIVATE KEY(?: BLOCK)?-----"
          r"(?:.*?-----END[ A-Z0-9]*PRIVATE KEY(?: BLOCK)?-----|[A-Za-z0-9+/=\s\\:,.-]*)", "PRIVATE KEY",
          flags=_F | re.DOTALL),
    _rule("anthropic-key", _L + r"sk-ant-[a-z]{2,8}[0-9]{0,3}-[A-Za-z0-9_-]{20,}" + _R, "sk-ant-"),
    _rule("openai-key", _L + r"sk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{32,}" + _R, "sk-", check=_random),
    _rule("github-token", _L + r"(?:gh[pousr]_[A-Za-z0-9]{36,251}|github_pat_[A-Za-z0-9_]{22,255})" + _R,
          "ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_"),
    _rule("gitlab-token", _L + r"gl(?:pat|oas|dt|rt|cbt|ptt|ft|imt|soat|ffct|agent)-[A-Za-z0-9_.-]{20,}" + _R,
          "glpat-", "gloas-", "gldt-", "glrt-", "glcbt-", "glptt-", "glft-", "glimt-", "glsoat-", "glffct-",
          "glagent-"),
    _rule("slack-webhook", r"https://hooks\.slack\.com/(?:services|workflows|triggers)/[A-Za-z0-9/_-]{20,}",
          "hooks.slack.com"),
    _rule("slack-token", _L + r"(?:xox[abposre]-[A-Za-z0-9-]{10,}|xapp-[0-9]-[A-Za-z0-9-]{10,})" + _R,
          "xox", "xapp-", check=_random),
    _rule("stripe-key", _L + r"(?:(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{20,}|whsec_[A-Za-z0-9+/=]{24,})" + _R,
          "sk_live_", "sk_test_", "rk_live_", "rk_test_", "whsec_"),
    _rule("gcp-api-key", _L + r"AIza[0-9A-Za-z_-]{35}" + _R, "AIza"),
    _rule("gcp-client-secret", _L + r"GOCSPX-[A-Za-z0-9_-]{28}" + _R, "GOCSPX-"),
    _rule("azure-client-secret",
          r"(?<![A-Za-z0-9_~.-])[A-Za-z0-9_~.]{3}[0-9]Q~[A-Za-z0-9_~.-]{31,34}(?![A-Za-z0-9_~.-])", "Q~"),
    _rule("npm-token", _L + r"npm_[A-Za-z0-9]{36}" + _R, "npm_"),
    _rule("pypi-token", _L + r"pypi-AgE[A-Za-z0-9_-]{50,}" + _R, "pypi-AgE"),
    _rule("huggingface-token", _L + r"hf_[A-Za-z0-9]{30,}" + _R, "hf_", check=_mixed),
    _rule("jwt", r"(?<![A-Za-z0-9_.-])eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}"
          r"(?:\.[A-Za-z0-9_-]*){0,2}(?![A-Za-z0-9_-])", "eyJ"),
    _rule("aws-secret-access-key",
          r"(?:aws|secret|(?:A3T[A-Z0-9]|AKIA|ASIA|ABIA|ACCA)[A-Z0-9]{16})[^\n]{0,60}?(?<![A-Za-z0-9/+])"
          r"([A-Za-z0-9/+]{40})(?![A-Za-z0-9/+=])", "aws", "secret", "akia", "asia",
          group=1, check=_mixed, folded=True, flags=_FI),
    _rule("aws-access-key-id",
          r"(?<![A-Za-z0-9])(?:A3T[A-Z0-9]|AKIA|ASIA|ABIA|ACCA)[A-Z0-9]{16}(?![A-Za-z0-9])",
          "A3T", "AKIA", "ASIA", "ABIA", "ACCA"),
    _rule("azure-storage-key", r"(?:AccountKey|SharedAccessKey|AccessKey)=([A-Za-z0-9+/]{40,}={0,2})",
          "accesskey", "accountkey", group=1, folded=True, flags=_FI),
    _rule("azure-sas-signature", r"[?&]sig=([A-Za-z0-9%+/]{30,}(?:%3D|=){0,2})", "sig=", group=1),
    _rule("url-credentials", r"[A-Za-z][A-Za-z0-9+.-]{1,20}://[^\s:/?#@'\"<>]*:([^\s/?#@'\"<>]+)@", "://",
          group=1, check=_url_password),
    _rule("token", r"(?:authorization[ \t]*:[ \t]*(?:bearer|basic|token|bot|digest)|bearer)[ \t]+"
          r"([A-Za-z0-9._~+/-]{8,}=*)", "bearer", "authorization", group=1,
          check=lambda v: len(v) >= 16 or _random(v), folded=True, flags=_FI),
)


_CASED = tuple(sorted({lit for rule in TOKENS if not rule.folded for lit in rule.literals}))
_FOLDED = tuple(sorted({lit for rule in TOKENS if rule.folded for lit in rule.literals}))


def redact(text: str) -> tuple[str, dict[str, int]]:
    """``text`` with every secret replaced by ``[REDACTED:<kind>]``, and how many of each kind."""
    counts: dict[str, int] = {}
    lowered = text.lower()
    present = {lit for lit in _CASED if lit in text}
    present.update(lit for lit in _FOLDED if lit in lowered)
    if present:
        before = text
        for rule in TOKENS:
            if not present.isdisjoint(rule.literals):
                text = _apply(rule, text, counts)
        if text is not before:
            lowered = text.lower()
    text, found = assignments.redact(text, MARK, lowered)
    return text, merge(counts, found)


def _apply(rule: Rule, text: str, counts: dict[str, int]) -> str:
    """``text`` with the rule's matches replaced (the same object when nothing matched)."""
    out: list[str] = []
    end = 0
    for match in rule.pattern.finditer(text):
        start, stop = match.span(rule.group)
        secret = match.group(rule.group)
        if start < end or PREFIX in secret or (rule.check is not None and not rule.check(secret)):
            continue
        out.append(text[end:start])
        out.append(MARK.format(rule.kind))
        end = stop
        counts[rule.kind] = counts.get(rule.kind, 0) + 1
    if not out:
        return text
    out.append(text[end:])
    return "".join(out)


def scrub(message: str) -> str:
    """A message (an error, a log line) with its secrets redacted, whatever the project's setting."""
    return redact(message)[0]


def merge(into: dict[str, int], counts: dict[str, int]) -> dict[str, int]:
    """Add ``counts`` to ``into`` (returned)."""
    for kind, n in counts.items():
        into[kind] = into.get(kind, 0) + n
    return into
