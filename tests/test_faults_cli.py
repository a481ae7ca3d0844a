"""Misuse from outside the content: game ids that Rulesmith's own output uses, language codes
given to commands or written oddly in game.yaml, out-of-range options, and a burst of readers
at `serve`. Each is refused with one line (exit 2 for the command line, E017 for content) and
leaves every file as it was."""

from __future__ import annotations

import os
import selectors
import socket
import threading
import time
from pathlib import Path

import pytest

from generator.commands import LANGUAGE
from generator.commands.devserver import LiveState, bind
from generator.commands.new import scaffold
from generator.core.diagnostics import Report
from generator.core.languages import language_code
from generator.outputs.layout import OWN, RESERVED, SITE, SITE_OWN
from generator.project import Project

from .conftest import REPO, Workspace, line_of, run_cli


def _refused(result, *words: str, code: int = 2) -> str:
    """The one line saying why the command refused; no traceback, the expected exit code."""
    text = result.stdout + result.stderr
    assert result.returncode == code, text
    assert "Traceback" not in text, text
    lines = [line for line in text.splitlines() if line.lower().startswith("error") or "error[" in line]
    assert len(lines) == 1, text
    for word in words:
        assert word in lines[0], lines[0]
    return lines[0]


def _second_game(ws: Workspace, name: str, game_id: str | None = None, languages: tuple[str, ...] = ()) -> Path:
    folder = ws.root / "content" / name
    scaffold(folder, game_id or name, name.title(), languages=languages)
    return folder


# --- reserved game ids -----------------------------------------------------------------------

@pytest.mark.parametrize("name", sorted(n for n in RESERVED if "." not in n))
def test_a_reserved_game_id_is_refused_at_its_id_line(ws: Workspace, name: str):
    folder = _second_game(ws, name)
    result = ws.run("validate")
    line = _refused(result, "E017", f"'{name}' is reserved", code=1)
    assert line.startswith(f"content/{name}/game.yaml:{line_of(folder / 'game.yaml', 'id:')}:")
    assert "hint: choose another id (reserved: assets, pagefind, schema, site)" in result.stdout


def test_an_id_that_differs_from_its_folder_is_refused_when_reserved(ws: Workspace):
    folder = _second_game(ws, "other", game_id="site")
    report = Report()
    Project(ws.root).load("other", report, checks=False)
    messages = [d.message for d in report.errors if d.code == "E017"]
    assert any("'site' is reserved" in m for m in messages), messages


def test_a_game_named_site_is_not_built(ws: Workspace):
    _second_game(ws, "site")
    result = ws.run("build", "--only", "site")
    assert result.returncode == 1 and "Traceback" not in result.stderr, result.stderr
    assert "content/site/game.yaml:2:5: error[E017]: game id 'site' is reserved" in result.stderr
    assert "error: content has errors; nothing built" in result.stderr
    assert not (ws.root / "output" / "site").exists()


def test_a_build_refused_for_content_errors_stops_cutting_the_site_fonts(ws: Workspace, monkeypatch):
    """The site's font pieces are cut from the start of a build, beside validation
    (webfonts.FontsAhead); a build that stops there stops the cutting too, and the site is
    not finished: nothing waits for the pieces."""
    from generator.commands.build import build
    from generator.site import webfonts

    calls, started = [], []

    class Recorded(webfonts.FontsAhead):
        def __init__(self, output):
            monkeypatch.setattr(webfonts, "_CUT", {})  # none held nor shipped: a child cuts them
            monkeypatch.setattr(webfonts, "SHIPPED", ws.root / "none shipped")
            super().__init__(output)
            started.append(self.child)

        def wait(self):
            calls.append("wait")
            super().wait()

        def stop(self):
            calls.append("stop")
            super().stop()

    monkeypatch.setattr(webfonts, "FontsAhead", Recorded)
    _second_game(ws, "site")
    project = Project(ws.root)
    assert build(project, project.resolve_games(()), ["site"], False, None, 1, False, {}, False, quiet=True)
    assert calls == ["stop"] and started[0] is not None
    with pytest.raises(ChildProcessError):
        os.waitpid(started[0].pid, os.WNOHANG)  # ended and reaped
    assert not (ws.root / "output" / "site").exists()


def test_check_writes_no_tables_into_the_site_folder_for_a_game_named_site(tmp_path: Path):
    scaffold(tmp_path / "content" / "site", "site", "Site", complete=True)
    result = run_cli("--root", str(tmp_path), "check", "--tables")
    assert result.returncode == 1 and "Traceback" not in result.stderr, result.stderr
    assert "error[E017]: game id 'site' is reserved" in result.stdout
    assert not (tmp_path / "output").exists()


def test_new_refuses_a_reserved_id(tmp_path: Path):
    result = run_cli("--root", str(tmp_path), "new", "pagefind")
    _refused(result, "'pagefind' is reserved")
    assert not (tmp_path / "content").exists()


def test_everything_a_build_writes_beside_the_games_is_reserved(ws: Workspace):
    """A new output folder beside the games must be named in output_layout.py, or a game could
    take its name: this lists what a site build and `schema` write and checks each is."""
    assert ws.run("build", "--only", "site").returncode == 0
    assert ws.run("schema").returncode == 0
    games = set(Project(ws.root).game_ids())
    beside = {p.name for p in (ws.root / "output").iterdir()} - games
    in_site = {p.name for p in (ws.root / "output" / SITE).iterdir()} - games
    assert beside and beside <= set(OWN), beside - set(OWN)
    assert in_site and in_site <= set(SITE_OWN), in_site - set(SITE_OWN)


def test_the_docs_name_every_reserved_id():
    text = (REPO / "docs" / "content-format.md").read_text(encoding="utf-8")
    for name in sorted(n for n in RESERVED if "." not in n):
        assert f"`{name}`" in text, name


# --- language codes --------------------------------------------------------------------------

@pytest.mark.parametrize("written, code", [("en", "en"), ("EN", "en"), (" de\n", "de"), ("pt-br", "pt-BR"),
                                           ("ZH-HANT-tw", "zh-Hant-TW"), ("es-419", "es-419"),
                                           ("de-ch-1996", "de-CH-1996")])
def test_a_language_code_is_normalised(written: str, code: str):
    assert language_code(written) == code
    assert LANGUAGE.convert(written, None, None) == code


@pytest.mark.parametrize("written", ["/../../../h/locale/de", "de\nx", "", " ", "e", "en_US", "de/..", "ru-", None, 7])
def test_what_is_not_a_language_code_is_refused_in_one_line(written):
    with pytest.raises(ValueError) as info:
        language_code(written)
    assert "not a language code" in str(info.value) and "\n" not in str(info.value)


def test_i18n_ui_refuses_a_path_for_a_language(ws: Workspace):
    ws.edit("game.yaml", "languages: []", "languages: [de]")
    other = _second_game(ws, "h", languages=("de",))
    victim = other / "locale" / "de.po"
    victim.parent.mkdir(parents=True, exist_ok=True)
    victim.write_bytes(b'msgid ""\nmsgstr "kept"\n')
    before = sorted(p for p in ws.root.rglob("*"))
    result = ws.run("i18n", "ui", "/../../../h/locale/de", "demo")
    _refused(result, "'/../../../h/locale/de' is not a language code")
    assert victim.read_bytes() == b'msgid ""\nmsgstr "kept"\n'
    assert sorted(p for p in ws.root.rglob("*")) == before


def test_i18n_ui_refuses_a_language_the_game_does_not_have(ws: Workspace):
    result = ws.run("i18n", "ui", "it", "demo")
    _refused(result, "demo does not list 'it' among its languages (en)", "game.yaml")
    assert not (ws.game / "locale" / "ui.it.po").exists()


def test_i18n_ui_and_update_take_a_code_in_any_case(ws: Workspace):
    ws.edit("game.yaml", "languages: []", "languages: [de]")
    result = ws.run("i18n", "ui", " DE", "demo")
    assert result.returncode == 0, result.stderr
    assert (ws.game / "locale" / "ui.de.po").is_file()
    result = ws.run("i18n", "update", "De", "demo")
    assert result.returncode == 0, result.stderr
    assert (ws.game / "locale" / "de.po").is_file()
    assert sorted(p.name for p in (ws.game / "locale").iterdir() if "de" in p.name.lower()) == ["de.po", "ui.de.po"]


@pytest.mark.parametrize("args, words", [
    (("i18n", "update", "../../x", "demo"), ("'../../x' is not a language code",)),
    (("i18n", "status", "--lang", "/tmp/x"), ("'/tmp/x' is not a language code",)),
    (("i18n", "status", "--lang", "xx"), ("no selected game is translated into 'xx'", "demo: de")),
    (("build", "--lang", "../en"), ("'../en' is not a language code",)),
])
def test_every_command_checks_its_language(ws: Workspace, args, words):
    ws.edit("game.yaml", "languages: []", "languages: [de]")
    _refused(ws.run(*args), *words)
    assert not (ws.root / "output").exists()


def test_i18n_update_refuses_before_writing_any_game(ws: Workspace):
    ws.edit("game.yaml", "languages: []", "languages: [de]")
    _second_game(ws, "other")  # not translated into de
    result = ws.run("i18n", "update", "de")
    _refused(result, "other does not list 'de' among its target languages (none)")
    assert not (ws.game / "locale").exists()


def test_i18n_status_lists_only_games_translated_into_the_language(ws: Workspace):
    import json

    ws.edit("game.yaml", "languages: []", "languages: [de]")
    _second_game(ws, "other")
    result = ws.run("i18n", "status", "--lang", "DE", "--format", "json")
    assert result.returncode == 0, result.stderr
    assert [(row["game"], row["lang"]) for row in json.loads(result.stdout)] == [("demo", "de")]


def _manifest_problem(ws: Workspace, old: str = "", new: str = ""):
    """The game loaded after one edit of its game.yaml, and its E017 errors."""
    if old:
        ws.edit("game.yaml", old, new)
    report = Report()
    game = Project(ws.root).load("demo", report, checks=False)
    return game, [d for d in report.errors if d.code == "E017"]


def test_a_language_with_a_newline_reads_as_the_language(ws: Workspace):
    game, errors = _manifest_problem(ws, "languages: []", 'languages: ["de\\n"]')
    assert not errors and game.manifest.languages == ("de",)


@pytest.mark.parametrize("languages, words, column", [
    ("[EN]", "'en' is the source language", 13),
    ("[de, DE]", "'de' and 'DE' are the same language", 17),
    ("[de, de]", "'de' is listed twice", 17),
])
def test_a_language_listed_twice_is_refused_where_it_is_written(ws: Workspace, languages, words, column):
    _game, errors = _manifest_problem(ws, "languages: []", f"languages: {languages}")
    assert len(errors) == 1 and words in errors[0].message, errors
    location = errors[0].location
    assert (location.path.name, location.line, location.col) == ("game.yaml", line_of(ws.game / "game.yaml",
                                                                                      "languages:"), column)
    assert "each language once" in errors[0].hint


@pytest.mark.parametrize("source, languages", [("en", ()), ("EN", ()), ("ru", ("en",))])
def test_without_languages_a_game_is_translated_into_english_unless_written_in_it(ws: Workspace, source, languages):
    from generator.print.jobs import plan

    ws.edit("game.yaml", "languages: []\n", "")
    ws.edit("game.yaml", "source_language: en", f"source_language: {source}")
    ws.edit("game.yaml", "  en: Demo", f"  {source}: Demo")
    game, errors = _manifest_problem(ws)
    assert not errors and game.manifest.languages == languages
    jobs = plan(Project(ws.root), ["demo"], None, ["rulebook"])
    assert sorted(job.label for job in jobs) == sorted({f"demo/{lang}/rulebook" for lang in (source.lower(), *languages)})


def test_a_title_given_twice_in_one_language_is_refused(ws: Workspace):
    _game, errors = _manifest_problem(ws, "  en: Demo", "  en: Demo\n  EN: Demo again")
    assert len(errors) == 1 and "'en' and 'EN' are the same language" in errors[0].message
    assert errors[0].location.line == line_of(ws.game / "game.yaml", "EN: Demo again")


def test_a_title_key_in_another_case_is_the_language(ws: Workspace):
    game, errors = _manifest_problem(ws, "  en: Demo", "  EN: Demo")
    assert not errors and game.manifest.title == {"en": "Demo"}


# --- options out of range --------------------------------------------------------------------

@pytest.mark.parametrize("args, words", [
    (("build", "--jobs", "-5"), ("--jobs", "-5 is not in the range x>=1")),
    (("build", "--jobs", "0"), ("--jobs", "0 is not in the range x>=1")),
    (("build", "--only", ",,"), ("--only", "names nothing to build", "rulebook")),
    (("build", "--lang", "xx"), ("no selected game has language 'xx'", "demo: en")),
    (("build", "--game", "demo", "--lang", "fr"), ("no selected game has language 'fr'", "demo: en")),
    (("serve", "--port", "99999"), ("--port", "99999 is not in the range 0<=x<=65535")),
    (("serve", "--port", "-1"), ("--port", "-1 is not in the range")),
    (("i18n", "status", "--min", "nan"), ("--min", "nan is not a percent")),
    (("i18n", "status", "--min", "101"), ("--min", "101")),
    (("new", "other", "--languages", "de,pt_BR"), ("--languages", "'pt_BR' is not a language code")),
    (("new", "other", "--source-language", "../x"), ("--source-language", "'../x' is not a language code")),
])
def test_misused_option_is_a_usage_error(ws: Workspace, args, words):
    before = sorted(p for p in ws.root.rglob("*"))
    _refused(ws.run(*args), *words)
    assert sorted(p for p in ws.root.rglob("*")) == before  # nothing built, nothing created


@pytest.mark.parametrize("args", [("--title", "War: The Game"), ("--title", 'Say "hi" \\ bye'),
                                  ("--kind", "counters", "--source-language", "RU")])
def test_new_writes_a_game_that_validates_whatever_its_title_and_language(tmp_path: Path, args):
    result = run_cli("--root", str(tmp_path), "new", "war", *args)
    assert result.returncode == 0, result.stdout + result.stderr
    game = Project(tmp_path).load("war", Report(), checks=False)
    title = dict(zip(args[::2], args[1::2])).get("--title")
    source = "ru" if "RU" in args else "en"
    assert game.manifest.source_language == source
    assert title is None or game.manifest.title == {source: title}


# --- serve under a burst ---------------------------------------------------------------------

def test_serve_answers_a_burst_of_200_connections(tmp_path: Path):
    """200 connections opened at once on 127.0.0.1 are all answered; the listen queue used to
    drop most, and the dropped ones waited seconds for the kernel to retry them."""
    site = tmp_path / "site"
    site.mkdir()
    (site / "index.html").write_text("<html><body>ready</body></html>", encoding="utf-8")
    server = bind("127.0.0.1", 0, LiveState(site))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    selector = selectors.DefaultSelector()
    answers: dict[int, bytes] = {}
    try:
        for i in range(200):
            client = socket.socket()
            client.setblocking(False)
            client.connect_ex(server.server_address)
            selector.register(client, selectors.EVENT_WRITE, i)
            answers[i] = b""
        finished: set[int] = set()
        deadline = time.monotonic() + 30
        while len(finished) < 200 and time.monotonic() < deadline:
            for key, events in selector.select(timeout=0.5):
                client, i = key.fileobj, key.data
                if events & selectors.EVENT_WRITE:
                    try:
                        client.sendall(b"GET /index.html HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n")
                    except OSError:
                        continue  # not connected yet: writable again when it is
                    selector.modify(client, selectors.EVENT_READ, i)
                    continue
                try:
                    data = client.recv(65536)
                except OSError:
                    data = b""
                answers[i] += data
                if not data:
                    selector.unregister(client)
                    client.close()
                    finished.add(i)
    finally:
        for key in list(selector.get_map().values()):
            key.fileobj.close()
        selector.close()
        server.shutdown()
        server.server_close()
    answered = [i for i, data in answers.items() if data.startswith(b"HTTP/1.0 200") and b"ready" in data]
    assert len(answered) == 200, f"{len(answered)} of 200 answered within 30 s"
