"""Print output: page sizes and boxes, metadata, fonts, duplex geometry, cut marks, bleed,
reproducibility, confined fetching, shrink-to-fit. Built from small fixture games."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pypdfium2 as pdfium
import pytest
from pypdf import PdfReader

from generator.print.jobs import Job, run_job
from generator.print.layout import load_sheets, sheet_spec

from .conftest import REPO, Workspace

MM = 72 / 25.4


def build(ws: Workspace, kind: str, lang: str = "en", **options):
    result = run_job(Job(ws.root, "demo", lang, kind, **options))
    assert result.error is None, result.error
    return result


@pytest.fixture
def demo(ws: Workspace) -> Workspace:
    ws.edit("game.yaml", "languages: []", "languages: [ru]")
    ws.edit("game.yaml", "  en: Demo", "  en: Demo\n  ru: Демо")
    ws.edit("game.yaml", "source_language: en", "source_language: en\nauthors: [Jane Designer]")
    ws.write("rules/01-intro.md", "# Introduction\n\nThe {{ unit:scouts }} move {{ unit:scouts.move }}.\n\n"
             "## Weather\n\n{{ table:weather }}\n\n::: example fast\nScouts are {{ keyword:fast }}.\n:::\n\n"
             "::: note\nDesigner only.\n:::\n")
    ws.write("rules/02-end.md", "# The end\n\nWin at {{ param:victory-points }} points.\n")
    return ws


def test_rulebook_a4_metadata_outline_fonts(demo: Workspace):
    result = build(demo, "rulebook")
    reader = PdfReader(result.files[0])
    page = reader.pages[0]
    assert (round(float(page.mediabox.width) / MM), round(float(page.mediabox.height) / MM)) == (210, 297)
    meta = reader.metadata
    assert meta.title == "Demo — Rulebook" and meta.author == "Jane Designer"
    assert reader.trailer["/Root"]["/Lang"] == "en"
    titles = [o.title for o in reader.outline if not isinstance(o, list)]
    assert "Introduction" in titles and "The end" in titles
    text = "\n".join(p.extract_text() for p in reader.pages)
    assert "Contents" in text and "Introduction" in text and f"2 / {len(reader.pages)}" in text
    assert "Designer only." in text  # notes print as labelled asides (unless --no-notes)
    assert "15" in text and "10" in text  # stat and parameter references resolved
    for p in reader.pages:
        for font in (p["/Resources"].get("/Font") or {}).values():
            descriptor = font.get_object()["/DescendantFonts"][0].get_object()["/FontDescriptor"]
            assert "/FontFile2" in descriptor or "/FontFile3" in descriptor, "font not embedded"
            assert "PT" in str(font.get_object()["/BaseFont"])


def test_rulebook_a5_option(demo: Workspace):
    page = PdfReader(build(demo, "rulebook", book="a5").files[0]).pages[0]
    assert (round(float(page.mediabox.width) / MM), round(float(page.mediabox.height) / MM)) == (148, 210)


def test_rulebook_uses_translation_and_marks_fallback(demo: Workspace):
    demo.run("i18n", "update", "ru")
    import polib
    po = polib.pofile(str(demo.game / "locale/ru.po"))
    po.find("Introduction").msgstr = "Введение"
    po.save()
    text = "\n".join(p.extract_text() for p in PdfReader(build(demo, "rulebook", lang="ru").files[0]).pages)
    assert "Введение" in text and "Содержание" in text
    assert "The end" in text  # untranslated: falls back to the source


def test_reproducible_bytes(demo: Workspace):
    first = build(demo, "cards", images=False).files[0].read_bytes()
    second = build(demo, "cards", images=False).files[0].read_bytes()
    assert first == second
    a = build(demo, "rulebook").files[0].read_bytes()
    assert a == build(demo, "rulebook").files[0].read_bytes()


def _pixel(image, x_mm: float, y_mm: float, dpi: int) -> int:
    """Sum of RGB at a point: 765 is white paper."""
    return sum(image.getpixel((int(x_mm / 25.4 * dpi), int(y_mm / 25.4 * dpi)))[:3])


def test_backs_mirror_fronts_and_cut_marks(demo: Workspace):
    # 2 + 8 = 10 cards (with copies: 3 + 1 + 8 = 12): a full sheet of 9 and a partial sheet of 3
    cards = "".join(f"  - {{id: c{i}, name: Card {i}, card_kind: order, deck: orders, text: Body {i}}}\n"
                    for i in range(8))
    demo.write("data/cards-more.yaml", "cards:\n" + cards)
    pdf_path = build(demo, "cards", images=False).files[0]
    placements = json.loads((pdf_path.parent / "cards.json").read_text())
    assert len(placements) == 12
    sheets = max(p["sheet"] for p in placements)
    assert sheets == 2 and len(PdfReader(pdf_path).pages) == 4
    spec = sheet_spec(load_sheets(REPO / "templates/sheets.yaml"), "a4", (63, 88))
    for placement in placements:  # each back in the same row, mirrored about the page's vertical axis
        (fx, fy), (bx, by), (w, _h) = placement["front"], placement["back"], placement["size"]
        assert by == fy and abs((bx + w / 2) - (210 - (fx + w / 2))) < 0.01
    doc, dpi = pdfium.PdfDocument(str(pdf_path)), 60
    front = doc[2].render(scale=dpi / 72).to_pil().convert("RGB")
    back = doc[3].render(scale=dpi / 72).to_pil().convert("RGB")
    filled = sum(1 for p in placements if p["sheet"] == 2)
    for k in range(spec.per_sheet):
        fx, fy = spec.front_slot(k)
        bx, by = spec.back_slot(k)
        occupied = k < filled
        # a card (front or back) paints its slot; an empty slot is bare paper
        assert (_pixel(front, fx + 31.5, fy + 44, dpi) < 760) == occupied, f"front slot {k}"
        assert (_pixel(back, bx + 5, by + 44, dpi) < 760) == occupied, f"back slot {k}"
    # cut marks: dark lines in the margin on every cut line, never inside the card area
    hi = doc[0].render(scale=300 / 72).to_pil().convert("RGB")
    marks = spec.cut_marks()
    assert len(marks) == 2 * (spec.cols + 1) + 2 * (spec.rows + 1)
    for x1, y1, x2, y2 in marks:
        cx, cy = (x1 + x2) / 2, (y1 + y2) / 2
        assert _pixel(hi, cx, cy, 300) < 200, (x1, y1, x2, y2)
        inside_x = spec.left < cx < spec.left + spec.cols * 63
        inside_y = spec.top < cy < spec.top + spec.rows * 88
        assert not (inside_x and inside_y)


def test_letter_paper_layout(demo: Workspace):
    page = PdfReader(build(demo, "cards", paper="letter", images=False).files[0]).pages[0]
    assert round(float(page.mediabox.width) / 72, 1) == 8.5 and round(float(page.mediabox.height) / 72, 1) == 11.0


def test_bleed_mode_boxes(demo: Workspace):
    result = build(demo, "cards", bleed=True, images=False)
    reader = PdfReader(next(f for f in result.files if f.name == "cards-bleed.pdf"))
    page = reader.pages[0]
    trim = page.trimbox
    assert (round(float(trim.width) / MM), round(float(trim.height) / MM)) == (63, 88)
    assert round(float(page.bleedbox.width) / MM) == 69 and round(float(page.bleedbox.height) / MM) == 94
    assert float(page.mediabox.width) > float(page.bleedbox.width)  # crop marks outside the bleed
    assert len(reader.pages) == 2 * 2  # two cards, front and back each


def test_draft_mark_on_incomplete_cards(demo: Workspace):
    reader = PdfReader(build(demo, "cards", images=False).files[0])
    assert "DRAFT" in reader.pages[0].extract_text().replace(" ", "")


def test_text_shrinks_then_is_an_error(demo: Workspace):
    demo.edit("data/cards.yaml", "    text: One unit moves and then attacks.",
              "    text: " + "One unit moves and then attacks. " * 12)
    result = build(demo, "cards", images=False)
    assert not [d for d in result.diagnostics if d.code in ("W003", "E040")]  # shrunk, fits
    demo.edit("data/cards.yaml", "One unit moves and then attacks. " * 12, "One unit moves and attacks. " * 200)
    result = build(demo, "cards", images=False)
    errors = [d for d in result.diagnostics if d.code == "E040" and "does not fit at the minimum text size" in d.message]
    assert errors and "advance" in errors[0].message and errors[0].location.path.name == "cards.yaml"
    assert not [d for d in result.diagnostics if d.code == "W003"]
    assert result.files[0].name == "cards.layout-errors.pdf"


def test_card_images_and_tts_sheet(demo: Workspace):
    result = build(demo, "cards")
    pngs = [f for f in result.files if f.suffix == ".png"]
    from PIL import Image
    card = Image.open(next(p for p in pngs if p.parent.name == "cards"))
    assert abs(card.size[0] / card.size[1] - 63 / 88) < 0.01 and card.size[0] >= 700
    tts = Image.open(next(p for p in pngs if p.parent.name == "tts"))
    assert tts.size[0] <= 4096 and tts.size[1] <= 4096


def test_content_cannot_fetch_outside(demo: Workspace, tmp_path):
    secret = tmp_path.parent / "secret.png"
    demo.write("rules/03-evil.md", f"# Evil\n\n![x](http://127.0.0.1:9/x.png) ![y](file://{secret}) ![z](../../../etc/passwd)\n")
    from generator.print.fetcher import ConfinedFetcher
    fetcher = ConfinedFetcher([demo.game])
    assert not fetcher.allows("http://127.0.0.1:9/x.png")
    assert not fetcher.allows(f"file://{secret}") and not fetcher.allows("file:///etc/passwd")
    assert fetcher.allows((demo.game / "rules/img.png").as_uri())
    result = build(demo, "rulebook")
    assert result.files[0].exists()


def test_reference_sheet(demo: Workspace):
    reader = PdfReader(build(demo, "reference").files[0])
    page = reader.pages[0]
    assert float(page.mediabox.width) > float(page.mediabox.height)  # landscape
    text = page.extract_text()
    assert "Weather" in text and "Fast" in text and "Scouts" in text


def test_icons_on_cards_and_inline(demo: Workspace):
    demo.edit("data/cards.yaml", "    text: One unit moves and then attacks.",
              "    icons: [dice, dice]\n    text: 'Roll :dice: twice; keep :star: <b>x</b>.'")
    from generator.print.cardfaces import all_faces
    from generator.print.context import BuildContext
    from generator.project import Project

    game = Project(demo.root).load("demo", __import__("generator.core.diagnostics", fromlist=["Report"]).Report())
    face = next(f for f in all_faces(BuildContext(game, "en", demo.root)) if f.id == "advance")
    body = str(face.body)
    assert body.count('aria-label="dice"') == 3 and body.count('aria-label="star"') == 1
    assert "&lt;b&gt;x&lt;/b&gt;" in body  # text around the icons stays escaped


def test_large_decks_render_in_chunks_joined_into_one_pdf(demo: Workspace, monkeypatch):
    from generator.print.cards import card_sheets
    from generator.print.context import BuildContext
    from generator.print.sheets import CHUNK_SETTING, write_sheets
    from generator.project import Project
    from generator.core.diagnostics import Report

    monkeypatch.setenv(CHUNK_SETTING, "100")  # the deck laid out whole
    whole = PdfReader(build(demo, "cards").files[0])
    monkeypatch.delenv(CHUNK_SETTING)
    game = Project(demo.root).load("demo", Report(), checks=False)
    ctx = BuildContext(game, "en", demo.root)
    html = card_sheets(ctx, Report())[1]
    out = demo.root / "output" / "chunked.pdf"
    result = write_sheets(html, out, game.folder, ctx.roots, per_chunk=1)
    joined = PdfReader(out)
    assert result.pages == len(joined.pages) == len(whole.pages) > 1
    assert joined.metadata.title == whole.metadata.title and joined.trailer["/Root"]["/Lang"] == "en"
    for a, b in zip(joined.pages, whole.pages):
        assert a.mediabox == b.mediabox and a.extract_text() == b.extract_text()


def test_authors_are_credited_in_each_language(demo: Workspace):
    import polib
    from click.testing import CliRunner

    from generator.cli import cli

    demo.edit("game.yaml", "authors: [Jane Designer]", "authors: [Jane Designer (rules)]")
    runner = CliRunner()
    assert runner.invoke(cli, ["--root", str(demo.root), "i18n", "update", "ru"]).exit_code == 0
    po_path = demo.root / "content/demo/locale/ru.po"
    po = polib.pofile(str(po_path))
    entry = po.find("Jane Designer (rules)")
    assert entry is not None, "authors are not offered for translation"
    entry.msgstr = "Джейн Дизайнер (правила)"
    po.save(str(po_path))
    assert PdfReader(build(demo, "rulebook", "ru").files[0]).metadata.author == "Джейн Дизайнер (правила)"
    assert PdfReader(build(demo, "rulebook", "en").files[0]).metadata.author == "Jane Designer (rules)"


def test_a_build_reads_each_game_once_before_its_documents(tmp_path, monkeypatch):
    """Validation, the probability tables and the worked examples take the game as validation
    loaded it: a large game's files are read and parsed once, not once for each step."""
    import shutil

    from generator.commands import build as command
    from generator.core.diagnostics import Report
    from generator.project import Project
    from generator.project.rebuild import Inputs

    shutil.copytree(REPO / "content" / "nuclear", tmp_path / "content" / "nuclear")
    project = Project(tmp_path)
    reads = []
    read = Project.read
    monkeypatch.setattr(Project, "read", lambda self, name, report: reads.append(name) or read(self, name, report))
    run = command._Build(project, command._prepared_output(project, False), Inputs(project), Report())
    assert command._validated(run, ["nuclear"]) == ["nuclear"]
    assert command._checked(run, ["nuclear"], tables=True, examples=True)
    assert reads == ["nuclear"]
    assert run.verified["nuclear"] and list((tmp_path / "output" / "nuclear" / "tables").glob("*.json"))


def test_bounded_runs_are_started_ahead_and_taken_in_order():
    """`ahead` keeps as many runs going as there are cores: the next is started before the
    first is taken, no more than `width` are started and not yet taken, and they come back in
    the items' order."""
    from generator.checker.bounded import ahead

    started, taken = [], []
    for item, run in ahead(range(5), lambda item: started.append(item) or f"run {item}", width=2):
        taken.append((item, run, len(started)))
    assert [(item, run) for item, run, _ in taken] == [(k, f"run {k}") for k in range(5)]
    assert [count for *_, count in taken] == [2, 3, 4, 5, 5]
    one = []
    assert [len(one) for _ in ahead(range(3), one.append, width=1)] == [1, 2, 3]  # one core: one at a time


def test_the_games_are_checked_side_by_side_and_reported_in_their_order(tmp_path, monkeypatch):
    """Validation starts the next game's checks (and the rules checker the next game's
    examples) before it waits for the first game's; each game's diagnostics still come
    together, in the games' order, and each game's verdict is its own."""
    import shutil

    from generator.checks import trial
    from generator.commands import build as command
    from generator.core.diagnostics import Report
    from generator.print import jobs
    from generator.project import Project
    from generator.project.rebuild import Inputs

    monkeypatch.setattr(os, "cpu_count", lambda: 2)  # side by side on any machine
    for name in ("frames", "nuclear"):
        shutil.copytree(REPO / "content" / name, tmp_path / "content" / name)
    (tmp_path / "content" / "frames" / "data" / "broken.yaml").write_text("units: [\n", "utf-8")
    events = []
    pending_init, pending_finish = trial.PendingChecks.__init__, trial.PendingChecks.finish

    def init(self, game, *args, **kwargs):
        events.append(("checks start", game.id))
        pending_init(self, game, *args, **kwargs)

    def finish(self, report):
        events.append(("checks done", self.game.id))
        return pending_finish(self, report)

    monkeypatch.setattr(trial.PendingChecks, "__init__", init)
    monkeypatch.setattr(trial.PendingChecks, "finish", finish)
    started = jobs.examples_started

    def examples(game):
        events.append(("examples start", game.id))
        wait = started(game)
        return lambda: events.append(("examples done", game.id)) or wait()

    monkeypatch.setattr(jobs, "examples_started", examples)
    project = Project(tmp_path)
    run = command._Build(project, command._prepared_output(project, False), Inputs(project), Report())
    assert command._validated(run, ["frames", "nuclear"]) == ["nuclear"]
    assert events.index(("checks start", "nuclear")) < events.index(("checks done", "frames"))
    sources = [d.location.path.relative_to(tmp_path / "content").parts[0] for d in run.report.diagnostics
               if d.location and (tmp_path / "content") in d.location.path.parents]
    assert sources and "frames" in sources and sources == sorted(sources, key=["frames", "nuclear"].index)
    assert any(d.location.path.name == "broken.yaml" for d in run.report.errors)
    events.clear()
    (tmp_path / "content" / "frames" / "data" / "broken.yaml").unlink()
    run = command._Build(project, command._prepared_output(project, False), Inputs(project), Report())
    assert command._validated(run, ["frames", "nuclear"], meanwhile=lambda: events.append(("meanwhile", ""))) == [
        "frames", "nuclear"]
    # this process does other work while both games' checks run, before it waits for the first
    assert events[:3] == [("checks start", "frames"), ("checks start", "nuclear"), ("meanwhile", "")]
    assert events.count(("meanwhile", "")) == 1
    events.clear()
    from generator.checker import tables

    started_tables = tables.tables_started

    def tables_of(game, output):
        events.append(("tables start", game.id))
        wait = started_tables(game, output)
        return lambda: events.append(("tables done", game.id)) or wait()

    monkeypatch.setattr(tables, "tables_started", tables_of)
    assert command._checked(run, ["frames", "nuclear"], tables=True, examples=True)
    # both games' tables and examples run side by side
    assert events[:4] == [("tables start", "frames"), ("examples start", "frames"), ("tables start", "nuclear"),
                          ("examples start", "nuclear")]
    assert events.index(("examples start", "nuclear")) < events.index(("examples done", "frames"))
    assert run.verified["nuclear"] and all(run.verified["nuclear"].values())
    assert set(run.verified) == {"frames", "nuclear"}
    assert list((tmp_path / "output" / "nuclear" / "tables").glob("*.json"))
    assert list((tmp_path / "output" / "frames" / "tables").glob("*.json"))


def test_a_failing_table_procedure_stops_the_build_before_its_documents(tmp_path):
    """A table procedure that raises stops `build` with the game, the error and the command
    that shows more; no document is made, and no checker child is left running."""
    import shutil

    from click.testing import CliRunner

    from generator.cli import cli

    for name in ("frames", "nuclear"):
        shutil.copytree(REPO / "content" / name, tmp_path / "content" / name)
    procedures = tmp_path / "content" / "frames" / "procedures.py"
    doc = '"""Each damage die\'s chances while the cover stands, for every line of the damage table."""'
    text = procedures.read_text("utf-8")
    assert doc in text
    procedures.write_text(text.replace(doc, doc + '\n    raise ValueError("no such band")'), "utf-8")
    before = _children()
    result = CliRunner().invoke(cli, ["--root", str(tmp_path), "build", "--only", "reference", "-q"])
    assert result.exit_code == 1, result.output
    assert ("error: frames: probability tables failed: ValueError: no such band"
            " (run 'rulesmith check frames --tables')") in result.output
    assert not list((tmp_path / "output").rglob("*.pdf"))
    assert not _children() - before


def _children() -> set[str]:
    """The ids of this process's child processes."""
    return {pid for pid in os.listdir("/proc") if pid.isdigit() and _parent(pid) == os.getpid()}


def _parent(pid: str) -> int:
    try:
        return int(Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()[1])
    except (OSError, IndexError, ValueError):
        return 0


def test_a_context_reads_each_stylesheet_once(demo: Workspace, monkeypatch):
    """Every card face's HTML takes the card stylesheet: a context reads it from its template
    folder once, not once per face (a deck of a thousand cards read it thousands of times)."""
    from generator.core.diagnostics import Report
    from generator.print import context
    from generator.print.cardfaces import all_faces
    from generator.print.images import faces_html
    from generator.project import Project

    reads = []
    real = context.template_text
    monkeypatch.setattr(context, "template_text", lambda dirs, name: reads.append(name) or real(dirs, name))
    ctx = context.BuildContext(Project(demo.root).load("demo", Report(), checks=False), "en", demo.root)
    faces = all_faces(ctx)
    htmls = [faces_html(ctx, [face]) for face in faces]
    assert len(faces) >= 2 and reads.count("cards.css") == 1
    assert all(real(ctx.templates, "cards.css") in html for html in htmls)
