"""One verdict: every list of tests/roster_corpus/ goes through `rulesmith roster check` and the
list builder page (in Chromium, opened from the list's link), and both give the same total and the
same findings (rule and subject, error or warning). A few totals are pinned, so that the two cannot
agree on a wrong answer."""

from __future__ import annotations

import json
import shutil
from collections import Counter
from pathlib import Path
from urllib.parse import urlencode

import pytest
import yaml

from generator.core.diagnostics import Report
from generator.project import Project

from .conftest import REPO, run_cli
from .test_browser import browser  # noqa: F401  (the module's Chromium)
from .test_roster_sections import SECTIONS
from .test_rosters import ROSTERS, UNITS, demo

CORPUS = Path(__file__).parent / "roster_corpus"
LISTS = sorted(CORPUS.glob("*.yaml"))

# Beside the roster of docs/rosters.md: a unit of negative cost, an exclusive choice, a unit no section takes.
EXTRA_UNITS = """  - id: deserter
    name: Deserter
    type: infantry
    stats: {quality: 5+, cost: -20}
  - id: banner
    name: Banner
    type: support
    stats: {quality: 4+, cost: 25}
  - id: mercenary
    name: Mercenary
    type: hireling
    stats: {quality: 4+, cost: 15}
"""
CHOICE = """    choices:
      - id: deserter-or-banner
        units: [deserter, banner]
        exclusive: true
        source: "A list takes a deserter or a banner, not both."
"""

PINNED = {  # list: (total, findings)
    "battle-repeated-unit": (22, {("over-limit", "", "error")}),
    "demo-option-not-open": (40 + 2 * 40 + 70, {("option-not-open", "long-rifles", "error"),
                                                ("option-max", "long-rifles", "error"), ("over-limit", "", "error")}),
    "demo-negative-cost": (40 - 8 * 20, {("negative-cost", "deserter", "warning"),  # eight of an exclusive choice
                                         ("only-one", "deserter-or-banner", "error")}),
    "demo-unknown-names": (None, {("unknown-unit", "scoutz", "error"), ("unknown-option", "long-rifels", "error")}),
    "battle-first-value": (-3 * 2 - 1, {("negative-cost", "scouts", "warning"), ("negative-cost", "medic", "warning")}),
    "battle-free-play": (None, {("no-counted", "", "warning")}),  # says why the total is not computed
    "sections-scaled-hit": (40 + 8 * 30, set()),  # Troops: a battle's six and two for the captain
    "sections-scaled-breach": (40 + 5 * 30 + 4 * 50, {("section-max", "troops", "error")}),
    "sections-scaled-two-hq": (2 * 40 + 10 * 30, {("section-max", "hq", "error")}),
}


@pytest.fixture(scope="module")
def corpus_site(tmp_path_factory):
    from generator import outputs
    from generator.site.build import build_site

    root = tmp_path_factory.mktemp("corpus")
    ws = demo(root, ROSTERS.replace("    choices: []\n", CHOICE))
    ws.edit("data/units.yaml", UNITS, UNITS + EXTRA_UNITS)
    (root / "content" / "battle-rules").symlink_to(REPO / "content" / "battle-rules")
    # the same game with a force organisation of three sections (tests/test_roster_sections.py)
    shutil.copytree(root / "content" / "demo", root / "content" / "sections")
    manifest = root / "content" / "sections" / "game.yaml"
    manifest.write_text(manifest.read_text(encoding="utf-8").replace("id: demo", "id: sections", 1), encoding="utf-8")
    (root / "content" / "sections" / "data" / "rosters.yaml").write_text(  # a sharpshooter fits Troops or Support
        SECTIONS.replace("units: [banner]", "units: [banner, sharpshooter]"), encoding="utf-8")
    project = Project(root)
    outputs.confine_to(project.output)
    site = build_site(project, ["battle-rules", "demo", "sections"], Report(), search=False).root
    outputs.confine_to(None)
    return root, site


@pytest.fixture(scope="module")
def page(browser, corpus_site):  # noqa: F811
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    page.errors = []
    page.on("pageerror", lambda e: page.errors.append(str(e)))
    yield page
    context.close()


def link(path: Path) -> str:
    """The list as the builder's link writes it (#size=…&u=unit*count*option…)."""
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    params = [(k, data[k]) for k in ("size", "counted", "name") if data.get(k)]
    params += [("u", "*".join([e["unit"] + (f"@{e['section']}" if e.get("section") else ""), str(e.get("count", 1)),
                               *e.get("options", [])])) for e in data["units"]]
    return urlencode(params)


def from_command(root: Path, path: Path) -> tuple:
    from generator.roster.session import check_list, verdict

    report = Report()
    found = verdict(check_list(Project(root), path, report))
    findings = Counter((f["rule"], f["subject"], f["severity"]) for f in found["findings"])
    return found["total"], findings, [[s["id"], s["taken"]] for s in found["sections"]]


def from_page(page, site: Path, path: Path) -> tuple:
    game = yaml.safe_load(path.read_text(encoding="utf-8"))["game"]
    page.goto("about:blank")
    page.goto((site / game / "en" / "army-list.html").as_uri() + "#" + link(path))
    total = page.get_attribute("#army-builder", "data-total")
    sections = page.eval_on_selector_all("#army-sections li", "ls => ls.map(l => [l.dataset.section, +l.dataset.taken])")
    findings = Counter(tuple(f) for f in page.evaluate("""() => Array.from(document.querySelectorAll('#army-breaches li'))
        .filter(li => li.dataset.rule).map(li => [li.dataset.rule, li.dataset.subject,
                                                  li.classList.contains('warning') ? 'warning' : 'error'])"""))
    return (None if total == "" else json.loads(total)), findings, sections


@pytest.mark.parametrize("path", LISTS, ids=[p.stem for p in LISTS])
def test_the_page_and_roster_check_give_one_verdict(corpus_site, page, path):
    root, site = corpus_site
    command = from_command(root, path)
    assert from_page(page, site, path) == command
    assert page.errors == []
    if path.stem in PINNED:
        total, findings = PINNED[path.stem]
        assert command[:2] == (total, Counter(findings))


def test_the_corpus_covers_every_rule_both_sides_share(corpus_site):
    root, _site = corpus_site
    rules = {rule for path in LISTS for (rule, _s, _w) in from_command(root, path)[1]}
    assert rules >= {"over-limit", "at-most", "at-least", "only-one", "unknown-unit", "unknown-option", "unknown-size",
                     "option-not-open", "option-max", "negative-cost", "no-size", "no-counted", "section-max",
                     "section-min", "section-locked", "no-section", "unknown-section", "section-not-open",
                     "counted-not-open"}


def test_the_command_line_json_matches_the_in_process_verdict(corpus_site):
    root, _site = corpus_site
    path = CORPUS / "battle-repeated-unit.yaml"
    out = json.loads(run_cli("--root", str(root), "roster", "check", "--format", "json", str(path)).stdout)
    assert (out["list"]["total"], out["list"]["limit"]) == (22, 16)
    assert [line["cost"] for line in out["list"]["lines"]] == [4, 18]


def test_a_line_chooses_its_section_on_the_page_and_the_command_reads_it(corpus_site, browser, tmp_path):  # noqa: F811
    root, site = corpus_site
    context = browser.new_context(viewport={"width": 1280, "height": 900}, accept_downloads=True)
    page = context.new_page()
    page.goto((site / "sections" / "en" / "army-list.html").as_uri() + "#size=skirmish&u=captain*1&u=scouts*1&u=sharpshooter*1")
    sections = lambda: page.inner_text("#army-sections").splitlines()  # noqa: E731
    assert sections() == ["HQ: 1 (1)", "Troops: 2 (1–3)", "Support: 0 (at most 1)"]
    choice = page.locator("tr[data-unit=sharpshooter] select.army-section")
    assert choice.evaluate("s => Array.from(s.options).map(o => o.textContent)") == ["Troops", "Support"]
    choice.select_option("support")
    assert sections() == ["HQ: 1 (1)", "Troops: 1 (1–3)", "Support: 1 (at most 1)"]
    assert "u=sharpshooter%40support*1" in page.url or "u=sharpshooter@support*1" in page.url
    with page.expect_download() as download:
        page.click("#army-download")
    path = tmp_path / "sections.yaml"
    download.value.save_as(path)
    assert "  - unit: sharpshooter\n    section: support\n" in path.read_text(encoding="utf-8")
    assert from_command(root, path)[2] == [["hq", 1], ["troops", 1], ["support", 1]]
    page.goto("about:blank")
    page.goto((site / "sections" / "en" / "army-list.html").as_uri() + "#size=skirmish&u=scouts*1&u=banner*1")
    assert sections()[2] == "Support: 1 (locked)"
    assert "Support is open only to a list that takes Captain." in page.inner_text("#army-breaches")
    context.close()
