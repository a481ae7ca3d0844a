"""Every kind of record a `{{ kind:id }}` reference names links on the site to the page (and
anchor) that shows the record, where the site has one; site/links.py says for the others why
they have none."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from generator.commands.new import scaffold
from generator.core.diagnostics import Report
from generator.project import Project
from generator.site.links import NO_PAGE, OWN_PAGES, PAGES
from generator.text.refs import KIND_SECTIONS, SPECIAL

from .conftest import run_cli

# a table's reference prints the whole table, not its name (tables.html is where other pages link it)
NAMES_NO_RECORD = {"table"}
_LINK = re.compile(r'<a class="(?:ref ref-([a-z]+)|(kw))" href="([^"]*)"')  # a keyword's link carries its tooltip


def test_every_reference_kind_has_a_page_or_says_why_not():
    kinds = {*KIND_SECTIONS, *SPECIAL}
    placed = [k for k in kinds if (k in PAGES) + (k in OWN_PAGES) + (k in NO_PAGE) != 1]
    assert placed == [], "each kind has exactly one of: a page with an anchor, a page of its own, a reason for none"


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> tuple[Path, set[str]]:
    """The scaffolded game with a chapter naming one record of every kind, its site built in
    the source language; the kinds named."""
    root = tmp_path_factory.mktemp("links")
    scaffold(root / "content" / "demo", "demo", "Demo")
    game = Project(root).load("demo", Report())
    named = {kind: next(iter(game.section(section))) for kind, section in KIND_SECTIONS.items()
             if kind not in NAMES_NO_RECORD and game.section(section)}
    refs = "\n".join(f"- {{{{ {kind}:{rid} }}}}" for kind, rid in named.items())
    (root / "content/demo/rules").mkdir(exist_ok=True)
    (root / "content/demo/rules/99-refs.md").write_text(f"# Every kind\n\n{refs}\n", encoding="utf-8")
    result = run_cli("--root", str(root), "build", "--game", "demo", "--only", "site", "--lang", "en", "--jobs", "1")
    assert result.returncode == 0, result.stdout + result.stderr
    return root / "output/site/demo/en", set(named)


def test_each_kind_with_a_page_links_to_a_target_that_exists(site):
    folder, named = site
    page = folder / "refs.html"  # the chapter rules/99-refs.md
    links = {kind or "keyword": href for kind, keyword, href in _LINK.findall(page.read_text(encoding="utf-8"))}
    assert set(links) == {k for k in named if k in PAGES or k in OWN_PAGES} | {"roster"}
    for kind, href in links.items():
        path, _, anchor = href.partition("#")
        target = folder / path
        assert target.is_file(), (kind, href)
        if anchor:
            assert f'id="{anchor}"' in target.read_text(encoding="utf-8"), (kind, href)
