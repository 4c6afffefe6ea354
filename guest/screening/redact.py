"""Secrets out of stored text: each credential becomes ``[REDACTED:<kind>]`` (issue 28).

:func:`redact` runs before anything is stored (memories, lessons, skill bodies, archived blocks,
structured records, imports), so a pasted key never reaches the store, git, an export or a log.
The rules, in the order they apply (an earlier rule's marker is never matched again):

* ``private``: a ``<private>…</private>`` span, tags included (an unclosed one runs to the end);
* ``private-key``: a PEM private key block (``-----BEGIN … PRIVATE KEY-----`` to its ``END`` line,
  or to the end of its base64 when the ``END`` line is missing; JSON's ``\\n`` escapes included);
* tokens recognised by their format alone (:data:`TOKENS`): AWS access key ids, GCP API keys and
  OAuth client secrets, Azure AD client secrets, GitHub, GitLab, Slack, Stripe, OpenAI, Anthropic,
  npm, PyPI and Hugging Face tokens, Slack webhooks, JWTs; Twilio, SendGrid, Mailgun, Heroku,
  DigitalOcean, Telegram, Vault, Shopify, Databricks, Postman, Grafana and Linear tokens, age keys
  (issue 38) -- also after ``_`` or a URL-encoded character (``%3Dghp_…``);
* values named by their context: an AWS secret access key (40 base64 characters after ``aws`` or
  ``secret`` or an access key id nearby), an Azure storage or shared access key
  (``AccountKey=…``), an Azure SAS signature (``sig=…``), the password of a URL
  (``scheme://user:PASSWORD@host``, ``/`` and ``#`` included), an ``Authorization:`` or ``Bearer``
  credential, ``mysql -pPASSWORD``, ``curl -u user:PASSWORD``, a ``.netrc`` line, and "the
  password is X" in prose (X made up-looking and ending its clause);
* assignments (:mod:`guest.screening.assignments`): ``password=…``, ``"secret": "…"``,
  ``API_KEY: …``, ``--token …`` and the like, whose key's last word names a secret.

Patterns are ASCII-only (``re.ASCII``): the same matches on CPython 3.11 and 3.14 whatever the
Unicode tables. Each rule is tried only when a literal it needs occurs in the text, so text without
any (most memories) costs a few substring searches. Redaction is idempotent: redacting a redacted
text changes nothing, so the same secret memorized twice gives the same text and the same id.
"""

from __future__ import annotations

import base64
import re
from collections.abc import Callable
from dataclasses import dataclass

from guest.screening import assignments, forms, injection, ruleset

MARK = "[REDACTED:{}]"
PREFIX = "[REDACTED:"
MARKER = re.compile(r"\[REDACTED:[a-z0-9-]+\]", re.ASCII)  # a marker :func:`redact` left
_F = re.ASCII
_FI = re.ASCII | re.IGNORECASE
_ESC = r"(?<=%[0-9A-Fa-f][0-9A-Fa-f])"  # after a URL-encoded character (``%3Dghp_…``)
_L = r"(?:(?<![A-Za-z0-9-])|" + _ESC + ")"  # a token starts here (also after ``_``)
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
    around: Callable[[str], bool] | None = None  # a last test of the white-space-delimited word around it
    gate: re.Pattern[str] | None = None  # found in the lower-cased text, or the rule is not tried


def _random(value: str) -> bool:
    """Whether a token looks generated: it mixes letters and digits (words and names do not)."""
    return any(c.isdigit() for c in value) and any(c.isalpha() for c in value)


def _mixed(value: str) -> bool:
    """Upper case, lower case and digits, and not hexadecimal (a git object id, a digest)."""
    return (any(c.isupper() for c in value) and any(c.islower() for c in value)
            and any(c.isdigit() for c in value))


def _aws_secret(value: str) -> bool:
    """Mixed like a generated key, and not base64 of text (a fixture: a key is random bytes)."""
    return _mixed(value) and not injection.printable_base64(value)


def _not_arn(word: str) -> bool:
    """Not inside an ARN (``arn:aws:secretsmanager:…:secret:prod/db/…``: a name, not a key)."""
    return "arn:" not in word.lower()


def _said(value: str) -> bool:
    """A value given in prose ("the password is X") that looks made up, not a word or a quantity."""
    if len(value) < 6 or len(value) > 128 or assignments.placeholder(value) or QUANTITY.fullmatch(value):
        return False
    if value.lower().split("-")[0] in TECH_WORDS or value.startswith(("/", "~", "http", "$", "%")):
        return False
    letters = any(c.isalpha() for c in value)
    return letters and (any(c.isdigit() for c in value) or any(c in SYMBOLS for c in value))


def _shell_password(value: str) -> bool:
    return not assignments.placeholder(value) and not value.startswith("-")


def _docker_auth(value: str) -> bool:
    """A registry's ``auth``: base64 of ``user:password`` (an identity token is random)."""
    try:
        decoded = base64.b64decode(value + "=" * (-len(value) % 4))
    except ValueError:  # binascii.Error is one
        return _random(value)
    return b":" in decoded or _random(value)


def _rule(kind: str, pattern: str, *literals: str, group: int = 0, check: Callable[[str], bool] | None = None,
          folded: bool = False, flags: int = _F, around: Callable[[str], bool] | None = None,
          gate: str | None = None) -> Rule:
    return Rule(kind, re.compile(pattern, flags), literals, group, check, folded, around,
                None if gate is None else re.compile(gate, _F))


PORT = re.compile(r"[0-9]{1,5}(?:[/?#]|$)", _F)
QUANTITY = re.compile(r"v?[0-9][0-9.,_]*(?:[a-z]{1,5}|%)?|[0-9a-f]{7,64}", _FI)
SYMBOLS = frozenset("!@#$%^&*+=~?<>|")
TECH_WORDS = frozenset(
    "base64 base32 sha1 sha256 sha512 md5 utf8 utf-8 aes aes128 aes256 rsa rsa2048 rsa4096 ed25519 hmac "
    "hs256 rs256 es256 pbkdf2 bcrypt argon2 argon2id scrypt x509 oauth2 jwt".split()
)
# "the password is X": X ends its clause (a full stop, a comma, the line's end, a conjunction)
_SAID = (r"\b(?:the|my|our|its|your|their|this|that|a|new|old|admin|root|staging|prod(?:uction)?|db"
         r"|database)\s+"
         r"(?:[a-z0-9_-]+\s+)?{words}\s+(?:is|was|will\s+be|is\s+now|=)\s*:?\s*[\"'`]?"
         r"([^\s\"'`]*[^\s\"'`.,;:!?)])[\"'`]?(?=[.,;:!?)]?(?:\s*$|\s*\n|\s+(?:and|but|so|or|for|until)\b"
         r"|\s+\(|\s*[.;,]\s))")


def _said_rule(kind: str, words: str, *literals: str) -> Rule:
    # gate: the word then "is", "was", "will be" or "=" (a pattern that starts with words, which
    # ``re`` skips to in C; the rule's own starts with ``\b`` and is tried at every character)
    return _rule(kind, _SAID.format(words=words), *literals, group=1, check=_said, folded=True,
                 flags=_FI | re.MULTILINE, gate=words + r"\s+(?:is|was|will|=)")


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
    _rule("twilio-key", _L + r"SK[0-9a-fA-F]{32}" + _R, "SK", check=_random),
    _rule("sendgrid-key", _L + r"SG\.[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{43}" + _R, "SG."),
    _rule("mailgun-key", _L + r"key-[0-9a-zA-Z]{32}" + _R, "key-", check=_random),
    _rule("heroku-key", _L + r"HRKU-[A-Za-z0-9_-]{20,}" + _R, "HRKU-"),
    _rule("digitalocean-token", _L + r"do[por]_v1_[a-f0-9]{64}" + _R, "dop_v1_", "doo_v1_", "dor_v1_"),
    _rule("telegram-bot-token", r"(?:(?<![A-Za-z0-9:-])|" + _ESC + r")[0-9]{5,16}:AA[A-Za-z0-9_-]{33}" + _R,
          ":AA"),
    _rule("vault-token", _L + r"hv[sbr]\.[A-Za-z0-9_-]{24,}" + _R, "hvs.", "hvb.", "hvr.", check=_random),
    _rule("shopify-token", _L + r"shp(?:at|ca|pa|ss)_[a-fA-F0-9]{32}" + _R, "shpat_", "shpca_", "shppa_",
          "shpss_"),
    _rule("databricks-token", _L + r"dapi[a-f0-9]{32}(?:-[0-9]{1,2})?" + _R, "dapi"),
    _rule("postman-key", _L + r"PMAK-[a-fA-F0-9]{24}-[a-fA-F0-9]{34}" + _R, "PMAK-"),
    _rule("grafana-token", _L + r"(?:glsa_[A-Za-z0-9]{32}_[A-Fa-f0-9]{8}|glc_[A-Za-z0-9+/]{32,}={0,2})" + _R,
          "glsa_", "glc_"),
    _rule("linear-key", _L + r"lin_(?:api|oauth)_[A-Za-z0-9]{40}" + _R, "lin_api_", "lin_oauth_"),
    _rule("age-secret-key", r"AGE-SECRET-KEY-1[QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L]{58}", "AGE-SECRET-KEY-"),
    _rule("gcp-api-key", _L + r"AIza[0-9A-Za-z_-]{35}" + _R, "AIza"),
    _rule("gcp-client-secret", _L + r"GOCSPX-[A-Za-z0-9_-]{28}" + _R, "GOCSPX-"),
    _rule("azure-client-secret",
          r"(?:(?<![A-Za-z0-9~.-])|" + _ESC + r")[A-Za-z0-9_~.]{3}[0-9]Q~[A-Za-z0-9_~.-]{31,34}"
          r"(?![A-Za-z0-9_~.-])", "Q~"),
    _rule("npm-token", _L + r"npm_[A-Za-z0-9]{36}" + _R, "npm_"),
    _rule("pypi-token", _L + r"pypi-AgE[A-Za-z0-9_-]{50,}" + _R, "pypi-AgE"),
    _rule("huggingface-token", _L + r"hf_[A-Za-z0-9]{30,}" + _R, "hf_", check=_mixed),
    _rule("jwt", r"(?:(?<![A-Za-z0-9.-])|" + _ESC + r")eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}"
          r"\.[A-Za-z0-9_-]{8,}"
          r"(?:\.[A-Za-z0-9_-]*){0,2}(?![A-Za-z0-9_-])", "eyJ"),
    _rule("aws-secret-access-key",
          r"(?:aws|secret|(?:A3T[A-Z0-9]|AKIA|ASIA|ABIA|ACCA)[A-Z0-9]{16})[^\n]{0,60}?(?<![A-Za-z0-9/+])"
          r"([A-Za-z0-9/+]{40})(?![A-Za-z0-9/+=])", "aws", "secret", "akia", "asia",
          group=1, check=_aws_secret, folded=True, flags=_FI, around=_not_arn),
    _rule("aws-access-key-id",
          r"(?:(?<![A-Za-z0-9])|" + _ESC + r")(?:A3T[A-Z0-9]|AKIA|ASIA|ABIA|ACCA)[A-Z0-9]{16}(?![A-Za-z0-9])",
          "A3T", "AKIA", "ASIA", "ABIA", "ACCA"),
    _rule("azure-storage-key", r"(?:AccountKey|SharedAccessKey|AccessKey)=([A-Za-z0-9+/]{40,}={0,2})",
          "accesskey", "accountkey", group=1, folded=True, flags=_FI),
    _rule("azure-sas-signature", r"[?&]sig=([A-Za-z0-9%+/]{30,}(?:%3D|=){0,2})", "sig=", group=1),
    # issue 45, item 4: kinds outside the first catalogue (the parsed forms are guest/screening/forms.py)
    _rule("docker-auth", r"\"(?:auth|identitytoken)\"[ \t]*:[ \t]*\"([A-Za-z0-9+/_.-]{12,}={0,2})\"",
          '"auth"', '"identitytoken"', group=1, folded=True, flags=_FI, check=_docker_auth),
    _rule("npm-auth", r"(?:^|\s)(?://[^\s=]+?:)?_(?:auth|password)[ \t]*=[ \t]*\"?([^\s\"]{8,})",
          "_auth", "_password", group=1, folded=True, flags=_FI | re.MULTILINE, check=_shell_password),
    _rule("private-key", r"client-key-data[ \t]*:[ \t]*([A-Za-z0-9+/]{20,}={0,2})", "client-key-data", group=1),  # noqa: E501
    _rule("cookie", r"\b(?:set-)?cookie[ \t]*:[ \t]*([^\n'\"]{8,})", "cookie", group=1, folded=True, flags=_FI,  # noqa: E501
          check=_random),
    _rule("cookie", r"\s(?:-b|--cookie)[ \t]+[\"']?([^\s\"']*=[^\s\"']{8,})", "-b", "--cookie", group=1,
          check=_random),
    _rule("discord-webhook", r"https://(?:ptb\.|canary\.)?discord(?:app)?\.com/api/webhooks/[0-9]{15,21}/"
          r"[A-Za-z0-9_-]{40,}", "discord"),
    _rule("teams-webhook", r"https://[A-Za-z0-9-]+\.webhook\.office\.com/webhookb2/[^\s\"'<>]+",
          "webhook.office.com"),
    _rule("gcp-oauth-token", _L + r"ya29\.[0-9A-Za-z_-]{20,}" + _R, "ya29."),
    _rule("aws-presigned-signature", r"[?&](?:X-Amz-Signature|Signature|X-Amz-Security-Token)=([^&\s\"'<>#]{20,})",  # noqa: E501
          "signature=", "x-amz-security-token=", group=1, folded=True),
    _rule("password", r"^(?=[^:\n]*[A-Za-z*])[A-Za-z0-9.*\[\]-]+:(?:[0-9]{2,5}|\*):[^:\s]+:[^:\s]+:(\S{4,})$",
          ":5432:", ":*:", ".pgpass", group=1, check=_shell_password, flags=_F | re.MULTILINE, folded=True),
    _rule("password", r"\b(?:password|identified[ \t]+by)[ \t]*=?[ \t]*(?:'([^'\n]{1,128})'|\"([^\"\n]{1,128})\")",  # noqa: E501
          "password", "identified", group=1, check=_shell_password, folded=True, flags=_FI),
    _rule("password", r"(?:^[ \t]*|--|\bconfig[ \t]+set[ \t]+)(?:requirepass|masterauth)[ \t]+[\"']?([^\s\"']+)",  # noqa: E501
          "requirepass", "masterauth", group=1, check=_shell_password, folded=True, flags=_FI | re.MULTILINE),
    _rule("password", r"\bsshpass\b[^\n|;&]*?\s-p[ \t]*[\"']?([^\s\"']+)", "sshpass", group=1,
          check=_shell_password, folded=True, flags=_FI),
    _rule("password", r"\b(?:docker|podman|nerdctl|buildah|skopeo|helm|oras)\b[^\n|;&]*?\blogin\b[^\n|;&]*?\s"
          r"(?:-p|--password)(?:[ \t]+|=)[\"']?([^\s\"']+)", "login", group=1, check=_shell_password, folded=True,  # noqa: E501
          flags=_FI),
    _rule("password", r"(?<![\w-])(pass:[^\s\"']+)", "pass:", group=1, check=_shell_password),
    _rule("vault-unseal-key", r"\b(?:unseal[ \t]+key(?:[ \t]+[0-9]+)?[ \t]*:|operator[ \t]+unseal(?:[ \t]+-\S+)*)"  # noqa: E501
          r"[ \t]*([A-Za-z0-9+/]{20,}={0,2})", "unseal", group=1, folded=True, flags=_FI),
    _rule("new-relic-key", _L + r"NR(?:AK|JS|II)-[A-Za-z0-9]{19,32}" + _R, "NRAK-", "NRJS-", "NRII-"),
    _rule("square-token", _L + r"sq0(?:atp|csp|idp)-[A-Za-z0-9_-]{22,60}" + _R, "sq0"),
    _rule("doppler-token", _L + r"dp\.(?:pt|st|sa|ct|scim|audit)\.(?:[a-z0-9_-]{1,30}\.)?[A-Za-z0-9]{40,44}" + _R, "dp."),  # noqa: E501
    _rule("atlassian-token", _L + r"ATATT3[A-Za-z0-9_=-]{100,}" + _R, "ATATT3"),
    _rule("password", r"\b(?:mysql|mysqldump|mysqladmin|mysqlimport|mysqlsh|mariadb|mariadb-dump)\b"
          r"[^\n|;&]{0,300}?(?<=\s)-p([^\s\"']{3,128}|\"[^\"\n]{1,128}\"|'[^'\n]{1,128}')",
          "mysql", "mariadb",
          group=1, check=_shell_password, folded=True, flags=_FI),
    _rule("password", r"\b(?:curl|wget|http|https|xh)\b[^\n|;&]{0,300}?\s(?:-u|--user)(?:[ \t]+|=)[\"']?"
          r"[^\s:\"']+:([^\s\"']{1,256})", "curl", "wget", "http", "xh", group=1, check=_shell_password,
          folded=True, flags=_FI, gate=r"(?:-u|--user)(?:[ \t]|=)"),
    _rule("password", r"\b(?:machine[ \t]+\S+|default(?=\s+login\b))\s+"
          r"(?:(?:login|account|port)[ \t]+\S+\s+)*password[ \t]+(\S{1,256})", "machine", "default", group=1,
          check=_shell_password, folded=True, flags=_FI, gate=r"password[ \t]"),
    _said_rule("password", r"(?:password|passwd|passphrase|passcode|pin|pwd)", "pass", "pin", "pwd"),
    _said_rule("secret", r"(?:secret|client\s+secret|secret\s+key)", "secret"),
    _said_rule("token", r"(?:token|access\s+token|bearer\s+token)", "token"),
    _said_rule("api-key", r"(?:api[\s_-]?key)", "api"),
    _rule("token", r"(?:authorization[ \t]*:[ \t]*(?:bearer|basic|token|bot|digest)|bearer)[ \t]+"
          r"([A-Za-z0-9._~+/-]{8,}=*)", "bearer", "authorization", group=1,
          check=lambda v: len(v) >= 16 or _random(v), folded=True, flags=_FI),
)


_CASED = tuple(sorted({lit for rule in TOKENS if not rule.folded for lit in rule.literals}))
_FOLDED = tuple(sorted({lit for rule in TOKENS if rule.folded for lit in rule.literals}))
# every literal any rule needs, found in one pass over the lower-cased text
_PREFILTER = ruleset.Prefilter((*ruleset.KEYWORDS, *(lit.lower() for lit in _CASED), *_FOLDED))
_CASED_OF = {low: tuple(lit for lit in _CASED if lit.lower() == low) for low in {lit.lower() for lit in _CASED}}  # noqa: E501
_FOLDED_SET = frozenset(_FOLDED)
_RULES_OF = {lit: tuple(i for i, rule in enumerate(TOKENS) if lit in rule.literals) for lit in (*_CASED, *_FOLDED)}  # noqa: E501


def redact(text: str) -> tuple[str, dict[str, int]]:
    """``text`` with every secret replaced by ``[REDACTED:<kind>]``, and how many of each kind."""
    counts: dict[str, int] = {}
    text = forms.unescaped(text, redact, counts)
    lowered = text.lower()
    found_forms = forms.spans(text, lowered)
    if found_forms:
        text = _replace(text, found_forms, counts)
        lowered = text.lower()
    words = _PREFILTER.present(lowered)
    present = {lit for word in words for lit in _CASED_OF.get(word, ()) if lit in text}
    present.update(words & _FOLDED_SET)
    if present:
        before = text
        for index in sorted({i for lit in present for i in _RULES_OF[lit]}):
            rule = TOKENS[index]
            if rule.gate is None or rule.gate.search(lowered):
                text = _apply(rule, text, counts)
        if text is not before:
            lowered = text.lower()
    before = text
    text = ruleset.apply(text, words, MARK, counts, PREFIX, assignments.placeholder)
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
        if rule.around is not None and not rule.around(_word(text, start, stop)):
            continue
        out.append(text[end:start])
        out.append(MARK.format(rule.kind))
        end = stop
        counts[rule.kind] = counts.get(rule.kind, 0) + 1
    if not out:
        return text
    out.append(text[end:])
    return "".join(out)


def _replace(text: str, spans: list[tuple[int, int, str]], counts: dict[str, int]) -> str:
    """``text`` with each ``(start, stop, kind)`` span (sorted, apart) replaced by its marker."""
    out, last = [], 0
    for start, stop, kind in spans:
        if PREFIX in text[start:stop]:
            continue
        out += [text[last:start], MARK.format(kind)]
        last = stop
        counts[kind] = counts.get(kind, 0) + 1
    out.append(text[last:])
    return "".join(out)


def _word(text: str, start: int, stop: int) -> str:
    """The white-space-delimited word of ``text`` holding ``text[start:stop]``."""
    head = max(text.rfind(c, 0, start) for c in " \t\n") + 1
    tails = [i for i in (text.find(c, stop) for c in " \t\n") if i >= 0]
    return text[head : min(tails, default=len(text))]


def scrub(message: str) -> str:
    """A message (an error, a log line) with its secrets redacted, whatever the project's setting."""
    return redact(message)[0]


def merge(into: dict[str, int], counts: dict[str, int]) -> dict[str, int]:
    """Add ``counts`` to ``into`` (returned)."""
    for kind, n in counts.items():
        into[kind] = into.get(kind, 0) + n
    return into
