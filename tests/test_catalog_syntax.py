"""Catalogs are read as strictly as GNU msgfmt --check reads them (generator/i18n/posyntax.py):
msgfmt itself is the yardstick. Every catalog it rejects gets a fault at each line it names, and
one it accepts gets none, for hand-written faults and for seeded mutations of a shipped catalog."""

from __future__ import annotations

import random
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from generator.i18n.catalog import CatalogError, read_catalog
from generator.i18n.posyntax import faults

from .conftest import REPO

HEAD = 'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n"Plural-Forms: nplurals=2; plural=(n != 1);\\n"\n\n'
FORMS = 'msgid "scout"\nmsgid_plural "scouts"\n'

# (name, catalog body after HEAD); None as the body: the whole catalog is given in HEADLESS
CATALOGS = {
    "fine": 'msgid "a"\nmsgstr "b"\n',
    "invalid-escape": 'msgid "a"\nmsgstr "b\\q"\n',
    "hex-without-digits": 'msgid "a"\nmsgstr "c\\x41\\101\\a\\x"\n',
    "question-escape": 'msgid "a"\nmsgstr "c\\?"\n',
    "escape-in-continuation": 'msgid "a"\n"b"\nmsgstr "c"\n"d\\q"\n',
    "escape-in-previous": '#| msgid "old\\q"\nmsgid "a"\nmsgstr "b"\n',
    "escape-in-fuzzy": '#, fuzzy\nmsgid "a"\nmsgstr "c\\q"\n',
    "escape-in-obsolete": '#~ msgid "a"\n#~ msgstr "c\\q"\n',
    "msgid-without-msgstr": 'msgid "a"\n\nmsgid "c"\nmsgstr "d"\n',
    "msgid-at-the-end": 'msgid "a"\nmsgstr "b"\n\nmsgid "c"\n',
    "comment-inside-entry": 'msgid "a"\n# c\nmsgstr "b"\n',
    "msgstr-n-without-plural": 'msgid "a"\nmsgstr[0] "b"\n',
    "plural-with-plain-msgstr": FORMS + 'msgstr "b"\n',
    "plural-index-order": FORMS + 'msgstr[1] "b"\nmsgstr[0] "c"\n',
    "plural-index-gap": FORMS + 'msgstr[0] "b"\nmsgstr[2] "c"\n',
    "too-many-forms": FORMS + 'msgstr[0] "b"\nmsgstr[1] "c"\nmsgstr[2] "d"\n',
    "too-few-forms": FORMS + 'msgstr[0] "b"\n',
    "forms-untranslated": FORMS + 'msgstr[0] ""\nmsgstr[1] ""\nmsgstr[2] ""\n',
    "forms-fuzzy": '#, fuzzy\n' + FORMS + 'msgstr[0] "b"\nmsgstr[1] "c"\nmsgstr[2] "d"\n',
    "duplicate": 'msgid "a"\nmsgstr "b"\n\nmsgid "a"\nmsgstr "c"\n',
    "duplicate-in-context": 'msgctxt "x"\nmsgid "a"\nmsgstr "b"\n\nmsgctxt "y"\nmsgid "a"\nmsgstr "b"\n\n'
                            'msgctxt "x"\nmsgid "a"\nmsgstr "c"\n',
    "duplicate-obsolete": 'msgid "a"\nmsgstr "b"\n\n#~ msgid "a"\n#~ msgstr "c"\n',
    "context-without-msgid": 'msgctxt "x"\nmsgstr "b"\n',
    "context-at-the-end": 'msgctxt "x"\n',
    "two-contexts": 'msgctxt "x"\nmsgctxt "y"\nmsgid "a"\nmsgstr "b"\n',
    "two-msgids": 'msgid "a"\nmsgid "b"\nmsgstr "b"\n',
    "two-msgstrs": 'msgid "a"\nmsgstr "b"\nmsgstr "c"\n',
    "msgstr-first": 'msgstr "b"\nmsgid "a"\n',
    "keyword-without-string": 'msgid\nmsgstr "b"\n',
    "unknown-keyword": 'msgidx "a"\nmsgstr "b"\n',
    "word-after-string": 'msgid "a" x\nmsgstr "b"\n',
    "comment-after-string": 'msgid "a" # hi\nmsgstr "b"\n',
    "obsolete-mixed": 'msgid "a"\n#~ msgstr "b"\n',
    "obsolete-out-of-order": '#~ msgstr "b"\n#~ msgid "a"\n',
    "obsolete-without-plural": '#~ msgid "a"\n#~ msgstr[0] "b"\n',
    "newline-at-end-differs": 'msgid "a\\n"\nmsgstr "b"\n',
    "newline-at-start-differs": 'msgid "\\na"\nmsgstr "b"\n',
    "newline-in-plural-differs": 'msgid "a\\n"\nmsgid_plural "as"\nmsgstr[0] "b\\n"\nmsgstr[1] "c\\n"\n',
    "newline-untranslated": 'msgid "a\\n"\nmsgstr ""\n',
    "newline-fuzzy": '#, fuzzy\nmsgid "a\\n"\nmsgstr "b"\n',
    "c-format-missing": '#, c-format\nmsgid "a %d"\nmsgstr "b"\n',
    "c-format-swapped": '#, c-format\nmsgid "a %s %d"\nmsgstr "b %d %s"\n',
    "c-format-positional": '#, c-format\nmsgid "a %1$s %2$d"\nmsgstr "b %2$d %1$s"\n',
    "c-format-fuzzy": '#, fuzzy, c-format\nmsgid "a %d"\nmsgstr "c"\n',
    "no-c-format": '#, no-c-format\nmsgid "a %s"\nmsgstr "b"\n',
    "python-format-named": '#, python-format\nmsgid "%(n)s a"\nmsgstr "b"\n',
    "python-format-other-name": '#, python-format\nmsgid "%(n)s a"\nmsgstr "%(m)s b"\n',
    "python-format-swapped": '#, python-format\nmsgid "a %s %d"\nmsgstr "b %d %s"\n',
    "python-format-repr": '#, python-format\nmsgid "a %s"\nmsgstr "b %r"\n',
    "python-brace-format": '#, python-brace-format\nmsgid "a {x}"\nmsgstr "b"\n',
    "stray-string": '"x"\nmsgid "a"\nmsgstr "b"\n',
    "strings-on-one-line": 'msgid "a" "b"\nmsgstr "b" "c"\n',
    "indented": '   msgid "a"\n\tmsgstr "b"\n',
    "control-character-tab": 'msgid "a"\nmsgstr "b\tc"\n',
    "second-header": 'msgid ""\nmsgstr "x"\n',
}
HEADLESS = {
    "empty": "",
    "only-a-comment": "# just a comment\n",
    "no-header": 'msgid "a"\nmsgstr "b"\n',
    "only-a-header": 'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n',
    "bad-nplurals": 'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n'
                    '"Plural-Forms: nplurals=x; plural=;\\n"\n\nmsgid "a"\nmsgstr "b"\n',
    "bad-plural-expression": 'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n'
                             '"Plural-Forms: nplurals=2; plural=n +;\\n"\n\nmsgid "a"\nmsgstr "b"\n',
    "forms-without-plural-forms": 'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n\n'
                                  + FORMS + 'msgstr[0] "b"\nmsgstr[1] "c"\n',
    "russian-forms": 'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n'
                     '"Plural-Forms: nplurals=3; plural=(n%10==1 && n%100!=11 ? 0 : n%10>=2 && n%10<=4 && '
                     '(n%100<10 || n%100>=20) ? 1 : 2);\\n"\n\n' + FORMS + 'msgstr[0] "a"\nmsgstr[1] "b"\nmsgstr[2] "c"\n',
}
ALL = {**{name: HEAD + body for name, body in CATALOGS.items()}, **HEADLESS}

needs_msgfmt = pytest.mark.skipif(shutil.which("msgfmt") is None, reason="GNU gettext's msgfmt is not installed "
                                  "(.ci/run installs it)")


def msgfmt(text: str, folder: Path) -> tuple[bool, set[int]]:
    """Whether msgfmt --check rejects the catalog, and the lines of its errors (not its warnings)."""
    path = folder / "x.po"
    path.write_text(text, encoding="utf-8")
    result = subprocess.run(["msgfmt", "--check", "-o", "/dev/null", str(path)], capture_output=True, text=True,
                            timeout=30)
    lines = {int(m.group(1)) for m in re.finditer(rf"^{re.escape(str(path))}:(\d+):(?:\d+:)? (.*)$", result.stderr, re.M)
             if "warning" not in m.group(2) and not m.group(2).startswith("...")}
    return result.returncode != 0, lines


def agrees(text: str, folder: Path) -> str | None:
    """Why posyntax disagrees with msgfmt about `text`, or None."""
    rejected, lines = msgfmt(text, folder)
    found = faults(text)
    ours = {f.line for f in found}
    if rejected != bool(found):
        return f"msgfmt {'rejects' if rejected else 'accepts'} it, we found {[(f.line, f.message) for f in found]}"
    opened = {n for n, line in enumerate(text.splitlines(), 1) if line.count('"') % 2 and not line.lstrip().startswith("#")}
    missing = {n for n in lines - ours if n - 1 not in opened}  # an open string: msgfmt names the line after it
    if missing:
        return f"msgfmt names line(s) {sorted(missing)}, we found {[(f.line, f.message) for f in found]}"
    return None


@needs_msgfmt
@pytest.mark.parametrize("name", sorted(ALL))
def test_each_catalog_is_judged_as_msgfmt_judges_it(name: str, tmp_path: Path):
    assert agrees(ALL[name], tmp_path) is None


@pytest.mark.parametrize("name, line, words", [
    ("invalid-escape", 7, "invalid control sequence"),
    ("msgid-without-msgstr", 6, "missing 'msgstr' section"),
    ("msgstr-n-without-plural", 6, "missing 'msgid_plural' section"),
    ("duplicate", 9, "duplicate message definition (the first is at line 6)"),
    ("plural-index-order", 8, "first plural form has nonzero index"),
    ("too-many-forms", 8, "nplurals=2, but the entry has 3 form(s)"),
])
def test_each_fault_is_named_at_its_line(name: str, line: int, words: str):
    found = faults(ALL[name])
    assert any(f.line == line and words in f.message for f in found), found


def test_read_catalog_raises_every_fault_with_its_line(tmp_path: Path):
    path = tmp_path / "ru.po"
    path.write_text(HEAD + 'msgid "a"\nmsgstr "b\\q"\n\nmsgid "c"\n\nmsgid "d"\nmsgstr[0] "e"\n', encoding="utf-8")
    with pytest.raises(CatalogError) as exc:
        read_catalog(path)
    assert [(f.line, f.message) for f in exc.value.faults] == [
        (7, "invalid control sequence"), (9, "missing 'msgstr' section"), (11, "missing 'msgid_plural' section")]
    assert exc.value.line == 7 and exc.value.faults[0].hint.startswith("the escapes a catalog knows")


def test_update_writes_the_plural_forms_msgfmt_needs(tmp_path: Path):
    """A catalog `i18n update` writes for a word with forms carries its language's Plural-Forms."""
    import polib

    from generator.i18n.catalog import _plural_slots

    catalog = polib.POFile(wrapwidth=0)
    catalog.metadata = {"Content-Type": "text/plain; charset=UTF-8"}
    catalog.append(polib.POEntry(msgid="pace", msgid_plural="paces", msgstr_plural={0: "шаг", 1: "шага"}))
    _plural_slots(catalog, "ru")
    assert catalog.metadata["Plural-Forms"].startswith("nplurals=3;")
    assert faults(str(catalog)) == []


def mutate(text: str, rng: random.Random) -> str:
    """One to three edits of the kinds a hand or a merge tool makes: a line dropped, doubled,
    moved or cut short, a quote or backslash added or removed, a keyword changed."""
    lines = text.splitlines(keepends=True)
    for _ in range(rng.randint(1, 3)):
        i = rng.randrange(len(lines))
        action = rng.randrange(7)
        if action == 0:
            del lines[i]
        elif action == 1:
            lines.insert(rng.randrange(len(lines) + 1), lines[i])
        elif action == 2:
            lines[i] = lines[i][: rng.randrange(len(lines[i]) + 1)] + "\n"
        elif action == 3:
            at = rng.randrange(len(lines[i]) + 1)
            lines[i] = lines[i][:at] + rng.choice(['"', "\\", "\\q", "\\n", "#~ ", "[1]", " x"]) + lines[i][at:]
        elif action == 4:
            lines[i] = re.sub(r"^(msgstr|msgid|msgctxt)", lambda m: rng.choice(["msgstr[0]", "msgid_plural", "msgctxt",
                                                                               "msgid", "msgstr"]), lines[i])
        elif action == 5:
            lines[i] = lines[i].replace('"', "", 1)
        else:
            lines.insert(i, rng.choice(["#, fuzzy\n", "#, c-format\n", '"\\n"\n', "\n", '#| msgid "x"\n']))
        if not lines:
            lines = ["\n"]
    return "".join(lines)


def check_mutants(count: int, seed: str, folder: Path) -> tuple[list[str], list[str]]:
    """Mutants of the header and a few entries of a shipped catalog: those msgfmt and we judge
    differently (one rejects, the other accepts), and those where we name other lines than
    msgfmt. The second can happen where faults meet: after one error msgfmt's parser skips
    ahead and may name the next one elsewhere."""
    source = (REPO / "content" / "nuclear" / "locale" / "en.po").read_text(encoding="utf-8")
    entries = source.split("\n\n")
    rng = random.Random(seed)
    judged, placed = [], []
    for n in range(count):
        start = rng.randrange(1, len(entries))
        text = mutate(entries[0] + "\n\n" + "\n\n".join(entries[start:start + 4]) + "\n", rng)
        why = agrees(text, folder)
        if why:
            (placed if why.startswith("msgfmt names") else judged).append(f"mutant {n}: {why}\n{text}")
    return judged, placed


@needs_msgfmt
def test_mutated_catalogs_are_judged_as_msgfmt_judges_them(tmp_path: Path):
    judged, placed = check_mutants(60, "catalogs", tmp_path)
    assert judged == []
    assert len(placed) <= 1, "\n\n".join(placed)


@needs_msgfmt
@pytest.mark.slow
def test_many_mutated_catalogs_are_judged_as_msgfmt_judges_them(tmp_path: Path):
    judged, placed = check_mutants(2000, "catalogs-slow", tmp_path)
    assert judged == [], "\n\n".join(judged[:5])
    assert len(placed) <= 2000 * 0.02, "\n\n".join(placed[:5])  # measured: 25 of 2000, all where faults meet


def test_forms_without_plural_forms_are_told_the_languages_rule(tmp_path: Path):
    from generator.core.diagnostics import Report
    from generator.i18n.catalog import report_faults
    from generator.i18n.plurals import rule_text

    path = tmp_path / "ru.po"
    path.write_text(ALL["forms-without-plural-forms"], encoding="utf-8")
    report = Report()
    with pytest.raises(CatalogError) as exc:
        read_catalog(path)
    report_faults(report, path, exc.value)
    [found] = report.diagnostics
    assert found.code == "E022" and found.location.line == 7
    assert f'"Plural-Forms: {rule_text("ru")}\\n"' in found.hint
