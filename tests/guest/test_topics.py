"""Terms versions 4 and 5's words and what a rule is about (issue 47 items 1 and 2), the pure parts.

Through ``auto_recall`` on both targets: ``tests/host/test_relevance.py`` (the live examples).
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from guest.generated import vocabulary
from guest.index.keywords import words_v4, words_v5
from guest.memory import rules, topics
from guest.memory.records import Memory

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("What happens if I don't rebase?", ["happens", "rebase"]),  # no "don", no "t"
        ("It isn’t Bob's, we're sure it doesn't", ["bob", "s", "re", "sure"]),  # the gate cuts clitics too
        ("IHoverService hovering", ["ihoverservice", "hover", "service", "hovering"]),
        ("call parse_config from HTTPServer",
         ["call", "parse_config", "parse", "config", "httpserver", "http", "server"]),
        ("src/retry.py __init__ utf8", ["src", "retry", "py", "init", "utf8"]),
        ("café_menü", ["café_menü", "café", "menü"]),
    ],
)
def test_version_4_words_drop_contraction_fragments_and_split_identifiers(text: str, expected: list[str]):
    assert words_v4(text) == expected


def test_the_gate_reads_no_clitic():
    assert words_v4("It isn’t Bob's, we're sure it doesn't", clitics=True) == ["bob", "sure"]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("It isn’t Bob's, we're sure it doesn't", ["bob", "sure"]),
        ("I'm sure we've said it's what you'll see, they'd say; ain't it?", ["sure", "said", "see", "say"]),
        ("Don't, doesn't, isn't, can't, won't, shouldn't: rebase", ["rebase"]),
        ("DON'T PANIC, IT'S FINE", ["panic", "fine"]),  # do/does/is/can/will + not
        ("O'Brien's rock'n'roll", ["o", "brien", "rock", "n", "roll"]),  # an apostrophe inside a word stays
        ("base64Encode s3Bucket 16GB utf8", ["base64encode", "base", "64", "encode", "s3bucket", "bucket",
                                            "16gb", "utf8"]),  # not a size, not a lone word with a digit
        ("getUserName my-component src/auth/login.ts os.path.join",
         ["getusername", "get", "user", "name", "component", "src", "auth", "login", "ts", "os", "path",
          "join"]),  # kebab-case, paths and dotted names are their words already
    ],
)
def test_version_5_words_have_no_clitic(text: str, expected: list[str]):
    assert words_v5(text) == expected
    fragments = {"don", "doesn", "isn", "can", "won", "shouldn", "t", "s", "ve", "m", "re", "ll", "d"}
    assert not fragments & set(rules.words(text, 5)) - set(expected)


def test_a_contraction_is_its_words_unfolded():
    """"don't" and "do not", "it's" and "it is", "we've" and "we have": one set of terms (version 5)."""
    for short, long in [("What happens if I don't rebase?", "What happens if I do not rebase?"),
                        ("It's the cache we've tuned, I'm done", "It is the cache we have tuned, I am done"),
                        ("They'll say you're right", "They will say you are right")]:
        assert rules.words(short, 5) == rules.words(long, 5)


def test_hovering_meets_an_identifier_by_its_part():
    assert rules.term("hovering", 4) in rules.words("The IHoverService shows cards.", 4)
    assert "hover" not in rules.words("The IHoverService shows cards.", 3)  # version 3: one term


@pytest.mark.parametrize(
    "text",
    ["Always use pnpm, never npm, in this repo.", "I prefer pnpm.", "We use pnpm, not npm.",
     "Don't use npm here.", "Stick to pnpm for installs."],
)
def test_a_rule_about_a_package_manager_is_indexed_under_package_manager(text: str):
    about = topics.terms(text)
    assert {"package", "manager"} <= set(about) and "yarn" not in about  # the topic's names, not its members
    assert not {rules.term(w, 4) for w in words_v4(text)} & set(about)  # nothing the text says already


def test_a_mention_is_no_rule_and_a_rule_without_a_topic_gains_nothing():
    assert topics.terms("pnpm 9 changed the lockfile format last spring.") == []
    assert topics.terms("Always use UTC timestamps in logs.") == []
    assert "package" in topics.terms("pnpm for installs", rule=True)  # a captured directive is a rule


def test_a_captured_directive_is_read_as_a_rule():
    record = Memory("x", "pnpm for installs", "default", 0, "e", "captured", 0,
                    extra={"captured": {"kind": "directive"}})
    assert {"package", "manager"} <= set(rules.document(record, 4))
    assert {"package", "manager", "dependency"} <= set(rules.document(record, 5))
    assert "package" not in rules.document(record, 3)  # older stores keep their rules


def test_a_version_4_store_keeps_its_first_lexicon():
    """What a memory was indexed under is what its removal takes out: a version 4 store's topics stay."""
    record = Memory("x", "Use httpx, not requests.", "default", 0, "e", "typed", 0)
    assert "http" in rules.document(record, 5) and "http" not in rules.document(record, 4)
    pnpm = Memory("y", "Always use pnpm.", "default", 0, "e", "typed", 0)
    assert "dependency" in rules.document(pnpm, 5) and "dependency" not in rules.document(pnpm, 4)


def test_ordinary_coding_words_are_background():
    assert {"test", "run", "build", "file", "check", "pr", "push"} <= vocabulary.BACKGROUND
    assert not {"auth", "pnpm", "hover", "rebase"} & vocabulary.BACKGROUND


@pytest.mark.parametrize(("script", "table"), [("gen_vocabulary", "vocabulary"), ("gen_topics", "topics")])
def test_the_vocabulary_table_is_the_generator_s_output(script: str, table: str):
    spec = importlib.util.spec_from_file_location(script, ROOT / "scripts" / f"{script}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert module.render() == (ROOT / "guest" / "generated" / f"{table}.py").read_text(encoding="utf-8")


@pytest.mark.parametrize(
    ("text", "about"),
    [
        ("Use SQLAlchemy 2.0 style queries; no raw SQL strings in handlers.", {"orm"}),  # an instruction
        ("Deploy to production only on Tuesdays and Thursdays.", {"day", "week"}),
        ("We use GitHub Actions for CI, not Jenkins.", {"continuous", "integration", "pipeline"}),
        ("I always order an oat milk flat white.", {"drink", "coffee"}),
        ("I'm really into Thai food.", {"cuisine", "restaurant", "dinner"}),
    ],
)
def test_the_second_lexicon_reads_instructions_and_members_of_several_words(text: str, about: set[str]):
    assert about <= set(topics.terms(text))


def test_a_member_of_several_words_needs_all_of_them_and_an_ordinary_verb_is_no_member():
    assert "drink" not in topics.terms("Always paint the walls white.")  # "white" alone: no flat white
    assert "sport" not in topics.terms("Always run eslint with --max-warnings 0.")  # "run" is no sport
    assert topics.terms("Java 17 is installed on the build agents.") == []  # no rule
