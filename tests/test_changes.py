"""`rulesmith changes`: what changed between two versions of a game, in every edition.

On a copy of the shipped game nuclear (Russian source, English edition) in a temporary git
repository: tag v1, then one commit that changes a paragraph, a unit's cost and another
unit's text."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import polib
import pytest

from generator.changes import ADDED, CHANGED, FUZZY, MISSING, REMOVED, RENAMED, SAME, TRANSLATED
from generator.changes.compare import compare
from generator.changes.report import word_diff
from generator.changes.text import Block, aligned, blocks
from generator.core.diagnostics import Report
from generator.i18n.messages import normalize
from generator.model import GameManifest
from generator.project import Project
from generator.text.chapters import load_chapter

from .conftest import REPO, run_cli

GAME = "nuclear"
OLD_SENTENCE, NEW_SENTENCE = "По гексам перемещается именно отряд.", "По гексам перемещается только отряд целиком."
OLD_TEXT = "Матерые солдаты, прошедшие несколько компаний."
NEW_TEXT = "Матерые солдаты, прошедшие не одну кампанию."


def _git(root: Path, *args: str) -> str:
    done = subprocess.run(["git", "-C", str(root), "-c", "user.name=Designer", "-c", "user.email=d@example.org",
                           *args], capture_output=True, text=True, check=True)
    return done.stdout


def _edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text, f"{old!r} not in {path}"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def _copy(root: Path) -> Path:
    shutil.copytree(REPO / "content" / GAME, root / "content" / GAME)
    return root / "content" / GAME


@pytest.fixture(scope="module")
def history(tmp_path_factory) -> Path:
    """A project in git: v1 is the shipped game; HEAD changes one paragraph of 01-basics.md,
    the recruits' cost (80 → 85) and the veterans' text, and sets version: "1.1"."""
    root = tmp_path_factory.mktemp("history")
    game = _copy(root)
    _git(root, "init", "-q")
    _git(root, "add", "-A")
    _git(root, "commit", "-qm", "v1")
    _git(root, "tag", "v1")
    _edit(game / "rules" / "01-basics.md", OLD_SENTENCE, NEW_SENTENCE)
    _edit(game / "data" / "units.yaml", "cost: 80, reinforcement-cost: 8}", "cost: 85, reinforcement-cost: 8}")
    _edit(game / "data" / "units.yaml", f"text: {OLD_TEXT}", f"text: {NEW_TEXT}")
    _edit(game / "game.yaml", "source_language: ru\n", 'source_language: ru\nversion: "1.1"\n')
    _git(root, "commit", "-qam", "v1.1")
    return root


def _changes(root: Path, *args: str) -> dict:
    done = run_cli("--root", str(root), "changes", GAME, *args, "--format", "json")
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def _english(msgid: str) -> str:
    """The shipped English catalog's translation of a source text."""
    catalog = polib.pofile(str(REPO / "content" / GAME / "locale" / "en.po"))
    entry = next(e for e in catalog if e.msgid == normalize(msgid) and not e.obsolete)
    assert entry.msgstr and not entry.fuzzy
    return entry.msgstr


def test_one_commit_gives_exactly_its_three_changes_in_both_languages(history):
    found = _changes(history, "--since", "v1")  # the examples of both versions run too: no verdict moved
    assert found["version"] == {"old": None, "new": "1.1"}
    changes = found["changes"]
    assert [c["what"] for c in changes] == ["unit nuclear/recruits: cost", "unit nuclear/veterans: text",
                                          "01-basics › Правила: paragraph"]
    cost, text, paragraph = changes
    assert (cost["kind"], cost["action"], cost["old"], cost["new"]) == ("field", CHANGED, "80", "85")
    assert cost["editions"]["en"] == {"state": SAME, "old": "80", "new": "85"}
    assert (cost["file"], cost["line"]) == ("content/nuclear/data/units.yaml", 7)

    assert (text["old"], text["new"]) == (OLD_TEXT, NEW_TEXT)
    assert text["editions"]["en"] == {"state": FUZZY, "old": _english(OLD_TEXT), "new": None}

    assert paragraph["kind"] == "paragraph" and paragraph["action"] == CHANGED
    assert all(change["case"] is None for change in changes)  # nuclear does not number its cases
    assert OLD_SENTENCE in paragraph["old"] and NEW_SENTENCE in paragraph["new"]
    assert paragraph["editions"]["en"]["state"] == FUZZY  # en.po translates the paragraph as it was
    assert paragraph["editions"]["en"]["old"] == _english(paragraph["old"])
    assert (paragraph["file"], paragraph["source_language"]) == ("content/nuclear/rules/01-basics.md", "ru")


def test_an_unchanged_game_gives_no_entries(history):
    assert _changes(history, "--since", "HEAD", "--no-examples")["changes"] == []
    done = run_cli("--root", str(history), "changes", GAME, "--since", "HEAD", "--no-examples")
    assert done.returncode == 0 and done.stdout == ""
    assert "0 change(s)" in done.stderr


def test_since_dir_gives_what_since_gives(history, tmp_path):
    old = tmp_path / "v1"
    shutil.copytree(REPO / "content" / GAME, old)  # v1 is the shipped game, outside git
    by_git = _changes(history, "--since", "v1", "--no-examples")["changes"]
    by_folder = _changes(history, "--since-dir", str(old), "--no-examples")["changes"]
    assert len(by_git) == 3 and by_folder == by_git


def test_text_and_github_formats_name_each_change_at_its_line(history):
    text = run_cli("--root", str(history), "changes", GAME, "--since", "v1", "--no-examples")
    assert "content/nuclear/data/units.yaml:7:57: unit nuclear/recruits: cost 80 → 85" in text.stdout
    assert f"  ru + {NEW_TEXT}" in text.stdout and "  en: fuzzy" in text.stdout
    assert "  ru ~ … десятков. По гексам перемещается [-именно отряд.-] {+только отряд целиком.+} Юнит не может " \
        "делиться …" in text.stdout
    assert "3 change(s) — to translate: en: 2 fuzzy, 0 missing" in text.stderr
    github = run_cli("--root", str(history), "changes", GAME, "--since", "v1", "--no-examples", "--format", "github")
    lines = github.stdout.splitlines()
    assert len(lines) == 3
    assert lines[0] == ("::notice file=content/nuclear/data/units.yaml,line=7,title=changed::"
                        "unit nuclear/recruits: cost 80 → 85")
    assert lines[2].startswith("::notice file=content/nuclear/rules/01-basics.md,") and lines[2].endswith("[en fuzzy]")


@pytest.mark.parametrize("args, says", [
    (("--since", "no-such-tag"), "unknown revision 'no-such-tag'"),
    (("--since", "--upload-pack=x"), "unknown revision"),
    ((), "--since REF"),
])
def test_a_bad_version_is_a_usage_error_in_one_line(history, args, says):
    done = run_cli("--root", str(history), "changes", GAME, *args)
    assert done.returncode == 2 and done.stdout == ""
    assert says in done.stderr and len(done.stderr.strip().splitlines()) == 1, done.stderr


def test_a_project_outside_git_is_told_to_use_since_dir(tmp_path):
    _copy(tmp_path)
    done = run_cli("--root", str(tmp_path), "changes", GAME, "--since", "v1")
    assert done.returncode == 2 and "not in a git repository" in done.stderr and "--since-dir" in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1


def test_an_older_copy_that_does_not_load_says_why_in_one_line(history, tmp_path):
    old = tmp_path / GAME
    shutil.copytree(REPO / "content" / GAME, old)
    (old / "game.yaml").write_text("id: [\n", encoding="utf-8")
    done = run_cli("--root", str(history), "changes", GAME, "--since-dir", str(old))
    assert done.returncode == 2 and "cannot be loaded: content/nuclear/game.yaml:2:1: error[E001]" in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1


def test_a_project_in_a_folder_of_its_repository(tmp_path):
    project = tmp_path / "rules"
    shutil.copytree(REPO / "content" / "battle-rules", project / "content" / "battle-rules")
    _git(tmp_path, "init", "-q")
    _git(tmp_path, "add", "-A")
    _git(tmp_path, "commit", "-qm", "v1")
    _edit(project / "content" / "battle-rules" / "data" / "units.yaml", "      models: 10\n", "      models: 12\n")
    done = run_cli("--root", str(project), "changes", "battle-rules", "--since", "HEAD", "--no-examples",
                   "--format", "json")
    assert done.returncode == 0, done.stderr
    changes = json.loads(done.stdout)["changes"]
    assert [(c["what"], c["old"], c["new"]) for c in changes] == [("unit battle-rules/scouts: models", "10", "12")]


def _read(root: Path) -> object:
    game = Project(root).read(GAME, Report())
    assert game is not None
    return game


@pytest.fixture
def two_copies(tmp_path) -> tuple[Path, Path]:
    old, new = tmp_path / "old", tmp_path / "new"
    _copy(old)
    _copy(new)
    return old, new


def test_a_renamed_record_is_one_entry(two_copies):
    old, new = two_copies
    for path in (new / "content" / GAME).rglob("*"):  # the id and every reference to it
        if path.is_file() and path.suffix in (".yaml", ".md", ".py") and "locale" not in path.parts:
            text = path.read_text(encoding="utf-8")
            if "heavy-weapons-platoon" in text:
                path.write_text(text.replace("heavy-weapons-platoon", "heavy-weapons-squad"), encoding="utf-8")
    changes = compare(_read(old), _read(new), examples=False)
    assert [(c.action, c.what, c.old, c.new) for c in changes] == [
        (RENAMED, "unit nuclear/heavy-weapons-platoon: id", "heavy-weapons-platoon", "heavy-weapons-squad")]


def test_a_renamed_record_with_a_changed_field_is_still_one_entry(two_copies):
    old, new = two_copies
    units = new / "content" / GAME / "data" / "units.yaml"
    _edit(units, "  - id: recruits\n", "  - id: conscripts\n")
    _edit(units, "cost: 80, reinforcement-cost: 8}", "cost: 85, reinforcement-cost: 8}")
    for path in (new / "content" / GAME).rglob("*"):  # every reference: rosters, {{ unit:recruits }}, check blocks
        if path.is_file() and path.suffix in (".yaml", ".md") and "locale" not in path.parts and path != units:
            path.write_text(path.read_text(encoding="utf-8").replace("recruits", "conscripts"), encoding="utf-8")
    changes = compare(_read(old), _read(new), examples=False)
    assert len(changes) == 1, [c.what for c in changes]
    assert (changes[0].action, changes[0].new, changes[0].note) == (RENAMED, "conscripts", "cost 80 → 85")


def test_a_record_removed_and_one_added_are_one_entry_each(two_copies):
    old, new = two_copies
    units = new / "content" / GAME / "data" / "units.yaml"
    text = units.read_text(encoding="utf-8")
    start = text.index("  - id: veterans\n")
    end = text.index("  - id: grenadiers\n")
    militia = ("  - id: militia\n    name: Ополчение\n    stats: {models: 20, quality: 6+, defense: 6+, cost: 40, "
               "reinforcement-cost: 2}\n    keywords: [Пехота]\n    text: Вооружённые горожане.\n\n")
    units.write_text(text[:start] + militia + text[end:], encoding="utf-8")
    changes = compare(_read(old), _read(new), examples=False)
    assert [(c.kind, c.action, c.what) for c in changes] == [
        ("record", REMOVED, "unit nuclear/veterans"), ("record", ADDED, "unit nuclear/militia")]
    removed, added = changes
    assert "cost: 80" in removed.old and removed.new is None and removed.editions["en"].state == TRANSLATED
    assert _english(OLD_TEXT) in removed.editions["en"].old
    assert "text: Вооружённые горожане." in added.new and added.editions["en"].state == MISSING


def test_an_edition_is_missing_for_new_text_and_translated_once_its_catalog_says_it(two_copies):
    old, new = two_copies
    game = new / "content" / GAME
    _edit(game / "rules" / "01-basics.md", "# Правила\n", "# Правила\n\nНовый абзац о гексах.\n")
    _edit(game / "data" / "units.yaml", f"text: {OLD_TEXT}", f"text: {NEW_TEXT}")
    changes = compare(_read(old), _read(new), examples=False)
    added = next(c for c in changes if c.kind == "paragraph")
    assert (added.action, added.old, added.new) == (ADDED, None, "Новый абзац о гексах.")
    assert added.editions["en"].state == MISSING and added.editions["en"].new is None

    catalog = polib.pofile(str(game / "locale" / "en.po"))  # the translator catches up
    catalog.append(polib.POEntry(msgid="Новый абзац о гексах.", msgstr="A new paragraph about hexes."))
    catalog.append(polib.POEntry(msgid=NEW_TEXT, msgstr="Hardened soldiers of more than one campaign."))
    catalog.save()
    changes = compare(_read(old), _read(new), examples=False)
    states = {c.what: (c.editions["en"].state, c.editions["en"].new) for c in changes}
    assert states == {"01-basics › Правила: paragraph": (TRANSLATED, "A new paragraph about hexes."),
                      "unit nuclear/veterans: text": (TRANSLATED, "Hardened soldiers of more than one campaign.")}


def test_a_sentence_cut_from_a_paragraph_changes_that_paragraph(two_copies):
    old, new = two_copies
    game = new / "content" / GAME
    _edit(game / "rules" / "01-basics.md", OLD_SENTENCE, "")
    changes = compare(_read(old), _read(new), examples=False)
    assert [(c.kind, c.action) for c in changes] == [("paragraph", CHANGED)]
    assert NEW_SENTENCE not in changes[0].new and OLD_SENTENCE in changes[0].old
    assert changes[0].action != REMOVED


def test_an_example_whose_verdict_moves_is_listed(two_copies):
    old, new = two_copies
    lasgun = "stats: {range: Н3, attacks: 1}"
    _edit(new / "content" / GAME / "data" / "weapons.yaml", lasgun, lasgun.replace("Н3", "Н4"))
    changes = compare(_read(old), _read(new), examples=True)
    verdicts = [(c.what, c.old, c.new) for c in changes if c.kind == "example"]
    assert ("example weapon-notation: verdict", "pass", "fail") in verdicts
    assert all(c.editions == {} for c in changes if c.kind == "example")


def test_a_table_row_is_one_entry_with_each_edition_s_cells(two_copies):
    old, new = two_copies
    flavour = "Даже по меркам Крига, это катастрофа."
    _edit(new / "content" / GAME / "data" / "tables.yaml", flavour, "Даже по меркам Крига, это бедствие.")
    changes = compare(_read(old), _read(new), examples=False)
    assert [(c.what, c.action) for c in changes] == [("table nuclear/random-events: row 1", CHANGED)]
    row = changes[0]
    assert row.old.startswith("roll: 1-5 | event: Колоссальная радиоактивная буря |") and row.old.endswith(flavour)
    english = row.editions["en"]
    assert english.state == FUZZY and english.new is None
    assert english.old == (f"roll: 1-5 | event: {_english('Колоссальная радиоактивная буря')} | effect: "
                           f"{_english(row.old.split(' | effect: ')[1].split(' | flavour: ')[0])} | "
                           f"flavour: {_english(flavour)}")


def test_the_blocks_of_a_chapter_are_named_by_their_headings(tmp_path):
    chapter = load_chapter(tmp_path / "03-combat.md", (
        "# Бой\n\nВступление.\n\n## Стрельба\n\n- Первый пункт.\n\n| Бросок | Итог |\n|---|---|\n| 1 | Промах |\n\n"
        "```check\nprocedure: shoot\n```\n\n# Другое\n\nКонец.\n"))
    found = [(b.kind, b.trail, b.value, b.line) for b in blocks(chapter)]
    assert found == [
        ("heading", (), "Бой", 1), ("paragraph", ("Бой",), "Вступление.", 3),
        ("heading", ("Бой",), "Стрельба", 5), ("item", ("Бой", "Стрельба"), "Первый пункт.", 7),
        ("row", ("Бой", "Стрельба"), ("Бросок", "Итог"), 9), ("row", ("Бой", "Стрельба"), ("1", "Промах"), 11),
        ("check", ("Бой", "Стрельба"), "procedure: shoot", 13),
        ("heading", (), "Другое", 17), ("paragraph", ("Другое",), "Конец.", 19)]


def test_a_paragraph_moved_and_reworded_is_one_change():
    def block(text: str, line: int) -> Block:
        return Block("paragraph", ("Правила",), text, line, (text,))

    first, second, third = ("Первый абзац о движении юнитов.", "Второй абзац о стрельбе.",
                            "Третий абзац о рукопашной схватке.")
    old = [block(first, 1), block(second, 3), block(third, 5)]
    new = [block(second, 1), block(third, 3), block("Первый абзац о движении отрядов.", 5)]
    pairs = list(aligned(old, new))
    assert [(a.text if a else None, b.text if b else None) for a, b in pairs] == [
        (first, "Первый абзац о движении отрядов.")]


def test_a_word_diff_shows_what_a_rewording_changed_with_a_little_context():
    old = " ".join(f"w{i}" for i in range(1, 21))
    assert word_diff(old, old.replace("w10 ", "")) == "… w6 w7 w8 w9 [-w10-] w11 w12 w13 w14 …"
    assert word_diff("a b", "a b c") == "a b {+c+}"


def test_version_is_text_and_a_number_says_to_quote_it():
    manifest = {"id": "x", "title": {"ru": "Икс"}, "source_language": "ru"}
    assert GameManifest.model_validate({**manifest, "version": "1.10"}).version == "1.10"
    with pytest.raises(ValueError, match="write the version in quotes"):
        GameManifest.model_validate({**manifest, "version": 1.1})


def _pdf_text(path: Path) -> str:
    import pypdfium2 as pdfium

    document = pdfium.PdfDocument(str(path))
    return "\n".join(page.get_textpage().get_text_range() for page in document)


def test_build_asks_for_the_older_version_of_its_errata_sheet(history):
    alone = run_cli("--root", str(history), "build", "--game", GAME, "--only", "changes")
    assert alone.returncode == 2 and "--changes-since REF" in alone.stderr
    unknown = run_cli("--root", str(history), "build", "--game", GAME, "--only", "changes", "--changes-since", "v9")
    assert unknown.returncode == 2 and "unknown revision 'v9'" in unknown.stderr
    assert len(unknown.stderr.strip().splitlines()) == 1


# A game that numbers its cases: frames (numbering: cases, 02-frame-turn.md starts at 5.3).
FRAMES = "frames"
ORDER_OLD = "Разницы между Атакой-Движением и Движением-Атакой нет."
ORDER_NEW = "Разницы между Атакой-Движением и Движением-Атакой никакой нет."
RANGE_OLD = "- Цель должна быть в пределах объявленной ранее дальности (см. пункт {{ case:target-and-range }})."
RANGE_NEW = "- Цель должна быть в пределах дальности, объявленной ранее (см. пункт {{ case:target-and-range }})."
RANGE_EN = "The target must be within the declared range (see section {{ case:target-and-range }})."


@pytest.fixture(scope="module")
def numbered(tmp_path_factory) -> Path:
    """frames in git; HEAD rewords a paragraph of 5.3.4 (a heading numbered alone, `##`) and
    the first item of 5.3.4.1 Атака, which cites 5.3.1 by `{{ case:target-and-range }}`; the
    English catalog translates the new item."""
    root = tmp_path_factory.mktemp("numbered")
    shutil.copytree(REPO / "content" / FRAMES, root / "content" / FRAMES)
    _git(root, "init", "-q")
    _git(root, "add", "-A")
    _git(root, "commit", "-qm", "v1")
    game = root / "content" / FRAMES
    _edit(game / "rules" / "02-frame-turn.md", ORDER_OLD, ORDER_NEW)
    _edit(game / "rules" / "02-frame-turn.md", RANGE_OLD, RANGE_NEW)
    catalog = polib.pofile(str(game / "locale" / "en.po"))
    catalog.append(polib.POEntry(msgid=RANGE_NEW[2:], msgstr=RANGE_EN))
    catalog.save()
    _git(root, "commit", "-qam", "v2")
    return root


def test_a_numbered_game_names_each_change_by_its_case(numbered):
    done = run_cli("--root", str(numbered), "changes", FRAMES, "--since", "HEAD~1", "--no-examples", "--format", "json")
    assert done.returncode == 0, done.stderr
    order, target = json.loads(done.stdout)["changes"]
    assert (order["what"], order["case"]) == ("5.3.4: paragraph 1", "5.3.4")  # `##`: the number alone
    assert (target["what"], target["case"]) == ("5.3.4.1 Атака: item 1", "5.3.4.1")
    # the texts as the reader reads them: the reference printed as the number it names, in every edition
    assert target["old"] == "Цель должна быть в пределах объявленной ранее дальности (см. пункт 5.3.1)."
    assert target["new"] == "Цель должна быть в пределах дальности, объявленной ранее (см. пункт 5.3.1)."
    assert target["editions"]["en"] == {
        "state": TRANSLATED, "old": "The target must be within the range declared earlier (see section 5.3.1).",
        "new": "The target must be within the declared range (see section 5.3.1)."}
    assert not any("{{" in json.dumps(change, ensure_ascii=False) for change in (order, target))
    text = run_cli("--root", str(numbered), "changes", FRAMES, "--since", "HEAD~1", "--no-examples").stdout
    assert "02-frame-turn.md:107: 5.3.4.1 Атака: item 1 changed" in text and "(см. пункт 5.3.1)" in text
    github = run_cli("--root", str(numbered), "changes", FRAMES, "--since", "HEAD~1", "--no-examples",
                     "--format", "github").stdout.splitlines()
    assert github[0].endswith("::5.3.4: paragraph 1 changed [en fuzzy]"), github


@pytest.mark.parametrize("lang, order, target", [
    ("ru", "5.3.4, абзац 1", "5.3.4.1 Атака, пункт списка 1"),
    ("en", "5.3.4, paragraph 1", "5.3.4.1 Attack, item 1")])
def test_the_errata_sheet_names_a_numbered_change_by_its_case_in_each_edition(numbered, lang, order, target):
    from generator.changes.versions import from_git
    from generator.print.changesheet import _where
    from generator.print.context import BuildContext
    from generator.print.living import Since

    new = Project(numbered).load(FRAMES, Report(), checks=False)
    with from_git(numbered, FRAMES, "HEAD~1") as folder:
        old = Project(folder).load(FRAMES, Report(), checks=False)
        changes = compare(old, new, examples=False)
    ctx = BuildContext(new, lang, numbered)
    assert [_where(ctx, change) for change in changes] == [order, target]
    found = Since("HEAD~1", old, new, changes)  # the site links each to its own heading: 5.3.4 and 5.3.4.1
    assert [found.heading(change) for change in changes] == [("02-frame-turn.md", 4), ("02-frame-turn.md", 5)]
    # the sheet renders the text as written: the old paragraph from its Markdown, the reference linked as a number
    assert changes[1].markup[1] == RANGE_NEW[2:]
