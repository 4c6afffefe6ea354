"""Issue 45, items 4 and 5 (secrets): the dev set's forms and a sample of its ordinary notes, on both targets.

``bench/data/secrets_devset.jsonl`` is scored by ``make eval --sets secrets``; here every parsed form
(and one token case of each kind) and a sample of the ordinary notes go through the guest's ``redact``
verb, natively and in the component: no secret survives, no ordinary note changes.
"""

from __future__ import annotations

import pytest
from envelopes import ok
from helpers.benchdata import jsonl

from guest.generated.secrets import DROPPED, RULES
from guest.screening import ruleset

CASES = jsonl("secrets_devset.jsonl")
SECRETS = [c for c in CASES if c["secret_form"]]
ORDINARY = [c for c in CASES if not c["secret_form"]]


def sample() -> list[dict[str, object]]:
    seen: set[str] = set()
    out = []
    for case in SECRETS:
        if case["form"] == "parsed" or case["kind"] not in seen:
            out.append(case)
            seen.add(case["kind"])
    return out


def test_the_dev_set_has_the_sizes_the_issue_asks_for():
    assert len(SECRETS) >= 150 and len(ORDINARY) >= 500
    assert len({c["text"] for c in CASES}) == len(CASES)


def test_the_sampled_forms_and_notes_through_the_guest(guest):
    secrets = sample()
    notes = ORDINARY[::5]
    answer = ok(guest, "redact", {"texts": [c["text"] for c in secrets] + [c["text"] for c in notes]})
    out = answer["texts"]
    stored = [c["kind"] for c, text in zip(secrets, out, strict=False) if c["secret"] in text]
    changed = [text for c, text in zip(notes, out[len(secrets):], strict=True) if text != c["text"]]
    assert stored == [] and changed == []


def test_the_generated_catalogue_is_gitleaks_less_what_it_lists():
    assert len(RULES) + len(DROPPED) == 222 and len(RULES) >= 200
    assert {rid for rid, _ in DROPPED} >= {"generic-api-key", "pkcs12-file"}


@pytest.mark.parametrize("text, words", [
    ("MY_ADAFRUIT_KEY=x and xoxe.xoxb-1", {"adafruit", "xoxe.xoxb-", "xoxb"}),
    ("next=%3Dghp_abc", {"ghp_"}),
    ("the task at hand", set()),  # ``sk`` inside a word is no keyword's start
])
def test_keywords_are_found_where_a_word_starts(text: str, words: set[str]):
    prefilter = ruleset.Prefilter(ruleset.KEYWORDS)
    assert words <= prefilter.present(text.lower())
    if not words:
        assert "sk" not in prefilter.present(text.lower())
