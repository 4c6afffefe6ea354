"""``make eval``'s sets, built without the engine: LoCoMo-dev's reader, the dev set, where the data is.

Tiny inline fixtures throughout; the one test that reads the real LoCoMo-dev files skips where
``../shared/datasets`` is absent.
"""

from __future__ import annotations

import calendar
import json
import math
from pathlib import Path

import pytest

from bench import datasets, devset, lme, locomo, sessions
from bench.project import digest, from_json, to_json

# ---------------------------------------------------------------- LoCoMo: ids, times, projects


@pytest.mark.parametrize(
    ("raw", "ids"),
    [
        ("D1:3", ["D1:3"]),
        ("D:1:3", ["D1:3"]),
        ("D1:3 ", ["D1:3"]),
        (" D 12 : 07", ["D12:7"]),
        ("D8:6; D9:17", ["D8:6", "D9:17"]),
        ("D2:1,D2:2", ["D2:1", "D2:2"]),
        ("D", ["D"]),  # not an id: returned for the caller to count
        ("", []),
    ],
)
def test_evidence_ids_are_normalised(raw, ids):
    assert locomo.evidence_ids(raw) == ids


@pytest.mark.parametrize(
    ("text", "stamp"),
    [
        ("1:56 pm on 8 May, 2023", (2023, 5, 8, 13, 56, 0)),
        ("10:04 am on 19 December, 2023", (2023, 12, 19, 10, 4, 0)),
        ("12:06 am on 11 November, 2022", (2022, 11, 11, 0, 6, 0)),  # 12 am is midnight
        ("12:30 pm on 1 January 2024", (2024, 1, 1, 12, 30, 0)),  # 12 pm is noon; comma optional
    ],
)
def test_session_times_are_parsed_as_utc(text, stamp):
    assert locomo.parse_when(text) == calendar.timegm(stamp) * 1000


@pytest.mark.parametrize("text", ["", "8 May 2023", "1:56 pm on 8 Mai, 2023", "25:00"])
def test_a_session_time_that_does_not_parse_is_an_error(text):
    with pytest.raises(ValueError, match="not a LoCoMo session time"):
        locomo.parse_when(text)


def conversation(a: str = "Ann", b: str = "Bob") -> dict:
    """Two sessions (the second listed first: order comes from the numbers) and six questions."""
    return {
        "speaker_a": a, "speaker_b": b,
        "session_2_date_time": "9:00 am on 2 June, 2023",
        "session_2": [{"speaker": a, "dia_id": "D2:1", "text": "Back from Rome."},
                      {"speaker": b, "dia_id": "D2:2", "text": "Look!", "blip_caption": "a photo of a cat"}],
        "session_1_date_time": "1:56 pm on 8 May, 2023",
        "session_1": [{"speaker": a, "dia_id": "D1:1", "text": "I paint."},
                      {"speaker": b, "dia_id": "D1:2", "text": "I run."}],
        "session_3_date_time": "1:00 pm on 9 June, 2023",  # a time without turns
        "qa": [
            {"question": "What does Ann do?", "answer": "paints", "evidence": ["D1:1"], "category": 4},
            {"question": "Where was Ann?", "answer": "Rome", "evidence": ["D:2:1", "D9:9"], "category": 2},
            {"question": "Both hobbies?", "evidence": ["D1:1; D1:2"], "category": 1},
            {"question": "Would Bob?", "answer": "maybe", "evidence": [], "category": 3},
            {"question": "Only a broken id", "evidence": ["D"], "category": 3},
            {"question": "Adversarial", "adversarial_answer": "x", "evidence": ["D1:2"], "category": 5},
        ],
    }


def test_a_conversation_is_a_project_of_timed_turns_and_scored_questions():
    project, unresolved = locomo.conversation("26", conversation())
    assert [(m.key, m.text) for m in project.memories] == [
        ("D1:1", "Ann: I paint."),
        ("D1:2", "Bob: I run."),
        ("D2:1", "Ann: Back from Rome."),
        ("D2:2", "Bob: Look! [shares a photo of a cat]"),
    ]
    may, june = locomo.parse_when("1:56 pm on 8 May, 2023"), locomo.parse_when("9:00 am on 2 June, 2023")
    assert [m.ts_ms for m in project.memories] == [may, may + 1000, june, june + 1000]
    assert project.asked_ms == june + 1000 + locomo.ASK_AFTER_MS
    assert [(p.text, set(p.relevant), p.group) for p in project.own] == [
        ("What does Ann do?", {"D1:1"}, "4"),
        ("Where was Ann?", {"D2:1"}, "2"),
        ("Both hobbies?", {"D1:1", "D1:2"}, "1"),
    ]  # no gold turn left: skipped; category 5: not scored
    assert unresolved == ["26/D9:9", "26/D"]
    assert project.foreign == []


def test_foreign_prompts_are_the_other_conversations_questions(tmp_path):
    (tmp_path / "locomo-dev").mkdir()
    for name, speakers in (("26", ("Ann", "Bob")), ("30", ("Cy", "Di"))):
        (tmp_path / "locomo-dev" / f"{name}.json").write_text(json.dumps(conversation(*speakers)))
    assert locomo.available(tmp_path)
    projects, unresolved = locomo.load(tmp_path)
    assert [p.name for p in projects] == ["26", "30"]
    assert len(unresolved) == 4
    first, second = projects
    assert [p.text for p in first.foreign] == [p.text for p in second.own]
    assert all(not p.relevant for p in first.foreign)
    assert [p.group for p in first.foreign] == ["30/4", "30/2", "30/1"]
    assert second.memories[0].text == "Cy: I paint."


def test_without_the_folder_locomo_is_not_available(tmp_path):
    assert not locomo.available(tmp_path)


def test_the_real_locomo_dev_files_give_the_readme_counts():
    root = datasets.DATASETS_DIR
    if not locomo.available(root):
        pytest.skip(f"LoCoMo-dev is not at {root / 'locomo-dev'}")
    projects, unresolved = locomo.load(root)
    assert [p.name for p in projects] == ["26", "30", "41", "42", "43"]
    assert sum(len(p.memories) for p in projects) == 2760
    assert sum(len(p.own) for p in projects) == 760
    assert sorted(unresolved) == ["42/D", "42/D10:19"]
    for project in projects:  # turn times only increase, one session after another
        times = [m.ts_ms for m in project.memories]
        assert times == sorted(times) and len(set(times)) == len(times)


# ---------------------------------------------------------------- the dev set


def fake_stdlib(root: Path) -> Path:
    """Sixteen modules in eight top-level units, each with fifteen docstring paragraphs (> 1 KB)."""
    topics = ["parser", "socket", "archive", "thread", "codec", "locale", "timer", "queue",
              "mailbox", "cipher", "pickle", "shell", "matrix", "widget", "logger", "signal"]
    for i, topic in enumerate(topics):
        paragraphs = [f"The {topic} helper number {j} handles {topic} records and returns a {topic} value."
                      for j in range(14)]
        paragraphs.append(f">>> {topic}.run() # an example, not prose at all")
        doc = "\n\n".join(paragraphs)
        package = root / f"pkg{i % 8}" if i % 2 else root
        package.mkdir(parents=True, exist_ok=True)
        (package / f"{topic}.py").write_text(f'"""{doc}"""\n\n\ndef f():\n    """One short line."""\n')
    (root / "test").mkdir()
    (root / "test" / "test_x.py").write_text('"""' + "Never used in the set at all. " * 60 + '"""\n')
    (root / "_private.py").write_text('"""' + "A private twin module, left out here. " * 60 + '"""\n')
    return root


def test_the_dev_set_is_deterministic_and_seeded(tmp_path):
    root = fake_stdlib(tmp_path / "lib")
    first = devset.build(seed=3, modules=3, held_out=2, root=root)
    assert devset.build(seed=3, modules=3, held_out=2, root=root) == first
    assert digest(devset.build(seed=3, modules=3, held_out=2, root=root)) == digest(first)
    other = devset.build(seed=4, modules=3, held_out=2, root=root)
    assert digest(other) != digest(first)


def test_the_dev_set_holds_out_own_prompts_and_stores_nothing_of_foreign_modules(tmp_path):
    root = fake_stdlib(tmp_path / "lib")
    project = devset.build(seed=3, modules=3, held_out=2, root=root)
    stored = {m.key.split("#")[0] for m in project.memories}
    assert len(stored) == 3 and len(project.own) == 6 and len(project.foreign) == 6
    foreign = {p.group for p in project.foreign}
    assert len(foreign) == 3 and not foreign & stored
    tops = {name: name.split(".")[0] for name in stored | foreign}
    assert not {tops[n] for n in stored} & {tops[n] for n in foreign}  # a package stays on one side
    texts = {m.text for m in project.memories}
    for prompt in project.own:
        assert prompt.relevant == {m.key for m in project.memories if m.key.startswith(prompt.group + "#")}
        assert len(prompt.relevant) == 13  # 15 paragraphs, 2 held out
        assert not any(t.startswith(prompt.text) for t in texts)  # held out: never stored
    assert all(not p.relevant for p in project.foreign)
    assert all(">>>" not in p.text for p in project.own + project.foreign)
    assert not any("private" in m.text or "Never used" in m.text for m in project.memories)
    assert [m.ts_ms for m in project.memories] == [devset.EPOCH_MS + i * devset.STEP_MS
                                                   for i in range(len(project.memories))]


def test_a_project_survives_its_json(tmp_path):
    project = devset.build(seed=3, modules=2, held_out=2, root=fake_stdlib(tmp_path / "lib"))
    assert project.memories and project.own and project.foreign
    assert from_json(to_json(project)) == project


def test_prompt_text_takes_whole_sentences_up_to_forty_words():
    assert devset.prompt_text("Short one. Then a second sentence that is longer. Third.") == (
        "Short one. Then a second sentence that is longer.")
    long = " ".join(f"w{i}" for i in range(60)) + "."
    assert devset.prompt_text(long).split() == [f"w{i}" for i in range(40)]


@pytest.mark.parametrize(
    ("paragraph", "prose"),
    [
        ("Return the canonical path of the specified filename, eliminating symlinks.", True),
        (">>> os.path.join('a', 'b') gives back 'a/b' here and now", False),
        ("x = f(a, b) + g(c, d) * h(e, f) - k(g)", False),
        ("Too short to ask.", False),
    ],
)
def test_is_prose(paragraph, prose):
    assert devset.is_prose(paragraph) is prose


def test_module_names():
    assert devset.module_name("json/decoder.py") == "json.decoder"
    assert devset.module_name("json/__init__.py") == "json"
    assert devset.module_name("shutil.py") == "shutil"


# ---------------------------------------------------------------- where the datasets are


def test_the_datasets_folder_of_a_worktree_is_the_main_checkouts(tmp_path, monkeypatch):
    monkeypatch.delenv("RS_LEARN_DATASETS", raising=False)
    main, worktree = tmp_path / "main", tmp_path / "wt" / "feature"
    (main / ".git" / "worktrees" / "feature").mkdir(parents=True)
    worktree.mkdir(parents=True)
    (worktree / ".git").write_text(f"gitdir: {main / '.git' / 'worktrees' / 'feature'}\n")
    assert datasets.datasets_dir(worktree) == tmp_path / "wt" / "shared" / "datasets"  # none yet
    (tmp_path / "shared" / "datasets").mkdir(parents=True)
    assert datasets.datasets_dir(worktree) == tmp_path / "shared" / "datasets"
    assert datasets.datasets_dir(main) == tmp_path / "shared" / "datasets"
    monkeypatch.setenv("RS_LEARN_DATASETS", str(tmp_path / "elsewhere"))
    assert datasets.datasets_dir(worktree) == tmp_path / "elsewhere"


# ---------------------------------------------------------------- LongMemEval-S dev and session scores

LME_QUESTION = {
    "question_id": "q1", "question_type": "single-session-user", "question": "Where is my bike?",
    "question_date": "2023/06/23 (Fri) 07:31", "answer": "garage",
    "haystack_dates": ["2023/05/01 (Mon) 10:00", "2023/05/02 (Tue) 11:30"],
    "haystack_session_ids": ["sharegpt_x", "answer_abc_1"],
    "haystack_sessions": [
        [{"role": "user", "content": "I like tea."}, {"role": "assistant", "content": "Noted."}],
        [{"role": "user", "content": "My bike is in the garage.", "has_answer": True},
         {"role": "assistant", "content": "Good place.", "has_answer": True}],
    ],
    "answer_session_ids": ["answer_abc_1"],
}


def test_an_lme_question_stores_turn_text_and_dates_only():
    project, [gold] = lme.question(LME_QUESTION, ("user",))
    both, _ = lme.question(LME_QUESTION, ("user", "assistant"))
    assert [m.text for m in project.memories] == ["I like tea.", "My bike is in the garage."]
    assert [m.text for m in both.memories][1] == "Noted."
    may_2 = calendar.timegm((2023, 5, 2, 11, 30, 0)) * 1000
    assert project.memories[1].ts_ms == may_2  # turn 0 of session 1: the session's date
    assert both.memories[3].ts_ms == may_2 + lme.TURN_STEP_MS  # turn 1: one second later
    assert project.asked_ms == calendar.timegm((2023, 6, 23, 7, 31, 0)) * 1000
    assert gold == {"1"} and project.own[0].relevant == {"1#0"}
    engine_sees = json.dumps([m.text for m in both.memories])
    assert "answer_" not in engine_sees and "has_answer" not in engine_sees


def test_an_overlong_turn_is_cut_on_a_character_boundary():
    text = "é" * lme.MAX_TEXT_BYTES
    cut = lme.clipped(text)
    assert text.startswith(cut) and len(cut) == lme.MAX_TEXT_BYTES // 2  # two bytes a character


def test_sessions_are_ranked_by_their_first_turn_and_scored():
    ranked = ["3#0", "3#4", "1#2", "7#1", "1#0", "2#5"]  # sessions 3, 1, 7, 2
    figures = sessions.scored(ranked, {"1", "2"}, frozenset({"1#0", "9#9"}), lme.session_of)
    assert figures["r5_any"] == figures["r10_any"] == 1.0
    assert figures["r5_all"] == 1.0  # both gold sessions are among the first four
    ideal = 1 + 1 / math.log2(3)
    assert figures["ndcg5"] == pytest.approx((1 / math.log2(3) + 1 / math.log2(5)) / ideal)
    assert figures["turn_r10"] == 0.5
    assert sessions.scored(["3#0"], {"1"}, frozenset(), lme.session_of)["r5_any"] == 0.0
    assert "turn_r10" not in sessions.scored(["3#0"], {"1"}, frozenset(), lme.session_of)


def test_locomo_turns_roll_up_to_their_sessions():
    assert locomo.session_of("D12:7") == "12"


def test_the_real_lme_dev_files_give_the_readme_counts():
    if not lme.available(datasets.DATASETS_DIR):
        pytest.skip(f"no LongMemEval-S dev questions at {datasets.DATASETS_DIR / 'lme-dev'}")
    questions = lme.load(datasets.DATASETS_DIR, "B")
    assert len(questions) == 46  # the 50 of the dev split less its 4 abstention questions
    assert all(gold and gold[0] for _, gold in questions)
