"""Words are Unicode 14's on both targets: letters that Unicode 15 and 16 added end a word.

Native CPython 3.11 knows Unicode 14; the component's CPython 3.14 knows Unicode 16, where 9,392
more code points are letters or numbers (and 27 of them capitals it lower-cases). Without the pin
the component glued them into keyword terms and derived queries where the native guest split
there, so the same store answered differently on the two targets.
"""

from __future__ import annotations

import unicodedata

import pytest
from envelopes import ok

from guest.generated.newwords import NEW_WORD_RANGES
from guest.index import keywords
from guest.memory import autorecall
from guest.text.wordpin import lower, pinned
from host_harness.targets.native import NativeGuest

RAMS_HORN = "\ua7cb"  # LATIN CAPITAL LETTER RAMS HORN, Unicode 16; 3.14 lower-cases it to U+0264 (Unicode 14)
GARAY = "\U00010d50\U00010d51"  # GARAY CAPITAL LETTERs, Unicode 16
TEXT = f"Install with {RAMS_HORN}pnpm{GARAY}workspaces only"


def test_the_pinned_code_points_are_unassigned_natively():
    assert unicodedata.unidata_version == "14.0.0"
    points = [cp for lo, hi in NEW_WORD_RANGES for cp in range(lo, hi + 1)]
    assert len(points) == 9392
    assert all(unicodedata.category(chr(cp)) == "Cn" for cp in points)


def test_pinned_changes_only_the_new_letters():
    assert pinned(TEXT) == "Install with  pnpm  workspaces only"
    for text in ("plain ascii", "naïve café – ‘quoted’ 😀 中文 Ελληνικά"):
        assert pinned(text) is text  # nothing to pin: the same object back


def test_lower_leaves_the_new_letters_as_3_11_does():
    assert lower(f"Tag{RAMS_HORN}{GARAY}ΑΣ{RAMS_HORN}Β") == f"tag{RAMS_HORN}{GARAY}ας{RAMS_HORN}β"
    assert lower("ΑΣ Β İ") == "ΑΣ Β İ".lower()


def test_terms_end_where_unicode_14_ends_a_word():
    assert keywords.terms(TEXT) == ["install", "pnpm", "workspace"]


def test_a_derived_query_ends_where_unicode_14_ends_a_word():
    derived = autorecall.derive(f"which {RAMS_HORN}vite{GARAY}plugin breaks the build", lambda term: 1)
    assert derived.query == autorecall.derive("which vite plugin breaks the build", lambda term: 1).query


def test_both_targets_split_words_at_letters_unicode_14_lacks(guest):
    ok(guest, "memorize", TEXT)
    ok(guest, "memorize", "Deploys go through ArgoCD")
    hits = ok(guest, "recall", {"query": "pnpm", "mode": "keyword"})
    assert [hit["text"] for hit in hits] == [TEXT]
    assert ok(guest, "recall", {"query": "\u0264pnpm", "mode": "keyword"}) == []  # 3.14 made this a term


def test_both_targets_fold_tags_as_unicode_14_does(guest):
    tags = [f"Ci{RAMS_HORN}", f"ci{RAMS_HORN}", "CI"]
    todo = ok(guest, "create_todo", {"title": "Rams horn", "tags": tags})
    assert todo["tags"] == [f"ci{RAMS_HORN}", "ci"]  # 3.14's lower() made the first "ciɤ"


def test_record_numbers_are_ascii_digits_only():
    from guest.structured.store import id_number

    assert id_number("td-12") == 12
    # Kawi digit one (Unicode 15): a digit to the component's CPython only; Arabic-Indic three: to both
    assert id_number("td-\U00011f51") == id_number("td-\u0663") == -1


PROMPTS = (
    f"how do I run {RAMS_HORN}https://example.com/vite/plugins here",  # 3.14 saw no word boundary
    f"/fix{RAMS_HORN} the vite build",  # the slash command's word
    f"<note{RAMS_HORN}>hidden vite plugin</note{RAMS_HORN}> build question",  # not a tag to 3.11
)


@pytest.mark.parametrize("prompt", PROMPTS)
def test_cleaning_a_prompt_follows_unicode_14(prompt):
    """Natively the Unicode 14 patterns are the plain ones: the new letters are not word characters."""
    plain = autorecall.TAG.sub(" ", autorecall.drop_injected(prompt))
    pinned_tags = autorecall.TAG_14.sub(" ", autorecall.drop_injected(prompt, autorecall.TAG_14))
    assert plain == pinned_tags
    assert autorecall.URL.sub(" ", prompt) == autorecall.URL_14.sub(" ", prompt)
    assert autorecall.SLASH_COMMAND.sub(" ", prompt) == autorecall.SLASH_COMMAND_14.sub(" ", prompt)


def test_both_targets_clean_prompts_as_unicode_14_does(guest):
    ok(guest, "memorize", "The vite plugins live in web/plugins")
    got = [ok(guest, "auto_recall", {"prompt": prompt}) for prompt in PROMPTS]
    native = NativeGuest(guest.services) if not isinstance(guest, NativeGuest) else guest
    assert got == [ok(native, "auto_recall", {"prompt": prompt}) for prompt in PROMPTS]
