"""Look-alike characters folded to ASCII before screening text for instructions (issue 38, item 5).

``ｉｇｎｏｒｅ`` (fullwidth), ``іgnоrе`` (Cyrillic і, о, е), ``𝐢𝐠𝐧𝐨𝐫𝐞`` (mathematical bold) read as
``ignore`` to a model. :func:`fold` maps them to the ASCII letters they imitate with an explicit
table -- fullwidth forms, mathematical alphanumerics, circled and small-capital letters, and the
Cyrillic and Greek letters shaped like Latin ones -- instead of ``unicodedata.normalize("NFKC")``,
whose tables differ between CPython 3.11 (Unicode 14) and 3.14 (Unicode 16): the same text folds
the same on both targets. Everything else is left as it is.
"""

from __future__ import annotations

_LATIN = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
# Letters of other scripts drawn like a Latin letter (Unicode's confusables, the common ones).
_LOOK_ALIKES = {
    "a": "\u0430\u03b1\u0251", "b": "\u0184\u042c", "c": "\u0441\u03f2\u217d", "d": "\u0501\u217e",
    "e": "\u0435\u0454\u04bd\u03b5", "g": "\u0261", "h": "\u04bb\u0570",
    "i": "\u0456\u03b9\u0131\u2170\u04cf",
    "j": "\u0458\u03f3", "k": "\u03ba\u043a", "l": "\u2113\u217c\u04c0", "m": "\u217f", "n": "\u0578\u03b7",
    "o": "\u043e\u03bf\u0585\u1d0f", "p": "\u0440\u03c1", "q": "\u051b", "r": "\u0433", "s": "\u0455",
    "t": "\u03c4", "u": "\u03c5\u057d", "v": "\u03bd\u0475\u2174", "w": "\u051d\u0461",
    "x": "\u0445\u03c7\u2179",
    "y": "\u0443\u04af\u03b3", "z": "\u1d22",
    "A": "\u0410\u0391", "B": "\u0412\u0392", "C": "\u0421\u03f9\u216d", "D": "\u216e", "E": "\u0415\u0395",
    "H": "\u041d\u0397", "I": "\u0406\u0399\u2160\u04c0", "J": "\u0408", "K": "\u041a\u039a\u212a",
    "L": "\u216c", "M": "\u041c\u039c\u216f", "N": "\u039d", "O": "\u041e\u039f", "P": "\u0420\u03a1",
    "S": "\u0405", "T": "\u0422\u03a4", "V": "\u2164", "X": "\u0425\u03a7\u2169", "Y": "\u04ae\u03a5",
    "Z": "\u0396",
}
_SMALL_CAPS = (
    "\u1d00\u0299\u1d04\u1d05\u1d07\ua730\u0262\u029c\u026a\u1d0a\u1d0b\u029f\u1d0d\u0274\u1d0f\u1d18"
    "\ua7af\u0280\ua731\u1d1b\u1d1c\u1d20\u1d21x\u028f\u1d22"
)
# The mathematical alphanumeric styles: 13 alphabets of 52 letters from U+1D400, 5 of 10 digits.
_MATH_LETTERS = 0x1D400
_MATH_DIGITS = 0x1D7CE


def _table() -> dict[int, str]:
    table: dict[int, str] = {0x3000: " "}
    for cp in range(0xFF01, 0xFF5F):  # fullwidth ASCII
        table[cp] = chr(cp - 0xFEE0)
    for style in range(13):
        for i, letter in enumerate(_LATIN):
            table[_MATH_LETTERS + 52 * style + i] = letter
    for cp in range(_MATH_DIGITS, 0x1D800):
        table[cp] = str((cp - _MATH_DIGITS) % 10)
    for i, letter in enumerate(_LATIN[:26]):
        table[0x24B6 + i] = letter  # circled capitals
        table[0x24D0 + i] = letter.lower()  # circled small letters
        table[0x1F130 + i] = letter  # squared capitals
        if _SMALL_CAPS[i] != "x":
            table[ord(_SMALL_CAPS[i])] = letter.lower()
    for letter, shapes in _LOOK_ALIKES.items():
        for shape in shapes:
            table[ord(shape)] = letter
    return table


TABLE = _table()


def fold(text: str) -> str:
    """``text`` with its look-alike characters as the ASCII they imitate."""
    if text.isascii():
        return text
    return text.translate(TABLE)
