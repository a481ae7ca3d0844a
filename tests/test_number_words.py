"""Number words in a worked example's prose bind like digits in every supported language and in
every case form the language inflects its numerals in (Polish "dwa dwóch dwoma dwiema", Russian
"два двух двум двумя"): from num2words, and for Polish from the SGJP dictionary
(generator/locale/numbers/pl.tsv, tools/number_words.py). An unbound number word inside an
example is W031 in every language; E039 names the word it compared."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import pytest
from num2words import num2words

from generator.core.diagnostics import Report
from generator.project import Project
from generator.text.claims import claims, compare
from generator.text.numbers import LANGUAGES, value_of, words

from .conftest import REPO, run_cli
from .test_plurals_cldr import polish_game

# Every form a grammar of the language gives each numeral (Polish: Nagórko, "Zarys gramatyki
# polskiej", the numeral's declension; Russian: Zaliznyak), written out here by hand so that the
# generated tables are checked against a second source.
FORMS = {
    "pl": {2: "dwa dwaj dwie dwóch dwu dwom dwóm dwoma dwiema dwoje dwojga dwojgu dwojgiem",
           3: "trzy trzej trzech trzem trzema troje trojga",
           4: "cztery czterej czterech czterem czterema czworo czworga",
           5: "pięć pięciu pięcioma pięcioro", 1: "jeden jedna jedno jednego jednej jednemu jedną jednym",
           12: "dwanaście dwunastu dwunastoma", 20: "dwadzieścia dwudziestu dwudziestoma",
           100: "sto stu stoma"},
    "ru": {2: "два две двух двум двумя", 3: "три трёх трех трём тремя", 4: "четыре четырёх четырём четырьмя",
           5: "пять пяти пятью", 1: "один одна одно одного одной одному одну одним одном",
           40: "сорок сорока", 100: "сто ста"},
    "en": {2: "two", 3: "three", 13: "thirteen", 40: "forty"},
    "de": {1: "eins einen", 2: "zwei zweien zweier beide zweimal", 21: "einundzwanzig", 100: "einhundert"},
    "fr": {2: "deux", 3: "trois", 16: "seize", 20: "vingt"},
    "es": {1: "uno una", 2: "dos ambos ambas", 3: "tres", 16: "dieciséis", 21: "veintiuno veintiuna veintiún"},
    # Ukrainian, with each apostrophe it is written with (' ’ ʼ): the word is one word
    "uk": {1: "один одна одного однієї одному одній одну одним однією", 2: "два дві двох двом двома",
           5: "п'ять п’ять пʼять п'яти п'ятьма", 9: "дев'ять дев’ятьма дев'яти", 19: "дев'ятнадцять", 90: "дев’яносто"},
}
CASES = [(lang, n, form) for lang, table in FORMS.items() for n, forms in table.items() for form in forms.split()]


@pytest.mark.parametrize("lang, number, form", CASES)
def test_every_case_form_is_the_number(lang, number, form):
    assert value_of(form, lang) == number
    assert value_of(form.capitalize(), lang) == number  # at a sentence's start


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_one_word_cardinal_of_num2words_is_read(lang):
    table = words(lang)
    said = {num2words(n, lang=lang): n for n in range(101)}
    assert {w: n for w, n in said.items() if " " not in w and "-" not in w and table.get(w) != n} == {}


def test_the_polish_table_holds_num2words_nominatives_and_nothing_twice():
    rows = [line.split("\t") for line in (REPO / "generator/locale/numbers/pl.tsv").read_text(encoding="utf-8")
            .splitlines() if not line.startswith("#")]
    forms = {row[0]: int(row[1]) for row in rows}
    assert len(forms) == len(rows) and len(rows) > 300
    assert all(forms.get(num2words(n, lang="pl")) == n for n in range(21))
    assert all(row[2].split(":")[0] in ("num", "adj", "subst") for row in rows)  # SGJP's tags, kept


@pytest.mark.skipif(importlib.util.find_spec("morfeusz2") is None, reason="morfeusz2 has wheels for Linux x86-64 only")
def test_the_polish_table_is_what_the_dictionary_generates():
    result = subprocess.run([sys.executable, str(REPO / "tools/number_words.py"), "--check"], capture_output=True,
                            text=True, timeout=120)
    assert result.returncode == 0, result.stdout + result.stderr


@pytest.mark.parametrize("lang, sentence, word", [
    ("pl", "Strzelec ma dwa trafienia.", "dwa"), ("pl", "Rzuca czterema kośćmi.", "czterema"),
    ("ru", "Стрелок рубит двоих.", "двоих"), ("ru", "Бросает четырьмя кубиками.", "четырьмя"),
    ("en", "The rifleman scores two hits.", "two"), ("de", "Der Schütze trifft zweimal.", "zweimal"),
    ("fr", "Le tireur obtient deux touches.", "deux"), ("es", "El tirador logra dos impactos.", "dos"),
])
def test_a_bare_number_word_is_an_unbound_claim_in_every_language(lang, sentence, word):
    (claim,) = claims(sentence, lang)
    assert (claim.text, claim.state) == (word, "unbound")


def test_e039_names_the_word_it_compared():
    found = compare("Oba oddziały tracą [2]{result=straty} figurki.", "Both squads lose [two]{result=straty} "
                    "models, three more.", "pl", "en")
    assert found == "adds 'three' = 3 (unbound)"
    assert compare("Tracą [dwie]{result=straty} figurki.", "They lose [3]{result=straty} models.", "pl", "en") == \
        "drops [dwie]{result=straty} = 2; adds [3]{result=straty}"


# --- a Polish game's worked example, checked ------------------------------------------------

PROCEDURES = '''"""Zwiad: a test game's rule procedures."""

from generator.checker import procedure


@procedure("rzut")
def rzut(game, dice, kosci: int) -> dict:
    """Each die of the pool hits on 4 or more."""
    return {"kosci": kosci, "trafienia": dice.successes(kosci, 4)}
'''
EXAMPLE = """# Rzut

::: example rzut-strzelca
Strzelec rzuca [czterema]{{input=kosci}} kośćmi: wypadają [5]{{die=1}}, [2]{{die=2}}, [6]{{die=3}} i [1]{{die=4}}.
{said}

```check
procedure: rzut
inputs: {{kosci: 4}}
dice: [5, 2, 6, 1]
expect: {{trafienia: 2}}
```
:::
"""
ENGLISH = ("The rifleman rolls [four]{input=kosci} dice: [5]{die=1}, [2]{die=2}, [6]{die=3} and [1]{die=4} "
           "come up.")


def _example_game(root: Path, said: str, english: str) -> Path:
    game = polish_game(root)
    (game / "procedures.py").write_text(PROCEDURES, encoding="utf-8")
    (game / "rules" / "02-rzut.md").write_text(EXAMPLE.format(said=said), encoding="utf-8")
    run_cli("i18n", "update", "en", "zwiad", cwd=root)
    po = game / "locale" / "en.po"
    text = po.read_text(encoding="utf-8")
    source = "Strzelec rzuca [czterema]{input=kosci} kośćmi: wypadają [5]{die=1}, [2]{die=2}, [6]{die=3} i [1]{die=4}."
    entry = f'msgid "{source} {said}"\nmsgstr ""'
    assert entry in text
    text = text.replace(entry, f'msgid "{source} {said}"\nmsgstr "{ENGLISH} {english}"')
    po.write_text(text.replace('msgid "Rzut"\nmsgstr ""', 'msgid "Rzut"\nmsgstr "Rolling"'), encoding="utf-8")
    return game


def test_polish_number_words_in_every_case_bind_and_are_checked(tmp_path):
    _example_game(tmp_path, "Ma [dwa]{result=trafienia} trafienia.", "He scores [two]{result=trafienia} hits.")
    result = run_cli("validate", "--strict", "zwiad", cwd=tmp_path)
    assert result.returncode == 0, result.stdout + result.stderr
    checked = run_cli("check", "zwiad", cwd=tmp_path)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert "6 bound, 0 free, 0 unbound" in checked.stderr  # czterema, dwa and the four faces


def test_a_polish_number_word_that_says_the_wrong_number_fails_the_check(tmp_path):
    _example_game(tmp_path, "Ma [trzy]{result=trafienia} trafienia.", "He scores [three]{result=trafienia} hits.")
    checked = run_cli("check", "zwiad", cwd=tmp_path)
    assert checked.returncode != 0
    assert "02-rzut.md:5:4: the text says trzy, the rules give 2 (result=trafienia)" in checked.stdout


def test_an_unbound_polish_number_word_fails_strict_validation(tmp_path):
    _example_game(tmp_path, "Ma dwa trafienia.", "He scores two hits.")
    report = Report()
    Project(tmp_path).load("zwiad", report)
    (found,) = [d for d in report.diagnostics if d.code == "W031"]
    assert "'dwa'" in found.message and found.location.path.name == "02-rzut.md" and (found.location.line, found.location.col) == (5, 4)
    assert run_cli("validate", "--strict", "zwiad", cwd=tmp_path).returncode != 0


def test_a_translation_that_drops_a_bound_polish_number_word_names_it(tmp_path):
    _example_game(tmp_path, "Ma [dwa]{result=trafienia} trafienia.", "He scores hits.")
    report = Report()
    Project(tmp_path).load("zwiad", report)
    (found,) = [d for d in report.errors if d.code == "E039"]
    assert "drops [dwa]{result=trafienia} = 2" in found.message


def test_value_of_reads_digits_as_before():
    assert value_of("3", "pl") == 3 and value_of("0,5", "pl") == Fraction(1, 2) and value_of("pierwszy", "pl") is None


ROLL = '''from generator.checker import procedure


@procedure("roll")
def roll(game, dice, shots: int = 1) -> dict:
    return {"hits": dice.successes(shots, 4)}
'''
SAID = {"en": "The scout scores two hits.", "de": "Der Späher erzielt zwei Treffer.",
        "fr": "L'éclaireur obtient deux touches.", "es": "El explorador logra dos impactos.",
        "ru": "Разведчик получает двумя кубиками два попадания.", "pl": "Zwiadowca ma dwa trafienia.",
        "uk": "Розвідник кидає дві кості, п’ять і шість: два влучання."}

UNBOUND = {"en": {"two"}, "de": {"zwei"}, "fr": {"deux"}, "es": {"dos"}, "ru": {"двумя", "два"}, "pl": {"dwa"},
           "uk": {"дві", "п’ять", "шість", "два"}}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_an_unbound_number_word_in_an_example_is_w031_in_every_language(tmp_path, lang):
    from .conftest import Workspace

    ws = Workspace(tmp_path)
    ws.edit("game.yaml", "source_language: en", f"source_language: {lang}")
    ws.edit("game.yaml", "  en: Demo", f"  {lang}: Demo")
    ws.write("procedures.py", ROLL)
    ws.write("rules/01-rules.md", f"# Rules\n\n::: example first\n{SAID[lang]}\n```check\nprocedure: roll\n"
                                  "inputs: {shots: 2}\ndice: [5, 6]\nexpect: {hits: 2}\n```\n:::\n")
    found = [d for d in ws.validate().diagnostics if d.code == "W031"]
    assert [(d.location.path.name, d.location.line) for d in found] == [("01-rules.md", 4)] * len(found) and found
    assert {d.message.split("'")[1] for d in found} == UNBOUND[lang]


@pytest.mark.parametrize("apostrophe", ["'", "\u2019", "\u02bc"])
def test_a_ukrainian_number_word_with_an_apostrophe_binds_and_is_checked(tmp_path, apostrophe):
    """`[п'ять]{result=hits}` is one word, five, in a Ukrainian-source game, however the
    apostrophe is written; a wrong one fails the check, naming the word."""
    from .conftest import Workspace

    ws = Workspace(tmp_path)
    ws.edit("game.yaml", "source_language: en", "source_language: uk")
    ws.edit("game.yaml", "  en: Demo", "  uk: Demo")
    ws.write("procedures.py", ROLL)
    five, nine = f"п{apostrophe}ять", f"дев{apostrophe}ять"
    example = ("# Правила\n\n::: example first\nРозвідник стріляє [{shots}]{{input=shots}} разів і має "
               "[{hits}]{{result=hits}} влучань.\n```check\nprocedure: roll\ninputs: {{shots: 5}}\n"
               "dice: [5, 6, 4, 4, 6]\nexpect: {{hits: 5}}\n```\n:::\n")
    ws.write("rules/01-rules.md", example.format(shots=five, hits=five))
    report = ws.validate()
    assert [d for d in report.diagnostics if d.code in ("E038", "W031")] == [], report.diagnostics
    checked = ws.run("check", "demo")
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert "2 bound, 0 free, 0 unbound" in checked.stderr
    ws.write("rules/01-rules.md", example.format(shots=five, hits=nine))
    wrong = ws.run("check", "demo")
    assert wrong.returncode != 0 and f"the text says {nine}, the rules give 5 (result=hits)" in wrong.stdout


def test_an_elided_french_article_still_reads_its_number():
    """The word qu'un is one word for the tokeniser; the number after the elision is still read."""
    from generator.text.numbers import numerals

    assert [(n.text, n.value, n.article) for n in numerals("Il ne reste qu'un dé et l’une des deux.", "fr")] == \
        [("un", 1, True), ("une", 1, True), ("deux", 2, False)]
