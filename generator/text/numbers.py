"""Numbers as a language writes them in prose: digits, and the language's number words.

A worked example's prose makes claims with numbers ("трёх", "two 1s", "drei", "dwoma"); the
rules checker binds each of them to its check block (claims.py). A word counts as a number
only when the language's table holds it: "первым" (first) or "once" are words, not numbers;
"twice" is 2.

The cardinals come from num2words (0 to 100, where the language writes the number as one
word): English, German, French, Spanish in their one form, Russian in every case, gender and
animacy num2words inflects, Ukrainian in every case and gender. Polish numerals in every case, gender and collective form
("dwa dwóch dwoma dwiema dwoje", "trzy trzech trzem trzema") come from the SGJP dictionary
through Morfeusz 2 (generator/locale/numbers/pl.tsv, written by tools/number_words.py). A few
words no such source lists are kept below, each with what it is: the words for "both" and
"twice", Russian collective numerals and the dice faces as nouns (единица, шестёрка), and
spelling variants Russian dictionaries give (нуль, одною, восьмью).

Where a language's word for a number is also its indefinite article, a verb's particle or
another common word (German "eine Schlacht", "stürzt … ein"; French un, "neuf" = new; Spanish
una, Dutch een), the word is a numeral flagged `article`: it may stand for a number the source
says ("one die" = "einen Würfel"), but is no number on its own (claims.py).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from pathlib import Path
from typing import Iterator

from num2words import num2words

# The languages whose number words the checker reads, and what num2words is asked for in each.
LANGUAGES = ("en", "de", "fr", "es", "ru", "pl", "uk")
SPELLED = range(0, 101)
_RU_FORMS = [{"case": case, "gender": gender, "animate": animate, "plural": plural}
             for case in ("nominative", "genitive", "dative", "accusative", "instrumental", "prepositional")
             for gender in ("m", "f", "n") for animate in (True, False) for plural in (False, True)]
_UK_FORMS = [{"case": case, "gender": gender}
             for case in ("nominative", "genitive", "dative", "accusative", "instrumental", "locative")
             for gender in ("masculine", "feminine")]
_FORMS = {"ru": _RU_FORMS, "uk": _UK_FORMS}  # the forms num2words inflects a language's numerals in
_APOSTROPHES = re.compile("[\u2019\u02bc]")
_TABLES = Path(__file__).resolve().parent.parent / "locale" / "numbers"

# Spelling variants of Russian numerals num2words does not give (Zaliznyak's Grammatical
# Dictionary of Russian lists both): нуль beside ноль, одною beside одной, восьмью beside восемью.
_RU_VARIANTS = {0: "нуль нуля нулю нулём нулем нуле", 1: "одною", 8: "восьмью"}
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


# German forms of the numerals num2words gives in their citation form only (Duden: ein/eine/
# einen..., zweien/dreien in the dative, zweier/dreier in the genitive)
_DE = {1: "ein eine einen einem einer eines", 2: "zweien zweier", 3: "dreien dreier", 4: "vieren", 5: "fünfen"}
# the words for "both", the multiplicatives, and the gender forms num2words does not give, by language
_KEPT = {"en": {"both": 2, "twice": 2, "thrice": 3},
         "de": {"beide": 2, "beiden": 2, "beider": 2, "beides": 2, "zweimal": 2, "dreimal": 3},
         "fr": {"une": 1},  # the feminine of un (num2words gives un)
         "es": {"una": 1, "un": 1, "veintiuna": 21, "veintiún": 21,  # feminine and shortened forms beside uno
                "ambos": 2, "ambas": 2},
         "ru": {"дважды": 2, "трижды": 3}}

# words that are a number and also an article, a separable verb's particle or another common
# word, by language; the number tables of it, pt and nl are not written yet: a table added later
# finds its articles here already
_ARTICLES = {"de": "ein eine einen einem einer eines", "fr": "un une neuf", "es": "un una uno",
             "it": "un uno una", "pt": "um uma", "nl": "een"}


def _cardinals(lang: str) -> dict[str, int]:
    """num2words' one-word cardinals of a language, 0 to 100 (Russian, Ukrainian: in every form it
    inflects)."""
    out: dict[str, int] = {}
    for n in SPELLED:
        if " " in num2words(n, lang=lang) or "-" in num2words(n, lang=lang):
            continue  # written in two words (twenty-one, dwadzieścia jeden): each word is read alone
        for options in _FORMS.get(lang, [{}]):
            word = num2words(n, lang=lang, **options)
            if " " not in word and "-" not in word:
                out.setdefault(word, n)
    return out


def _read_table(lang: str) -> dict[str, int]:
    """A generated table of a language's numeral forms (locale/numbers/LANG.tsv: form, value, tags)."""
    path = _TABLES / f"{lang}.tsv"
    if not path.is_file():
        return {}
    rows = (line.split("\t") for line in path.read_text(encoding="utf-8").splitlines() if not line.startswith("#"))
    return {row[0]: int(row[1]) for row in rows if len(row) >= 2}


def _ru_extra() -> dict[str, int]:
    ru = {form: n for n, forms in _RU_VARIANTS.items() for form in forms.split()}
    ru.update({form: n for n, forms in _RU_COLLECTIVE.items() for form in forms.split()})
    ru.update({form: 2 for form in _RU_BOTH.split()})
    ru.update(_ru_faces())
    return ru


@lru_cache(maxsize=None)
def _table(lang: str) -> dict[str, int]:
    """Every number word of a language, folded: num2words' cardinals, the generated table's
    forms, and the kept words above."""
    table = {**_cardinals(lang), **_read_table(lang), **_KEPT.get(lang, {})}
    if lang == "de":
        table.update({form: n for n, forms in _DE.items() for form in forms.split()})
    if lang == "ru":
        table.update(_ru_extra())
    return {fold(word): n for word, n in table.items()}


def fold(word: str) -> str:
    """A word as the table looks it up: lower case, ё read as е (both spellings are common), and
    every apostrophe inside a word (' ’ ʼ: Ukrainian п'ять, п’ять, пʼять) read as one."""
    return _APOSTROPHES.sub("'", word.lower().replace("ё", "е"))


ARTICLES: dict[str, frozenset[str]] = {lang: frozenset(fold(w) for w in forms.split())
                                       for lang, forms in _ARTICLES.items()}


def words(lang: str) -> dict[str, int]:
    """The number words of a language (its base tag: 'en-GB' reads as 'en'); {} if none."""
    base = _base(lang)
    return _table(base) if base in LANGUAGES else {}


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
# a word: letters, with an apostrophe between letters (п'ять, дев’ять, l'un, don't)
APOSTROPHE = "'\u2019\u02bc"
WORD = re.compile(rf"[^\W\d_]+(?:[{APOSTROPHE}][^\W\d_]+)*", re.UNICODE)


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
    if words(lang):
        found += [numeral for m in WORD.finditer(text) if (numeral := _word_numeral(m, lang)) is not None]
    yield from sorted(found, key=lambda n: n.start)


def _word_numeral(match: re.Match, lang: str) -> Numeral | None:
    """The number a word of a text is, if any: the whole word with its apostrophes (п'ять), else
    what follows an elided article or particle (French qu'un, l'une; Italian un'altra is the
    whole word's first part, no number)."""
    word, start = match.group(0), match.start()
    value = value_of(word, lang)
    if value is None and (cut := max(word.rfind(a) for a in APOSTROPHE)) > 0:
        word, start = word[cut + 1:], start + cut + 1
        value = value_of(word, lang)
    return None if value is None else Numeral(start, start + len(word), word, value, is_article(word, lang))


__all__ = ["APOSTROPHE", "ARTICLES", "LANGUAGES", "WORD", "Numeral", "is_article", "numerals", "value_of", "words"]
