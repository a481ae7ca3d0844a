"""Rulebooks and reference sheets are tagged PDF/UA-1 with title, language and XMP metadata."""

from __future__ import annotations

from pypdf import PdfReader

from generator.print.fonts import font_face_css
from generator.print.pdf import write_pdf

HTML = ("<!DOCTYPE html><html lang='ru'><head><title>Ядерка — Книга правил</title>"
        "<meta name='author' content='Автор'><style>{fonts} html {{ font-family: 'PT Serif'; }}</style></head>"
        "<body><h1>Правила</h1><p>Текст.</p></body></html>")


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


def test_card_sheets_are_not_tagged(tmp_path):
    result = write_pdf(HTML.format(fonts=font_face_css()), tmp_path / "cards.pdf", tmp_path, [tmp_path])
    assert "/StructTreeRoot" not in PdfReader(result.path).trailer["/Root"]
