"""Regenerate ``guest/generated/topics.py``: what a preference or a rule is about (issue 47 item 2).

The source is the hand-kept lexicon below, :data:`TOPICS`: each topic's *names* -- the words people
use when they ask about it ("Which **package manager**?", "any **seating** preference?") -- and its
*members*, the things a rule or preference names ("pnpm", "window", "flat white"; a member of several
words matches when the text holds all of them). The members are tools, services and things as their
own projects and vendors name them, never an ordinary verb or noun alone ("run", "moment", "sketch"
would turn "Always run eslint" into a rule about sport); the names are the ordinary words for their
kind. Written out as
the engine's keyword terms (stemmed by :func:`guest.text.stem.stem_form`, as a store of terms
version 4 indexes them), so that the guest never stems them at run time and a change of the stemmer
shows as a diff of the table.

In a store of terms version 5 (version 4 keeps ``scripts/gen_vocabulary.py``'s first lexicon), a
memory that states a preference or a rule naming a member is also indexed under the topic's names
and its other members (:mod:`guest.memory.topics`), so "Which package manager should I use?"
finds "Always use pnpm, never npm". Kept small on purpose: a topic costs every matching rule a few
indexed terms, and a member that is an ordinary word ("window", "dark") can match a rule about
something else.

Run ``python scripts/gen_topics.py`` after changing the lexicon; ``tests/test_topics.py`` checks
that the table is this script's output.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from guest.index.keywords import words_v4  # noqa: E402
from guest.text.stem import stem_form  # noqa: E402

OUT = ROOT / "guest" / "generated" / "topics.py"

# names (what people ask by) -> members (what a rule names; "a, b" separates members of several words)
TOPICS: dict[str, str] = {
    # tools of a code base
    "package manager dependency": "npm, pnpm, yarn, bun, pip, pipx, pipenv, poetry, uv, conda, cargo, gem, "
                                  "bundler, composer, nuget, homebrew, brew, apt",
    "editor ide": "vim, neovim, nvim, emacs, vscode, cursor, sublime, nano, intellij, pycharm, "
                  "webstorm, zed, helix",
    "programming language": "python, javascript, typescript, rust, golang, java, kotlin, swift, ruby, php, "
                            "csharp, scala, haskell, elixir, clojure, lua, perl, dart, zig",
    "test runner framework": "pytest, unittest, jest, vitest, mocha, jasmine, rspec, junit, cypress, "
                             "playwright",
    "formatter formatting": "black, prettier, rustfmt, gofmt, autopep8, yapf, isort, clang format",
    "linter lint": "eslint, ruff, flake8, pylint, clippy, rubocop, golangci, shellcheck",
    "type checker": "mypy, pyright, tsc",
    "build tool": "cmake, bazel, gradle, maven, webpack, vite, esbuild, rollup, ninja, meson",
    "git branch workflow history": "push, pull, merge, rebase, commit, squash, cherry, checkout",
    "database": "postgres, postgresql, mysql, sqlite, mongodb, redis, mariadb, dynamodb, cassandra",
    "orm query sql": "sqlalchemy, prisma, sequelize, typeorm, hibernate, activerecord, peewee, drizzle, "
                     "gorm, diesel",
    "http client library request": "httpx, aiohttp, urllib3, axios, okhttp, retrofit, reqwest",
    "logging logger library": "structlog, loguru, log4j, logback, winston, pino, slf4j, logrus, serilog",
    "date time library timezone": "pendulum, dayjs, luxon, dateutil, pytz, chrono, joda",
    "ci continuous integration pipeline": "github actions, gitlab ci, jenkins, circleci, travis, buildkite, "
                                          "teamcity",
    "infrastructure provisioning": "terraform, pulumi, cloudformation, ansible, opentofu",
    "error tracking crash monitoring": "sentry, bugsnag, rollbar, crashlytics, datadog, new relic",
    "secret credential password key": "vault, 1password, bitwarden, lastpass, doppler, keychain",
    "design mockup": "figma, zeplin, invision, penpot",
    "shell terminal": "bash, zsh, fish, powershell",
    "operating system": "linux, macos, windows, ubuntu, debian, fedora",
    "cloud provider": "aws, gcp, azure",
    "web framework": "react, vue, angular, svelte, django, flask, fastapi, rails, express, nextjs, spring",
    "container": "docker, podman, kubernetes",
    "indentation": "tabs, spaces",
    "naming case": "camelcase, snake_case, kebab, pascalcase",
    "browser": "chrome, firefox, safari",
    "chat messaging": "slack, discord, email",
    "colour color theme scheme": "dracula, solarized, monokai, nord, gruvbox, dark mode, light mode",
    "day week schedule": "monday, tuesday, wednesday, thursday, friday, saturday, sunday, weekend",
    # a person's own preferences
    "cuisine food restaurant dinner lunch": "italian, mexican, japanese, chinese, indian, thai, french, "
                                            "korean, vietnamese, greek, sushi, pizza, pasta, tacos, curry, "
                                            "ramen",
    "diet meal recipe food": "vegan, vegetarian, pescatarian, gluten-free, keto, halal, kosher",
    "drink coffee": "coffee, tea, espresso, latte, cappuccino, flat white, americano, beer, wine",
    "music genre": "jazz, rock, pop, classical, hiphop, blues, country",
    "sport exercise activity outdoor": "soccer, football, basketball, tennis, baseball, golf, hockey, "
                                       "cycling, swimming, yoga, hiking, climbing",
    "seat seating flight": "window seat, aisle seat",
    "book reading format": "audiobook, audiobooks, ebook, kindle, paperback, hardcover",
}

HEADER = '''# Code generated by scripts/gen_topics.py. DO NOT EDIT.
"""What a preference or a rule is about (generated: ``scripts/gen_topics.py``; issue 47 item 2).

:data:`TOPICS`: {topics} topics, each its names' terms, its members' terms (what a rule about one
of them is also indexed under) and its {members} members' words (a member of several words is met
when a text holds all of them; a word by itself or by its term), read by :mod:`guest.memory.topics`.
"""

from __future__ import annotations

'''


def terms(words: str) -> tuple[str, ...]:
    """The distinct terms of ``words`` as a store of terms version 4 indexes them, in order.

    An identifier stands for itself only (``snake_case``, not its parts).
    """
    return tuple(dict.fromkeys(stem_form(words_v4(word)[0]) for word in words.split() if words_v4(word)))


def words(member: str) -> tuple[str, ...]:
    """A member's words as a text's words are read (lower-cased, an identifier whole), not stemmed."""
    return tuple(words_v4(word)[0] for word in member.split() if words_v4(word))


Topic = tuple[tuple[str, ...], tuple[str, ...], tuple[tuple[str, ...], ...]]


def lexicon() -> list[Topic]:
    """Each topic as (its names' terms, its members' terms, its members' words), in the lexicon's order.

    A member is met by its words as written or by their terms ("Tuesdays" meets ``tuesday``), never
    by another word of the same term ("pretty" is not "prettier"); what is indexed are terms.
    """
    out = []
    for names, members in TOPICS.items():
        found = tuple(dict.fromkeys(m for m in (words(member) for member in members.split(",")) if m))
        out.append((terms(names), terms(" ".join(w for m in found for w in m)), found))
    return out


def render() -> str:
    """The module's text."""
    table = lexicon()
    lines = [HEADER.format(topics=len(table), members=sum(len(m) for _, _, m in table)).rstrip("\n"), ""]
    lines.append("# each topic: (its names' terms, its members' terms, its members' words)")
    lines.append("TOPICS: tuple[tuple[tuple[str, ...], tuple[str, ...], tuple[tuple[str, ...], ...]], ...] = "
                 "(")
    for names, member_terms, members in table:
        lines.append(f"    ({names!r},")
        lines += folded([repr(t) + "," for t in member_terms], "     (", "      ", "),")
        lines += folded([repr(m) + "," for m in members], "     (", "      ", ")),")
    lines.append(")")
    return "\n".join(lines) + "\n"


def folded(items: list[str], first: str, indent: str, end: str, width: int = 100) -> list[str]:
    """``items`` as lines of at most ``width`` characters, the first opened by ``first``."""
    lines, row = [], first
    for item in items:
        if row.strip() not in ("", "(") and len(row) + len(item) + 1 > width:
            lines.append(row.rstrip())
            row = indent
        row += item + " "
    return [*lines, row.rstrip() + end]


def main() -> None:
    """Write the table."""
    OUT.write_text(render(), encoding="utf-8")
    print(f"wrote {OUT.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
