"""What the rulebook prints from rules text: rules versus examples, the verified mark,
typography per language, continued lists, headings emptied by designer notes."""

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

::: note
Only for the designer.
:::

## Movement

::: example moving-scouts
Scouts are {{ keyword:fast }}.
:::
"""


def rulebook_text(ws: Workspace, examples=None) -> str:
    ws.write("rules/01-turn.md", CHAPTER)
    result = run_job(Job(ws.root, "demo", "en", "rulebook", examples=examples))
    assert result.error is None, result.error
    return "\n".join(page.extract_text() for page in PdfReader(result.files[0]).pages)


def test_rules_print_as_rules_and_examples_as_examples(ws: Workspace):
    text = rulebook_text(ws, examples=(("first-step", True), ("moving-scouts", True)))
    assert "EXAMPLE" in text.upper() and text.upper().count("EXAMPLE") == 1  # the rule has no label
    assert "A tick in the margin marks a rule" in text


def test_typography_lists_and_empty_headings(ws: Workspace):
    text = rulebook_text(ws)
    assert "“command”" in text and "dice – all" in text and '"' not in text
    assert "Count the points" in text and "Open question" not in text and "Movement" in text


def test_a_list_continued_after_a_box_keeps_its_numbers(ws: Workspace):
    from generator.diagnostics import Report
    from generator.print.context import BuildContext
    from generator.print.rulebook import book_html
    from generator.project import Project

    ws.write("rules/01-turn.md", CHAPTER)
    project = Project(ws.root)
    ctx = BuildContext(project.load("demo", Report(), checks=False), "en", ws.root)
    html = book_html(ctx)
    assert '<ol start="2"' in html and "counter-reset: list-item 1" in html
