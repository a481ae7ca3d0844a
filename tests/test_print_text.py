"""What the rulebook prints from rules text: rules versus examples, the verified mark,
typography per language, continued lists, notes as labelled asides (or left out with
--no-notes, together with the headings they alone filled)."""

from __future__ import annotations

from pypdf import PdfReader

from generator.print.jobs import Job, run_job

from .conftest import Workspace

CHAPTER = """# Turn

Steps:

::: rule first-step
1. Roll the "command" dice - all of them.
:::

2. Count the points.

## Open question

::: note translator
Only for the designer.
:::

## Movement

::: example moving-scouts
Scouts are {{ keyword:fast }}.
:::
"""


def rulebook_text(ws: Workspace, examples=None, notes=True) -> str:
    ws.write("rules/01-turn.md", CHAPTER)
    result = run_job(Job(ws.root, "demo", "en", "rulebook", examples=examples, notes=notes))
    assert result.error is None, result.error
    return "\n".join(page.extract_text() for page in PdfReader(result.files[0]).pages)


def test_rules_print_as_rules_and_examples_as_examples(ws: Workspace):
    text = rulebook_text(ws, examples=(("first-step", True), ("moving-scouts", True)))
    assert "EXAMPLE" in text.upper() and text.upper().count("EXAMPLE") == 1  # the rule has no label
    assert "A tick in the margin marks a rule" in text


def test_typography_lists_and_notes(ws: Workspace):
    text = rulebook_text(ws)
    rules = text.rsplit("Errata and readings", 1)[0]  # the appendix quotes data as written
    assert "“command”" in text and "dice – all" in text and '"' not in rules
    assert "Count the points" in text and "Movement" in text
    # the note prints under its heading, labelled with whose remark it is
    assert "Open question" in text and "Only for the designer." in text
    assert "TRANSLATOR’S NOTE" in text.upper()


def test_no_notes_leaves_out_notes_and_the_headings_they_filled(ws: Workspace):
    text = rulebook_text(ws, notes=False)
    assert "Only for the designer." not in text and "TRANSLATOR" not in text.upper()
    assert "Open question" not in text and "Count the points" in text and "Movement" in text


def test_a_chapter_of_notes_alone_is_left_out_without_notes(ws: Workspace):
    ws.write("rules/02-thanks.md", "# Thanks\n\n## To everyone\n\n::: note editor\nListed in the contents only.\n:::\n")
    with_notes = rulebook_text(ws)
    assert "Thanks" in with_notes and "Listed in the contents only." in with_notes and "EDITOR" in with_notes.upper()
    without = rulebook_text(ws, notes=False)
    assert "Thanks" not in without and "To everyone" not in without and "Movement" in without


def test_the_book_says_whose_note_it_is_in_its_language(ws: Workspace):
    from generator.core.diagnostics import Report
    from generator.print.context import BuildContext
    from generator.print.rulebook import book_html
    from generator.project import Project

    ws.write("rules/01-turn.md", "# Turn\n\n::: note designer\nA.\n:::\n\n::: note editor\nB.\n:::\n\n::: note\nC.\n:::\n")
    game = Project(ws.root).load("demo", Report(), checks=False)
    html = book_html(BuildContext(game, "en", ws.root))
    labels = [part.split("</p>")[0] for part in html.split('<p class="note-label">')[1:]]
    assert labels == ["Designer’s note", "Editor’s note", "Designer note"]
    assert 'class="note note-designer"' in html and 'class="note note-plain"' in html
    from generator.i18n.translate import Translator
    from generator.text.chapters import load_chapters
    from generator.text.render import RenderContext, render_chapter

    site = str(render_chapter(load_chapters(game.folder)[0],
                              RenderContext(game, Translator.load(game, "ru"), "site", lambda r: None)).html)
    assert "<summary>Примечание автора</summary>" in site and "<summary>Примечание редактора</summary>" in site


def test_a_list_continued_after_a_box_keeps_its_numbers(ws: Workspace):
    from generator.core.diagnostics import Report
    from generator.print.context import BuildContext
    from generator.print.rulebook import book_html
    from generator.project import Project

    ws.write("rules/01-turn.md", CHAPTER)
    project = Project(ws.root)
    ctx = BuildContext(project.load("demo", Report(), checks=False), "en", ws.root)
    html = book_html(ctx)
    assert '<ol start="2"' in html and "counter-reset: list-item 1" in html


def test_a_game_chooses_its_reference_sections(ws: Workspace):
    import pytest

    from generator.core.diagnostics import Report
    from generator.print.context import BuildContext
    from generator.print.reference import sheet_html
    from generator.project import Project

    ws.write("print.yaml", "reference: [rules, parameters]\n")
    ctx = BuildContext(Project(ws.root).load("demo", Report(), checks=False), "en", ws.root)
    ids = [part.split('"')[0] for part in sheet_html(ctx).split('id="ref-')[1:]]
    assert ids == ["rules", "parameters"]
    ws.write("print.yaml", "reference: [rules, weather]\n")
    with pytest.raises(ValueError, match=r"print\.yaml:1:20: error\[E004\]: reference\.1: .*'probabilities'"):
        sheet_html(ctx)  # validation reports it too (tests/bad_input.py: print-unknown-section)


def test_every_rulebook_ends_with_its_errata_anchored_by_id(ws: Workspace):
    from generator.core.diagnostics import Report
    from generator.print.context import BuildContext
    from generator.print.rulebook import book_html
    from generator.project import Project

    ws.write("rules/01-turn.md", "# Turn\n\nSee {{ erratum:quick-for-fast }}.\n")
    game = Project(ws.root).load("demo", Report(), checks=False)
    html = book_html(BuildContext(game, "en", ws.root))
    appendix = html.split('id="appendix-errata"')[1]
    assert "Errata and readings" in html.split('id="appendix-errata"')[1][:40]
    entry = appendix.split('<dt id="erratum-quick-for-fast">')[1]
    assert entry.startswith("The Scouts card says")
    assert 'Source:</span> <span lang="en">Quick</span>' in entry and 'Reading:</span> <span lang="en">Fast</span>' in entry
    assert 'href="#erratum-quick-for-fast"' in html  # a reference in the text links to its entry
    assert '<a href="#appendix-errata">Errata and readings</a>' in html  # listed in the contents


def test_no_shipped_rulebook_has_an_empty_heading_without_notes():
    """Rock'n'Roll lists sections its source lacks (only an editor's note under each heading)."""
    import re

    from generator.core.diagnostics import Report
    from generator.print.context import BuildContext
    from generator.print.rulebook import book_html
    from generator.project import Project

    from .conftest import REPO

    game = Project(REPO).load("rock-n-roll", Report(), checks=False)
    for notes in (True, False):
        html = book_html(BuildContext(game, "en", REPO), notes=notes)
        chapters = re.findall(r'<section class="chapter">(.*?)</section>', html, flags=re.S)
        empty = []
        for chapter in chapters:
            parts = re.split(r"<h([1-4])\b[^>]*>(.*?)</h\1>", chapter, flags=re.S)
            # parts: text, level, title, text, level, title, text...
            for i in range(1, len(parts), 3):
                level, title, after = int(parts[i]), parts[i + 1], parts[i + 2]
                following = int(parts[i + 3]) if i + 3 < len(parts) else 0
                if not after.strip() and (following == 0 or following <= level):
                    empty.append(title)
        assert empty == [], notes
        assert ("This section is listed in the table of contents" in html) == notes
