"""Generate ``tests/data/golden/tokenizer.jsonl``: reference WordPiece ids for a varied corpus.

Dev-only (needs the ``tokenizers`` package). Each line is ``{"kind": ..., "text": ...,
"ids": [...]}`` where ``ids`` is ``Tokenizer.from_file("models/tokenizer.json")
.encode(text, add_special_tokens=False).ids``. The corpus is generated deterministically
(fixed seed, no set iteration) and covers English, code, punctuation, numbers, accents,
many scripts, emoji, controls, every kind of whitespace, unassigned and newly assigned
code points, every code point the reference maps to something else (from
``unicodedata``'s point of view and by probing), word-length limits and long texts.

Usage: ``python scripts/gen_tokenizer_golden.py [--models models] [--out PATH]``.
"""

from __future__ import annotations

import argparse
import json
import random
import unicodedata
from collections.abc import Iterator
from pathlib import Path

from tokenizers import Tokenizer

ROOT = Path(__file__).resolve().parent.parent
SEED = 20240611

WORDS = (
    "the quick brown fox jumps over lazy dog memory agent recall store vector embedding token "
    "unaffable running played happily international organisation tokenizer WordPiece Python "
    "rust wasm component compile function return value error warning index search query "
    "database transaction commit branch merge request review approve deploy release version "
    "London Paris Berlin Tokyo New York January Monday COVID-19 e-mail don't it's we'll "
    "state-of-the-art naïve café résumé coöperate façade jalapeño Zürich São Paulo Ærøskøbing"
).split()

SNIPPETS = [
    "def f(x: int) -> int:\n    return x ** 2  # square",
    "for (int i = 0; i < n; ++i) { sum += a[i]; }",
    "console.log(`Hello ${name}!`); // template",
    "SELECT id, name FROM users WHERE age >= 18 AND email LIKE '%@example.com';",
    'fn main() { let v: Vec<u8> = vec![1, 2, 3]; println!("{:?}", v); }',
    "<div class=\"a\" data-x='1'>&lt;tag&gt; &amp; &#x27;</div>",
    'git commit -m "fix: handle \\\\n in paths" && git push origin HEAD:main',
    "x = {'a': [1, 2.5e-3, -0x1F], \"b\": None, 'c': (True, False)}",
    "$ curl -fsSL https://example.com/install.sh | sh -s -- --prefix=~/.local",
    "regex: ^(?:[a-z0-9._%+-]+)@(?:[a-z0-9-]+\\.)+[a-z]{2,}$",
    '#include <stdio.h>\nint main(void) { printf("%d\\n", 42); return 0; }',
    "a|b&c^d~e`f\\g@h#i$j%k*l(m)n_o+p=q[r]s{t}u;v:w'x\"y,z<.>/?",
    "C:\\Users\\me\\AppData\\Local\\Temp\\file_v2.tar.gz",
    "snake_case camelCase PascalCase kebab-case SCREAMING_CASE __dunder__",
]

SAMPLES = [
    "Héllo Wörld! Ça va? ñandú Ångström naïve Œuvre æther ðþ Ø ł đ ħ ı ĳ ŉ ſ",
    "e\u0301 a\u0300\u0323 o\u0308\u0304 n\u0303 A\u030a c\u0327 \u0301alone x\u20dd y\u0489",
    "ΣΊΣΥΦΟΣ σίσυφος ΌΣΟΣ ὅσος Ἀθῆναι ΑΘΗΝΑ ς Σ σ ΐ ΰ ϐ ϑ ϕ ϖ ϰ ϱ ϵ ᾳ ᾼ ῼ",
    "İstanbul ISTANBUL ıi Iı DİYARBAKIR Ğğ Şş Çç Öö Üü",
    "Straße STRASSE ẞ ß groß GROẞ Maß",
    "ﬁ ﬂ ﬀ ﬃ ﬄ ﬅ ﬆ Ĳ ǅ ǈ ǋ ǲ Ǆ ǆ ʼn ﬓ ﬔ",
    "ＡＢＣ ａｂｃ １２３ ！＂＃＄％＆＇（）＊＋，－．／：；＜＝＞？＠［＼］＾＿｀｛｜｝～ ｶﾀｶﾅ",
    "中文字符测试 日本語のテキスト、カタカナ。 漢字 ㄅㄆㄇ 〇〡〢 ⺀⺁ ⼀⼁ ㊀ ㍻",
    "한국어 텍스트입니다. 안녕하세요! ㄱㄴㄷ ᄀᄁ ᅡᅢ ᆨᆩ ힰ ힱ",
    "ภาษาไทยไม่มีการเว้นวรรค ๑๒๓ ฿",
    "العربية: مرحبا بالعالم! ١٢٣ ؟ ، ؛ ـ ﷺ ﻻ",
    "עברית: שָׁלוֹם עוֹלָם! ״ ׳ ־",
    "हिन्दी: नमस्ते दुनिया। १२३ ॐ क़",
    "Русский текст: Привет, мир! Ёё ЁЛКИ Ґґ Її",
    "Emoji: 😀 👍🏽 👨‍👩‍👧‍👦 🏳️‍🌈 🇺🇸🇯🇵 ❤️ ☕ 🧑🏿‍💻 #️⃣ 1️⃣ 🫠 🫨 🪇",
    "ctrl:\x00\x01\x07\x08\x1b[31mred\x1b[0m\x7f\x80\x85\x9f|\u200b|\u200c|\u200d|\ufeff|\ufffd|\u00ad|",
    "ws:\t\n\r\x0b\x0c \u00a0\u1680\u2000\u2001\u2002\u2003\u2007\u2009\u200a\u2028\u2029\u202f"
    "\u205f\u3000\u0085\u180e\u001c\u001d\u001e\u001f|",
    "math: ∑∫√∞≠≤≥±×÷∂∇∈∉⊂⊃∪∩ ≠ ≮ ≯ ⁰¹²³ ½ ¼ ℃ ℉ Ω Å K ℵ",
    "currency: $5 €10 £3 ¥100 ₹50 ₩1000 ₿0.1 ¢ ¤",
    "quotes: “double” ‘single’ «guillemets» ‹›  „low“ — – ‒ ― … ‰ ′ ″ † ‡ • ※ ⁂ ¶ § ¡ ¿",
    "unassigned: \u0378\u0379 \u0380 \u05ff \u2fff \ufdd0 \uffff \U0001ffff \U000e0080 \U000effff",
    "private: \ue000\uf8ff \U000f0000 \U000ffffd \U00100000 \U0010fffd",
    "new: \U00031350\U000323af \U0002ebf0 \U0002ee5d \U0001fae8 \U0001fa89 \U00011f00 \U00010d50"
    "\U00010d70 \U000105c0 \U00011bc0 \U0001e5d0 \U00016d40",
    "marks: a\U0001d16d\U0001d165b \U0001d165\U0001d16d x\u08d4\u08d3y \u1b44\u302e\u302f",
]

# (first, last) of every CJK-ish block, some new in Unicode 15 and 15.1.
CJK_BLOCKS = [
    (0x2E80, 0x2EFF),
    (0x2F00, 0x2FDF),
    (0x3000, 0x303F),
    (0x3040, 0x30FF),
    (0x3100, 0x312F),
    (0x3190, 0x319F),
    (0x31C0, 0x31EF),
    (0x3200, 0x32FF),
    (0x3300, 0x33FF),
    (0x3400, 0x4DBF),
    (0x4DC0, 0x4DFF),
    (0x4E00, 0x9FFF),
    (0xF900, 0xFAFF),
    (0xFE30, 0xFE4F),
    (0x20000, 0x2A6DF),
    (0x2A700, 0x2B73F),
    (0x2B740, 0x2B81F),
    (0x2B820, 0x2CEAF),
    (0x2CEB0, 0x2EBEF),
    (0x2EBF0, 0x2EE5F),
    (0x2F800, 0x2FA1F),
    (0x30000, 0x3134F),
    (0x31350, 0x323AF),
]


def assigned_in(lo: int, hi: int, pred: str) -> list[int]:
    """Code points in ``[lo, hi]`` whose ``unicodedata`` category starts with ``pred``."""
    return [cp for cp in range(lo, hi + 1) if unicodedata.category(chr(cp)).startswith(pred)]


def chunks(cps: list[int], size: int, rng: random.Random, kind: str) -> Iterator[tuple[str, str]]:
    """Yield strings of ``size`` code points each, sometimes with separators between them."""
    for i in range(0, len(cps), size):
        sep = rng.choice(["", "", " ", "a", "\u00e9"])
        yield kind, sep.join(chr(cp) for cp in cps[i : i + size])


def sentence(rng: random.Random, n: int) -> str:
    """Return a random English-ish sentence of ``n`` words with random casing and punctuation."""
    out = []
    for _ in range(n):
        word = rng.choice(WORDS)
        roll = rng.random()
        word = word.upper() if roll < 0.05 else word.capitalize() if roll < 0.2 else word
        if rng.random() < 0.1:
            word += rng.choice([",", ".", "!", "?", ";", ":", "'s", ")", "...", "\u2019s"])
        if rng.random() < 0.05:
            word = rng.choice(["(", '"', "'", "[", "\u201c"]) + word
        if rng.random() < 0.05:
            word = str(rng.randint(0, 10 ** rng.randint(1, 9)))
        out.append(word)
    return " ".join(out)


def random_cp(rng: random.Random, plane: int) -> int:
    """Return a random non-surrogate code point of ``plane``."""
    while True:
        cp = plane * 0x10000 + rng.randrange(0x10000)
        if not 0xD800 <= cp <= 0xDFFF:
            return cp


def corpus(tok: Tokenizer) -> Iterator[tuple[str, str]]:
    """Yield ``(kind, text)`` pairs."""
    rng = random.Random(SEED)
    fixed = ["", " ", "   ", "\t", "\n\n", "\r\n", "\u3000", "\u00a0\u2028", "\x00", "\ufeff", "a", "A"]
    fixed += ["Hello, world!", "unaffable", "[UNK]", "[PAD]", "[unk] [Pad]", "a[UNK]b[PAD]c", "[[UNK]]"]
    fixed += ["[UNK" + "]", "x" * 99, "x" * 100, "x" * 101, "ab" * 50, "ab" * 51, "\u00c4" * 100]
    fixed += ["\u00c4" * 101, "\ud55c" * 33, "\ud55c" * 34, "a\u0301" * 100, "\u0301" * 150]
    fixed += ["hello " * 600, "\u4e2d" * 600, "!" * 700, "[UNK]" * 600]
    yield from (("fixed", t) for t in fixed)
    yield from (("sample", t) for t in SAMPLES)
    yield from (("code", t) for t in SNIPPETS)
    for _ in range(500):
        yield "english", sentence(rng, rng.choice([1, 3, 8, 20, 35, 60]))
    for _ in range(150):
        parts = [rng.choice(SNIPPETS), sentence(rng, 5), rng.choice(SAMPLES)]
        rng.shuffle(parts)
        yield "mixed", rng.choice(["\n", " ", "", "\t"]).join(parts)
    for _ in range(100):
        yield (
            "numbers",
            " ".join(
                rng.choice(
                    [
                        str(rng.random() * 10 ** rng.randint(-5, 12)),
                        f"{rng.randint(0, 10**12):,}",
                        f"{rng.randint(1, 31)}/{rng.randint(1, 12)}/20{rng.randint(0, 99):02d}",
                        f"+1 ({rng.randint(100, 999)}) 555-{rng.randint(0, 9999):04d}",
                        "3.14159",
                        "1e-9",
                        "0xDEADBEEF",
                        "v1.2.3-rc.4",
                        "50%",
                        "2\u00bd",
                        "\u2167",
                        "\u2460",
                    ]
                )
                for _ in range(rng.randint(1, 12))
            ),
        )
    for lo, hi in CJK_BLOCKS:
        edge = [lo, lo + 1, hi - 1, hi, (lo + hi) // 2]
        picks = edge + [rng.randint(lo, hi) for _ in range(40)]
        yield from chunks(picks, 15, rng, "cjk")
    # Every code point whose reference normalisation is not itself (a few thousand), and the
    # first and last code point of every run of behaviour.
    normalize = tok.normalizer.normalize_str
    changed: list[int] = []
    edges: list[int] = []
    prev = None
    for cp in range(0x110000):
        if 0xD800 <= cp <= 0xDFFF:
            continue
        out = normalize(chr(cp))
        behaviour = (
            "same" if out == chr(cp) else "gone" if out == "" else "pad" if out == f" {chr(cp)} " else "map"
        )
        if behaviour == "map":
            changed.append(cp)
        if behaviour != prev:
            edges += [cp - 1, cp] if cp and not 0xD800 <= cp - 1 <= 0xDFFF else [cp]
            prev = behaviour
    hangul = [cp for cp in changed if 0xAC00 <= cp <= 0xD7A3]
    others = [cp for cp in changed if not 0xAC00 <= cp <= 0xD7A3]
    yield from chunks(others, 12, rng, "mapped")
    yield from chunks(rng.sample(hangul, 600), 6, rng, "hangul")
    yield from chunks(edges, 10, rng, "edges")
    for pred in ["P", "S", "Z", "Cc", "Cf", "Co", "Mn", "Mc", "Me", "Lu", "Lt", "Nd", "No"]:
        cps = assigned_in(0, 0x10FFFF, pred) if pred != "Co" else list(range(0xE000, 0xF900))
        yield from chunks(rng.sample(cps, min(len(cps), 240)), 8, rng, f"cat-{pred}")
    cn = [cp for cp in range(0x30000) if unicodedata.category(chr(cp)) == "Cn"]
    yield from chunks(rng.sample(cn, 300), 6, rng, "unassigned-3.11")
    for plane in range(17):
        for _ in range(12):
            yield (
                f"plane-{plane}",
                "".join(
                    chr(random_cp(rng, plane)) if rng.random() < 0.6 else rng.choice("ab ,.\u00e9")
                    for _ in range(rng.randint(1, 16))
                ),
            )
    emoji = [
        "\U0001f600",
        "\U0001f44d\U0001f3fd",
        "\U0001f468\u200d\U0001f469\u200d\U0001f467",
        "\U0001f3f3\ufe0f\u200d\U0001f308",
        "\U0001f1fa\U0001f1f8",
        "\u2764\ufe0f",
        "#\ufe0f\u20e3",
        "\U0001faf6\U0001f3fb",
        "\U0001fae8",
        "\U0001fa87",
        "\U0001f9d1\u200d\U0001f4bb",
        "\u263a",
    ]
    for _ in range(60):
        yield "emoji", "".join(rng.choice([*emoji, " ", "ok", "!"]) for _ in range(rng.randint(1, 10)))
    alphabet = (
        [chr(c) for c in changed[::7]]
        + list("abcXYZ019 .,;-'\t\n")
        + [
            "\u0301",
            "\u0308",
            "\u200d",
            "\x00",
            "\u3000",
            "\u4e00",
            "\U00020000",
            "\U0002b820",
            "\U00030000",
            "\uac00",
            "\U0001d165",
            "\U0001d16d",
            "\u08d3",
            "\u08d4",
            "[UNK]",
            "[PAD]",
        ]
    )
    for _ in range(600):
        yield "random", "".join(rng.choice(alphabet) for _ in range(rng.randint(1, 40)))
    for _ in range(20):
        yield "long", "\n\n".join(sentence(rng, rng.randint(50, 150)) for _ in range(rng.randint(3, 8)))
    for _ in range(10):
        yield "long-mixed", " ".join(rng.choice(SAMPLES + SNIPPETS) for _ in range(rng.randint(10, 40)))


def main() -> None:
    """Write the golden file."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--models", type=Path, default=ROOT / "models")
    parser.add_argument("--out", type=Path, default=ROOT / "tests" / "data" / "golden" / "tokenizer.jsonl")
    args = parser.parse_args()
    tok = Tokenizer.from_file(str(args.models / "tokenizer.json"))
    args.out.parent.mkdir(parents=True, exist_ok=True)
    lines = []
    for kind, text in corpus(tok):
        ids = tok.encode(text, add_special_tokens=False).ids
        lines.append(json.dumps({"kind": kind, "text": text, "ids": ids}, ensure_ascii=True))
    args.out.write_text("\n".join(lines) + "\n", encoding="ascii")
    print(f"wrote {len(lines)} lines to {args.out}")


if __name__ == "__main__":
    main()
