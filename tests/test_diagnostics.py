"""One broken fixture per diagnostic code: the right code, file and line, and a hint."""

from __future__ import annotations

import pytest

from generator.core.diagnostics import CODES

from .conftest import Workspace, line_of


def only(report, code):
    found = [d for d in report.diagnostics if d.code == code]
    assert found, f"expected {code}, got {[d.format_text() for d in report.diagnostics]}"
    return found[0]


def test_scaffold_is_clean(ws: Workspace):
    assert ws.validate().diagnostics == []


def test_e001_yaml_syntax(ws: Workspace):
    path = ws.edit("data/units.yaml", "    type: infantry", "    type: [infantry")
    d = only(ws.validate(), "E001")
    assert d.location.path == path and d.location.line >= line_of(path, "type: [infantry")


def test_e002_duplicate_key(ws: Workspace):
    path = ws.edit("data/units.yaml", "    type: infantry\n", "    type: infantry\n    type: cavalry\n")
    d = only(ws.validate(), "E002")
    assert d.location.path == path and d.location.line == line_of(path, "type: cavalry")
    assert "first at line" in d.message


def test_e003_unknown_field_did_you_mean(ws: Workspace):
    path = ws.edit("data/units.yaml", "    type: infantry", "    typ: infantry")
    d = only(ws.validate(), "E003")
    assert d.location.line == line_of(path, "typ: infantry") and d.location.col == 5
    assert "did you mean 'type'" in d.hint


def test_e004_wrong_type(ws: Workspace):
    path = ws.edit("data/cards.yaml", "    quantity: 3", "    quantity: three")
    d = only(ws.validate(), "E004")
    assert d.location.path == path and d.location.line == line_of(path, "quantity: three")


def test_e004_bad_id(ws: Workspace):
    path = ws.edit("data/units.yaml", "  - id: scouts", "  - id: Scouts Team")
    d = only(ws.validate(), "E004")
    assert d.location.line == line_of(path, "Scouts Team") and "lowercase" in d.hint


def test_e005_missing_field(ws: Workspace):
    path = ws.edit("data/actions.yaml", "    text: The unit moves up to its Move.\n", "")
    d = only(ws.validate(), "E005")
    assert d.location.path == path and d.location.line == line_of(path, "- id: move")
    assert "'text'" in d.message


def test_e005_missing_required_stat(ws: Workspace):
    path = ws.edit("data/units.yaml", "quality: 4+, ", "")
    d = only(ws.validate(), "E005")
    assert d.location.path == path and "quality" in d.message


def test_e006_duplicate_id_across_files(ws: Workspace):
    path = ws.write("data/units2.yaml", "units:\n  - id: scouts\n    name: Other scouts\n    stats: {quality: 5+}\n")
    d = only(ws.validate(), "E006")
    assert d.location.path == path and d.location.line == 2 and "units.yaml" in d.message


def test_e007_unknown_reference_suggests(ws: Workspace):
    path = ws.edit("data/cards.yaml", "    deck: orders\n    quantity: 3", "    deck: order\n    quantity: 3")
    d = only(ws.validate(), "E007")
    assert d.location.line == line_of(path, "deck: order") and "did you mean 'orders'" in d.hint


def test_e007_unknown_keyword(ws: Workspace):
    path = ws.edit("data/units.yaml", "keywords: [Quick]", "keywords: [Fats]")
    d = only(ws.validate(), "E007")
    assert d.location.line == line_of(path, "[Fats]") and "Fast" in d.hint


def test_e008_keyword_without_parameter(ws: Workspace):
    path = ws.edit("data/weapons.yaml", "keywords: [AP (1)]", "keywords: [AP]")
    d = only(ws.validate(), "E008")
    assert d.location.line == line_of(path, "keywords: [AP]")


def test_e009_plain_keyword_with_parameter(ws: Workspace):
    path = ws.edit("data/units.yaml", "keywords: [Quick]", "keywords: [Quick (2)]")
    d = only(ws.validate(), "E009")
    assert d.location.line == line_of(path, "Quick (2)")


def test_e010_dice_table_gap(ws: Workspace):
    path = ws.edit("data/tables.yaml", "roll: 3-6", "roll: 4-6")
    d = only(ws.validate(), "E010")
    assert d.location.path == path and "3" in d.message


def test_e011_dice_table_overlap(ws: Workspace):
    path = ws.edit("data/tables.yaml", "roll: 3-6", "roll: 2-6")
    d = only(ws.validate(), "E011")
    assert d.location.line == line_of(path, "roll: 2-6") and "2" in d.message and "row 1" in d.message


def test_e012_stat_value_type(ws: Workspace):
    path = ws.edit("data/units.yaml", "quality: 4+", "quality: four")
    d = only(ws.validate(), "E012")
    assert d.location.line == line_of(path, "quality: four") and "target number" in d.message


def test_e013_unknown_stat(ws: Workspace):
    path = ws.edit("data/units.yaml", "cost: 50", "cots: 50")
    d = only(ws.validate(), "E013")
    assert d.location.line == line_of(path, "cots: 50") and "did you mean 'cost'" in d.hint


def test_e014_unknown_section(ws: Workspace):
    path = ws.write("data/extra.yaml", "unitz:\n  - id: x\n")
    d = only(ws.validate(), "E014")
    assert d.location.path == path and d.location.line == 1 and "did you mean 'units'" in d.hint


def test_e015_erratum_not_in_errata_md(ws: Workspace):
    ws.write("ERRATA.md", "# Errata\n")
    d = only(ws.validate(), "E015")
    assert d.location.path.name == "errata.yaml"


def test_e016_errata_md_lists_unknown(ws: Workspace):
    path = ws.edit("ERRATA.md", "- `quick-for-fast`", "- `gone-erratum`: old.\n- `quick-for-fast`")
    d = only(ws.validate(), "E016")
    assert d.location.path == path and d.location.line == line_of(path, "gone-erratum")


def test_e017_missing_manifest(ws: Workspace):
    (ws.game / "game.yaml").unlink()
    (ws.game / "game.yaml").write_text("", encoding="utf-8")
    d = only(ws.validate(), "E017")
    assert d.location.path.name == "game.yaml"


def test_e018_erratum_mismatch(ws: Workspace):
    ws.edit("data/errata.yaml", "    reading: Fast", "    reading: '4+'\n    record: units/scouts\n    field: stats.quality")
    d = only(ws.validate(), "E018")
    assert "4+" in d.message or "Quick" in d.message


def test_e019_malformed_reference(ws: Workspace):
    path = ws.write("rules/01-intro.md", "# Intro\n\nSee {{ wat:scouts }} now.\n")
    d = only(ws.validate(), "E019")
    assert d.location.path == path and d.location.line == 3


def test_e007_reference_in_text(ws: Workspace):
    path = ws.write("rules/01-intro.md", "# Intro\n\nText.\n\nThe {{ unit:scout }} moves\n{{ unit:scouts.move }}.\n")
    d = only(ws.validate(), "E007")
    assert d.location.path == path and d.location.line == 5 and "scouts" in d.hint


def test_e020_chapter_without_title(ws: Workspace):
    path = ws.write("rules/01-intro.md", "Just text.\n")
    d = only(ws.validate(), "E020")
    assert d.location.path == path


def test_e021_example_without_id(ws: Workspace):
    path = ws.write("rules/01-intro.md", "# Intro\n\n::: example\nText.\n:::\n")
    d = only(ws.validate(), "E021")
    assert d.location.path == path and d.location.line == 3


def test_w001_unreferenced_erratum(ws: Workspace):
    ws.edit("data/keywords.yaml", "        erratum: quick-for-fast\n", "")
    report = ws.validate()
    d = only(report, "W001")
    assert not report.failed() and report.failed(strict=True)
    assert d.location.path.name == "errata.yaml"


# Codes found on laid-out pages rather than in content files: (body, css) of a page that has them.
LAYOUT = {
    "E040": ("<table style='width: 95mm'><tr><td>a</td><td>b</td></tr></table>", ""),
    "E041": ("<p style='position: absolute; top: 20mm; left: 10mm' data-src='rules/a.md:4'>Overlapping words</p>"
             "<p style='position: absolute; top: 20.5mm; left: 14mm'>Other words</p>", ""),
    "W040": ("<p style='position: absolute; top: 20mm; left: -25mm'>Gone</p>", ""),
    "W041": ("<p style='font-size: 5pt'>Tiny footer</p>", ""),
    "W042": ("<div style='height: 62mm'></div><h2 data-src='rules/a.md:9'>Shooting</h2>"
             "<p style='break-inside: avoid'>" + "Words. " * 60 + "</p>", "h2 { break-after: auto; }"),
    "W043": ("<p data-src='rules/a.md:2'>Rated \u2605</p>", ""),
    "W044": ("<p data-src='rules/a.md:3' style='color: #999999'>Pale words</p>", ""),
    "W046": ("<p lang='en' style='text-align: justify; width: 60mm'>So the totals are <span style='white-space: "
             "nowrap'>equal at 13 and more words here than fit</span> and more words follow here to end it.</p>", ""),
    "W047": ("<p lang='pl' style='width: 26mm; text-align: center; font-weight: bold; hyphens: auto'>"
             "Jest Przygwożdżony</p>", ""),
}


def test_every_code_has_a_test(tmp_path, monkeypatch):
    """Each code has a case in the bad-input corpus, and running that case produces the code
    at the file and line the case names (a code no fixture can produce fails here). The cases
    test_bad_input.py runs in-process, asserting the same, are not run twice."""
    from .bad_input import CASES, TIME_LIMIT, matches, run_case
    from .test_bad_input import IN_PROCESS

    monkeypatch.setenv("RULESMITH_TIME_LIMIT", TIME_LIMIT)
    missing, silent = [], []
    for code in CODES:
        case = next((c for c in CASES if c.code == code), None)
        if case is None and code in LAYOUT:  # findings about laid-out pages: a rendered fixture page
            from .test_layout import findings

            body, css = LAYOUT[code]
            (tmp_path / code).mkdir()
            if code not in {d.code for d in findings(tmp_path / code, body, css)}:
                silent.append(f"{code} (layout fixture)")
            continue
        if case is None:
            missing.append(code)
            continue
        if case.runner in IN_PROCESS:
            continue
        ws = Workspace(tmp_path / case.id)
        found = run_case(ws, case)
        if not any(matches(ws, case, d) for d in found):
            silent.append(f"{code} ({case.id}): got {sorted({d.code for d in found})}")
    assert not missing, f"codes without a fixture: {missing}"
    assert not silent, f"fixtures that do not produce their code: {silent}"


@pytest.mark.parametrize("garbage", [
    "- a\n- b\n", "units: 5\n", "units:\n  - 7\n", "units:\n  - {id: x, stats: [1, 2]}\n", "\x00\x01",
    "units:\n  - id: x\n    name: X\n    stats: {quality: [1, [2]]}\n", "? [a, b]\n: c\n", "&a [*a]\n",
    "keywords:\n  - {id: k, name: K, definition: D, aliases: [{name: null}]}\n", "!!python/object:os.system {}\n",
])
def test_garbage_never_crashes(ws: Workspace, garbage: str):
    ws.write("data/garbage.yaml", garbage)
    report = ws.validate()
    assert report.errors and all(d.location.path.name == "garbage.yaml" for d in report.errors)


def test_w004_alias_nobody_uses(ws: Workspace):
    path = ws.edit("data/units.yaml", "keywords: [Quick]", "keywords: [Fast]")
    d = only(ws.validate(), "W004")
    assert d.location.path.name == "keywords.yaml" and d.location.line == line_of(ws.game / "data/keywords.yaml", "- name: Quick")
    assert path.exists()
