"""Regenerate ``guest/text/forms.py``: irregular English word forms the light stemmer misses.

The keyword channel's stemmer (:mod:`guest.text.stem`) strips suffixes: it conflates ``walks``,
``walked`` and ``walking``, but never ``broke``/``broken`` with ``break``, ``ran`` with ``run``,
``children`` with ``child``, nor ``making`` (``mak``) with ``make``. The table maps each such form to
the stem of its lemma, read from the lexicon of ``lemminflect`` 0.2.3 (MIT; derived from the U.S.
National Library of Medicine's SPECIALIST Lexicon), its ``lemma_lu.csv.gz``: one line per
inflected form, ``form,pos,lemma[/lemma...]``. A form is kept when

* it and its lemma are lower-case ASCII words, the form is not a keyword stop word;
* it is not a noun or verb lemma itself (``saw``, ``left``, ``found``, ``number`` stay words of
  their own), and all its noun, verb, adjective and adverb readings name one lemma
  (``lives``: life or live, is left out);
* the stemmer does not already conflate it: ``stem(form) != stem(lemma)``.

Dev-only (a throwaway virtualenv, never a runtime dependency)::

    python3 -m venv /tmp/lex && /tmp/lex/bin/pip install lemminflect==0.2.3
    /tmp/lex/bin/python scripts/gen_word_forms.py
"""

from __future__ import annotations

import csv
import gzip
import sys
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from guest.text.keywords import STOP_WORDS  # noqa: E402
from guest.text.stem import stem  # noqa: E402

OUT = ROOT / "guest" / "text" / "forms.py"
VERSION = "0.2.3"
POS = frozenset({"noun", "verb", "adj", "adv"})
PER_LINE = 96

HEADER = '''"""Irregular English word forms and their lemma's stem (generated: ``scripts/gen_word_forms.py``).

{count:,} forms the light stemmer does not conflate with their lemma (``broke``, ``broken`` ->
``break``; ``children`` -> ``child``; ``making`` -> ``make``), from the lexicon of lemminflect
{version} (MIT), derived from the NLM SPECIALIST Lexicon; provenance in ``models/README.md``. Read
by :func:`guest.text.stem.stem_form`: the keyword terms of stores of terms version 2.

:data:`TABLE` lists each target term followed by its forms, one group per line.
"""

from __future__ import annotations

TABLE = """\\
'''

FOOTER = '''"""

FORMS: dict[str, str] = {
    form: line.split(" ", 1)[0] for line in TABLE.splitlines() for form in line.split(" ")[1:]
}
'''


def plain(word: str) -> bool:
    """A lower-case ASCII word."""
    return word.isascii() and word.isalpha() and word.islower()


def table(lexicon: Path) -> dict[str, str]:
    """``{form: stem of its lemma}`` under the rules of the module docstring."""
    readings: dict[str, set[tuple[str, str]]] = defaultdict(set)
    with gzip.open(lexicon, "rt", encoding="utf-8", newline="") as lines:
        for form, pos, lemmas in csv.reader(lines):
            for lemma in lemmas.split("/"):
                readings[form].add((pos, lemma))
    out = {}
    for form, found in readings.items():
        if not plain(form) or form in STOP_WORDS:
            continue
        if any(lemma == form and pos in ("noun", "verb") for pos, lemma in found):
            continue
        lemmas = {lemma for pos, lemma in found if lemma != form and pos in POS}
        if len(lemmas) != 1:
            continue
        (lemma,) = lemmas
        if plain(lemma) and stem(form) != stem(lemma):
            out[form] = stem(lemma)
    return out


def main() -> None:
    """Write the table from the installed lemminflect's lexicon."""
    import lemminflect

    if lemminflect.__version__ != VERSION:
        sys.exit(f"need lemminflect {VERSION}, found {lemminflect.__version__}")
    forms = table(Path(lemminflect.__file__).parent / "resources" / "lemma_lu.csv.gz")
    groups: dict[str, list[str]] = defaultdict(list)
    for form in sorted(forms):
        groups[forms[form]].append(form)
    lines = []
    for target in sorted(groups):
        line = target
        for form in groups[target]:
            if len(line) + 1 + len(form) > PER_LINE:  # a long group continues on a line of its own
                lines.append(line)
                line = target
            line += " " + form
        lines.append(line)
    text = HEADER.format(count=len(forms), version=VERSION) + "\n".join(lines) + "\n" + FOOTER
    OUT.write_text(text, encoding="utf-8")
    print(f"{OUT}: {len(forms)} forms, {len(groups)} targets")


if __name__ == "__main__":
    main()
