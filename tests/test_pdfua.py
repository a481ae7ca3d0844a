"""Every PDF Rulesmith writes passes the external PDF/UA-1 checker (`pdfua` on PyPI, the
machine-checkable subset of ISO 14289-1): one shipped game's rulebook, reference sheet and
cards, a small game's counters and maps. A PDF that breaks a checkable rule does not claim
conformance; card sheets joined from parts keep their parts' tags."""

from __future__ import annotations

import pikepdf
import pytest
from pdfua import Severity, validate

from generator.print.fonts import font_face_css
from generator.print.jobs import Job, run_job
from generator.print.join import join
from generator.print.pdf import write_pdf

from .test_components_counters import make_project

PAGE = ("<!DOCTYPE html><html lang='en'><head><title>Demo</title><style>{fonts} html {{ font-family: 'PT Serif'; }}"
        "</style></head><body><h1>Rules</h1><p>Text <span lang='ru'>Текст</span>.</p>{extra}</body></html>")


@pytest.fixture(autouse=True)
def _release_output_confinement():
    """Builds run in-process confine writes to their project's output/; later tests write elsewhere."""
    yield
    from generator import outputs
    outputs.confine_to(None)


@pytest.fixture(scope="module")
def pdfs(shipped, tmp_path_factory):
    """nuclear's English rulebook, deadzone's reference sheet and cards; river-line's counters and maps."""
    river = make_project(tmp_path_factory.mktemp("river"))
    built = {}
    for root, game, kind in [(shipped, "nuclear", "rulebook"), (shipped, "deadzone", "reference"),
                             (shipped, "deadzone", "cards"), (river, "river-line", "counters"),
                             (river, "river-line", "maps")]:
        result = run_job(Job(root, game, "en", kind, images=False))
        assert result.error is None, result.error
        built[kind] = [f for f in result.files if f.suffix == ".pdf"]
    from generator import outputs
    outputs.confine_to(None)
    return built


def _errors(path) -> list[str]:
    return [f"{f.rule_id} p.{f.location.page}: {f.message}" for f in validate(str(path)).findings
            if f.severity is Severity.ERROR]


@pytest.mark.parametrize("kind", ["rulebook", "reference", "cards", "counters", "maps"])
def test_the_external_checker_finds_no_error(pdfs, kind):
    assert pdfs[kind]
    for path in pdfs[kind]:
        assert _errors(path) == [], path.name
        with pikepdf.open(path) as pdf:
            assert b"pdfuaid:part" in pdf.Root.Metadata.read_bytes()
            assert str(pdf.docinfo.Title) and str(pdf.Root.Lang) == "en"


def test_header_cells_have_a_scope_and_quotations_their_language(pdfs):
    """The reference sheet's header cells say what they head; the rulebook's Russian
    quotations (the errata's source text) are tagged Russian."""
    with pikepdf.open(pdfs["reference"][0]) as pdf:
        scopes = {str(e.A.Scope) for e in _all(pdf) if e.get("/S") == "/TH"}
    assert scopes and scopes <= {"/Column", "/Row"} and "/Row" in scopes
    with pikepdf.open(pdfs["rulebook"][0]) as pdf:
        assert any(str(e.get("/Lang", "")) == "ru" for e in _all(pdf))
    assert not [f for f in validate(str(pdfs["reference"][0])).findings if f.rule_id == "UA-15-003"]


def _all(pdf):
    from generator.print.tagging import _elements

    return list(_elements(pdf.Root.StructTreeRoot))


def test_a_pdf_that_breaks_a_rule_does_not_claim_conformance(tmp_path):
    fonts = font_face_css()
    (tmp_path / "dot.svg").write_text('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10">'
                                      '<circle cx="5" cy="5" r="4"/></svg>')
    good = write_pdf(PAGE.format(fonts=fonts, extra="<img src='dot.svg' alt='A dot'>"), tmp_path / "good.pdf",
                     tmp_path, [tmp_path]).path
    bad = write_pdf(PAGE.format(fonts=fonts, extra="<img src='dot.svg'>"), tmp_path / "bad.pdf",
                    tmp_path, [tmp_path]).path
    decorative = write_pdf(PAGE.format(fonts=fonts, extra="<img src='dot.svg' alt=''>"), tmp_path / "deco.pdf",
                           tmp_path, [tmp_path]).path
    for path, claims in ((good, True), (bad, False), (decorative, True)):
        with pikepdf.open(path) as pdf:
            assert (b"pdfuaid:part" in pdf.Root.Metadata.read_bytes()) is claims, path.name
    assert _errors(good) == [] and _errors(decorative) == []
    assert [e.split()[0] for e in _errors(bad)] == ["UA-13-004"]


def test_joined_parts_keep_their_tags(tmp_path):
    fonts = font_face_css()
    parts = [write_pdf(PAGE.format(fonts=fonts, extra=f"<p><a href='#x{n}'>Part {n}</a></p><p id='x{n}'>x</p>"),
                       tmp_path / f"part{n}.pdf", tmp_path, [tmp_path]).path for n in (1, 2)]
    join(parts, tmp_path / "joined.pdf")
    assert _errors(tmp_path / "joined.pdf") == []
    with pikepdf.open(tmp_path / "joined.pdf") as pdf:
        assert b"pdfuaid:part" in pdf.Root.Metadata.read_bytes()
        pages = [p.obj.StructParents for p in pdf.pages]
        nums = pdf.Root.StructTreeRoot.ParentTree.Nums
        keys = [int(nums[i]) for i in range(0, len(nums), 2)]
        assert len(set(pages)) == 2 and set(pages) <= set(keys) and keys == sorted(set(keys))
        annotations = [a.StructParent for p in pdf.pages for a in p.obj.get("/Annots", ())]
        assert len(set(annotations)) == 2 and set(annotations) <= set(keys)
        texts = [e for e in _all(pdf) if e.get("/S") == "/H1"]
        assert len(texts) == 2


def test_every_link_can_be_clicked(pdfs):
    """Each link of the rulebook (the erratum marks among them) has a rectangle with height."""
    with pikepdf.open(pdfs["rulebook"][0]) as pdf:
        heights = [abs(float(a.Rect[3]) - float(a.Rect[1])) for page in pdf.pages for a in page.obj.get("/Annots", ())
                   if a.get("/Subtype") == "/Link"]
        marks = [e for e in _all(pdf) if e.get("/S") == "/Link"]
    assert len(heights) > 20 and marks
    assert min(heights) > 3, sorted(heights)[:5]


FOLDED = ("<div class='card'><div class='head'><h2>Sentry</h2></div><div><p>Moves <b>2</b> hexes.</p></div>"
          "<div><span>3</span> <span>4</span></div><div></div><div><div lang='ru'><p>Стоять</p></div></div></div>")


def _tree(pdf) -> list[tuple[int, object]]:
    """(depth, element) of every structure element in document order, the root's kids at 0."""
    out, stack = [], [(0, kid) for kid in reversed(list(pdf.Root.StructTreeRoot.K[0].K))]
    while stack:
        depth, element = stack.pop()
        out.append((depth, element))
        kids = [k for k in element.get("/K", []) if isinstance(k, pikepdf.Dictionary) and "/S" in k]
        stack.extend((depth + 1, kid) for kid in reversed(kids))
    return out


def _marks(element) -> list[int]:
    return [int(k) for k in element.get("/K", []) if not isinstance(k, pikepdf.Dictionary)]


def _read(pdf) -> list[int]:
    """The marked content the tree holds, in its order (a paragraph's runs around a quotation
    its element holds)."""
    out, stack = [], list(reversed(list(pdf.Root.StructTreeRoot.K[0].K)))
    while stack:
        item = stack.pop()
        if isinstance(item, pikepdf.Dictionary):
            stack.extend(reversed(list(item.get("/K", []))) if "/S" in item else [])
        else:
            out.append(int(item))
    return out


def test_the_tree_holds_no_element_that_says_nothing(tmp_path, monkeypatch):
    """A run of text is marked by its paragraph, not by a Span of its own; a group that holds
    nothing or one element is left out, unless it carries something of its own (a language).
    Every marked run stays in the tree, in reading order, and the parent tree names the
    element that marks it."""
    path = write_pdf(PAGE.format(fonts=font_face_css(), extra=FOLDED), tmp_path / "folded.pdf", tmp_path,
                     [tmp_path]).path
    assert _errors(path) == []
    with pikepdf.open(path) as pdf:
        tree = _tree(pdf)
        roles = [str(e.S) for _, e in tree]
        plain = [e for _, e in tree if set(e.keys()) <= {"/Type", "/S", "/K", "/P", "/Pg"}]
        assert not [e for e in plain if str(e.S) in ("/Div", "/Span", "/NonStruct") and not list(e.get("/K", []))]
        assert not [e for e in plain if str(e.S) == "/Div" and len(list(e.K)) == 1
                    and isinstance(e.K[0], pikepdf.Dictionary)]
        assert not [e for e in plain if str(e.S) == "/Span" and list(e.K) and not [
            k for k in e.K if isinstance(k, pikepdf.Dictionary)]]
        assert roles.count("/P") == 3 and "/H1" in roles and "/H2" in roles
        assert [e for _, e in tree if str(e.get("/Lang", "")) == "ru"]  # the Russian group kept
        marks = _read(pdf)
        assert marks == list(range(len(marks))) and len(marks) > 10
        parents = pdf.Root.StructTreeRoot.ParentTree.Nums[1]
        assert len(parents) == len(marks)
        for mcid, element in enumerate(parents):
            assert mcid in _marks(element) and element.Pg.objgen == pdf.pages[0].obj.objgen
            assert element.P.get("/K") is not None and any(
                k.objgen == element.objgen for k in element.P.K if isinstance(k, pikepdf.Dictionary))
        before = len(pdf.objects)
    from generator.print import tagging

    monkeypatch.setattr(tagging, "fold", lambda objects, catalog: None)
    plain_path = write_pdf(PAGE.format(fonts=font_face_css(), extra=FOLDED), tmp_path / "plain.pdf", tmp_path,
                           [tmp_path]).path
    with pikepdf.open(plain_path) as pdf:
        assert len(_tree(pdf)) >= 2 * len(tree)  # WeasyPrint's own tree: twice as many elements
        assert len(pdf.objects) == before and _read(pdf) == marks


@pytest.mark.parametrize("kind", ["rulebook", "reference", "cards", "counters", "maps"])
def test_the_parent_tree_names_the_element_of_every_mark(pdfs, kind):
    for path in pdfs[kind]:
        assert_whole_tree(path)


def assert_whole_tree(path) -> None:
    """Every marked run the tree holds is named in the parent tree, under its page, by the
    element that holds it, and each element is held by its parent (the folded tree stays
    whole). The parent tree names more: WeasyPrint tags the running heads and page numbers
    without putting them in the tree."""
    with pikepdf.open(path) as pdf:
        nums = pdf.Root.StructTreeRoot.ParentTree.Nums
        parents = {int(nums[i]): nums[i + 1] for i in range(0, len(nums), 2)}
        pages = {page.obj.objgen: parents[int(page.obj.StructParents)] for page in pdf.pages
                 if "/StructParents" in page.obj}
        held = 0
        for _, element in _tree(pdf):
            assert any(k.objgen == element.objgen for k in element.P.K if isinstance(k, pikepdf.Dictionary))
            for mcid in _marks(element):
                assert pages[element.Pg.objgen][mcid].objgen == element.objgen, (path.name, mcid)
                held += 1
        assert held == len(_read(pdf)) > 0, path.name
