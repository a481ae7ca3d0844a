"""The list builder in Chromium: a list built on the page is flagged over its limit, shared as a
link, and downloaded as the YAML that `rulesmith roster check` passes and `roster print` prints."""

from __future__ import annotations

import pytest

from generator.core.diagnostics import Report
from generator.project import Project

from .conftest import REPO, run_cli
from .test_rosters import demo
from .test_browser import browser  # noqa: F401  (the module's Chromium)


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    """battle-rules and a small game of the designer's, their site built once."""
    from generator import outputs
    from generator.site.build import build_site

    root = tmp_path_factory.mktemp("builder")
    demo(root)  # the small game of docs/rosters.md: limits and an option
    (root / "content" / "battle-rules").symlink_to(REPO / "content" / "battle-rules")
    project = Project(root)
    outputs.confine_to(project.output)
    site = build_site(project, ["battle-rules", "demo"], Report(), search=False).root
    outputs.confine_to(None)
    return root, site


def open_builder(browser, site, width: int = 1280, lang: str = "en", hash_: str = "", game: str = "battle-rules"):
    context = browser.new_context(viewport={"width": width, "height": 900}, accept_downloads=True)
    page = context.new_page()
    page.errors = []
    page.on("pageerror", lambda e: page.errors.append(str(e)))
    page.goto((site / game / lang / "army-list.html").as_uri() + hash_)  # offline: from file://
    return page


def test_a_list_built_on_the_page_is_checked_live_and_its_download_passes_roster_check(browser, site, tmp_path):
    root, folder = site
    page = open_builder(browser, folder)
    page.select_option("#army-size", "standard-battle")
    assert "Choose which value of the cost counts" in page.inner_text("#army-breaches")
    page.select_option("#army-counted", "second")
    page.fill("#army-name", "Recon: in force")
    page.fill("#army-count-scouts", "6")
    page.fill("#army-count-snipers", "5")
    assert page.inner_text("#army-total") == "Total: 17 / 16"
    assert page.inner_text("#army-breaches") == "The list costs 17, over the limit of 16."
    # keyboard: the count field takes the arrow keys, and the breach goes
    page.focus("#army-count-snipers")
    page.keyboard.press("ArrowDown")
    assert page.inner_text("#army-total") == "Total: 16 / 16"
    assert page.inner_text("#army-breaches") == "No breach of the roster rules."
    with page.expect_download() as download:
        page.click("#army-download")
    path = tmp_path / "downloaded.yaml"
    download.value.save_as(path)
    text = path.read_text(encoding="utf-8")
    assert text.startswith('game: battle-rules\nsize: standard-battle\ncounted: second\nname: "Recon: in force"\n')
    result = run_cli("--root", str(root), "roster", "check", str(path))
    assert result.returncode == 0, result.stdout + result.stderr
    assert "battle-rules: total command-points 16 of 16 (standard-battle)" in result.stdout
    printed = run_cli("--root", str(root), "roster", "print", str(path), "--lang", "en")
    assert printed.returncode == 0, printed.stdout + printed.stderr
    # the same list written by hand prints the same PDF, byte for byte
    by_hand = tmp_path / "by-hand.yaml"
    by_hand.write_text("game: battle-rules\nsize: standard-battle\ncounted: second\nname: 'Recon: in force'\n"
                       "units: [{unit: scouts, count: 6}, {unit: snipers, count: 4}]\n", encoding="utf-8")
    assert run_cli("--root", str(root), "roster", "print", str(by_hand), "--lang", "en").returncode == 0
    lists = root / "output" / "battle-rules" / "en" / "lists"
    assert (lists / "downloaded.pdf").read_bytes() == (lists / "by-hand.pdf").read_bytes()
    # the shared link opens the same list
    shared = page.url
    assert "#" in shared and page.errors == []
    again = open_builder(browser, folder, hash_="#" + shared.split("#", 1)[1])
    assert again.input_value("#army-count-scouts") == "6" and again.input_value("#army-count-snipers") == "4"
    assert again.input_value("#army-name") == "Recon: in force" and again.input_value("#army-counted") == "second"
    assert again.inner_text("#army-total") == "Total: 16 / 16"


def test_an_over_limit_download_is_refused_by_roster_check_at_its_line(browser, site, tmp_path):
    root, folder = site
    page = open_builder(browser, folder, lang="ru", hash_="#size=standard-battle&counted=second&u=scouts*9")
    assert page.inner_text("#army-breaches") == "Список стоит 18, больше предела 16."
    with page.expect_download() as download:
        page.click("#army-download")
    path = tmp_path / "over.yaml"
    download.value.save_as(path)
    result = run_cli("--root", str(root), "roster", "check", str(path))
    assert result.returncode == 1
    assert "over.yaml:5:5: error[E081]: this takes the list to 18, over the limit of 16" in result.stdout


def test_the_builder_fits_a_375_px_phone_and_labels_every_field(browser, site):
    _root, folder = site
    page = open_builder(browser, folder, width=375)
    assert page.evaluate("document.documentElement.scrollWidth") <= 375
    unlabelled = page.evaluate("""() => Array.from(document.querySelectorAll('#army-builder input, #army-builder select'))
        .filter(el => !(el.labels && el.labels.length) && !el.getAttribute('aria-labelledby')).map(el => el.id)""")
    assert unlabelled == []
    # each count is named by its column and its unit: "Count Scouts"
    assert page.evaluate("""() => document.getElementById('army-count-scouts').getAttribute('aria-labelledby')
        .split(' ').map(id => document.getElementById(id).textContent.trim()).join(' ')""") == "Count Scouts"


def test_unit_limits_and_options_are_breached_on_the_page_as_roster_check_finds_them(browser, site, tmp_path):
    root, folder = site
    page = open_builder(browser, folder, game="demo")
    page.select_option("#army-size", "skirmish")
    page.fill("#army-count-scouts", "1")
    page.check("input[data-unit=scouts][data-option=long-rifles]")
    page.fill("#army-count-sharpshooter", "3")
    assert page.inner_text("#army-total") == "Total: 150 / 150"  # 60 + 3 × 30
    breaches = page.inner_text("#army-breaches").splitlines()
    assert breaches == ["leader: at least 1, the list takes 0.", "Sharpshooter: at most 2, the list takes 3."]
    page.fill("#army-count-captain", "1")
    assert page.inner_text("#army-total") == "Total: 190 / 150"
    assert page.inner_text("#army-breaches").splitlines() == [
        "The list costs 190, over the limit of 150.", "Sharpshooter: at most 2, the list takes 3."]
    with page.expect_download() as download:
        page.click("#army-download")
    path = tmp_path / "patrol.yaml"
    download.value.save_as(path)
    assert "  - unit: scouts\n    options: [long-rifles]\n" in path.read_text(encoding="utf-8")
    result = run_cli("--root", str(root), "roster", "check", str(path))
    assert result.returncode == 1 and result.stdout.count("error[E081]") == 2
    assert "over the limit of 150" in result.stdout and "the roster allows at most 2" in result.stdout
    page.fill("#army-count-sharpshooter", "1")
    assert page.inner_text("#army-breaches") == "No breach of the roster rules."
    with page.expect_download() as download:
        page.click("#army-download")
    download.value.save_as(path)
    assert run_cli("--root", str(root), "roster", "check", str(path)).returncode == 0


def test_printing_the_page_shows_the_chosen_units_and_not_the_buttons(browser, site):
    _root, folder = site
    page = open_builder(browser, folder, hash_="#size=standard-battle&counted=second&u=scouts*2")
    page.emulate_media(media="print")
    assert page.is_visible("#army-count-scouts") and not page.is_visible("#army-count-snipers")
    assert not page.is_visible("#army-print") and page.inner_text("#army-total") == "Total: 4 / 16"


def test_printing_the_page_shows_each_chosen_units_datasheet_and_its_keywords_as_roster_print_does(browser, site):
    from generator.print.context import BuildContext
    from generator.roster.printed import keyword_ids

    root, folder = site
    game = Project(root).load("battle-rules", Report(), checks=False)
    page = open_builder(browser, folder, hash_="#size=standard-battle&counted=second&u=scouts*2&u=snipers*1")
    assert not page.is_visible("#army-sheets")  # on screen the unit table is the list
    page.emulate_media(media="print")
    shown = lambda selector: page.eval_on_selector_all(selector, "els => els.filter(e => e.offsetParent !== null)"  # noqa: E731
                                                       ".map(e => e.id || e.textContent.trim())")
    assert shown("#army-sheets .roster tbody tr[id]") == ["unit-scouts", "unit-snipers"]  # the chosen, no other
    # the rulebook's datasheet row, stats as the source writes them (as in the printed list's PDF)
    assert page.inner_text("#unit-snipers").split() == ["Snipers", "3", "15", "cm", "30", "cm", "1+", "1+", "/", "0†",
                                                       "R/M", "5+", "P", "-2", "/", "1", "–"]
    assert page.is_visible("#unit-snipers + tr.details") and "P" in page.inner_text("#unit-snipers + tr.details")
    used = sorted(f"keyword-{k}" for k in keyword_ids(BuildContext(game, "en", root), ["scouts", "snipers"]))
    assert used and sorted(shown("#army-sheets .glossary dt")) == used  # each keyword they use, once
    page.evaluate("location.hash = 'size=standard-battle&counted=second&u=scouts*2'")
    page.wait_for_function("document.getElementById('army-builder').dataset.total === '4'")
    assert shown("#army-sheets .roster tbody tr[id]") == ["unit-scouts"] and not page.is_visible("#unit-snipers")
    assert sorted(shown("#army-sheets .glossary dt")) == sorted(
        f"keyword-{k}" for k in keyword_ids(BuildContext(game, "en", root), ["scouts"]))
    page.evaluate("location.hash = 'size=standard-battle'")  # nothing chosen: no datasheets
    page.wait_for_function("document.getElementById('army-builder').dataset.total === '0'")
    assert not page.is_visible("#army-sheets")
    assert page.errors == []


def test_a_unit_takes_several_lines_each_with_its_own_options(browser, site, tmp_path):
    root, folder = site
    page = open_builder(browser, folder, game="demo", hash_="#size=skirmish&u=captain*1")
    page.fill("#army-count-scouts", "2")
    page.click("button.army-add[data-unit=scouts]")
    assert page.input_value("#army-count-scouts-2") == "1"
    page.check("#army-count-scouts-2 >> xpath=ancestor::tr >> input[data-option=long-rifles]")
    assert page.inner_text("#army-total") == "Total: 200 / 150"  # 40 + 2 × 50 + 60
    assert "u=scouts*2&u=scouts*1*long-rifles" in page.url
    with page.expect_download() as download:
        page.click("#army-download")
    path = tmp_path / "two-lines.yaml"
    download.value.save_as(path)
    assert "  - unit: scouts\n    count: 2\n  - unit: scouts\n    options: [long-rifles]\n" in path.read_text(encoding="utf-8")
    result = run_cli("--root", str(root), "roster", "check", str(path))
    assert "demo: total cost 200 of 150 (skirmish)" in result.stdout
    page.click("#army-count-scouts-2 >> xpath=ancestor::tr >> button.army-remove")
    assert page.inner_text("#army-total") == "Total: 140 / 150" and page.query_selector("#army-count-scouts-2") is None


@pytest.mark.parametrize("count", ["1e3", "-2", "2.7"])
def test_a_count_that_is_no_whole_number_is_said_beside_its_line_not_changed(browser, site, count):
    _root, folder = site
    page = open_builder(browser, folder, game="demo", hash_=f"#size=skirmish&u=captain*1&u=scouts*{count}")
    note = page.inner_text("#army-notes-scouts")
    assert note == f"The count '{count}' is not a whole number (0, 1, 2…): the total cannot count this line."
    assert page.inner_text("#army-total") == "Total: not computed (see the lines) / 150"
    assert page.get_attribute("#army-count-scouts", "aria-invalid") == "true"
    assert f"u=scouts*{count}" in page.url.replace("%2A", "*")  # kept as written in the address
    page.fill("#army-count-scouts", "100")  # a whole number is a count, however large: the limit says the rest
    assert page.inner_text("#army-total") == "Total: 5040 / 150"  # 40 + 100 × 50; the line that goes over says so
    assert page.inner_text("#army-notes-scouts") == "The list costs 5040, over the limit of 150."
    assert page.errors == []


def test_a_link_with_an_unknown_unit_says_so_with_a_suggestion_and_keeps_it(browser, site):
    _root, folder = site
    page = open_builder(browser, folder, hash_="#size=standard-battle&counted=second&u=scoutz*3&u=snipers*2*scope")
    rows = page.locator("tr[data-unit=scoutz]")
    assert rows.count() == 1
    assert rows.locator(".army-notes").inner_text() == "Unknown unit 'scoutz'. Did you mean 'scouts'?"
    assert page.input_value("tr[data-unit=scoutz] .army-count") == "3"
    assert page.inner_text("#army-notes-snipers") == "Unknown option 'scope'."
    assert "u=scoutz*3" in page.url.replace("%2A", "*")
    page.click("tr[data-unit=scoutz] button.army-remove")
    assert "scoutz" not in page.url


def test_a_link_pasted_into_the_open_builder_loads_its_list(browser, site):
    _root, folder = site
    page = open_builder(browser, folder, hash_="#size=standard-battle&counted=second&u=scouts*2")
    assert page.inner_text("#army-total") == "Total: 4 / 16"
    page.evaluate("location.hash = 'size=standard-battle&counted=second&u=scouts*2&u=scouts*9'")
    page.wait_for_function("document.getElementById('army-total').textContent === 'Total: 22 / 16'")
    assert page.input_value("#army-count-scouts") == "2" and page.input_value("#army-count-scouts-2") == "9"


def test_a_list_built_left_and_reopened_is_still_there(browser, site):
    _root, folder = site
    page = open_builder(browser, folder, game="demo")
    page.select_option("#army-size", "skirmish")
    page.fill("#army-name", "Patrol")
    page.fill("#army-count-captain", "1")
    page.fill("#army-count-scouts", "2")
    page.goto((folder / "demo" / "en" / "units.html").as_uri())  # left by the menu
    page.goto((folder / "demo" / "en" / "army-list.html").as_uri())  # and back, with no link
    assert page.input_value("#army-count-scouts") == "2" and page.input_value("#army-name") == "Patrol"
    assert page.inner_text("#army-total") == "Total: 140 / 150"
    assert page.errors == []


def test_several_named_lists_are_kept_created_renamed_duplicated_and_deleted(browser, site):
    _root, folder = site
    page = open_builder(browser, folder, game="demo", hash_="#size=skirmish&name=Patrol&u=captain*1")
    names = lambda: page.eval_on_selector_all("#army-lists option", "os => os.map(o => o.textContent)")  # noqa: E731
    assert names() == ["Patrol"]
    page.click("#army-new")
    assert page.input_value("#army-count-captain") == "0" and names() == ["Patrol", "Untitled list 2"]
    page.fill("#army-name", "Raid")  # the name field renames the list
    page.fill("#army-count-scouts", "1")
    assert names() == ["Patrol", "Raid"]
    page.click("#army-duplicate")
    assert names() == ["Patrol", "Raid", "Raid (copy)"] and page.input_value("#army-count-scouts") == "1"
    page.click("#army-delete")
    assert names() == ["Patrol", "Raid"] and page.input_value("#army-name") == "Raid"
    page.select_option("#army-lists", label="Patrol")
    assert page.input_value("#army-count-captain") == "1" and page.input_value("#army-count-scouts") == "0"
    page.reload()  # kept in the browser: the last open list comes back
    assert names() == ["Patrol", "Raid"] and page.input_value("#army-name") == "Patrol"
    with page.expect_download() as download:
        page.click("#army-download")
    assert download.value.suggested_filename == "Patrol.yaml"  # named after the list
    assert page.errors == []


def test_a_yaml_list_file_opened_in_the_page_gives_the_commands_total(browser, site, tmp_path):
    root, folder = site
    page = open_builder(browser, folder, game="demo")
    path = tmp_path / "raid.yaml"
    path.write_text("# a list written by hand\ngame: demo\nsize: skirmish\nunits: [{unit: captain}, "
                    "{unit: scouts, count: 2, options: [long-rifles]}, {unit: scoutz}]\nnotes: fast\n", encoding="utf-8")
    page.set_input_files("#army-open", str(path))
    page.wait_for_function("document.getElementById('army-kept').textContent.startsWith('Opened')")
    # the command's words for the field: "unknown field 'notes'", "did you mean 'units'?"
    assert page.inner_text("#army-kept") == ("Opened raid.yaml as a new list. Unknown field 'notes' (left out). "
                                             "Did you mean 'units'?")
    assert page.input_value("#army-name") == "raid"
    assert page.inner_text("tr[data-unit=scoutz] .army-notes") == "Unknown unit 'scoutz'. Did you mean 'scouts'?"
    path.write_text(path.read_text(encoding="utf-8").replace(", {unit: scoutz}", "").replace("notes: fast\n", ""),
                    encoding="utf-8")
    page.set_input_files("#army-open", str(path))
    page.wait_for_function("document.getElementById('army-builder').dataset.total === '160'")  # 40 + 2 × 60
    result = run_cli("--root", str(root), "roster", "check", str(path))
    assert "demo: total cost 160 of 150 (skirmish)" in result.stdout
    path.write_text("game: battle-rules\nunits: []\n", encoding="utf-8")
    page.set_input_files("#army-open", str(path))
    page.wait_for_function("document.getElementById('army-kept').textContent.includes('battle-rules')")
    assert page.inner_text("#army-kept") == "raid.yaml is a list for the game 'battle-rules', not this one."
    path.write_text("game: demo\nunits: [\n", encoding="utf-8")
    page.set_input_files("#army-open", str(path))
    page.wait_for_function("document.getElementById('army-kept').textContent.includes('cannot be read')")
    assert page.errors == []


def test_printing_says_which_game_edition_data_and_size_and_that_a_list_breaks_rules(browser, site):
    from generator.roster.printed import data_version

    root, folder = site
    version = data_version(Project(root).load("battle-rules", Report(), checks=False))
    page = open_builder(browser, folder, hash_="#size=standard-battle&counted=second&u=scouts*2")
    page.emulate_media(media="print")
    assert page.inner_text("#army-print-head") == (f"Additional Battle Rules · Edition: English · data {version} · "
                                                   "Standard Battle: 16 · The list counts value number 2.")
    assert not page.is_visible("#army-saved") and page.is_visible("#army-counted")  # every chosen value prints
    page.evaluate("location.hash = 'size=standard-battle&counted=second&u=scouts*9'")
    page.wait_for_function("document.getElementById('army-builder').dataset.breaches === '1'")
    assert page.inner_text("#army-print-head").endswith("This list breaks 1 roster rule(s): see Breaches.")
    assert page.is_visible("#army-breaches") and "over the limit of 16" in page.inner_text("#army-breaches")


@pytest.mark.parametrize("width,height", [(375, 640), (1280, 700)])
def test_the_total_stays_in_view_while_editing(browser, site, width, height):
    _root, folder = site
    page = open_builder(browser, folder, width=width)
    page.set_viewport_size({"width": width, "height": height})
    assert page.inner_text("#army-total") == "Total: 0 / choose a size of game"  # not "the source states no limit"
    for unit in ("scouts", "snipers", "sergeant"):  # the first rows, at the top of a long table
        page.focus(f"#army-count-{unit}")
        box = page.locator("#army-total").bounding_box()
        assert 0 <= box["y"] and box["y"] + box["height"] <= height, (unit, box)
    page.fill("#army-count-sergeant", "3")
    page.select_option("#army-size", "standard-battle")
    assert page.inner_text("#army-total").startswith("Total: not computed (see the lines) / 16")
