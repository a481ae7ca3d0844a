"""Rulebooks, reference sheets and card sheets are tagged PDF/UA-1 with title, language and XMP metadata."""

from __future__ import annotations

import json

import pytest
from pypdf import PdfReader

from generator.print.fonts import font_face_css
from generator.print.pdf import write_pdf

HTML = ("<!DOCTYPE html><html lang='ru'><head><title>Ядерка — Книга правил</title>"
        "<meta name='author' content='Автор'><style>{fonts} html {{ font-family: 'PT Serif'; }}</style></head>"
        "<body><h1>Правила</h1><p>Текст.</p></body></html>")



@pytest.fixture(autouse=True)
def free_writes(monkeypatch):
    """These tests write PDFs into their own tmp folders, not a project's output/."""
    from generator import outputs

    monkeypatch.setattr(outputs, "_root", None)

def test_rulebook_and_reference_are_tagged(tmp_path):
    for name in ("rulebook.pdf", "reference.pdf"):
        result = write_pdf(HTML.format(fonts=font_face_css()), tmp_path / name, tmp_path, [tmp_path])
        reader = PdfReader(result.path)
        root = reader.trailer["/Root"]
        assert "/StructTreeRoot" in root and root["/StructTreeRoot"].get_object().get("/K")
        assert root["/MarkInfo"]["/Marked"] and root["/Lang"] == "ru"
        xmp = root["/Metadata"].get_object().get_data().decode("utf-8")
        assert "pdfuaid" in xmp and "Ядерка" in xmp
        assert reader.metadata["/Title"] == "Ядерка — Книга правил" and reader.metadata["/Author"] == "Автор"


def test_card_sheets_are_tagged_too(tmp_path):
    result = write_pdf(HTML.format(fonts=font_face_css()), tmp_path / "cards.pdf", tmp_path, [tmp_path])
    assert "/StructTreeRoot" in PdfReader(result.path).trailer["/Root"]


def test_back_titles_fit_the_card():
    """A long game title on a card back shrinks, then breaks into two lines, never wider
    than the card (measured with the shipped font's own widths)."""
    from generator.print.fonts import fit_text, text_width

    title = "Дополнительные правила проведения сражений"
    fitted = fit_text(title, 6.5, 49, bold=True, smallest=3.9)
    assert len(fitted["lines"]) == 2 and fitted["size"] >= 3.9
    assert all(text_width(line, fitted["size"], bold=True) <= 49.01 for line in fitted["lines"])
    assert fit_text("Deadzone", 6.5, 49, bold=True) == {"lines": ["Deadzone"], "size": 6.5}


def test_sheets_say_how_to_print_and_can_leave_drafts_out(ws):
    from generator.print.jobs import Job, run_job

    def cards(**options):
        result = run_job(Job(ws.root, "demo", "en", "cards", images=False, **options))
        assert result.error is None, result.error
        return result

    with_drafts = cards()
    reader = PdfReader(with_drafts.files[0])
    fronts, backs = reader.pages[0].extract_text(), reader.pages[1].extract_text()
    assert "flip on the long edge" in fronts and "Fronts 1/" in fronts and "Backs 1/" in backs
    placed = json.loads((with_drafts.files[1]).read_text(encoding="utf-8"))
    drafts = [c for c in ws.game.joinpath("data").glob("*.yaml") if "incomplete" in c.read_text(encoding="utf-8")]
    assert drafts, "the scaffold has a card marked incomplete"
    without = json.loads(cards(drafts=False).files[1].read_text(encoding="utf-8"))
    assert len(without) < len(placed)
