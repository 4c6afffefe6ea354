"""auto_recall: query derivation, evidence gate, rendering within a budget; both targets."""

from __future__ import annotations

import json

import pytest

from guest.memory.autorecall import CLOSE, FRAME, HEADER, OPEN, clean, derive, render
from guest.memory.recall import Hit

FACTS = [
    "Use pnpm, not npm, to install packages in this repository.",
    "The terrain palette switches when the biome changes.",
    "The staging server listens on port 8080 behind nginx.",
]

NO_EVIDENCE = {"coverage": 0.0, "passed": False,
               "why": "no memory holds 20% of the prompt's informative words (best 0%)"}


def auto(guest, body) -> dict:
    envelope = json.loads(guest.dispatch("auto_recall", json.dumps(body)))
    assert envelope["ok"], envelope
    return envelope["data"]


@pytest.mark.parametrize(
    ("prompt", "cleaned"),
    [
        ("/review fix the login bug", "fix the login bug"),
        ("/clear", ""),
        ("see https://example.com/x and `code()` here", "see and code() here"),  # inline code's words kept
        ("is `IHoverService` right here?", "is IHoverService right here?"),
        ("run `" + "x " * 40 + "` now", "run now"),  # a long inline command line is dropped
        ("docs at www.example.com/a?b=c, ftp://host/f and file:///tmp/x too", "docs at and too"),
        ("before ```python\nprint(1)\n``` after", "before print(1) after"),
        ("```\n" + "word " * 100 + "```\nwhy?", " ".join(["word"] * 20) + " why?"),
        ("open ```js\nconst a = 1;", "open const a = 1;"),
        ("<task-notification>foo</task-notification> deploy argocd", "deploy argocd"),
        (
            "<task-notification><task-id>7</task-id><status>completed</status>"
            "<summary>Agent finished the palette refactor</summary></task-notification>",
            "",
        ),
        ("<system-reminder>Today is Monday.\n<b>x</b></system-reminder>why is CI red", "why is CI red"),
        ("<local-command-stdout>ok 3 passed</local-command-stdout> now deploy", "now deploy"),
        ("<tool_result id=1>200 lines</tool_result><OUTPUT>log</OUTPUT>fix it", "fix it"),
        ("<a-b>outer <c-d>inner</c-d> still outer</a-b> kept", "kept"),
        ("<command-name>/deploy</command-name><command-args>staging now</command-args>", "staging now"),
        ("why does <b>bold</b> render wrong", "why does bold render wrong"),
        ("an <x-open> tag without its end stays", "an tag without its end stays"),
        ("<my-widget /> self-closing <my-widget>body</my-widget> end", "self-closing end"),
        ("path/to/file is /not a command", "path/to/file is /not a command"),
    ],
)
def test_clean(prompt, cleaned):
    assert clean(prompt) == cleaned


def test_derive_keeps_two_to_six_content_words_rarest_first():
    derived = derive("Can you please help me fix the flaky login test?", lambda t: 1)
    assert derived.query == "fix flaky login test"
    long = "alpha beta gamma delta epsilon zeta eta theta iota"
    rare = {"iota": 1, "theta": 2, "eta": 3, "alpha": 4, "beta": 5, "gamma": 6}
    derived = derive(long, lambda t: rare.get(t, 0))
    assert derived.query == "alpha beta gamma eta theta iota"  # the 6 rarest, in prompt order
    assert derive("hi, thanks!", lambda t: 1).query == ""


def test_render_respects_budget_and_caps_hits():
    hits = [Hit(f"m{i}", "word " * 400, 1.0 - i / 10, "default") for i in range(5)]
    context, shown = render(hits, budget_tokens=300, max_hit_tokens=100)
    assert context.startswith(f"{HEADER}\n{FRAME}\n{OPEN}\n1. ")
    assert len(shown) == 2  # each hit is capped to ~100 tokens; two fit in 300 with the header and frame
    assert all(len(line) <= 400 + 4 for line in context.splitlines()[1:])
    assert render([], 1500, 200) == ("", [])


def test_auto_recall_injects_only_relevant_memories(guest):
    for fact in FACTS:
        guest.dispatch("memorize", json.dumps({"text": fact}))
    data = auto(guest, {"prompt": "/review which package manager should we install deps with?"})
    assert data["context"].startswith(f"## Recall for this prompt\n{FRAME}\n{OPEN}\n1. Use pnpm")
    assert data["context"].endswith(f"\n{CLOSE}\n")
    assert [h["text"] for h in data["hits"]] == [FACTS[0]]
    assert auto(guest, {"prompt": "how do I bake a chocolate cake"}) == {
        "context": "",
        "query": "bake chocolate cake",
        "hits": [],
        "candidates": [],  # no memory has any evidence at all (no shared word, a low cosine)
        "tokens": 0,
        "recalled_with": ["prompt"],
        "evidence": {**NO_EVIDENCE, "words": {"bake": pytest.approx(2.079, abs=1e-3),
                                              "chocolate": pytest.approx(2.079, abs=1e-3),
                                              "cake": pytest.approx(2.079, abs=1e-3)}},
    }


def test_auto_recall_ignores_injected_markup(guest):
    for fact in [*FACTS, "Deploys go through ArgoCD."]:
        guest.dispatch("memorize", json.dumps({"text": fact}))
    data = auto(guest, {"prompt": "<task-notification>foo</task-notification> deploy argocd"})
    assert data["query"] == "deploy argocd"
    assert [h["text"] for h in data["hits"]] == ["Deploys go through ArgoCD."]
    reminder = "<system-reminder>install packages with pnpm, see https://pnpm.io/npm</system-reminder>"
    data = auto(guest, {"prompt": reminder + " how do I bake bread"})
    assert data == {"context": "", "query": "bake bread", "hits": [], "candidates": [], "tokens": 0,
                    "recalled_with": ["prompt"],
                    "evidence": {**NO_EVIDENCE, "words": {"bake": pytest.approx(2.303, abs=1e-3),
                                                          "bread": pytest.approx(2.303, abs=1e-3)}}}


def test_auto_recall_on_empty_store_and_empty_query(guest, project):
    assert auto(guest, {"prompt": "anything about the build"})["context"] == ""
    assert auto(guest, {"prompt": "/clear"})["context"] == ""
    assert not (project / ".gm").exists()


def test_auto_recall_reads_each_value_once(guest, services):
    for fact in FACTS:
        guest.dispatch("memorize", json.dumps({"text": fact}))
    reads: list[tuple[str, str]] = []
    inner = services.kv_get

    def kv_get(ns: str, key: str) -> bytes | None:
        reads.append((ns, key))
        return inner(ns, key)

    services.kv_get = kv_get
    # both strategies: word ranking, then two recalls over the same stats, pending list and heads
    data = auto(guest, {"prompt": "which package manager installs packages on the staging server",
                        "strategy": "both"})
    assert data["hits"]
    assert ("meta", "stats") in reads and ("terms", "#pending") in reads
    assert len(reads) == len(set(reads)), sorted(r for r in set(reads) if reads.count(r) > 1)


def test_auto_recall_budget(guest):
    for i in range(20):
        guest.dispatch("memorize", json.dumps({"text": f"deploy note {i}: " + "the deploy pipeline " * 20}))
    data = auto(guest, {"prompt": "deploy pipeline", "budget_tokens": 200, "limit": 20})
    tokens = (len(data["context"]) + 3) // 4
    assert 0 < tokens <= 200 + len(data["hits"])
    assert len(data["hits"]) < 20


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ({}, "missing field 'prompt'"),
        ({"prompt": 3}, "must be a string"),
        ({"prompt": "x", "budget_tokens": 0}, "between 50 and 100000"),
        ({"prompt": "x", "strategy": "magic"}, "must be one of"),
        ({"prompt": "x", "gate": "yes"}, "must be true or false"),
    ],
)
def test_auto_recall_bad_input(guest, body, message):
    envelope = json.loads(guest.dispatch("auto_recall", json.dumps(body)))
    assert envelope["ok"] is False and message in envelope["error"]
