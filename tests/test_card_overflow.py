"""Reference cards too long for one card: a table continues on as many cards as it needs, its
head on each; a card that cannot be split and does not fit is an error (E040), and its sheets
are not written as cards.pdf."""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

import pytest

from generator.print import fitting
from generator.print.jobs import Job, run_job

from .conftest import Workspace, line_of

ROWS = 36
MOVE_TEXT = "    text: The unit moves up to its Move.\n"
# an action text that overflows its card by a millimetre or two at the minimum size: it runs
# into the card's foot, inside the card, where no other layout check would see it cut off
TOO_LONG = "Move every model of the unit up to its move, then check the ground again. " * 30


def _reference_game(ws: Workspace) -> Workspace:
    """The demo game with no cards or units of its own: its tables and actions print as
    reference cards."""
    ws.write("data/cards.yaml", "cards: []\n")
    ws.write("data/units.yaml", "units: []\n")
    return ws


def _card_texts(pdf: Path, placements: list[dict]) -> dict[str, str]:
    """Each card front's text, read by pdftotext inside the card's place on its sheet."""
    texts = {}
    for place in placements:
        (x, y), (w, h), page = place["front"], place["size"], 2 * place["sheet"] - 1
        box = [str(round(v * 72 / 25.4)) for v in (x, y, w, h)]
        texts[place["card"]] = subprocess.run(
            ["pdftotext", "-r", "72", "-f", str(page), "-l", str(page), "-x", box[0], "-y", box[1], "-W", box[2],
             "-H", box[3], str(pdf), "-"], capture_output=True, text=True, check=True).stdout
    return texts


@pytest.fixture(scope="module")
def long_table(tmp_path_factory):
    """A game whose one table has more rows than three reference cards hold, its cards built."""
    ws = _reference_game(Workspace(tmp_path_factory.mktemp("long-table")))
    rows = "".join(f"      - {{result: Row {n:02d}, effect: Every unit of the row's side rolls again and keeps "
                   f"the better die for this turn.}}\n" for n in range(1, ROWS + 1))
    ws.write("data/tables.yaml", "tables:\n  - id: events\n    name: Events\n    columns:\n"
             "      - {id: result, name: Outcome}\n      - {id: effect, name: What happens}\n"
             "    rows:\n" + rows)
    result = run_job(Job(ws.root, "demo", "en", "cards", images=False))
    assert result.error is None, result.error
    return ws, result


def test_a_long_table_continues_on_cards_each_with_its_head_every_row_once_in_order(long_table):
    ws, result = long_table
    assert not [d for d in result.diagnostics if d.code in ("W003", "E040")], result.diagnostics
    pdf = ws.root / "output/demo/en/cards.pdf"
    assert pdf.is_file() and not pdf.with_name("cards.layout-errors.pdf").exists()
    placements = json.loads(pdf.with_name("cards.json").read_text(encoding="utf-8"))
    parts = [p["card"] for p in placements if p["card"].startswith("table-events")]
    assert len(parts) >= 3 and parts == [f"table-events-{n}" for n in range(1, len(parts) + 1)]
    texts = _card_texts(pdf, placements)
    rows = []
    for n, card in enumerate(parts, start=1):
        text = texts[card]
        assert f"Events ({n})" in text  # titled with its number, like every continued card
        assert "Outcome" in text and "What happens" in text  # the table's head on every card
        rows += re.findall(r"Row (\d\d)", text)
    assert rows == [f"{n:02d}" for n in range(1, ROWS + 1)]  # none lost, none twice, none moved


def test_a_card_that_cannot_be_split_and_does_not_fit_is_an_error_and_cards_pdf_is_not_written(ws, monkeypatch):
    _reference_game(ws)
    path = ws.edit("data/actions.yaml", MOVE_TEXT, f"    text: {TOO_LONG.strip()}\n")
    result = ws.run("build", "--only", "cards", "--no-images", "--jobs", "1")
    said = result.stdout + result.stderr
    assert result.returncode == 1, said
    assert f"content/demo/data/actions.yaml:{line_of(path, '- id: move')}:" in said and "error[E040]" in said, said
    assert "card 'action-move' (en) does not fit" in said and "W003" not in said, said
    assert not (ws.root / "output/demo/en/cards.pdf").exists()
    assert (ws.root / "output/demo/en/cards.layout-errors.pdf").is_file()
    with monkeypatch.context() as patched:  # the next build takes every text size from fit.json
        patched.setattr(fitting, "_fit", _never_laid_out)
        again = run_job(Job(ws.root, "demo", "en", "cards", images=False))
    errors = [d for d in again.diagnostics if d.code == "E040" and "card 'action-move' (en) does not fit" in d.message]
    assert errors and errors[0].location.line == line_of(path, "- id: move"), again.diagnostics
    assert again.files[0].name == "cards.layout-errors.pdf" and not (ws.root / "output/demo/en/cards.pdf").exists()
    ws.edit("data/actions.yaml", TOO_LONG.strip(), "The unit moves up to its Move.")
    fixed = run_job(Job(ws.root, "demo", "en", "cards", images=False))
    assert [f.name for f in fixed.files] == ["cards.pdf", "cards.json"], fixed.diagnostics
    assert not (ws.root / "output/demo/en/cards.layout-errors.pdf").exists()


def _never_laid_out(*args):
    raise AssertionError("a card was laid out again: its size should have come from fit.json")


def test_a_back_a_little_too_long_is_an_error_too(ws):
    # the back's text runs a few millimetres into the back's foot at the minimum size
    path = ws.edit("data/cards.yaml", "    text: One unit moves and then attacks.\n",
                   "    text: One unit moves and then attacks.\n    back:\n      title: Spent\n"
                   f"      text: {'Turn it over when the unit has moved and attacked. ' * 26}\n")
    result = run_job(Job(ws.root, "demo", "en", "cards", images=False, print_shops=("drivethrucards",)))
    errors = [d for d in result.diagnostics if d.code == "E040"]
    assert errors and "card 'advance.back' (en) does not fit" in errors[0].message, result.diagnostics
    assert not (ws.root / "output/demo/en/print-shop/drivethrucards").exists()  # never sent to a printer cut off
    assert errors[0].location.path.name == "cards.yaml" and errors[0].location.line == line_of(path, "- id: advance")
    assert result.files[0].name == "cards.layout-errors.pdf"
    assert not (ws.root / "output/demo/en/cards.pdf").exists()


def test_deadzone_reference_cards_fit_in_russian(shipped):
    result = run_job(Job(shipped, "deadzone", "ru", "cards", images=False))
    assert result.error is None, result.error
    assert not [d for d in result.diagnostics if d.code in ("W003", "E040")], result.diagnostics
    assert result.files[0].name == "cards.pdf"
    placements = json.loads(result.files[0].with_name("cards.json").read_text(encoding="utf-8"))
    assert [p["card"] for p in placements if p["card"].startswith("table-model-parameters")] == \
        ["table-model-parameters-1", "table-model-parameters-2"]
    texts = _card_texts(result.files[0], placements)
    for n, (first, last) in enumerate((("ИМЯ", "Имя или название модели"), ("РУКОПАШНАЯ", "ранг в кампании.")), 1):
        text = " ".join(texts[f"table-model-parameters-{n}"].split())
        assert f"Параметры модели ({n})" in text and "Параметр" in text and "Описание" in text, text
        assert first in text and last in text, text  # the first row on the first card, the last on the second


def test_the_site_fits_its_faces_once_for_both_a_page_per_card_and_the_printed_cards(ws, monkeypatch):
    """The site's pages take a face per card and its previews the cards as printed (a long
    table continued, a card that does not fit reported): `fitted_both` gives both from one
    measuring, the same faces and the same report as the two fittings apart, and works out
    each face's key once."""
    from generator.core.diagnostics import Report
    from generator.print.cardfaces import all_faces
    from generator.print.context import BuildContext
    from generator.project import Project

    _reference_game(ws)
    rows = "".join(f"      - {{result: Row {n:02d}, effect: Every unit of the row's side rolls again.}}\n"
                   for n in range(1, ROWS + 1))
    ws.write("data/tables.yaml", "tables:\n  - id: events\n    name: Events\n    columns:\n"
             "      - {id: result, name: Outcome}\n      - {id: effect, name: What happens}\n    rows:\n" + rows)
    ws.edit("data/actions.yaml", MOVE_TEXT, f"    text: {TOO_LONG.strip()}\n")
    ctx = BuildContext(Project(ws.root).load("demo", Report(), checks=False), "en", ws.root)
    faces = all_faces(ctx)
    apart = Report()
    whole, printed = fitting.fitted_faces(ctx, faces, Report()), fitting.fitted_faces(ctx, faces, apart, split_long=True)
    assert len(printed) > len(whole) and fitting.unfit(printed)  # continued cards, and one that does not fit
    keys = []
    real = fitting._key
    monkeypatch.setattr(fitting, "_key", lambda *args: keys.append(args[1].id) or real(*args))
    both = Report()
    assert fitting.fitted_both(ctx, faces, both) == (whole, printed)
    assert [d.message for d in both.diagnostics] == [d.message for d in apart.diagnostics] and both.diagnostics
    assert all(keys.count(face.id) == 1 for face in faces), keys  # each face measured once, not once a fitting
