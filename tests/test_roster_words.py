"""Every roster word a reader sees is translated: a force organisation's section names are text,
extracted by `rulesmith i18n extract` and printed in the other edition's language on the builder
page (in Chromium), in the printed list and in the roster rules, never as the source's word."""

from __future__ import annotations

import re

import polib

from generator.core.diagnostics import Report
from generator.project import Project

from .test_browser import browser  # noqa: F401  (the module's Chromium)
from .test_roster_print import pdf_text
from .test_roster_sections import sectioned
from .test_rosters import army

RUSSIAN = {"HQ": "Штаб", "Troops": "Войска", "Support": "Поддержка", "Captain": "Капитан", "Scouts": "Разведчики"}
SOURCE_WORDS = ("HQ", "Troops", "Support")


def unquoted(text: str) -> str:
    """The text without the source's sentences (quoted verbatim, never translated)."""
    return re.sub(r"<q[^>]*>.*?</q>|“[^”]*”|«[^»]*»", "", text, flags=re.S)


def russian_edition(tmp_path):
    ws = sectioned(tmp_path)
    ws.edit("game.yaml", "languages: []", "languages: [ru]")
    extracted = ws.run("i18n", "extract", "demo")
    assert extracted.returncode == 0, extracted.stderr
    pot = {entry.msgid for entry in polib.pofile(str(ws.game / "locale" / "messages.pot"))}
    assert set(SOURCE_WORDS) <= pot  # the section names are messages of the catalogs
    assert ws.run("i18n", "update", "ru", "demo").returncode == 0
    catalog = polib.pofile(str(ws.game / "locale" / "ru.po"))
    for entry in catalog:
        entry.msgstr = RUSSIAN.get(entry.msgid, "")
    catalog.save()
    return ws


def test_section_names_print_in_the_other_editions_language_on_the_page_in_the_pdf_and_in_the_rules(
        tmp_path, browser):  # noqa: F811
    from generator import outputs
    from generator.site.build import build_site

    ws = russian_edition(tmp_path)
    path = army(ws, "game: demo\nsize: skirmish\nunits:\n  - unit: captain\n  - unit: scouts\n")
    printed = ws.run("roster", "print", str(path), "--lang", "ru")
    assert printed.returncode == 0, printed.stdout + printed.stderr
    text = unquoted(pdf_text(ws.root / "output" / "demo" / "ru" / "lists" / "army.pdf"))
    assert "Штаб 1 1 Капитан Войска 1 1–3 Разведчики Поддержка 0 не больше 1" in text, text
    assert "Войска: 1, ещё до 2 за каждого: Штаб" in text  # the rule, its growth named in Russian
    assert not [word for word in SOURCE_WORDS if re.search(rf"\b{word}\b", text)], text

    project = Project(ws.root)
    outputs.confine_to(project.output)
    site = build_site(project, ["demo"], Report(), search=False).root
    outputs.confine_to(None)
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    page.goto((site / "demo" / "ru" / "army-list.html").as_uri() + "#size=skirmish&u=captain*1&u=scouts*4")
    assert page.inner_text("#army-sections").splitlines() == ["Штаб: 1 (1)", "Войска: 4 (1–3)",
                                                              "Поддержка: 0 (не больше 1)"]
    assert "Войска: не больше 3 отрядов, в списке 4." in page.inner_text("#army-breaches")
    shown = unquoted(page.evaluate("document.querySelector('main').innerHTML"))
    assert not [word for word in SOURCE_WORDS if re.search(rf"\b{word}\b", shown)]
    page.goto("about:blank")
    page.goto((site / "demo" / "en" / "army-list.html").as_uri() + "#size=skirmish&u=captain*1&u=scouts*4")
    assert page.inner_text("#army-sections").splitlines()[1] == "Troops: 4 (1–3)"  # the source's edition keeps its words
    context.close()
