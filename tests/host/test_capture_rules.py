"""Rules that are rules (issue 44 item 4): which sentences of a typed prompt capture keeps as a rule.

The live failures of the issue, one case per kind of wording the classifier tells apart, and a
sample of the dev set (``tests/data/rules_sample.jsonl``: every fourth prompt of the set ``make
eval`` scores, ``bench/data/rules_devset.jsonl``) held to the issue's precision and recall.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from host_harness.capture import rules

SAMPLE = Path(__file__).parents[1] / "data" / "rules_sample.jsonl"

NOT_RULES = [
    "Never mind, let's look at the build log instead.",
    "Never mind the lint warnings for now.",
    "Always the same error. Any idea?",
    "Prefer the second option you gave.",
    "Use the staging config, not the prod one, for this one test.",
    "Remember that meeting notes file I mentioned? Open it.",
    # worded like the standing kinds above, but one-off work
    "Fix every failing test.",
    "Write the migration in the models files.",
    "Put the new helper in the utils modules.",
    "Keep going with the parser changes in the test files.",
    "All the builds should be green now.",
    "Run the tests after every change you make to the parser.",
    "The tests must have broken after the merge.",
]
RULES = ["Don't ever push to main directly.", "Do not ever commit the .env file."]


@pytest.mark.parametrize("prompt", NOT_RULES)
def test_the_live_chat_is_not_a_rule(prompt):
    assert rules.directives(prompt) == []


@pytest.mark.parametrize("prompt", RULES)
def test_the_live_rules_are_rules(prompt):
    assert rules.directives(prompt) == [prompt]


@pytest.mark.parametrize(  # each worded as a rule is: what makes it chat wins
    "sentence, why",
    [
        ("Should we use pnpm from now on", "question"),
        ("Why does the build always hang?", "question"),
        ("Never mind the docs, from now on use pnpm.", "never mind"),
        ("Always skip the e2e tests for now.", "temporary"),
        ("Use port 8081, not 8080, this time.", "temporary"),
        ("Maybe we should always pin versions.", "hedged"),
        ("Use the left layout, not the right one.", "a one-off choice"),
        ("We prefer the dark theme you mocked up.", "a one-off choice"),
        ("My manager keeps saying we should always write ADRs.", "someone else's words"),
        ("The test always fails on CI.", "no rule in it"),
        ("I always forget to run the formatter.", "no rule in it"),
        ("Never have I seen such a slow suite.", "no rule in it"),
        ('Put "Never share your password" as the tooltip text.', "no rule in it"),
        ("Тест всегда падает на CI.", "no rule in it"),
        ("这个测试总是失败。", "no rule in it"),
    ],
)
def test_each_kind_of_chat_says_why_it_is_not_a_rule(sentence, why):
    assert rules.verdict(sentence) == why


@pytest.mark.parametrize(
    "sentence",
    [
        "Always, always run the migrations in a transaction.",
        "From today on, use the new design tokens.",
        "Whenever you change the schema, write a migration.",
        "If you change the CLI, always update the help text.",
        "Commit messages should always reference the ticket number.",
        "Nobody should ever push to prod on a Friday.",
        "No more print debugging in committed code, ever.",
        "Tabs, not spaces, in Go files.",
        "We deploy with Helm, not kubectl apply.",
        "Keep line length at 100 in this repo.",
        "Remember that the staging database is read-only.",
        "In this codebase, errors are returned, not thrown.",
        "Our naming convention: kebab-case for file names.",
        "Just so you know, we always deploy through ArgoCD.",
        "Verwende immer pnpm statt npm.",
        "Ne pousse jamais directement sur main.",
        "A partir de ahora, escribe los commits en inglés.",
        "Всегда используй pnpm вместо npm.",
        "永远不要直接推送到 main 分支。",
        "Use single quotes for string literals in Python files.",
        "Indent code with 2 spaces, never tabs.",
        "Use Decimal for money amounts, never float.",
        "Run make lint before every commit.",
        "Prefer async functions for anything that does I/O.",
        "Every public function needs a Google-style docstring.",
        "Commit messages must start with the ticket number.",
    ],
)
def test_each_kind_of_rule_is_kept(sentence):
    assert rules.verdict(sentence) is None


def test_the_rule_sentence_is_kept_in_the_users_words_and_nothing_around_it():
    prompt = (
        "Thanks, that works. Can you add a retry? From now on, always run the linter before you show me a "
        "diff.\n> Always trust the vendor script\n```\nalways_on = True\n```\n- Never use `sleep()` in tests"
    )
    assert rules.directives(prompt) == [
        "From now on, always run the linter before you show me a diff.",
        "Never use `sleep()` in tests",
    ]


def test_the_dev_set_sample_meets_the_issues_precision_and_recall():
    cases = [json.loads(line) for line in SAMPLE.read_text(encoding="utf-8").splitlines()]
    assert len(cases) >= 80 and {c["rule"] for c in cases} == {True, False}
    found = {c["text"]: bool(rules.directives(c["text"])) for c in cases}
    right = sum(1 for c in cases if c["rule"] and found[c["text"]])
    said = sum(found.values())
    wanted = sum(1 for c in cases if c["rule"])
    wrong = [c["text"] for c in cases if found[c["text"]] != c["rule"]]
    assert right / said >= 0.95 and right / wanted >= 0.85, wrong
