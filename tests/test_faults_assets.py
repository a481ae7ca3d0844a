"""What the site and the PDFs publish is confined like the text: no picture that runs script or
fetches, no style that loads a URL, no remote image, no file from outside the project, and
every broken picture reported (the bad-input corpus, tests/bad_input.py, holds the diagnostics
of these cases; here: what is published, and the pieces that decide it)."""

from __future__ import annotations

import re
import unicodedata
from pathlib import Path

import pytest

from generator.core.diagnostics import Report
from generator.project import Project
from generator.site.build import build_site

from .bad_input import HOSTILE_SVGS, huge_png, outside_link
from .conftest import Workspace, line_of

REMOTE = re.compile(r"""(?:src|href|xlink:href)\s*=\s*["']?\s*(?:https?:)?//|url\(\s*["']?\s*(?:https?:)?//""", re.I)
GOOD_SVG = ('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><defs><linearGradient id="g"/></defs>'
            '<rect width="10" height="10" fill="url(#g)" style="stroke: url(\'#g\')"/><use href="#g"/></svg>\n')


def published(site: Path) -> str:
    """Every page and drawing of the site, as one text."""
    return "\n".join(p.read_text(encoding="utf-8") for p in sorted(site.rglob("*")) if p.suffix in (".html", ".svg"))


@pytest.fixture
def hostile(ws: Workspace) -> Workspace:
    """A game whose rules show a hostile drawing, a good one, a remote image and a style that
    fetches; each hostile drawing of the corpus lies in images/."""
    for name, svg, _line in HOSTILE_SVGS:
        ws.write(f"images/{name}.svg", svg)
    ws.write("images/good.svg", GOOD_SVG)
    ws.write("rules/01-rules.md", "# Rules\n\n![Script](images/script.svg) ![Good](images/good.svg)\n\n"
             "![Remote map](http://127.0.0.1:9/map.png)\n\n"
             '{style="background:url(http://127.0.0.1:9/t.png); color: red"}\nStyled.\n')
    return ws


def test_site_publishes_no_script_and_no_remote_url(hostile: Workspace):
    """Even a site built from content no one validated (build_site alone) holds no hostile drawing,
    no remote image and no style that fetches; the good drawing and the image's alt text stay."""
    site = build_site(Project(hostile.root), ["demo"], Report(), search=False).root
    copied = sorted(p.name for p in (site / "demo" / "en" / "images").iterdir())
    assert copied == ["good.svg"]
    text = published(site)
    assert "alert(" not in text and "javascript:" not in text.lower() and "<foreignObject" not in text
    assert not REMOTE.search(text), REMOTE.search(text).group()
    page = next(p.read_text(encoding="utf-8") for p in sorted((site / "demo" / "en").rglob("*.html"))
                if "Styled." in p.read_text(encoding="utf-8"))
    assert "Remote map" in page and "127.0.0.1" not in page and "images/good.svg" in page
    assert re.search(r'<p style="color: red"|<p[^>]*>Styled\.', page)


def test_build_refuses_a_hostile_drawing_and_publishes_nothing(hostile: Workspace):
    result = hostile.run("build", "--game", "demo", "--only", "site")
    assert result.returncode == 1, result.stdout + result.stderr
    assert "E063" in result.stdout + result.stderr and "Traceback" not in result.stderr
    site = hostile.root / "output" / "site"
    assert not site.exists() or not REMOTE.search(published(site))


def test_remote_image_is_a_warning_and_never_published(ws: Workspace):
    path = ws.write("rules/01-rules.md", "# Rules\n\nSee the map.\n\n![Remote map](https://127.0.0.1:9/map.png)\n")
    warnings = [d for d in ws.validate().diagnostics if d.code == "W008"]
    assert [(d.location.path, d.location.line) for d in warnings] == [(path, 5)]
    result = ws.run("build", "--game", "demo", "--only", "site")
    assert result.returncode == 0, result.stdout + result.stderr
    text = published(ws.root / "output" / "site")
    assert "Remote map" in text and "127.0.0.1:9" not in text and not REMOTE.search(text)


def test_the_printer_draws_no_refused_picture(ws: Workspace):
    """The print path agrees with the site: the fetcher refuses what the site leaves behind,
    and a map background is not inlined."""
    from generator.print.fetcher import ConfinedFetcher
    from generator.print.pictures import data_uri

    bad = ws.write("images/bad.svg", HOSTILE_SVGS[0][1])
    good = ws.write("images/good.svg", GOOD_SVG)
    huge = ws.game / "images" / "huge.png"
    huge.write_bytes(huge_png())
    fetcher = ConfinedFetcher([ws.game])
    assert fetcher.allows(good.as_uri()) and not fetcher.allows(bad.as_uri()) and not fetcher.allows(huge.as_uri())
    with pytest.raises(ValueError, match="refused"):
        fetcher.fetch(bad.as_uri())
    assert fetcher.refused == [bad.as_uri()]
    assert data_uri(ws.game, "images/good.svg").startswith("data:image/svg+xml;base64,")
    assert data_uri(ws.game, "images/bad.svg") is None and data_uri(ws.game, "images/huge.png") is None


def test_rulebook_with_a_broken_picture_is_refused_before_printing(ws: Workspace):
    ws.write("rules/01-rules.md", "# Rules\n\nThe map:\n\n![Map](images/map.png)\n")
    (ws.game / "images").mkdir()
    (ws.game / "images" / "map.png").write_bytes(huge_png())
    found = [d for d in ws.validate().diagnostics if d.code == "E064"]
    places = sorted((d.location.path.relative_to(ws.game).as_posix(), d.location.line) for d in found)
    assert places == [("images/map.png", 0), ("rules/01-rules.md", 5)]
    assert all("images/map.png" in d.message or d.location.path.name == "map.png" for d in found)
    result = ws.run("build", "--game", "demo", "--only", "rulebook")
    assert result.returncode == 1 and "E064" in result.stdout + result.stderr
    assert "Traceback" not in result.stderr and not list((ws.root / "output").rglob("rulebook.pdf"))


def test_a_picture_is_judged_without_decoding_it(tmp_path: Path, monkeypatch):
    """A 30000×30000 PNG is refused from its header: no pixel is decoded (so no memory blow-up),
    whatever Pillow's own limit would do."""
    from PIL import ImageFile

    from generator.safety import pictures

    def decoded(self):
        raise AssertionError("a pixel was decoded")

    monkeypatch.setattr(ImageFile.ImageFile, "load", decoded)
    monkeypatch.setattr(pictures.Image, "MAX_IMAGE_PIXELS", None)  # Pillow's own guard off: ours alone
    path = tmp_path / "huge.png"
    path.write_bytes(huge_png())
    found = pictures.refusal(path)
    assert found.code == "E064" and "30000×30000" in found.message


def test_good_drawings_and_pictures_are_not_refused(tmp_path: Path):
    from PIL import Image

    from generator.safety.pictures import refusal

    (tmp_path / "good.svg").write_text(GOOD_SVG, encoding="utf-8")
    Image.new("RGB", (40, 30), "red").save(tmp_path / "small.png")
    Image.new("RGB", (40, 30), "red").save(tmp_path / "small.jpg")
    assert [refusal(tmp_path / n) for n in ("good.svg", "small.png", "small.jpg")] == [None, None, None]
    (tmp_path / "script.svg").write_text(HOSTILE_SVGS[0][1], encoding="utf-8")
    assert refusal(tmp_path / "script.svg").code == "E063"


def test_external_entity_is_never_resolved(tmp_path: Path):
    """The refusal comes before expansion: the secret the entity names never shows in any message."""
    from generator.safety.pictures import refusal

    secret = tmp_path / "secret.txt"
    secret.write_text("TOP-SECRET-42", encoding="utf-8")
    svg = tmp_path / "x.svg"
    svg.write_text(f'<?xml version="1.0"?>\n<!DOCTYPE svg [<!ENTITY s SYSTEM "{secret.as_uri()}">]>\n'
                   '<svg xmlns="http://www.w3.org/2000/svg"><text>&s;</text></svg>\n', encoding="utf-8")
    found = refusal(svg)
    assert found.code == "E063" and found.line == 2 and "TOP-SECRET" not in found.message


def test_chapter_linked_from_outside_is_refused_and_not_read(ws: Workspace):
    outside_link("rules/02-glossary.md", "# Glossary\n\n{{ unit:nobody-SECRET }}\n")(ws)
    report = ws.validate()
    found = [d for d in report.diagnostics if d.location.path.name == "02-glossary.md"]
    assert [d.code for d in found] == ["E066"]  # reported, and its text not even checked
    assert "copy the file" in found[0].hint
    result = ws.run("build", "--game", "demo", "--only", "site")
    assert result.returncode == 1 and "E066" in result.stdout + result.stderr
    assert not list((ws.root / "output").rglob("glossary*.html"))


def test_data_file_linked_from_outside_is_refused_and_not_read(ws: Workspace):
    outside_link("data/more.yaml", "secret_section_of_another_project: []\n")(ws)
    found = [d for d in ws.validate().diagnostics if d.location.path.name == "more.yaml"]
    assert [d.code for d in found] == ["E066"]


def test_link_inside_the_project_is_fine(ws: Workspace):
    import os

    ws.write("rules/01-rules.md", "# Rules\n\nText.\n")
    os.symlink("01-rules.md", ws.game / "rules" / "02-again.md")
    assert not [d for d in ws.validate().diagnostics if d.code == "E066"]


def test_nfd_and_nfc_spellings_are_one_name(ws: Workspace):
    nfc, nfd = "Caf\u00e9", unicodedata.normalize("NFD", "Caf\u00e9")
    assert nfc != nfd
    ws.edit("data/keywords.yaml", "name: Fast", f"name: {nfc}")
    ws.edit("data/keywords.yaml", "- name: Quick", f"- name: {nfc} Quick")
    ws.edit("data/units.yaml", "keywords: [Quick]", f"keywords: [{nfd}, {nfd} Quick]")
    ws.write("rules/01-rules.md", f"# Rules\n\n{nfd} units move.\n")
    report = ws.validate()
    assert not [d for d in report.diagnostics if d.code == "E007"], [d.format_text() for d in report.diagnostics]
    from generator.reading.loader import load_game
    from generator.text.chapters import load_chapter

    game = load_game(ws.game, Report())
    assert game.units["scouts"].keywords[0] == nfc
    assert nfc in load_chapter(ws.game / "rules" / "01-rules.md").source


def test_balanced_direction_controls_are_fine(ws: Workspace):
    from generator.reading.yamlsource import unbalanced_bidi

    assert unbalanced_bidi("a \u202eb\u202c c \u2067d\u2069") is None
    assert unbalanced_bidi("a \u2067b \u202ec\u2069") is None  # an isolate's end closes what it holds
    assert unbalanced_bidi("a \u202eb") == 2
    assert unbalanced_bidi("a \u202eb\nc\u202c") == 2  # a line ends it
    ws.edit("data/keywords.yaml", "name: Fast", 'name: "F\u2067a\u2069st"')
    assert not [d for d in ws.validate().diagnostics if d.code == "E067"]


def test_bidi_diagnostic_points_at_the_control(ws: Workspace):
    path = ws.edit("data/keywords.yaml", "name: Fast", 'name: "Fa\u202est"')
    found = [d for d in ws.validate().diagnostics if d.code == "E067"]
    assert [(d.location.path, d.location.line, d.location.col) for d in found] == \
        [(path, line_of(path, "Fa\u202est"), len('    name: "Fa') + 1)]


def test_a_settings_file_broken_after_validation_names_itself(ws: Workspace):
    """A build that reads a broken sheets.yaml says which file and line, not a bare error."""
    from generator.print.layout import load_sheets

    from .bad_input import sheets

    sheets("a4: {width: 210,", "a4: {width: 0,")(ws)
    path = ws.game / "templates" / "sheets.yaml"
    with pytest.raises(ValueError, match=rf"sheets\.yaml:{line_of(path, 'width: 0')}:\d+: error\[E004\]"):
        load_sheets(path)


def test_zero_size_text_in_a_games_css_is_reported(ws: Workspace):
    from generator.print.jobs import Job, run_job

    from .bad_input import stylesheet

    path = ws.write("rules/01-rules.md", "# Rules\n\nUnits move in turn.\n\nThen they shoot.\n")
    stylesheet("rulebook.css", 'p[data-src="rules/01-rules.md:5"] { font-size: 0; }')(ws)
    found = [d for d in run_job(Job(ws.root, "demo", "en", "rulebook", images=False)).diagnostics if d.code == "W041"]
    assert [(d.location.path, d.location.line) for d in found] == [(path, 5)]
    assert "prints nothing" in found[0].message and "Then they shoot" in found[0].message


def test_print_and_site_show_the_same_pictures(hostile: Workspace):
    """The rulebook draws the good drawing and refuses the hostile one, as the site copies the
    one and not the other (image paths are relative to the game folder for both)."""
    from generator.print.context import BuildContext
    from generator.print.pdf import render_document
    from generator.print.rulebook import book_html

    ctx = BuildContext(Project(hostile.root).load("demo", Report(), checks=False), "en", hostile.root)
    html = book_html(ctx)
    _, fetcher = render_document(html, ctx.game.folder, ctx.roots)
    assert (hostile.game / "images" / "good.svg").resolve() in fetcher.read
    assert "script.svg" not in html and "Script" in html  # its alt text, as on the site
    assert fetcher.refused == []  # nothing hostile or remote was even asked for
    site = build_site(Project(hostile.root), ["demo"], Report(), search=False).root
    page = next(p.read_text(encoding="utf-8") for p in sorted((site / "demo" / "en").rglob("*.html"))
                if "Styled." in p.read_text(encoding="utf-8"))
    assert "script.svg" not in page and "Script" in page


def test_project_settings_changed_after_a_build_are_validated_again(ws: Workspace):
    """The project's own sheets.yaml is validated with each game, and a change to it after a
    build is not hidden by the build's memory of having validated the game."""
    from generator.print.context import PACKAGE_TEMPLATES

    assert ws.run("build", "--game", "demo", "--only", "site").returncode == 0
    text = (PACKAGE_TEMPLATES / "sheets.yaml").read_text(encoding="utf-8").replace("min_font_pt: 6.5", "min_font_pt: 0")
    (ws.root / "templates").mkdir()
    path = ws.root / "templates" / "sheets.yaml"
    path.write_text(text, encoding="utf-8")
    result = ws.run("build", "--game", "demo", "--only", "site")
    output = result.stdout + result.stderr
    assert result.returncode == 1 and "Traceback" not in output
    assert f"templates/sheets.yaml:{line_of(path, 'min_font_pt: 0')}:" in output and "error[E004]" in output
