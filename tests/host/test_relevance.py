"""The relevance gate (issue 28 item 1): the hook injects nothing when the store holds no evidence.

Through ``auto_recall`` on both targets, and the hook's ledger saying why; the pure parts (names,
coverage) natively. The figures that chose the thresholds are in ``make eval`` (D103).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hostprocs import remember
from test_ledger import entries, event, prompt_hook

from guest.memory.relevance import Evidence, assess, unknown_names

NOTES = [
    "Melanie: I painted a sunrise over the lake last week, my first painting in oils.",
    "Melanie: the kids loved the camping trip to the national park.",
    "Jon: my dance studio opens downtown next month, the lease is signed.",
    "The staging server listens on port 8080 behind nginx.",
    "Use pnpm, not npm, to install packages in this repository.",
    "Deploy: run make release, then tag the commit and push the tag.",
    "The payments service retries a failed charge three times with backoff.",
    "Integration tests need the local PostgreSQL started with make db.",
]


def auto(guest, prompt: str, **extra: object) -> dict:
    envelope = json.loads(guest.dispatch("auto_recall", json.dumps({"prompt": prompt, **extra})))
    assert envelope["ok"], envelope
    return envelope["data"]


@pytest.fixture
def notes(guest):
    for text in NOTES:
        guest.memorize(text, "default")
    return guest


def test_a_prompt_about_the_store_is_answered(notes):
    data = auto(notes, "When did Melanie paint the sunrise?")
    assert "sunrise over the lake" in data["context"]
    assert data["evidence"]["passed"] is True and data["evidence"]["coverage"] >= 0.5


def test_a_prompt_naming_someone_no_memory_knows_injects_nothing(notes):
    data = auto(notes, "When did Caroline go camping?")
    assert data["context"] == "" and data["hits"] == []
    assert data["evidence"] == {"coverage": data["evidence"]["coverage"], "passed": False,
                                "words": data["evidence"]["words"],
                                "unknown_names": ["Caroline"], "why": "no memory names Caroline"}
    assert set(data["evidence"]["words"]) == {"caroline", "camp"}
    assert {c["decision"] for c in data["candidates"]} == {"gate"}  # every candidate says why
    ungated = auto(notes, "When did Caroline go camping?", gate=False)
    assert "camping trip" in ungated["context"]  # what the gate kept out


def test_an_unrelated_prompt_injects_nothing(notes):
    data = auto(notes, "What is the boiling point of mercury in kelvin at sea level?")
    assert data["context"] == ""
    assert data["evidence"]["passed"] is False
    assert data["evidence"]["why"].startswith("no memory holds 20% of the prompt's informative words")


def test_a_greeting_by_name_does_not_close_the_gate_when_a_memory_answers(notes):
    data = auto(notes, "Hi Sam, which port does the staging server listen on behind nginx?")
    assert data["evidence"]["unknown_names"] == ["Sam"]
    assert data["evidence"]["passed"] is True
    assert "port 8080" in data["context"]


def test_every_injected_hit_needs_evidence_of_its_own(guest):
    """Past the gate, a hit that shares only a chat word with the prompt stays out (issue 32.6)."""
    pnpm, staging = NOTES[4], NOTES[3]
    for text in (pnpm, staging):
        guest.memorize(text, "default")
    data = auto(guest, "which port does staging use?")
    decisions = {c["excerpt"]: c["decision"] for c in data["candidates"]}
    assert decisions[staging] == "injected"
    assert decisions.get(pnpm, "gate") == "gate"  # it shares "use" only (and its cosine is far below .9)
    assert pnpm not in data["context"] and staging in data["context"]
    assert pnpm in auto(guest, "which port does staging use?", gate=False)["context"]  # what it kept out
    both = auto(guest, "which port does staging use, and which package manager do we use?")
    assert pnpm in both["context"] and staging in both["context"]  # "package" is its own evidence


def test_inline_code_is_the_prompt_s_words_and_no_name_veto(guest):
    """Issue 35.5: "is `IHoverService` right here?" keeps its one informative word; a code
    identifier no memory holds does not close the gate on its own."""
    hover = "IHoverService shows hovers; register a provider instead of calling it directly."
    for text in (hover, NOTES[3], NOTES[4]):
        guest.memorize(text, "default")
    assert hover in auto(guest, "is `IHoverService` right here?")["context"]
    data = auto(guest, "should the HoverProvider call IHoverService directly?")
    assert data["evidence"].get("unknown_names") is None and hover in data["context"]


def test_a_one_letter_term_is_no_evidence(guest):
    """Issue 35.5: the s of S/MIME, it's and Bob's matches no note as evidence."""
    for text in ("It's the staging server's port: 8080.", "Bob's laptop runs the nightly s3 sync."):
        guest.memorize(text, "default")
    data = auto(guest, "Is S/MIME supported?")
    assert data["context"] == "" and data["evidence"]["passed"] is False


def test_chat_words_are_no_evidence(notes):
    data = auto(notes, "please could you help me, thanks")
    assert data["context"] == "" and data["evidence"]["passed"] is False


def test_the_hook_ledger_says_the_gate_kept_everything_out(project: Path, wasm_runtime, target: str):
    remember(project, wasm_runtime)
    assert prompt_hook(project, target, event("How does Kubernetes schedule the Grafana dashboards?")) == ""
    last = entries(project)[-1]
    assert last["outcome"] == "nothing"
    assert last["evidence"]["passed"] is False
    assert last["reason"].startswith("the relevance gate: ")


@pytest.mark.parametrize(
    ("text", "names"),
    [
        ("Caroline went home. Melanie stayed.", ()),  # sentence starts are not names
        ("When did Caroline meet Melanie in May?", ("Caroline", "Melanie")),
        ("ask Claude about \"Kubernetes\" on Monday", ("Kubernetes",)),
        ("what did John's sister say: Yes she did", ("John",)),
        ("fix the Tracker crash (see LGBTQ notes, key AKIAIOSFODNN7EXAMPLE)", ("Tracker",)),
        ("does FetchRequest wrap TextModel or IHoverService for Sam", ("Sam",)),  # code identifiers: no names
        ("the Jon and Jon again", ("Jon",)),
    ],
)
def test_names_are_capitalised_words_inside_a_sentence(text: str, names: tuple[str, ...]):
    assert unknown_names(text, lambda term: 0) == names


def test_a_name_some_memory_holds_is_known():
    assert unknown_names("did we ask Melanie", lambda term: 1 if term == "melanie" else 0) == ()


def test_coverage_weighs_rare_words_and_ignores_chat_words():
    df = {"staging": 2, "server": 50, "port": 3}.get
    evidence = assess(["please which port does the staging server use"],
                      ["staging server port 8080", "the server"], lambda t: df(t) or 0, 100)
    assert evidence.coverage == pytest.approx(1.0)  # "please" and "use" weigh nothing
    partial = assess(["which port does the staging server use"], ["the server"], lambda t: df(t) or 0, 100)
    assert 0 < partial.coverage < 0.2 and not partial.passed


def test_one_letter_terms_and_possessive_s_are_no_evidence():
    evidence = assess(["Is S/MIME supported in Bob's client?"], ["it's a plan", "s"], lambda t: 1, 100)
    assert evidence.coverage == 0.0 and "s" not in evidence.weight


def test_the_gate_needs_coverage_and_known_names_or_strong_coverage():
    assert Evidence(0.3, ()).passed and not Evidence(0.1, ()).passed
    assert not Evidence(0.4, ("Caroline",)).passed and Evidence(0.6, ("Sam",)).passed


def test_each_recalled_text_opens_its_own_sentence():
    evidence = assess(["deploy staging", "Deploy the staging server with Argo"], ["Deploy: staging"],
                      lambda word: 1 if word in ("staging", "server") else 0, 10)
    assert evidence.unknown == ("Argo",)  # not "Deploy": it opens the prompt after the derived query


# ---------------------------------------------------------------- issue 47: the live examples

SERVICES = [
    "auth service: run make auth-test and the token expiry suite before pushing auth changes.",
    "frontend: run pnpm lint and the storybook snapshots before pushing.",
    "admin service: run make admin-e2e before pushing.",
    "billing service: run the billing integration suite before pushing.",
    "uploads service: run make uploads-check before pushing.",
]
PNPM = "Always use pnpm, never npm, in this repo."
MAIN = "Don't ever push to main directly; open a pull request."


def test_auth_among_sibling_services_injects_the_auth_note_only(guest):
    """Issue 47: "run", "before", "pushing" are ordinary words; the subject "auth" decides."""
    for text in SERVICES:
        guest.memorize(text, "default")
    data = auto(guest, "what should I run before pushing auth changes?")
    assert [h["text"] for h in data["hits"]] == [SERVICES[0]]
    assert data["evidence"]["opened_by"]["auth"] > data["evidence"]["words"]["run"] * 5


def test_a_rule_is_found_by_what_it_is_about(guest):
    """Issue 47 / 44.4: "which package manager" finds the pnpm rule; "merge my branch into main" the
    push-to-main rule."""
    for text in [PNPM, MAIN, "The calc tests live in tests/calc and cover add and sub.",
                 "pnpm 9 changed the lockfile format last spring.", *SERVICES[1:3]]:
        guest.memorize(text, "default")
    data = auto(guest, "Which package manager should I use to run the calc tests?")
    assert PNPM in data["context"]
    assert {"package", "manager"} <= set(data["evidence"]["opened_by"])
    assert MAIN in auto(guest, "merge my branch into main")["context"]
    assert ok_recall(guest, "which package manager")[0] == PNPM  # the mention of pnpm is no rule
    assert PNPM not in auto(guest, "How long is the warranty on the office chairs?")["context"]


def test_contraction_fragments_and_identifier_parts(guest):
    """Issue 47: "don't" is no evidence; "hovering" meets ``IHoverService``."""
    hover = "The IHoverService shows hover cards for symbols in the editor."
    for text in (hover, "Squash commits before a release.", NOTES[3]):
        guest.memorize(text, "default")
    assert auto(guest, "What happens if I don't squash?")["evidence"]["words"] == \
        auto(guest, "What happens if I do not squash?")["evidence"]["words"]
    assert hover in auto(guest, "what does hovering over a symbol show?")["context"]


def ok_recall(guest, query: str) -> list[str]:
    envelope = json.loads(guest.dispatch("recall", json.dumps({"query": query, "limit": 5})))
    assert envelope["ok"], envelope
    return [hit["text"] for hit in envelope["data"]]


def keyword_hits(guest, query: str) -> dict[str, float]:
    """Recall's keyword evidence per memory (the vector channel's WordPiece still reads "don ' t")."""
    envelope = json.loads(guest.dispatch("recall", json.dumps({"query": query, "limit": 5, "explain": True})))
    assert envelope["ok"], envelope
    return {hit["text"]: hit["explain"]["bm25"] for hit in envelope["data"] if hit["explain"]["bm25"] > 0}


REBASE_STORE = [
    "Don't edit the build folder; it's regenerated on every run.",
    "We've moved the staging database to port 5433.",
    "I'm the owner of the payments service; page me for refunds.",
    "A rebase onto main rewrites the branch's commits: force-push with lease afterwards.",
    "The docs site builds with mkdocs and deploys from the gh-pages branch.",
]


def test_a_contraction_asks_what_its_words_ask(guest):
    """Issue 47: "don't" is "do not" to recall and to the gate on a 5-memory store: no fragment of it
    ("don", "t", "s", "ve", "m") is a word, so the note that says "Don't" is no evidence."""
    for text in REBASE_STORE:
        guest.memorize(text, "default")
    short, long = (auto(guest, f"What happens if I {neg} rebase?") for neg in ("don't", "do not"))
    assert short["context"] == long["context"] and short["evidence"] == long["evidence"]
    assert REBASE_STORE[3] in short["context"] and REBASE_STORE[0] not in short["context"]
    assert set(short["evidence"]["words"]) == {"happen", "rebase"}
    assert keyword_hits(guest, "if I don't rebase?") == keyword_hits(guest, "if I do not rebase?") == {
        REBASE_STORE[3]: pytest.approx(keyword_hits(guest, "rebase")[REBASE_STORE[3]])}
    for prompt in ("it's what we've got, I'm sure", "don't", "we'd've"):  # fragments and stop words only
        data = auto(guest, prompt)
        assert data["context"] == "" and data["evidence"]["words"] == {}, prompt
