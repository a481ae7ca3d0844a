"""One rendering path for every text field: a test walks every player-facing string of the data
(what a translator sees: card faces and backs, counters, markers, map labels, table cells,
parameters, sides...), puts a reference in each, and proves that an unknown one is an error at
its own line and column, and that a known one prints as its words in the PDFs and on the site."""

from __future__ import annotations

import shutil
from pathlib import Path

import pypdfium2 as pdfium
import pytest
import yaml

from generator.commands.new import scaffold
from generator.core.diagnostics import Report
from generator.i18n.messages import data_strings
from generator.project import Project

from .conftest import run_cli

REPO = Path(__file__).resolve().parents[1]
# The fields whose reference must print: the component fields issue 23 names (a rulebook's
# own texts and the game's summary print elsewhere; they are validated all the same).
PRINTED = {"card", "counter", "map", "table", "side", "parameter", "deck", "countersheet"}
# Names no PDF prints (a side is its colour on a counter or card; a counter's name is for lists
# and the site) and one the site does not show (it groups counters by side, not by sheet).
NOT_IN_PDF = {("side", "name"), ("countersheet", "name"), ("counter", "name")}
NOT_ON_SITE = {("countersheet", "name")}


def _games(root: Path) -> list[str]:
    scaffold(root / "content" / "demo", "demo", "Demo")
    scaffold(root / "content" / "ops", "ops", "Ops", kind="counters")
    shutil.copytree(REPO / "tests/fixtures/bridgehead", root / "content" / "bridgehead")
    return ["demo", "ops", "bridgehead"]


def _set(data, path: tuple, value: str) -> None:
    for part in path[:-1]:
        data = data[part]
    data[path[-1]] = value


def _what(record, path: tuple) -> str:
    if record is not None:
        return record.kind
    return {"sides": "side", "parameters": "parameter"}.get(path[0], "game")


class _Dumper(yaml.SafeDumper):
    """Writes a string of digits in quotes: a cell '0802' is no octal number to PyYAML, which
    would write it bare, and the game's loader would read it as the number 802."""


_Dumper.add_representer(str, lambda dumper, text: dumper.represent_scalar(
    "tag:yaml.org,2002:str", text, style="'" if text.isdigit() else None))


def inject(root: Path, game_id: str, reference) -> list[tuple[str, str, Path, str]]:
    """Append reference(n) to the nth text field of the game, rewriting its YAML files:
    [(what the field belongs to, the field's name, its file, the reference written)]."""
    game = Project(root).load(game_id, Report())
    files: dict[Path, object] = {}
    fields = []
    for n, (record, path, text, where) in enumerate(data_strings(game)):
        inside = path if record is None else game.origin(record).path + path
        data = files.setdefault(where.path, yaml.safe_load(where.path.read_text(encoding="utf-8")))
        written = reference(n)
        _set(data, inside, f"{text} {written}")
        fields.append((_what(record, path), str(path[-1]), where.path, written))
    for path, data in files.items():
        path.write_text(yaml.dump(data, Dumper=_Dumper, allow_unicode=True, sort_keys=False, width=4096),
                        encoding="utf-8")
    return fields


def test_an_unknown_reference_in_any_text_field_is_an_error_at_its_line_and_column(tmp_path):
    kinds = set()
    for game_id in _games(tmp_path):
        fields = inject(tmp_path, game_id, lambda n: f"{{{{ unit:nosuch-{n} }}}}")
        report = Report()
        Project(tmp_path).load(game_id, report)
        found = {}
        for d in report.diagnostics:
            for _what_, _name, _path, written in fields:
                if d.code == "E007" and f"'{written[8:-3]}'" in d.message:
                    found.setdefault(written, d.location)
        for what, _name, path, written in fields:
            kinds.add(what)
            lines = path.read_text(encoding="utf-8").splitlines()
            line = next(i for i, text in enumerate(lines, start=1) if written in text)
            assert written in found, f"{game_id}: {what} field with {written} not reported"
            assert (found[written].path, found[written].line, found[written].col) == \
                (path, line, lines[line - 1].index(written) + 1), written
    assert {"card", "counter", "map", "table", "side", "parameter"} <= kinds


def _texts(folder: Path) -> str:
    out = []
    for pdf in sorted(folder.glob("*.pdf")):
        document = pdfium.PdfDocument(str(pdf))
        for page in document:
            out.append(page.get_textpage().get_text_range())
        document.close()
    return " ".join(out).replace("\ufffe\r\n", "").replace("\r\n", " ")


@pytest.mark.parametrize("game_id", ["ops", "bridgehead"])
def test_a_reference_in_any_component_field_prints_in_the_pdfs_and_on_the_site(tmp_path, game_id):
    _games(tmp_path)
    manifest = tmp_path / "content" / game_id / "game.yaml"
    fields = inject(tmp_path, game_id, lambda n: f"{{{{ stat:probe-{n} }}}}")
    data = yaml.safe_load(manifest.read_text(encoding="utf-8"))
    data.setdefault("stats", []).extend({"id": f"probe-{n}", "name": f"Probe{n}x", "type": "number",
                                         "applies_to": ["weapon"]} for n in range(len(fields)))
    manifest.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), encoding="utf-8")
    result = run_cli("--root", str(tmp_path), "build", "--game", game_id, "--lang", "en", "--no-images",
                     "--jobs", "1", "--only", "rulebook,cards,counters,maps,reference,site")
    assert result.returncode == 0, result.stdout + result.stderr
    printed = _texts(tmp_path / "output" / game_id / "en")
    site = " ".join(p.read_text(encoding="utf-8") for p in (tmp_path / "output/site" / game_id / "en").glob("**/*.html"))
    assert "{{ stat:probe" not in printed and "{{ stat:probe" not in site
    shown = [(what, name, n) for n, (what, name, _path, _written) in enumerate(fields) if what in PRINTED]
    assert [(w, f, n) for w, f, n in shown if f"Probe{n}x" not in site and (w, f) not in NOT_ON_SITE] == []
    assert [(w, f, n) for w, f, n in shown if f"Probe{n}x" not in printed and (w, f) not in NOT_IN_PDF] == []
