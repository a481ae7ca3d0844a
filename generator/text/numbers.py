"""Numbers as a language writes them in prose: digits, and the number words of a small table.

A worked example's prose makes claims with numbers ("трёх", "two 1s", "drei"); the rules
checker binds each of them to its check block (claims.py). A word counts as a number only
when this table holds it: "первым" (first) or "once" are words, not numbers; "twice" is 2.
Russian words are listed in every case form, and the dice nouns (единица, шестёрка) count as
their face.

Where a language's word for one is also its indefinite article or a verb's particle (German
"eine Schlacht", "stürzt … ein"; French un, Spanish una, Dutch een), the word is a numeral
flagged `article`: it may stand for a number the source says ("one die" = "einen Würfel"), but
is no number on its own (claims.py).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from fractions import Fraction
from typing import Iterator

_RU_CARDINALS: dict[int, str] = {
    0: "ноль нуль ноля нуля нолю нулю нолём нулём нолем нулем ноле нуле",
    1: "один одна одно одни одного одной одному одну одним одном одною одних одними",
    2: "два две двух двум двумя",
    3: "три трёх трех трём трем тремя",
    4: "четыре четырёх четырех четырём четырем четырьмя",
    5: "пять пяти пятью",
    6: "шесть шести шестью",
    7: "семь семи семью",
    8: "восемь восьми восемью восьмью",
    9: "девять девяти девятью",
    10: "десять десяти десятью",
    11: "одиннадцать одиннадцати одиннадцатью",
    12: "двенадцать двенадцати двенадцатью",
    20: "двадцать двадцати двадцатью",
}
# collective numerals: "трое убиты", "двоих раненых"
_RU_COLLECTIVE = {2: "двое двоих двоим двоими", 3: "трое троих троим троими"} | {
    n: " ".join(stem + e for e in ("о", "ых", "ым", "ыми"))
    for n, stem in {4: "четвер", 5: "пятер", 6: "шестер", 7: "семер", 8: "восьмер", 9: "девятер",
                    10: "десятер"}.items()}
_RU_BOTH = "оба обе обоих обеих обоим обеим обоими обеими"
# the faces of a die as nouns: "выбросил две единицы", "шестёрка"
# (stem, genitive plural): единиц-а/-ы/-у…, двойк-а/-и/-у…, "двух единиц", "трёх шестёрок"
_RU_FACES = {1: ("единиц", "единиц"), 2: ("двойк", "двоек"), 3: ("тройк", "троек"), 4: ("четвёрк", "четвёрок"),
             5: ("пятёрк", "пятёрок"), 6: ("шестёрк", "шестёрок"), 7: ("семёрк", "семёрок"),
             8: ("восьмёрк", "восьмёрок")}
_RU_FACE_ENDINGS = ("а", "у", "е", "ам", "ами", "ах")  # and after ц: -ы, -ей, -ею; after к: -и, -ой, -ою


def _ru_faces() -> dict[str, int]:
    out: dict[str, int] = {}
    for face, (stem, plural) in _RU_FACES.items():
        soft = ("ы", "ей", "ею") if stem.endswith("ц") else ("и", "ой", "ою")
        for ending in _RU_FACE_ENDINGS + soft:
            out[stem + ending] = face
        out[plural] = face
    return out


_EN = "zero one two three four five six seven eight nine ten eleven twelve".split()
_DE = {0: "null", 1: "eins ein eine einen einem einer eines", 2: "zwei zweien", 3: "drei dreien", 4: "vier vieren",
       5: "fünf fünfen", 6: "sechs", 7: "sieben", 8: "acht", 9: "neun", 10: "zehn", 11: "elf", 12: "zwölf"}

# words that are a number and also an article or a separable verb's particle, by language; the
# number tables of fr, es, it, pt and nl are not written yet: a table added later finds its
# articles here already
_ARTICLES = {"de": "ein eine einen einem einer eines", "fr": "un une", "es": "un una uno",
             "it": "un uno una", "pt": "um uma", "nl": "een"}


def _table() -> dict[str, dict[str, int]]:
    ru = {form: n for n, forms in _RU_CARDINALS.items() for form in forms.split()}
    ru.update({form: n for n, forms in _RU_COLLECTIVE.items() for form in forms.split()})
    ru.update({form: 2 for form in _RU_BOTH.split()})
    ru.update({"дважды": 2, "трижды": 3})
    ru.update(_ru_faces())
    en = {word: n for n, word in enumerate(_EN)}
    en.update({"both": 2, "twice": 2, "thrice": 3, "twenty": 20})
    de = {form: n for n, forms in _DE.items() for form in forms.split()}
    de.update({"beide": 2, "beiden": 2, "beider": 2, "beides": 2, "zweimal": 2, "dreimal": 3, "zwanzig": 20})
    return {lang: {fold(word): n for word, n in table.items()} for lang, table in (("ru", ru), ("en", en), ("de", de))}


def fold(word: str) -> str:
    """A word as the table looks it up: lower case, ё read as е (both spellings are common)."""
    return word.lower().replace("ё", "е")


WORDS: dict[str, dict[str, int]] = _table()
ARTICLES: dict[str, frozenset[str]] = {lang: frozenset(fold(w) for w in forms.split())
                                       for lang, forms in _ARTICLES.items()}


def words(lang: str) -> dict[str, int]:
    """The number words of a language (its base tag: 'en-GB' reads as 'en'); {} if none."""
    return WORDS.get(_base(lang), {})


def is_article(word: str, lang: str) -> bool:
    """Whether a number word of a language is also its article or a verb's particle ('eine')."""
    return fold(word) in ARTICLES.get(_base(lang), frozenset())


def _base(lang: str) -> str:
    """A language tag's base language: 'en-GB' -> 'en'."""
    return lang.split("-")[0].lower()


@dataclass(frozen=True)
class Numeral:
    """A number written in a text: where (offsets into the text), as written, its value, and
    whether the word is also an article (is_article)."""

    start: int
    end: int
    text: str
    value: Fraction
    article: bool = False


_DIGITS = r"\d+(?:[.,]\d+)?"
_WORD = re.compile(r"[^\W\d_]+", re.UNICODE)


def value_of(text: str, lang: str) -> Fraction | None:
    """The number a written numeral means ('3', '0,5', 'трёх', 'Three'), or None."""
    text = text.strip()
    if re.fullmatch(_DIGITS, text):
        return Fraction(text.replace(",", "."))
    found = words(lang).get(fold(text))
    return Fraction(found) if found is not None else None


def numerals(text: str, lang: str) -> Iterator[Numeral]:
    """Every number written in a text, in order: runs of digits (with a decimal part), and
    whole words the language's table holds (an article among them flagged)."""
    found = [Numeral(m.start(), m.end(), m.group(0), Fraction(m.group(0).replace(",", ".")))
             for m in re.finditer(_DIGITS, text)]
    table = words(lang)
    if table:
        for m in _WORD.finditer(text):
            value = value_of(m.group(0), lang)
            if value is not None:
                found.append(Numeral(m.start(), m.end(), m.group(0), value, is_article(m.group(0), lang)))
    yield from sorted(found, key=lambda n: n.start)


__all__ = ["ARTICLES", "Numeral", "WORDS", "is_article", "numerals", "value_of", "words"]
