"""Regenerate ``guest/generated/vocabulary.py``: ordinary coding words and the topics rules are about.

Two small hand-kept lexicons (below), written out as the engine's keyword terms (each word stemmed
by :func:`guest.text.stem.stem_form`, as a store of terms version 4 indexes it), so that the guest
never stems them at run time and a change of the stemmer shows as a diff of the table:

* :data:`BACKGROUND`: words that every coding conversation uses ("test", "run", "build", "file",
  "check", "PR"): shared with a memory, they say almost nothing about what a prompt is asking
  (issue 47 item 1: on a held-out coding set, 132 of 259 false alarms were carried by such a word).
  The relevance gate weighs them at a fraction of an ordinary word (:mod:`guest.memory.relevance`).
* :data:`TOPICS`: what a preference or a rule is about in a store of terms version 4 (issue 47
  item 2, frozen: a store's index must keep the terms it was written with; version 5's lexicon is
  ``scripts/gen_topics.py``'s): a topic's name ("package manager") and its members (pnpm, npm,
  yarn ...). A memory that states a preference or a rule
  about a member is also indexed under the topic's name and the other members
  (:mod:`guest.memory.topics`), so "Which package manager should I use?" finds "Always use pnpm".

Run ``python scripts/gen_vocabulary.py`` after changing a list; ``tests/guest/test_topics.py`` checks
that the table is this script's output.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from guest.index.keywords import words_v4  # noqa: E402
from guest.text.stem import stem_form  # noqa: E402

OUT = ROOT / "guest" / "generated" / "vocabulary.py"

BACKGROUND = """
test tests testing tested run runs running ran build builds building built file files check checks
checking checked pr prs fix fixes fixing fixed error errors code codes function functions change
changes changed changing update updates updated add adds added adding remove removes removed
new old make makes made write writes written read reads set sets work works working worked
issue issues bug bugs project projects repo repos repository script scripts command commands
line lines output input value values name names type types class classes method methods module
modules data list lists string strings number numbers call calls called return returns returned
default defaults option options setup install installed installing version versions step steps
first last next time times case cases example examples problem problems result results look
find found show print log logs debug pass passes passed passing fail fails failed failing
break broken start started stop stopped open opened close closed create created delete deleted
move moved copy rename renamed edit edited save saved load loaded call called support supports
work job task tasks thing part parts way whole right wrong good bad better best new simple
sure first second one two three all each every still again already instead maybe
question answer help want need like know think see look let lets say said tell ask asked
today yesterday tomorrow now later soon
push pushes pushed pushing pull pulled commit commits committed merge merged branch branches
"""

TOPICS: dict[str, str] = {
    "package manager": "npm pnpm yarn bun pip pipx pipenv poetry uv conda cargo gem bundler composer nuget "
                       "homebrew brew apt",
    "editor": "vim neovim nvim emacs vscode cursor sublime nano intellij pycharm webstorm zed helix",
    "programming language": "python javascript typescript rust golang java kotlin swift ruby php csharp "
                            "scala haskell elixir clojure lua perl dart zig",
    "test runner framework": "pytest unittest jest vitest mocha jasmine rspec junit cypress playwright",
    "formatter formatting": "black prettier rustfmt gofmt autopep8 yapf isort",
    "linter lint": "eslint ruff flake8 pylint clippy rubocop golangci shellcheck",
    "type checker": "mypy pyright tsc",
    "build tool": "cmake bazel gradle maven webpack vite esbuild rollup ninja meson",
    "git branch workflow": "push pull merge rebase commit squash cherry checkout",
    "database": "postgres postgresql mysql sqlite mongodb redis mariadb dynamodb cassandra",
    "shell terminal": "bash zsh fish powershell",
    "operating system": "linux macos windows ubuntu debian fedora",
    "cloud provider": "aws gcp azure",
    "web framework": "react vue angular svelte django flask fastapi rails express nextjs spring",
    "container": "docker podman kubernetes",
    "indentation": "tabs spaces",
    "naming case": "camelcase snake_case kebab pascalcase",
    "browser": "chrome firefox safari",
    "chat messaging": "slack discord email",
    "cuisine food restaurant": "italian mexican japanese chinese indian thai french korean vietnamese greek "
                               "sushi pizza pasta tacos curry ramen vegan vegetarian",
    "drink": "coffee tea espresso latte beer wine",
    "music genre": "jazz rock pop classical hiphop blues country",
    "sport exercise": "soccer football basketball tennis baseball golf hockey cycling swimming yoga hiking",
}

HEADER = '''# Code generated by scripts/gen_vocabulary.py. DO NOT EDIT.
"""Ordinary coding words and the topics of preferences (generated: ``scripts/gen_vocabulary.py``).

:data:`BACKGROUND`: the keyword terms of {background} words every coding conversation uses ("test",
"run", "build", "file", "check", "PR"): weak evidence (:mod:`guest.memory.relevance`).
:data:`TOPICS`: {topics} topics, each its name's terms and its {members} members' terms, what a
preference or a rule is about (:mod:`guest.memory.topics`).
"""

from __future__ import annotations

'''


def terms(words: str) -> list[str]:
    """The distinct terms of ``words`` as a store of terms version 4 indexes them, in order.

    An identifier stands for itself only (``snake_case``, not its parts).
    """
    return list(dict.fromkeys(stem_form(words_v4(word)[0]) for word in words.split() if words_v4(word)))


def render() -> str:
    """The module's text."""
    background = sorted(set(terms(BACKGROUND)))
    lines = [HEADER.format(background=len(background), topics=len(TOPICS),
                           members=sum(len(m.split()) for m in TOPICS.values())).rstrip("\n"), ""]
    lines += ["BACKGROUND: frozenset[str] = frozenset(", '    """', *wrapped(background, "    "),
              '    """.split()', ")", ""]
    lines.append("# each topic: its name's terms, then its members' terms (one line of words)")
    lines.append("TOPICS: tuple[str, ...] = (")
    for name, words in TOPICS.items():
        lines += [f'    """{" ".join(terms(name))}', *wrapped(terms(words), "    "), '    """,']
    lines.append(")")
    return "\n".join(lines) + "\n"


def wrapped(words: list[str], indent: str, width: int = 100) -> list[str]:
    """``words`` as lines of at most ``width`` characters."""
    lines: list[str] = []
    row: list[str] = []
    for word in words:
        if row and len(indent + " ".join([*row, word])) > width:
            lines.append(indent + " ".join(row))
            row = []
        row.append(word)
    return [*lines, indent + " ".join(row)] if row else lines


def main() -> None:
    """Write the table."""
    OUT.write_text(render(), encoding="utf-8")
    print(f"wrote {OUT.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
