"""`rulesmith new --source-language L`: a game written in L (rules, data, worked example with
its numbers bound as digits), complete in every other language it is asked for, that validates
strictly, checks and builds, for every language Rulesmith has interface words for."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from importlib import resources
from pathlib import Path

import polib
import pytest
import yaml

from generator.commands.new import TEXT_MARK, scaffold_languages, scaffold_words
from generator.site.pages import page_address

from .conftest import REPO, run_cli

UI_LANGUAGES = sorted(path.stem for path in (REPO / "generator" / "locale" / "ui").glob("*.po"))
LANGUAGES = scaffold_languages()


def _others(lang: str) -> str:
    return ",".join(other for other in LANGUAGES if other != lang)


def _marks() -> set[str]:
    """Every key the scaffold's files name (__T:key__, "__D:key__"); its procedures.py's
    compiled bytecode, where Python keeps it beside the package, is none of them (`new`
    leaves it out too)."""
    from generator.system import folders

    root = resources.files("generator") / "scaffold"
    keys = set()
    for layer in ("game", "complete", "counters"):
        for path in folders.files(Path(str(root / layer)), {"__pycache__"}):
            keys |= {m["dict"] or m["text"] for m in TEXT_MARK.finditer(path.read_text(encoding="utf-8"))}
    return keys


def test_the_scaffold_is_written_in_every_language_of_the_interface():
    assert set(UI_LANGUAGES) <= set(LANGUAGES) and {"en", "ru", "de", "pl", "fr", "es"} <= set(LANGUAGES)
    used = _marks()
    for lang in LANGUAGES:
        words = scaffold_words(lang)
        assert set(words) == used, (lang, sorted(set(words) ^ used))
        assert all(isinstance(text, str) and text.strip() for text in words.values()), lang


def test_one_text_has_one_translation_in_each_language():
    """Where two texts read alike in one language they read alike in every other, so a
    catalog's entry (one per distinct text) gets the translation of every place it stands."""
    for source in LANGUAGES:
        for target in LANGUAGES:
            seen: dict[str, str] = {}
            for key, text in scaffold_words(source).items():
                translation = scaffold_words(target)[key]
                assert seen.setdefault(" ".join(text.split()), translation) == translation, (source, target, key)


def test_the_example_binds_its_numbers_as_digits_in_every_language_but_english():
    for lang in LANGUAGES:
        example = scaffold_words(lang)["example"]
        spans = re.findall(r"\[([^\]]+)\]\{(\w+)=?(\w*)\}", example)
        assert [(kind, ref) for _, kind, ref in spans] == [("input", "shots"), ("die", "1"), ("die", "2"),
                                                           ("result", "hits")], lang
        if lang != "en":
            assert [number for number, _, _ in spans] == ["2", "5", "2", "1"], lang


def _new_games(root: Path, kinds: tuple[str, ...]) -> None:
    """A game of each kind in each language, translated into all the others; all validate strictly."""
    for lang in LANGUAGES:
        for kind in kinds:
            made = run_cli("--root", str(root), "new", f"{kind}-{lang}", "--kind", kind,
                           "--source-language", lang, "--languages", _others(lang))
            assert made.returncode == 0, (lang, kind, made.stderr)
    validate = run_cli("--root", str(root), "validate", "--strict")
    assert validate.returncode == 0, validate.stderr
    assert f"{len(kinds) * len(LANGUAGES)} game(s) validated: 0 error(s), 0 warning(s) — ok" in validate.stderr


@pytest.mark.slow
def test_new_counters_game_in_every_language_validates_strictly(tmp_path: Path):
    _new_games(tmp_path, ("counters",))


def test_new_in_every_language_validates_strictly_and_checks(tmp_path: Path):
    _new_games(tmp_path, ("skirmish",))
    check = run_cli("--root", str(tmp_path), "check", *(f"skirmish-{lang}" for lang in LANGUAGES))
    assert check.returncode == 0, check.stdout + check.stderr
    for lang in LANGUAGES:
        assert (f"skirmish-{lang}: 1 example: 1 passed, 0 failed, 0 unchecked; prose numbers: 4 bound, 0 free, "
                f"0 unbound") in check.stderr, lang
    for lang in LANGUAGES:
        words = scaffold_words(lang)
        game = tmp_path / "content" / f"skirmish-{lang}"
        chapter = f"01-{page_address(words['basics']) or 'basics'}.md"  # named after its title, in Latin letters
        rules = (game / "rules" / chapter).read_text(encoding="utf-8")
        assert all(len(line) <= 95 for line in rules.splitlines()), rules
        rules = rules.replace("\n", " ")  # paragraphs wrapped
        assert words["example"] in rules and words["shooting-text"] in rules
        data = yaml.safe_load((game / "data" / "units.yaml").read_text(encoding="utf-8"))["units"][0]
        assert data["name"] == words["scouts"] and data["keywords"] == [words["quick"]]
        manifest = yaml.safe_load((game / "game.yaml").read_text(encoding="utf-8"))
        assert manifest["source_language"] == lang and manifest["stats"][0]["name"] == words["move"]
        procedures = (game / "procedures.py").read_text(encoding="utf-8")
        assert all(f'"{other}": {json.dumps(scaffold_words(other)["hit-chances-title"], ensure_ascii=False)},'
                   in procedures for other in LANGUAGES), procedures
        for other in LANGUAGES:
            if other == lang:
                continue
            catalog = polib.pofile(str(game / "locale" / f"{other}.po"))
            assert catalog.percent_translated() == 100, (lang, other, [e.msgid for e in catalog.untranslated_entries()])
            translations = {" ".join(e.msgid.split()): e.msgstr for e in catalog}
            assert translations[" ".join(words["example"].split())] == scaffold_words(other)["example"], (lang, other)


def test_new_counters_game_in_polish_validates_strictly(tmp_path: Path):
    made = run_cli("--root", str(tmp_path), "new", "mapa", "--kind", "counters", "--source-language", "pl",
                   "--languages", "en")
    assert made.returncode == 0, made.stderr
    terrain = (tmp_path / "content" / "mapa" / "data" / "terrain.yaml").read_text(encoding="utf-8")
    assert "Teren otwarty" in terrain and "Clear" not in terrain
    validate = run_cli("--root", str(tmp_path), "validate", "--strict", "mapa")
    assert validate.returncode == 0 and "0 warning(s)" in validate.stderr, validate.stderr


def test_new_refuses_a_language_it_is_not_written_in(tmp_path: Path):
    result = run_cli("--root", str(tmp_path), "new", "skirmish", "--source-language", "it")
    assert result.returncode == 2 and "not in 'it'" in result.stderr and "pl" in result.stderr, result.stderr
    assert not (tmp_path / "content" / "skirmish").exists()


def test_a_language_without_scaffold_words_gets_an_untranslated_catalog(tmp_path: Path):
    result = run_cli("--root", str(tmp_path), "new", "skirmish", "--source-language", "pl", "--languages", "en,it")
    assert result.returncode == 0, result.stderr
    locale = tmp_path / "content" / "skirmish" / "locale"
    assert polib.pofile(str(locale / "en.po")).percent_translated() == 100
    assert polib.pofile(str(locale / "it.po")).translated_entries() == []


def _pdf_text(path: Path) -> str:
    return subprocess.run(["pdftotext", str(path), "-"], capture_output=True, text=True, check=True).stdout


@pytest.mark.skipif(shutil.which("pdftotext") is None, reason="needs pdftotext (poppler-utils)")
def test_a_polish_game_builds_its_english_rulebook_in_english(tmp_path: Path):
    made = run_cli("--root", str(tmp_path), "new", "potyczka", "--source-language", "pl", "--languages", "en")
    assert made.returncode == 0, made.stderr
    build = run_cli("--root", str(tmp_path), "build", "--game", "potyczka", "--lang", "en", "--only", "rulebook")
    assert build.returncode == 0, build.stderr
    text = " ".join(_pdf_text(tmp_path / "output" / "potyczka" / "en" / "rulebook.pdf").split())
    english, polish = scaffold_words("en"), scaffold_words("pl")
    assert "The Scouts fire twice and roll a 5 and a 2: one hit." in text
    for key in ("basics", "shooting", "scouts", "weather", "glossary", "fast", "infantry"):
        assert english[key] in text, key
    for key in ("basics", "shooting", "scouts", "weather", "glossary", "infantry", "orders"):
        assert not re.search(rf"\b{re.escape(polish[key])}\b", text), key


@pytest.mark.slow
@pytest.mark.parametrize("lang", LANGUAGES)
def test_new_in_each_language_builds_everything(tmp_path: Path, lang: str):
    made = run_cli("--root", str(tmp_path), "new", "game", "--source-language", lang, "--languages", _others(lang))
    assert made.returncode == 0, made.stderr
    build = run_cli("--root", str(tmp_path), "build", "--game", "game")
    assert build.returncode == 0, build.stderr
    for other in LANGUAGES:
        assert (tmp_path / "output" / "game" / other / "rulebook.pdf").stat().st_size > 1000, other


def test_a_regional_language_is_written_in_its_language(tmp_path: Path):
    made = run_cli("--root", str(tmp_path), "new", "gra", "--source-language", "pl-PL")
    assert made.returncode == 0, made.stderr
    manifest = (tmp_path / "content" / "gra" / "game.yaml").read_text(encoding="utf-8")
    assert "source_language: pl-PL" in manifest and scaffold_words("pl")["summary"] in manifest
