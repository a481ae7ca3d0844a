"""Large decks: card sheets laid out a chunk at a time and joined. The chunk size is set low
(RULESMITH_SHEETS_PER_CHUNK) so that a small deck crosses chunk seams: the joined PDF must
be the same document a whole layout gives, fronts and backs must stay paired across a seam,
every chunk must be checked, and two builds must give the same bytes."""

from __future__ import annotations

import json

import pypdfium2 as pdfium
import pytest
from pypdf import PdfReader

from generator.print.layout import load_sheets, sheet_spec
from generator.print.sheets import CHUNK_SETTING, chunk_pages, scratch_folder

from .conftest import REPO, Workspace
from .test_build import _pixel, build

# the scaffold's cards and 16 more: 3 sheets of 9 cards, 6 pages
MORE = "".join(f"  - {{id: c{i}, name: Card {i}, card_kind: order, deck: orders, text: Body {i}}}\n"
               for i in range(16))


@pytest.fixture
def deck(ws: Workspace) -> Workspace:
    ws.write("data/cards-more.yaml", "cards:\n" + MORE)
    return ws


def _bookmarks(path) -> list[tuple[str, int, list]]:
    """(title, page index, children) of every bookmark of the PDF."""
    import pikepdf

    with pikepdf.open(path) as pdf, pdf.open_outline() as outline:
        index = {page.objgen: i for i, page in enumerate(pdf.pages)}

        def walk(items):
            return [(i.title, index[i.destination[0].objgen], walk(i.children)) for i in items]

        return walk(outline.root)


def test_chunk_size_keeps_fronts_with_their_backs(monkeypatch):
    assert chunk_pages(40) == 40 and chunk_pages(5) == 4 and chunk_pages(1) == 2
    # card sheets: a sheet of fronts and its backs a chunk, more for a deck that would make too
    # many parts for the join (each holds its own fonts), up to 8 pages
    assert [chunk_pages(pages=n) for n in (6, 224, 256, 257, 300, 512, 513, 2224)] == [2, 2, 2, 4, 4, 4, 6, 8]
    assert chunk_pages(8, pages=6) == 8
    monkeypatch.setenv(CHUNK_SETTING, "3")
    assert chunk_pages() == 2 and chunk_pages(8, pages=2224) == 2


def test_chunked_sheets_are_the_whole_document_joined(deck: Workspace, monkeypatch):
    whole_path = build(deck, "cards", images=False).files[0]
    whole = PdfReader(whole_path)
    whole_bytes = whole_path.read_bytes()
    monkeypatch.setenv(CHUNK_SETTING, "4")  # two sheets per chunk: the third sheet is a second chunk
    first = build(deck, "cards", images=False)
    pdf_path = first.files[0]
    joined_bytes = pdf_path.read_bytes()
    assert joined_bytes != whole_bytes  # really joined from chunks, not laid out whole
    joined = PdfReader(pdf_path)
    placements = json.loads((pdf_path.parent / "cards.json").read_text())
    assert 18 < len(placements) < 27 and max(p["sheet"] for p in placements) == 3
    assert first.pages == len(joined.pages) == len(whole.pages) == 6
    assert joined.metadata.title == whole.metadata.title and joined.trailer["/Root"]["/Lang"] == "en"
    assert _bookmarks(pdf_path) == _bookmarks(whole_path) and len(_bookmarks(whole_path)) >= 18  # a card's title
    for n, (a, b) in enumerate(zip(joined.pages, whole.pages)):  # spacing aside (a letter-spaced stamp)
        assert a.mediabox == b.mediabox, f"page {n + 1}"
        assert "".join(a.extract_text().split()) == "".join(b.extract_text().split()), f"page {n + 1}"
    for sheet in (1, 2, 3):  # each card's front on its sheet's front page, numbered of the total
        text = joined.pages[2 * sheet - 2].extract_text()
        names = [f"Card {p['card'][1:]}" for p in placements if p["sheet"] == sheet and p["card"].startswith("c")]
        assert all(name in text for name in names) and f"Fronts {sheet}/3" in text, sheet
        assert f"{sheet}/3" in joined.pages[2 * sheet - 1].extract_text(), sheet
    # across the seam: the last sheet's backs sit at the mirrored slots of its fronts
    spec = sheet_spec(load_sheets(REPO / "templates/sheets.yaml"), "a4", (63, 88))
    doc, dpi = pdfium.PdfDocument(str(pdf_path)), 60
    front, back = (doc[i].render(scale=dpi / 72).to_pil().convert("RGB") for i in (4, 5))
    filled = sum(1 for p in placements if p["sheet"] == 3)
    assert 0 < filled < spec.per_sheet
    for k in range(spec.per_sheet):
        (fx, fy), (bx, by) = spec.front_slot(k), spec.back_slot(k)
        assert by == fy and abs((bx + spec.card_w / 2) - (210 - (fx + spec.card_w / 2))) < 0.01
        assert (_pixel(front, fx + 31.5, fy + 44, dpi) < 760) == (k < filled), f"front slot {k}"
        assert (_pixel(back, bx + 5, by + 44, dpi) < 760) == (k < filled), f"back slot {k}"
    hi = doc[4].render(scale=150 / 72).to_pil().convert("RGB")  # cut marks on a page of the second chunk
    for x1, y1, x2, y2 in spec.cut_marks(filled):  # the part-filled sheet: beside its cards only
        assert _pixel(hi, (x1 + x2) / 2, (y1 + y2) / 2, 150) < 200, (x1, y1, x2, y2)
    unused = set(spec.cut_marks()) - set(spec.cut_marks(filled))
    assert unused and all(_pixel(hi, (x1 + x2) / 2, (y1 + y2) / 2, 150) > 600 for x1, y1, x2, y2 in unused)
    doc.close()
    assert not scratch_folder(pdf_path).exists()  # the chunk files are gone once joined
    again = build(deck, "cards", images=False).files[0]
    assert again.read_bytes() == joined_bytes  # the same input gives the same bytes


def test_every_chunk_is_checked(deck: Workspace, monkeypatch):
    # one card holds a word too long for it; one sheet per chunk, so it is not in the first chunk
    deck.write("data/cards-more.yaml", "cards:\n" + MORE + "  - {id: wide, name: Wide, card_kind: order, "
               "deck: orders, text: " + "W" * 60 + "}\n")
    monkeypatch.setenv(CHUNK_SETTING, "2")
    result = build(deck, "cards", images=False)
    placements = json.loads((result.files[0].parent / "cards.json").read_text())
    sheet = next(p["sheet"] for p in placements if p["card"] == "wide")
    assert sheet > 1
    errors = [d for d in result.diagnostics if d.code == "E040"]
    # found in its chunk, and told by its page in the whole document
    assert errors and f"page {2 * sheet - 1}:" in errors[0].message, [d.message for d in result.diagnostics]
    assert result.files[0].name == "cards.layout-errors.pdf"
    assert len(PdfReader(result.files[0]).pages) == 6
    assert not (result.files[0].parent / "cards.pdf").exists()


def test_join_draws_each_repeated_form_once(tmp_path):
    """Centred SVG text is a form per card in WeasyPrint's PDF; the join keeps one copy of each
    distinct form per chunk, and the pages look the same as the chunks they came from."""
    import pikepdf
    import pypdfium2 as pdfium
    from weasyprint import HTML

    from generator.print.join import join

    art = ('<svg xmlns="http://www.w3.org/2000/svg" width="60" height="40"><rect width="60" height="40" '
           'fill="#eee"/><text x="30" y="20" text-anchor="middle" font-size="8">{}</text></svg>')
    page = '<div style="page-break-after: always">' + art.format("Orders") * 6 + art.format("Events") + "</div>"
    chunks = []
    for n in (1, 2):
        path = tmp_path / f"chunk{n}.pdf"
        HTML(string=f"<html lang='en'><body>{page * 2}</body></html>").write_pdf(path)
        chunks.append(path)
    with pikepdf.open(chunks[0]) as one:
        forms = {k for p in one.pages for k in p.resources.XObject.keys()}
        assert len(forms) >= 14  # WeasyPrint: one form per text, repeated
    out = tmp_path / "joined.pdf"
    join(chunks, out)
    with pikepdf.open(out) as joined:
        assert len(joined.pages) == 4
        drawn = {p.resources.XObject[k].objgen for p in joined.pages for k in p.resources.XObject.keys()}
        assert 2 <= len(drawn) <= 4  # "Orders" and "Events", once for each of the two chunks
    a, b = pdfium.PdfDocument(str(chunks[1])), pdfium.PdfDocument(str(out))
    for i in (0, 1):
        assert a[i].render(scale=1).to_pil().tobytes() == b[2 + i].render(scale=1).to_pil().tobytes()
    a.close()
    b.close()


def test_fold_reads_each_form_once_and_points_every_page_at_the_first(monkeypatch):
    """Pages whose own resources name the same forms: each form is read once, and every name
    of a form that repeats another is pointed at the first, on every page."""
    import pikepdf

    from generator.print import join

    pdf = pikepdf.new()

    def form(content: bytes):
        return pdf.make_stream(content, Type=pikepdf.Name.XObject, Subtype=pikepdf.Name.Form,
                               BBox=[0, 0, 10, 10])

    first, twin, other = form(b"0 0 5 5 re f"), form(b"0 0 5 5 re f"), form(b"1 1 5 5 re f")
    for names in ({"/a": first, "/b": twin, "/c": other}, {"/x": twin, "/y": first}):
        page = pikepdf.Page(pdf.make_indirect(pikepdf.Dictionary(
            Type=pikepdf.Name.Page, MediaBox=[0, 0, 10, 10],
            Resources=pikepdf.Dictionary(XObject=pikepdf.Dictionary(names)))))
        pdf.pages.append(page)
    read = []
    key = join._form_key
    monkeypatch.setattr(join, "_form_key", lambda f: read.append(f.objgen) or key(f))
    join.fold_forms(pdf)
    assert sorted(read) == sorted({first.objgen, twin.objgen, other.objgen})
    drawn = {n: o.objgen for p in pdf.pages for n, o in p.resources.XObject.items()}
    kept = drawn["/a"]  # the first of the twins met: a dictionary's names come in no set order
    assert kept in (first.objgen, twin.objgen)
    assert drawn == {"/a": kept, "/b": kept, "/c": other.objgen, "/x": kept, "/y": kept}


def test_join_keeps_each_parts_named_destinations_on_its_pages(tmp_path):
    """An element's id is a named destination of the PDF (`cards.pdf#table-...`); joined, each
    leads to the same spot of the same page, and a name two parts use to the first part's."""
    import pikepdf
    from weasyprint import HTML

    from generator.print.join import join

    parts = []
    for n, body in enumerate(('<h1 id="rules">One</h1><p style="break-before: page" id="first">Two</p>',
                              '<p>Three</p><p style="break-before: page; margin-top: 5cm" id="second">Four</p>'
                              '<p id="rules">Again</p>')):
        parts.append(tmp_path / f"part{n}.pdf")
        HTML(string=f"<html lang='en'><body>{body}</body></html>").write_pdf(parts[-1])
    out = tmp_path / "joined.pdf"
    join(parts, out)
    with pikepdf.open(parts[1]) as part, pikepdf.open(out) as joined:
        kept = {str(k): v for k, v in pikepdf.NameTree(joined.Root.Names.Dests).items()}
        assert {k: joined.pages.index(pikepdf.Page(v[0])) for k, v in kept.items()} == {
            "rules": 0, "first": 1, "second": 3}
        second = pikepdf.NameTree(part.Root.Names.Dests)["second"]
        assert list(kept["second"][1:]) == list(second[1:])  # the same spot on its page


def test_join_never_lists_every_object_of_the_joined_file(tmp_path, monkeypatch):
    """Each part's new objects are found by number, not by listing the joined file's objects
    (a list of every object each part: the join of a 10,000-card deck spent 4 of its 10 s
    there); its bookmarks still lead to their pages and its subsets keep distinct names."""
    import pikepdf
    from weasyprint import HTML

    from generator.print.join import join

    parts = []
    for n in range(3):
        parts.append(tmp_path / f"part{n}.pdf")
        HTML(string=f"<html lang='en'><body><h1>Part {n}</h1><h2 style='break-before: page'>Page {n}</h2>"
                    "</body></html>").write_pdf(parts[-1])
    listed = []
    objects = pikepdf.Pdf.objects
    monkeypatch.setattr(pikepdf.Pdf, "objects", property(lambda pdf: listed.append(pdf) or objects.fget(pdf)))
    join(parts, tmp_path / "joined.pdf")
    assert listed == []
    monkeypatch.undo()
    with pikepdf.open(tmp_path / "joined.pdf") as joined, joined.open_outline() as outline:
        marks = [(item.title, joined.pages.index(pikepdf.Page(item.destination[0])))
                 for top in outline.root for item in (top, *top.children)]
        assert marks == [("Part 0", 0), ("Page 0", 1), ("Part 1", 2), ("Page 1", 3), ("Part 2", 4), ("Page 2", 5)]
        fonts = [str(o.BaseFont) for o in joined.objects
                 if isinstance(o, pikepdf.Dictionary) and o.get("/Subtype") == "/Type0"]
        assert len(fonts) >= 3 and len(set(fonts)) == len(fonts)
