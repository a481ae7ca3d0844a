"""The bad-input corpus: broken content of every file kind, and what Rulesmith must say about it.

Each case breaks a scaffolded game (tests/conftest.py's Workspace) one way and names the
diagnostic it must get: the code, the file, and the line (a number, a text the line holds,
or None where there is no line: a folder). test_bad_input.py runs every case in-process and
a representative subset through the command line under a time and memory limit;
test_diagnostics.py runs one case per code to prove each code is produced.
"""

from __future__ import annotations

import base64
import os
import stat
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from .conftest import Workspace

TIME_LIMIT = "2"  # RULESMITH_TIME_LIMIT for cases whose procedures never finish


@dataclass(frozen=True)
class Case:
    id: str
    setup: Callable[[Workspace], None]
    code: str
    file: str                     # relative to the game folder ("" for the folder itself)
    line: int | str | None        # a line number, a text on the expected line, or None (no line)
    # validate | check | roster | site | cards | bleed | print-shop | counters | rulebook | reference-ru
    runner: str = "validate"
    cli: bool = False             # also run through the command line under ulimit


def write(rel: str, text: str | bytes) -> Callable[[Workspace], None]:
    def setup(ws: Workspace) -> None:
        path = ws.game / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(text, bytes):
            path.write_bytes(text)
        else:
            path.write_text(text, encoding="utf-8")
    return setup


def edit(rel: str, old: str, new: str) -> Callable[[Workspace], None]:
    return lambda ws: ws.edit(rel, old, new)


def steps(*fns: Callable[[Workspace], None]) -> Callable[[Workspace], None]:
    def setup(ws: Workspace) -> None:
        for fn in fns:
            fn(ws)
    return setup


# --- building blocks -----------------------------------------------------------------------

BOMB = "[" + ", ".join(
    [f"&a0 [{', '.join(['x'] * 10)}]"]
    + [f"&a{i} [{', '.join([f'*a{i - 1}'] * 10)}]" for i in range(1, 9)]) + "]"
DEEP = "[" * 10_000 + "]" * 10_000
MERGE_BOMB = "{" + ", ".join(["m0: &m0 {k: 1}"] + [f"m{i}: &m{i} {{<<: [*m{i - 1}, *m{i - 1}]}}" for i in range(1, 40)]) + "}"

# (name, value written after 'key: ', expected code in a YAML file, expected code in a check block)
YAML_HAZARDS: list[tuple[str, str, str]] = [
    ("alias-bomb", BOMB, "E001"),
    ("merge-bomb", MERGE_BOMB, "E001"),
    ("flow-nesting", DEEP, "E001"),
    ("long-integer", "9" * 5000, "E001"),
    ("long-float", "1." + "5" * 5000, "E001"),
    ("binary-tag", "!!binary aGVsbG8=", "E001"),
    ("python-tag", "!!python/object/apply:os.system ['true']", "E001"),
    ("custom-tag", "!secret value", "E001"),
    ("set-tag", "!!set {a, b}", "E001"),
    ("timestamp-tag", "!!timestamp 2024-01-01", "E001"),
    ("self-alias", "&loop [*loop]", "E001"),
    ("nul-escape", '"a\\0b"', "E001"),
    ("bell-escape", '"ring\\x07"', "E001"),
    ("complex-key", "{[a, b]: c}", "E001"),
    ("yes-word", "yes", "W006"),
    ("on-word", "on", "W006"),
    ("odds", "6:1", "W006"),
    ("octal", "010", "W006"),
    ("date", "2024-01-01", "W006"),
]

CHAPTER = "# Rules\n\nScouts move.\n"
PROCEDURES = '''\
from generator.checker import consistency, procedure


@procedure("roll")
def roll(game, dice, shots: int = 1) -> dict:
    return {"hits": dice.successes(shots, 4)}
'''
EXAMPLE = '''\
# Rules

::: example first
One scout shoots.
```check
procedure: roll
inputs: {shots: 1}
dice: [5]
expect: {hits: 1}
```
:::
'''
PO_HEAD = 'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n\n'
TRANSLATED = steps(edit("game.yaml", "languages: []", "languages: [ru]"),
                   edit("game.yaml", "  en: Demo", "  en: Demo"))


def with_ru(po: str | bytes) -> Callable[[Workspace], None]:
    return steps(edit("game.yaml", "languages: []", "languages: [ru]"), write("locale/ru.po", po))


def procedures(source: str, chapter: str = EXAMPLE) -> Callable[[Workspace], None]:
    return steps(write("procedures.py", source), write("rules/01-rules.md", chapter))


def symlink(rel: str, target: str) -> Callable[[Workspace], None]:
    def setup(ws: Workspace) -> None:
        path = ws.game / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        os.symlink(target, path)
    return setup


def special(rel: str, kind: str) -> Callable[[Workspace], None]:
    """Put a special file where a file of content goes, in place of what was there: a named
    pipe ('fifo'), a socket, a link to /dev/zero ('zero'), a link to itself ('self') or to
    nothing ('dangling')."""
    def setup(ws: Workspace) -> None:
        path = ws.game / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        place_special(path, kind)
    return setup


def place_special(path: Path, kind: str) -> None:
    """The special file `kind` (see `special`) at `path`, in place of what was there."""
    if path.exists() or path.is_symlink():
        path.unlink()
    if kind == "fifo":
        os.mkfifo(path)
    elif kind == "socket":
        os.mknod(path, stat.S_IFSOCK | 0o600)
    else:
        os.symlink({"zero": "/dev/zero", "self": path.name, "dangling": "nowhere"}[kind], path)


def folder(rel: str) -> Callable[[Workspace], None]:
    return lambda ws: (ws.game / rel).mkdir(parents=True)


def lost_game(ws: Workspace) -> None:
    lost = ws.root / "content" / "lost" / "data"
    lost.mkdir(parents=True)
    (lost / "units.yaml").write_text("units: []\n", encoding="utf-8")


# --- the corpus ----------------------------------------------------------------------------

def _yaml_cases() -> list[Case]:
    cases = []
    for name, value, code in YAML_HAZARDS:
        data = f"units:\n  - id: extra\n    name: Extra\n    type: infantry\n    stats: {{quality: 4+}}\n    text: {value}\n"
        cases.append(Case(f"data-{name}", write("data/extra.yaml", data), code, "data/extra.yaml", 6,
                          cli=name in ("alias-bomb", "flow-nesting", "long-integer", "merge-bomb")))
        cases.append(Case(f"manifest-{name}", edit("game.yaml", "summary: A skirmish game for two players.",
                                                   f"summary: {value}"), code, "game.yaml", 7,
                          cli=name == "alias-bomb"))
        terms = f"terms:\n  - source: разведчик\n    target: {value}\n"
        cases.append(Case(f"terms-{name}", steps(with_ru(PO_HEAD), write("locale/ru.terms.yaml", terms)), code,
                          "locale/ru.terms.yaml", 3))
        block = f"# Rules\n\n::: example first\nText.\n```check\nprocedure: roll\ninputs: {{shots: {value}}}\n```\n:::\n"
        cases.append(Case(f"check-block-{name}", write("rules/01-rules.md", block),
                          "W006" if code == "W006" else "E032", "rules/01-rules.md", 7,
                          cli=name == "alias-bomb"))
    return cases


def _file_cases() -> list[Case]:
    return [
        Case("data-nul-byte", write("data/extra.yaml", b"units:\n  - id: extra\n    name: Ex\x00tra\n"), "E001",
             "data/extra.yaml", 3, cli=True),
        Case("data-control-char", write("data/extra.yaml", "units:\n  - id: extra\n\n    name: Ex\x1btra\n"), "E001",
             "data/extra.yaml", 4),
        Case("data-invalid-utf8", write("data/extra.yaml", b"units:\n  - id: extra\n    name: Ex\xfftra\n"), "E001",
             "data/extra.yaml", 3, cli=True),
        Case("data-latin1", write("data/extra.yaml", "units:\n  - id: extra\n    name: Caf\xe9\n".encode("latin-1")),
             "E001", "data/extra.yaml", 3),
        Case("data-folder-named-yaml", folder("data/x.yaml"), "E001", "data/x.yaml", None, cli=True),
        Case("data-symlink-loop", symlink("data/loop.yaml", "loop.yaml"), "E001", "data/loop.yaml", None, cli=True),
        Case("data-dangling-symlink", symlink("data/gone.yaml", "nowhere.yaml"), "E001", "data/gone.yaml", None),
        Case("data-not-a-mapping", write("data/extra.yaml", "- a\n- b\n"), "E014", "data/extra.yaml", 1),
        Case("data-unknown-section", write("data/extra.yaml", "unitz: []\n"), "E014", "data/extra.yaml", 1),
        Case("data-duplicate-key", write("data/extra.yaml", "units: []\nunits: []\n"), "E002", "data/extra.yaml", 2),
        Case("data-tab-indent", write("data/extra.yaml", "units:\n\t- id: x\n"), "E001", "data/extra.yaml", 2),
        Case("data-unclosed-quote", write("data/extra.yaml", 'units:\n  - id: "x\n'), "E001", "data/extra.yaml", 3),
        Case("manifest-missing-beside-valid", lost_game, "E017", "../lost", None, cli=True),
        Case("manifest-not-mapping", write("game.yaml", "- demo\n"), "E017", "game.yaml", 1),
        Case("manifest-empty", write("game.yaml", ""), "E017", "game.yaml", 1),
        Case("manifest-folder", lambda ws: ((ws.game / "game.yaml").unlink(), (ws.game / "game.yaml").mkdir()),
             "E017", "", None),
        Case("manifest-invalid-utf8", write("game.yaml", b"id: demo\ntitle: {en: D\xe9mo}\n"), "E001", "game.yaml", 2),
        Case("manifest-nul", write("game.yaml", b"id: demo\ntitle: {en: Demo}\nsummary: a\x00b\n"), "E001",
             "game.yaml", 3),
        Case("manifest-id-differs", edit("game.yaml", "id: demo", "id: other"), "E017", "game.yaml", "id: other"),
    ]


def _language_cases() -> list[Case]:
    cases = []
    hostile = ["../../../../x", "/tmp/evil", "en/../../x", '"><script>alert(1)</script>', "en us", "e", "",
               "toolonglanguage", "en_US", "C:\\\\x", "ru-"]
    for i, lang in enumerate(hostile):
        quoted = '"' + lang.replace('"', '\\"') + '"'
        cases.append(Case(f"languages-{i}", edit("game.yaml", "languages: []", f"languages: [{quoted}]"), "E017",
                          "game.yaml", "languages:", cli=i == 0))
        cases.append(Case(f"source-language-{i}", edit("game.yaml", "source_language: en",
                                                       f"source_language: {quoted}"), "E017", "game.yaml",
                          "source_language:", cli=i == 3))
    cases.append(Case("languages-twice", edit("game.yaml", "languages: []", "languages: [ru, ru]"), "E017",
                      "game.yaml", "languages:"))
    cases.append(Case("title-language", edit("game.yaml", "  en: Demo", "  en: Demo\n  ../x: Evil"), "E017",
                      "game.yaml", "../x"))
    return cases


def _value_cases() -> list[Case]:
    def stat(value: str) -> Callable[[Workspace], None]:
        return edit("data/units.yaml", "quality: 4+", f"quality: {value}")

    def cost(value: str) -> Callable[[Workspace], None]:
        return edit("data/units.yaml", "cost: 50", f"cost: {value}")

    return [
        Case("target-99", stat("99+"), "E012", "data/units.yaml", "quality:"),
        Case("target-0", stat("0+"), "E012", "data/units.yaml", "quality:"),
        Case("target-huge", stat("9" * 400 + "+"), "E012", "data/units.yaml", "quality:"),
        Case("target-negative", stat("-3+"), "E012", "data/units.yaml", "quality:"),
        Case("cost-nan", cost(".nan"), "E012", "data/units.yaml", "cost:"),
        Case("cost-inf", cost(".inf"), "E012", "data/units.yaml", "cost:"),
        Case("cost-minus-inf", cost("-.inf"), "E012", "data/units.yaml", "cost:"),
        Case("cost-nan-text", cost("nan"), "E012", "data/units.yaml", "cost:"),
        Case("move-no-unit", edit("data/units.yaml", "move: 15 cm", "move: 15 parsecs"), "E012", "data/units.yaml",
             "move:"),
        Case("card-quantity-negative", edit("data/cards.yaml", "quantity: 3", "quantity: -3"), "E004",
             "data/cards.yaml", "quantity: -3"),
        Case("card-quantity-fraction", edit("data/cards.yaml", "quantity: 3", "quantity: 1.5"), "E004",
             "data/cards.yaml", "quantity: 1.5"),
        Case("card-quantity-huge", edit("data/cards.yaml", "quantity: 3", "quantity: 100000"), "W007",
             "data/cards.yaml", "quantity: 100000", cli=True),
        Case("component-count-negative", edit("game.yaml", "count: 10", "count: -10"), "E004", "game.yaml",
             "count: -10"),
        Case("parameter-nan", edit("game.yaml", "value: 10", "value: .nan"), "E004", "game.yaml", "value: .nan"),
        Case("parameter-word-in-cm", edit("game.yaml", "value: 10\n    unit: points", "value: много\n    unit: cm"),
             "E012", "game.yaml", "value: много", cli=True),
        Case("stat-unit-on-a-number", edit("game.yaml", "    type: number\n", "    type: number\n    unit: cm\n"),
             "E004", "game.yaml", 29),
        Case("weapon-count-negative", edit("data/units.yaml", "count: 5", "count: -10"), "E004", "data/units.yaml",
             "count: -10"),
        Case("band-min-negative", edit("data/bands.yaml", "min: 0", "min: -1"), "E004", "data/bands.yaml", "min: -1"),
        Case("parameter-inf", edit("game.yaml", "value: 10", "value: -.inf"), "E004", "game.yaml", "value: -.inf"),
        Case("unknown-field", edit("data/units.yaml", "type: infantry", "typo: infantry"), "E003", "data/units.yaml",
             "typo:"),
        Case("missing-field", edit("data/actions.yaml", "    text: The unit moves up to its Move.\n", ""), "E005",
             "data/actions.yaml", "- id: move"),
        Case("duplicate-id", write("data/units2.yaml", "units:\n  - id: scouts\n    name: Other\n    stats: {quality: 5+}\n"),
             "E006", "data/units2.yaml", 2),
        Case("keyword-without-parameter", edit("data/weapons.yaml", "keywords: [AP (1)]", "keywords: [AP]"), "E008",
             "data/weapons.yaml", "keywords: [AP]"),
        Case("plain-keyword-with-parameter", edit("data/units.yaml", "keywords: [Quick]", "keywords: [Quick (2)]"),
             "E009", "data/units.yaml", "Quick (2)"),
        Case("dice-table-gap", edit("data/tables.yaml", "roll: 3-6", "roll: 4-6"), "E010", "data/tables.yaml", None),
        Case("dice-table-overlap", edit("data/tables.yaml", "roll: 3-6", "roll: 2-6"), "E011", "data/tables.yaml",
             "roll: 2-6"),
        Case("unknown-stat", edit("data/units.yaml", "cost: 50", "cots: 50"), "E013", "data/units.yaml", "cots: 50"),
        Case("erratum-mismatch", edit("data/errata.yaml", "    reading: Fast",
                                      "    reading: '4+'\n    record: units/scouts\n    field: stats.quality"),
             "E018", "data/units.yaml", "quality:"),
        Case("erratum-text-field-mismatch", edit("data/errata.yaml", "    reading: Fast",
                                                 "    reading: Fast\n    record: units/scouts\n    field: name"),
             "E018", "data/errata.yaml", "field: name"),
        Case("weapon-line-unknown-erratum", edit("data/units.yaml", "        count: 5",
                                                 "        count: 5\n        errata: [ap-spaceing]"),
             "E007", "data/units.yaml", "errata: [ap-spaceing]"),
        Case("weapon-line-erratum-not-a-keyword", edit("data/units.yaml", "        count: 5",
                                                       "        count: 5\n        errata: [quick-for-fast]"),
             "E018", "data/units.yaml", "errata: [quick-for-fast]"),
        Case("as-written-unknown-stat", edit("data/units.yaml", "    keywords: [Quick]",
                                             "    as_written: {moev: 15 cm}\n    keywords: [Quick]"),
             "E045", "data/units.yaml", "as_written:"),
        Case("as-written-other-values", edit("data/units.yaml", "    keywords: [Quick]",
                                             "    as_written: {move: 15 cm (20 cm)}\n    keywords: [Quick]"),
             "E046", "data/units.yaml", "as_written:"),
        Case("alias-nobody-uses", edit("data/units.yaml", "keywords: [Quick]", "keywords: [Fast]"), "W004",
             "data/keywords.yaml", "- name: Quick"),
    ]


def _markdown_cases() -> list[Case]:
    md = "rules/01-rules.md"
    return [
        Case("md-invalid-utf8", write(md, b"# Rules\n\nText\n\nMore \xfe text.\n"), "E024", md, 5, cli=True),
        Case("md-nul", write(md, "# Rules\n\nText\x00 here.\n"), "E024", md, 3, cli=True),
        Case("md-control", write(md, "# Rules\n\n\nText\x08 here.\n"), "E024", md, 4),
        Case("md-folder", folder("rules/x.md"), "E024", "rules/x.md", None, cli=True),
        Case("md-symlink-loop", symlink("rules/loop.md", "loop.md"), "E024", "rules/loop.md", None),
        Case("md-unclosed-note", write(md, "# Rules\n\n::: note\nA note.\n\nMore rules.\n"), "E021", md, 3, cli=True),
        Case("md-unclosed-example", write(md, "# Rules\n\nText.\n\n::: example one\nExample.\n"), "E021", md, 5),
        Case("md-unclosed-rule", write(md, "# Rules\n\n::: rule moving\nUnits move.\n"), "E021", md, 3),
        Case("md-unclosed-inner", write(md, "# Rules\n\n::: example one\n::: note\nA.\n:::\n"), "E021", md, 3),
        Case("md-unclosed-reference", write(md, "# Rules\n\nThe {{ unit:scouts move.\n"), "E019", md, 3, cli=True),
        Case("md-unclosed-reference-late", write(md, "# Rules\n\nFirst.\nThen {{ unit:x\n"), "E019", md, 4),
        Case("md-reference-attribute", write(md, "# Rules\n\n{{ unit:scouts.name.__class__ }}\n"), "E007", md, 3),
        Case("md-reference-globals", write(md, "# Rules\n\n{{ unit:scouts.weapons.0.__init__.__globals__ }}\n"),
             "E007", md, 3),
        Case("md-reference-unknown", write(md, "# Rules\n\n{{ unit:nobody }}\n"), "E007", md, 3),
        Case("md-reference-malformed", write(md, "# Rules\n\n{{ unit }}\n"), "E019", md, 3),
        Case("md-no-title", write(md, "Text without a title.\n"), "E020", md, 1),
        Case("md-unknown-container", write(md, "# Rules\n\n::: warning\nA.\n:::\n"), "E021", md, 3),
        Case("md-unknown-note-kind", write(md, "# Rules\n\n::: note reader\nA.\n:::\n"), "E021", md, 3),
        Case("md-example-without-id", write(md, "# Rules\n\n::: example\nA.\n:::\n"), "E021", md, 3),
        Case("md-check-outside-example", write(md, "# Rules\n\n```check\nprocedure: roll\nexpect: {hits: 1}\n```\n"),
             "E030", md, 3),
        Case("md-check-unknown-key", write(md, "# Rules\n\n::: example a\n```check\nprocedure: roll\nexpekt: 1\n```\n:::\n"),
             "E032", md, 6),
        Case("md-check-unknown-procedure", procedures(PROCEDURES, EXAMPLE.replace("procedure: roll", "procedure: rol")),
             "E031", md, 6),
        Case("md-check-bad-input", procedures(PROCEDURES, EXAMPLE.replace("{shots: 1}", "{shots: many}")), "E033", md, 7),
        Case("md-example-unbound-number", procedures(PROCEDURES), "W031", md, 4),
        Case("md-example-bound-to-nothing", procedures(PROCEDURES, EXAMPLE.replace("One scout", "[One]{input=shot} scout")),
             "E038", md, 4),
        Case("md-image-from-network", write(md, "# Rules\n\n![map](http://127.0.0.1:9/map.png)\n"), "W008", md, 3),
        Case("md-image-outside", write(md, "# Rules\n\nText.\n\n![key](../../../../etc/passwd)\n"), "W008", md, 5),
        Case("md-image-beside-the-game", write(md, "# Rules\n\n![key](../other/key.png)\n"), "W008", md, 3),
        Case("md-image-missing", write(md, "# Rules\n\nThe map:\n![Map](images/none.png)\n"), "E061", md, 4),
        Case("md-image-protocol-relative", write(md, "# Rules\n\n![key](//example.org/x.png)\n"), "W008", md, 3),
        Case("md-calc-unknown", write(md, "# Rules\n\n{{ calc:nothing(x=1).P(hits >= 1) }}\n"), "E031", md, 3),
        *_numbering_cases(md),
    ]


NUMBERED = edit("game.yaml", "languages: []", "numbering: cases\nlanguages: []")


def _numbering_cases(md: str) -> list[Case]:
    """Numbered cases (`numbering: cases`): a heading's number that cannot stand, a reference
    the game cannot number (E082), an unknown numbering (E004)."""
    return [
        Case("numbering-unknown", edit("game.yaml", "languages: []", "numbering: casse\nlanguages: []"),
             "E004", "game.yaml", "numbering: casse"),
        Case("numbering-malformed", steps(NUMBERED, write(md, '# Rules\n\n{number="5.x"}\n## Moving\n')),
             "E082", md, 4, cli=True),
        Case("numbering-not-under-parent", steps(NUMBERED, write(md, '{number="5.3"}\n# Rules\n\n{number="6.1"}\n## Moving\n')),
             "E082", md, 5),
        Case("numbering-twice", steps(NUMBERED, write(md, '# Rules\n\n{number="1"}\n# More rules\n')), "E082", md, 4),
        Case("numbering-unquoted", steps(NUMBERED, write(md, '# Rules\n\n{number=5.3}\n## Moving\n')), "E082", md, 3),
        Case("numbering-not-numbered", write(md, '# Rules\n\n{number="5.3"}\n## Moving\n'), "E082", md, 4),
        Case("numbering-reference-unnumbered-game", write(md, "# Rules\n\nSee {{ case:rules }}.\n"), "E082", md, 3),
        Case("numbering-reference-unnumbered", steps(NUMBERED, write(md, "# Rules\n\n{#aside .unnumbered}\n## Aside\n\n"
                                                                     "See {{ case:aside }}.\n")), "E082", md, 6),
        Case("numbering-reference-unknown", steps(NUMBERED, write(md, "# Rules\n\nSee {{ case:movin }}.\n")),
             "E007", md, 3),
    ]


def _po_cases() -> list[Case]:
    po = "locale/ru.po"
    good = PO_HEAD + 'msgid "Scouts"\nmsgstr "Разведчики"\n'
    return [
        Case("po-unclosed-msgstr", with_ru(PO_HEAD + 'msgid "Scouts"\nmsgstr "Разведчики\n'), "E022", po, 6, cli=True),
        Case("po-unclosed-msgid", with_ru(PO_HEAD + 'msgid "Scouts\nmsgstr "Разведчики"\n'), "E022", po, 5),
        Case("po-unclosed-continuation", with_ru(PO_HEAD + 'msgid "Scouts"\nmsgstr ""\n"Разведчики\n'), "E022", po, 7),
        Case("po-escaped-quote-end", with_ru(PO_HEAD + 'msgid "Scouts"\nmsgstr "Разведчики\\"\n'), "E022", po, 6),
        Case("po-latin1", with_ru((PO_HEAD + 'msgid "Caf"\nmsgstr "Café"\n').encode("latin-1")), "E022", po, 6,
             cli=True),
        Case("po-nul", with_ru(PO_HEAD + 'msgid "Scouts"\nmsgstr "Раз\x00ведчики"\n'), "E022", po, 6),
        Case("po-garbage-line", with_ru(good + "this is not PO\n"), "E022", po, 7),
        Case("po-unknown-keyword", with_ru(good + 'msgfoo "x"\n'), "E022", po, 7),
        Case("po-obsolete-unclosed", with_ru(good + '\n#~ msgid "Old"\n#~ msgstr "Старое\n'), "E022", po, 9),
        Case("po-folder", steps(edit("game.yaml", "languages: []", "languages: [ru]"), folder(po)), "E022", po, None),
        Case("po-link-target-differs", steps(with_ru(PO_HEAD + 'msgid "See [rules](a.html)."\n'
                                                     'msgstr "См. [правила](b.html)."\n')), "E023", po, 6),
        Case("po-link-count-differs", steps(with_ru(PO_HEAD + 'msgid "See [rules](a.html)."\n'
                                                    'msgstr "См. [правила](a.html) [и](a.html)."\n')), "E023", po, 6),
        Case("po-example-number-changed", steps(
            procedures(PROCEDURES, EXAMPLE.replace("One scout", "[One]{input=shots} scout")),
            with_ru(PO_HEAD + 'msgid "[One]{input=shots} scout shoots."\nmsgstr "[Два]{input=shots} разведчика стреляют."\n')),
             "E039", po, 6),
        Case("po-drops-reference", with_ru(PO_HEAD + 'msgid "Use {{ unit:scouts }}."\nmsgstr "Используйте."\n'),
             "E023", po, 6),
        Case("po-terms-not-used", steps(with_ru(PO_HEAD + 'msgid "Scouts move."\nmsgstr "Они идут."\n'),
                                        write("locale/ru.terms.yaml", "terms:\n  - source: scouts\n    target: разведчики\n")),
             "W002", po, 6),
        Case("terms-bad-regex", steps(with_ru(PO_HEAD), write("locale/ru.terms.yaml", "terms:\n  - source: '(a'\n    target: b\n")),
             "E004", "locale/ru.terms.yaml", 2),
        Case("terms-nested-repetition", steps(with_ru(PO_HEAD + 'msgid "Scouts"\nmsgstr "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa!"\n'),
                                              write("locale/ru.terms.yaml", "terms:\n  - source: '(a+)+$'\n    target: b\n")),
             "E004", "locale/ru.terms.yaml", 2),
        Case("terms-unknown-field", steps(with_ru(PO_HEAD), write("locale/ru.terms.yaml", "terms:\n  - sorce: a\n    target: b\n")),
             "E003", "locale/ru.terms.yaml", 2),
        Case("terms-invalid-utf8", steps(with_ru(PO_HEAD), write("locale/ru.terms.yaml", b"terms:\n  - source: \xff\n")),
             "E001", "locale/ru.terms.yaml", 2),
        Case("ui-language-without-words", edit("game.yaml", "languages: []", "languages: [it]"), "W010",
             "game.yaml", "languages:"),
        Case("ui-override-unknown-word", steps(edit("game.yaml", "languages: []", "languages: [de]"), write(
            "locale/ui.de.po", PO_HEAD + 'msgctxt "rulebok"\nmsgid "Rulebook"\nmsgstr "Spielregel"\n')),
             "W011", "locale/ui.de.po", 5),
        Case("ui-override-unclosed", steps(edit("game.yaml", "languages: []", "languages: [de]"), write(
            "locale/ui.de.po", PO_HEAD + 'msgctxt "rulebook"\nmsgid "Rulebook"\nmsgstr "Spielregel\n')),
             "E022", "locale/ui.de.po", 7),
        Case("contexts-unused-place", steps(with_ru(PO_HEAD), write("locale/contexts.yaml",
                                                                    "contexts:\n  unit:nobody.name: x\n")),
             "W012", "locale/contexts.yaml", 2),
        Case("contexts-bad-place", steps(with_ru(PO_HEAD), write("locale/contexts.yaml", "contexts:\n  just words: x\n")),
             "E004", "locale/contexts.yaml", 2),
        Case("catalog-untranslated", with_ru(PO_HEAD), "W013", "locale/ru.po", None),
        Case("catalog-in-the-source-language", write("locale/en.po", PO_HEAD), "W015", "locale/en.po", None),
        Case("catalog-missing", edit("game.yaml", "languages: []", "languages: [ru]"), "W013", "game.yaml",
             "languages: [ru]"),
        Case("catalog-plural-forms-not-cldr", with_ru(PO_HEAD.replace(
            '"Content-Type', '"Plural-Forms: nplurals=2; plural=(n != 1);\\n"\n"Content-Type')),
             "E025", "locale/ru.po", "Plural-Forms"),
        Case("measure-form-of-no-category", edit("game.yaml", "stats:\n",
                                                 "measures:\n  - {id: pace, name: paces, one: pace, few: paces}\n"
                                                 "stats:\n"), "E026", "game.yaml", "few: paces"),
        Case("measure-too-few-forms", steps(edit("game.yaml", "source_language: en", "source_language: pl"),
                                            edit("game.yaml", "stats:\n",
                                                 "measures:\n  - {id: cal, name: cali, one: cal}\nstats:\n")),
             "W014", "game.yaml", "one: cal"),
        Case("stat-below-its-minimum", steps(edit("game.yaml", "    name: Cost\n    type: number\n",
                                                  "    name: Cost\n    type: number\n    min: 0\n"),
                                             edit("data/units.yaml", "cost: 50", "cost: -10")),
             "E071", "data/units.yaml", "cost: -10"),
        Case("stat-in-an-undeclared-unit", edit("game.yaml", "    type: distance\n    unit: cm\n",
                                                "    type: distance\n    unit: paces\n"),
             "E072", "game.yaml", "unit: paces"),
    ]


def _errata_cases() -> list[Case]:
    return [
        Case("errata-invalid-utf8", write("ERRATA.md", b"# Errata\n\n- `quick-for-fast`: \xff read as Fast.\n"), "E024",
             "ERRATA.md", 3, cli=True),
        Case("errata-nul", write("ERRATA.md", "# Errata\n\n\n- `quick-for-fast`: read\x00 as Fast.\n"), "E024",
             "ERRATA.md", 4),
        Case("errata-folder", lambda ws: ((ws.game / "ERRATA.md").unlink(), (ws.game / "ERRATA.md").mkdir()),
             "E024", "ERRATA.md", None),
        Case("errata-unknown", edit("ERRATA.md", "- `quick-for-fast`", "- `quick-for-fast`: x\n- `nothing-here`"),
             "E016", "ERRATA.md", "nothing-here"),
        Case("errata-missing", write("ERRATA.md", "# Errata\n"), "E015", "data/errata.yaml", "quick-for-fast"),
    ]


def _procedure_cases() -> list[Case]:
    loop_in_procedure = PROCEDURES.replace('    return {"hits"', '    while True:\n        pass\n    return {"hits"')
    exit_in_procedure = PROCEDURES.replace('    return {"hits"', '    raise SystemExit(0)\n    return {"hits"')
    loop_in_rule = PROCEDURES + '\n\n@consistency("forever")\ndef forever(game):\n    while True:\n        yield from ()\n'
    return [
        Case("procedures-sys-exit", procedures("import sys\nsys.exit(0)\n"), "E034", "procedures.py", 2, cli=True),
        Case("procedures-sys-exit-1", procedures("import sys\n\nsys.exit(1)\n"), "E034", "procedures.py", 3),
        Case("procedures-while-true", procedures("x = 1\nwhile True:\n    x += 1\n"), "E035", "procedures.py", 2,
             cli=True),
        Case("procedures-swallowing-loop", procedures(
            "while True:\n    try:\n        pass\n    except BaseException:\n        pass\n"), "E035", "procedures.py", 1),
        Case("procedures-os-exit", procedures("import os\nos._exit(0)\n"), "E035", "procedures.py", 1, cli=True),
        Case("procedures-keyboard-interrupt", procedures("raise KeyboardInterrupt\n"), "E035", "procedures.py", 1),
        Case("procedures-memory-bomb", procedures("x = 1\nhog = ' ' * (64 << 30)\n"), "E034", "procedures.py", 2,
             cli=True),
        Case("procedures-raises", procedures("x = 1\nraise ValueError('no')\n"), "E034", "procedures.py", 2),
        Case("procedures-syntax", procedures("def f(:\n    pass\n"), "E034", "procedures.py", 1),
        Case("procedures-invalid-utf8", steps(write("procedures.py", b"x = '\xff'\n"), write("rules/01-rules.md", EXAMPLE)),
             "E034", "procedures.py", 1),
        Case("procedure-loops-in-check", procedures(loop_in_procedure), "E035", "procedures.py", "while True",
             runner="check", cli=True),
        Case("procedure-exits-in-check", procedures(exit_in_procedure), "E035", "procedures.py", "raise SystemExit",
             runner="check"),
        Case("rule-loops-in-check", procedures(loop_in_rule), "E035", "procedures.py", "while True", runner="check"),
        Case("calc-loops-in-validate", procedures(loop_in_procedure, "# Rules\n\n{{ calc:roll(shots=1).P(hits >= 1) }}\n"),
             "E035", "procedures.py", "while True", cli=True),
        Case("procedures-bad-id", procedures(PROCEDURES.replace('@procedure("roll")', '@procedure("Roll Dice")')),
             "E034", "procedures.py", "@procedure"),
        Case("procedure-cites-unknown-erratum",
             procedures(PROCEDURES.replace('@procedure("roll")', '@procedure("roll", errata=["no-such-reading"])')),
             "E036", "procedures.py", "no-such-reading"),
        Case("table-assumes-nothing-in-ru", steps(TRANSLATED, procedures(
            PROCEDURES.replace("consistency, procedure", "consistency, procedure, table")
            + '\n\n@table("odds", assumes={"en": "one die"})\ndef odds(game):\n    return []\n')),
             "W019", "procedures.py", "@table"),
        Case("erratum-reading-in-another-language", edit(
            "data/errata.yaml", "    reading: Fast\n", "    reading: Читается как Быстрый, по глоссарию\n"),
             "W020", "data/errata.yaml", "reading: Читается"),
        Case("reading-cited-by-nothing", steps(procedures(PROCEDURES), edit(
            "data/errata.yaml", "    reading: Fast\n", "    reading: Fast\n    category: reading\n")),
             "E037", "data/errata.yaml", "quick-for-fast"),
    ]


def stylesheet(name: str, extra: str) -> Callable[[Workspace], None]:
    """The game's own copy of a Rulesmith stylesheet, with `extra` rules at the end."""
    def setup(ws: Workspace) -> None:
        from generator.print.context import PACKAGE_TEMPLATES

        write(f"templates/{name}", (PACKAGE_TEMPLATES / name).read_text(encoding="utf-8") + "\n" + extra)(ws)
    return setup


def columns_failing_template() -> str:
    """A rulebook template (rulebook.html.j2) that WeasyPrint cannot lay out in the book's
    columns but can in one: the page kept to report upstream (tests/upstream/), its columns
    those of the book's paper."""
    html = (Path(__file__).parent / "upstream" / "weasyprint-column-span.html").read_text(encoding="utf-8")
    return html.replace("section { columns: 2 }", "{{ page_css }}").replace("<section>", '<section class="chapter">')


LONE_HEADING = ("# Intro\n\nA first paragraph.\n\n## Lonely\n\n" + "Words that run on. " * 200 + "\n")


def _layout_cases() -> list[Case]:
    """What the layout check finds after WeasyPrint lays a document out (E040–E041, W040–W045)."""
    card = ("data/cards.yaml", "- id: advance")
    return [
        Case("layout-overflow", stylesheet("cards.css", ".card-body p { width: 90mm; }"), "E040", *card,
             runner="cards"),
        Case("layout-overlap", stylesheet("cards.css", ".card-title { position: absolute; top: 10mm; }"), "E041",
             *card, runner="cards"),
        Case("layout-safe-area", stylesheet("cards.css", ".card-head { top: 0.3mm; }"), "W040", *card,
             runner="cards"),
        Case("layout-tiny-text", stylesheet("cards.css", ".card-foot { font-size: 4pt; }"), "W041", *card,
             runner="cards"),
        Case("layout-lone-heading", steps(write("rules/01-intro.md", LONE_HEADING), stylesheet(
            "rulebook.css", 'h2 { break-after: auto; } p { break-inside: avoid; }\n'
            'p[data-src="rules/01-intro.md:3"] { height: 228mm; }')), "W042", "rules/01-intro.md", "## Lonely",
             runner="rulebook"),
        Case("layout-font-not-shipped", edit("data/cards.yaml", "    text: One unit moves and then attacks.",
                                             "    text: One unit moves ★ and then attacks."),
             "W043", *card, runner="cards"),
        Case("layout-columns-fail", write("templates/rulebook.html.j2", columns_failing_template()), "W045", "", None,
             runner="rulebook"),
    ]


def _build_cases() -> list[Case]:
    return _layout_cases() + [
        Case("card-text-overflows", edit("data/cards.yaml", "    text: One unit moves and then attacks.",
                                         "    text: " + "One unit moves and attacks. " * 200),
             "E040", "data/cards.yaml", "- id: advance", runner="cards"),
        Case("card-page-text-overflows", edit("data/cards.yaml", "    text: One unit moves and then attacks.",
                                              "    text: " + "One unit moves and attacks. " * 200),
             "W003", "data/cards.yaml", "- id: advance", runner="site"),
        Case("untranslated-falls-back", steps(TRANSLATED, write("locale/ru.po", PO_HEAD)), "W005", "locale/ru.po", None,
             runner="reference-ru"),
        Case("erratum-not-cited", edit("data/keywords.yaml", "        erratum: quick-for-fast\n", ""), "W001",
             "data/errata.yaml", "quick-for-fast"),
        Case("counter-text-overflows", edit("data/counters.yaml", "    text: Round", "    text: " + "Round of play " * 12),
             "W030", "data/counters.yaml", "- id: round", runner="counters"),
        Case("bleed-back-stops-at-trim", steps(
            write("templates/backs/inside.svg.j2", '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 63 88">'
                  '<rect width="63" height="88" fill="#0f3b57"/></svg>\n'),
            edit("data/decks.yaml", "back: spades-diamonds", "back: inside")),
             "E048", "data/cards.yaml", "- id: advance", runner="bleed"),
        Case("print-shop-size-unknown", edit("data/decks.yaml", "size: poker", "size: tarot"),
             "W048", "data/cards.yaml", "- id: advance", runner="print-shop"),
    ]


def _component_cases() -> list[Case]:
    return [
        Case("map-cell-outside-grid", edit("data/maps.yaml", '["0202", "0503"]', '["0202", "0709"]'),
             "E060", "data/maps.yaml", "0709"),
        Case("map-background-missing", edit("data/maps.yaml", "    cell: 30\n", "    cell: 30\n    background: images/none.png\n"),
             "E061", "data/maps.yaml", "background:"),
    ]


def _model_cases() -> list[Case]:
    return [
        Case("side-outside-its-enum", steps(edit("game.yaml", "stats:\n", "enums:\n  side: [soviet, germany]\nstats:\n"),
                                            edit("data/units.yaml", "    type: infantry\n", "    type: infantry\n    side: sovet\n")),
             "E050", "data/units.yaml", "side: sovet"),
        Case("table-row-lacks-a-column", edit("data/tables.yaml", "{roll: 3-6, result: Clear skies.}", "{roll: 3-6}"),
             "E051", "data/tables.yaml", "{roll: 3-6}"),
        Case("coded-cell-outside-its-values",
             steps(edit("data/tables.yaml", "      - {id: result, name: Result}\n",
                        "      - {id: result, name: Result}\n      - id: sky\n        name: Sky\n        values:\n"
                        "          - {id: wet, name: Wet}\n          - {id: dry, name: Dry}\n"),
                   edit("data/tables.yaml", "{roll: 1-2, result: \"Rain: every Move is 5 cm shorter.\"}",
                        "{roll: 1-2, result: \"Rain: every Move is 5 cm shorter.\", sky: wet}"),
                   edit("data/tables.yaml", "{roll: 3-6, result: Clear skies.}", "{roll: 3-6, result: Clear skies., sky: drie}")),
             "E055", "data/tables.yaml", "sky: drie"),
        Case("table-inside-a-sentence", write("rules/01-weather.md", "# Weather\n\nRoll on {{ table:weather }} now.\n"),
             "E052", "rules/01-weather.md", 3),
        Case("unknown-terrain-in-a-cell", edit("data/tables.yaml", "result: Clear skies.}", "result: \"In {{ terrain:wods }}\"}"),
             "E007", "data/tables.yaml", "terrain:wods"),
        Case("editor-names-no-text-field", edit("data/terrain.yaml", "    text: Blocks line of sight beyond 5 cm.",
                                                "    text: Blocks line of sight beyond 5 cm.\n    editor: [txt]"),
             "E062", "data/terrain.yaml", "editor: [txt]"),
    ]


# --- pictures, styles, links and print settings (the site and the PDFs publish only what the
# project holds, and nothing that runs script or fetches) ------------------------------------

SVG_HEAD = '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" viewBox="0 0 10 10">\n'
HOSTILE_SVGS: list[tuple[str, str, int]] = [  # (name, drawing, line of what is refused)
    ("script", SVG_HEAD + '<rect width="10" height="10"/>\n<script>alert(document.cookie)</script>\n</svg>\n', 3),
    ("event-attribute", SVG_HEAD + '<rect width="10" height="10"\n  onclick="alert(1)"/>\n</svg>\n', 2),
    ("javascript-link", SVG_HEAD + '<a href="javascript:alert(1)">\n<rect width="10" height="10"/></a>\n</svg>\n', 2),
    ("remote-image", SVG_HEAD + '<rect width="1" height="1"/>\n<image xlink:href="http://127.0.0.1:9/x.png"/>\n</svg>\n', 3),
    ("file-image", SVG_HEAD + '\n<image href="file:///etc/passwd"/>\n</svg>\n', 3),
    ("style-url", SVG_HEAD + '<rect width="10" height="10"\n style="fill: url(http://127.0.0.1:9/p.svg#p)"/>\n</svg>\n', 2),
    ("style-import", SVG_HEAD + '<style>\n@import url("http://127.0.0.1:9/x.css");\n</style>\n</svg>\n', 3),
    ("foreign-object", SVG_HEAD + '<foreignObject width="10" height="10">\n</foreignObject>\n</svg>\n', 2),
    ("xml-stylesheet", '<?xml version="1.0"?>\n<?xml-stylesheet href="http://127.0.0.1:9/x.css"?>\n' + SVG_HEAD + '</svg>\n', 2),
    ("external-entity", '<?xml version="1.0"?>\n<!DOCTYPE svg [<!ENTITY secret SYSTEM "file:///etc/passwd">]>\n'
     + SVG_HEAD + '<text>&secret;</text>\n</svg>\n', 2),
    ("entity-bomb", '<?xml version="1.0"?>\n<!DOCTYPE svg [<!ENTITY a "aaaaaaaaaa">'
     + "".join(f'<!ENTITY {chr(98 + i)} "{("&" + chr(97 + i) + ";") * 10}">' for i in range(8))
     + ']>\n' + SVG_HEAD + '<text>&i;</text>\n</svg>\n', 2),
]


def huge_png(width: int = 30_000, height: int = 30_000) -> bytes:
    """A PNG whose header claims `width`×`height` pixels, with almost no data behind it."""
    import struct
    import zlib

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(b"\0" * 64)) + chunk(b"IEND", b""))


def outside_link(rel: str, text: str = "# Glossary\n\nA word from another project.\n") -> Callable[[Workspace], None]:
    """`rel` in the game, a link to a file beside the project (outside it)."""
    def setup(ws: Workspace) -> None:
        target = ws.root.parent / f"{ws.root.name}-outside{os.path.splitext(rel)[1]}"
        target.write_text(text, encoding="utf-8") if isinstance(text, str) else target.write_bytes(text)
        symlink(rel, str(target))(ws)
    return setup


def _asset_cases() -> list[Case]:
    md = "rules/01-rules.md"
    cases = [Case(f"svg-{name}", write("images/map.svg", svg), "E063", "images/map.svg", line)
             for name, svg, line in HOSTILE_SVGS]
    cases += [
        Case("svg-used-in-rules", steps(write("images/map.svg", HOSTILE_SVGS[0][1]),
                                        write(md, "# Rules\n\nThe map:\n\n![Map](images/map.svg)\n")),
             "E063", md, 5, cli=True),
        Case("svg-map-background", steps(write("images/map.svg", HOSTILE_SVGS[1][1]),
                                         edit("data/maps.yaml", "    cell: 30\n", "    cell: 30\n    background: images/map.svg\n")),
             "E063", "data/maps.yaml", "background:"),
        Case("svg-inline-picture-huge", write("images/map.svg", SVG_HEAD + '<rect width="1" height="1"/>\n<image href="data:image/png;base64,'
                                              + base64.b64encode(huge_png()).decode("ascii") + '"/>\n</svg>\n'),
             "E064", "images/map.svg", 3),
        Case("md-inline-picture-huge", write(md, "# Rules\n\nThe map:\n![Map](data:image/png;base64,"
                                             + base64.b64encode(huge_png()).decode("ascii") + ")\n"), "E064", md, 4),
        Case("svg-malformed", write("images/map.svg", SVG_HEAD + "<rect>\n</svg>\n"), "E064", "images/map.svg", 3),
        Case("png-huge", write("images/map.png", huge_png()), "E064", "images/map.png", None, cli=True),
        Case("png-huge-in-rules", steps(write("images/map.png", huge_png()),
                                        write(md, "# Rules\n\n![Map](images/map.png)\n")), "E064", md, 3),
        Case("png-damaged", write("images/map.png", b"\x89PNG\r\n\x1a\nnot really"), "E064", "images/map.png", None),
        Case("jpeg-named-png", write("images/map.png", b"\xff\xd8\xff\xe0" + b"\0" * 20), "E064", "images/map.png", None),
        Case("md-style-url", write(md, '# Rules\n\n{style="background:url(http://127.0.0.1:9/t.png)"}\nText.\n'),
             "E065", md, 3, cli=True),
        Case("md-style-import", write(md, "# Rules\n\nText.\n\n{style=\"@import 'http://127.0.0.1:9/x.css'\"}\n## Next\n"),
             "E065", md, 5),
        Case("md-style-image-set", write(md, '# Rules\n\n{style="background: image-set(\'//127.0.0.1:9/t.png\' 1x)"}\nText.\n'),
             "E065", md, 3),
        Case("md-style-escaped-url", write(md, '# Rules\n\n{style="background: u\\72l(//127.0.0.1:9/t.png)"}\nText.\n'),
             "E065", md, 3),
        Case("chapter-links-outside", outside_link("rules/02-glossary.md"), "E066", "rules/02-glossary.md", None,
             cli=True),
        Case("picture-links-outside", outside_link("images/logo.png", huge_png(4, 4)), "E066", "images/logo.png", None),
        Case("data-links-outside", outside_link("data/more.yaml", "units: []\n"), "E066", "data/more.yaml", None),
        Case("keyword-use-newline", edit("data/units.yaml", "keywords: [Quick]", 'keywords: ["Quick\\nX"]'), "E067",
             "data/units.yaml", "keywords:", cli=True),
        Case("name-newline", edit("data/units.yaml", "name: Scouts", 'name: "Scouts\\nof the army"'), "E067",
             "data/units.yaml", "name: \"Scouts"),
        Case("alias-newline", edit("data/keywords.yaml", "- name: Quick", '- name: "Qu\\nick"'), "E067",
             "data/keywords.yaml", "- name: \"Qu"),
        Case("name-right-to-left-override", edit("data/keywords.yaml", "name: Fast", 'name: "Fa\u202est"'), "E067",
             "data/keywords.yaml", "name: \"Fa"),
        Case("name-right-to-left-isolate", edit("data/units.yaml", "name: Scouts", "name: Sc\u2067outs"), "E067",
             "data/units.yaml", "name: Sc"),
        Case("md-right-to-left-override", write(md, "# Rules\n\nMove \u202e5 cm.\n"), "E067", md, 3),
        Case("po-right-to-left-override", with_ru(PO_HEAD + 'msgid "Scouts"\nmsgstr "Раз\u202eведчики"\n'), "E067",
             "locale/ru.po", 'msgstr "Раз'),
        Case("stat-name-newline", edit("game.yaml", "    name: Move\n", '    name: "Mo\\nve"\n'), "E067",
             "game.yaml", 'name: "Mo'),
        Case("parameter-name-newline", edit("game.yaml", "name: Victory points needed to win",
                                            'name: "Victory points\\nneeded to win"'), "E067", "game.yaml",
             'name: "Victory points'),
    ]
    settings = [  # print.yaml: (name, text, code, line)
        ("print-zero-text", "min_text_pt: 0\n", "E004", 1),
        ("print-negative-safe", "card_safe_mm: -3\n", "E004", 1),
        ("print-huge-number", "min_text_pt: 1e308\n", "E004", 1),
        ("print-nan", "min_text_pt: .nan\n", "E004", 1),
        ("print-unknown-key", "min_text_pt: 6\nreferense: [units]\n", "E003", 2),
        ("print-unknown-section", "reference: [units, unitz]\n", "E004", 1),
        ("print-not-mapping", "- reference\n", "E004", 1),
        ("print-deep", "reference: " + "[" * 200 + "]" * 200 + "\n", "E001", 1),
        ("print-bomb", "reference: " + BOMB + "\n", "E001", 1),
        ("print-python-tag", "reference: !!python/object/apply:os.system ['true']\n", "E001", 1),
    ]
    cases += [Case(name, write("print.yaml", text), code, "print.yaml", line) for name, text, code, line in settings]
    cases += [
        Case("print-invalid-utf8", write("print.yaml", b"min_text_pt: 6\nreference: [\xff]\n"), "E001", "print.yaml", 2,
             cli=True),
        Case("sheets-zero-font", sheets("min_font_pt: 6.5", "min_font_pt: 0"), "E004", "templates/sheets.yaml",
             "min_font_pt: 0", cli=True),
        Case("sheets-unknown-key", sheets("bleed: 3", "bleeed: 3"), "E003", "templates/sheets.yaml", "bleeed:"),
        Case("print-shop-unknown-field", write("templates/print-shops.yaml", "presets:\n  shop:\n    name: Shop\n"
             "    sizes: {poker: [63, 88]}\n    bleed: 3\n    format: png\n    front: '{deck}/{number}.png'\n"
             "    back: 'back/{n}.png'\n"), "E004", "templates/print-shops.yaml", "    name: Shop"),
        Case("sheets-paper-text", sheets("width: 210", "width: wide"), "E004", "templates/sheets.yaml", "width: wide"),
        Case("sheets-invalid-utf8", write("templates/sheets.yaml", b"papers:\n  a4: {width: 210, height: 2\xff7}\n"),
             "E001", "templates/sheets.yaml", 2),
        Case("layout-zero-text", stylesheet("cards.css", ".card-foot { font-size: 0; }"), "W041", "data/cards.yaml",
             "- id: advance", runner="cards"),
    ]
    return cases


def sheets(old: str, new: str) -> Callable[[Workspace], None]:
    """The game's own copy of Rulesmith's sheets.yaml, with `old` replaced by `new`."""
    def setup(ws: Workspace) -> None:
        from generator.print.context import PACKAGE_TEMPLATES

        text = (PACKAGE_TEMPLATES / "sheets.yaml").read_text(encoding="utf-8")
        assert old in text, f"{old!r} not in sheets.yaml"
        write("templates/sheets.yaml", text.replace(old, new, 1))(ws)
    return setup


def _roster_cases() -> list[Case]:
    rosters = "data/rosters.yaml"
    return [
        Case("roster-minimum-above-maximum", edit(rosters, "        source: A list for a last stand costs no more than "
                                                  "200 points.\n",
                                                  "        source: A list for a last stand costs no more than 200 points.\n"
                                                  "    limits:\n      - unit: scouts\n        min: 3\n        max: 1\n"
                                                  "        source: Take one to three scouts.\n"),
             "E080", rosters, "min: 3"),
        Case("army-list-over-its-limit", write("army.yaml", "game: demo\nsize: last-stand\nunits:\n"
                                               "  - unit: scouts\n    count: 1000\n"),
             "E081", "army.yaml", "- unit: scouts", runner="roster"),
        Case("army-list-of-an-unknown-game", write("army.yaml", "game: dmeo\nunits: []\n"),
             "E081", "army.yaml", 1, runner="roster"),
        Case("army-list-unit-of-negative-cost", steps(edit("data/units.yaml", "cost: 50", "cost: -120"),
                                                      write("army.yaml", "game: demo\nsize: last-stand\nunits:\n"
                                                            "  - unit: scouts\n")),
             "W081", "army.yaml", "- unit: scouts", runner="roster"),
    ]


def _special_file_cases() -> list[Case]:
    """A special file where content goes: said at once (E024, or the kind's own code), never
    waited on (a named pipe) nor read without end (a link to /dev/zero)."""
    md, po, ru = "rules/01-rules.md", "locale/ru.po", edit("game.yaml", "languages: []", "languages: [ru]")
    de = edit("game.yaml", "languages: []", "languages: [de]")
    with_procedures = procedures(PROCEDURES)
    return [
        Case("chapter-fifo", special(md, "fifo"), "E024", md, None, cli=True),
        Case("chapter-socket", special(md, "socket"), "E024", md, None),
        Case("chapter-dev-zero", special(md, "zero"), "E066", md, None, cli=True),
        Case("chapter-dangling-link", special(md, "dangling"), "E024", md, None),
        Case("data-fifo", special("data/units.yaml", "fifo"), "E001", "data/units.yaml", None, cli=True),
        Case("data-socket", special("data/units.yaml", "socket"), "E001", "data/units.yaml", None),
        Case("manifest-fifo", special("game.yaml", "fifo"), "E001", "game.yaml", None, cli=True),
        Case("manifest-self-link", special("game.yaml", "self"), "E001", "game.yaml", None),
        Case("errata-fifo", special("ERRATA.md", "fifo"), "E024", "ERRATA.md", None, cli=True),
        Case("errata-dev-zero", special("ERRATA.md", "zero"), "E024", "ERRATA.md", None, cli=True),
        Case("errata-self-link", special("ERRATA.md", "self"), "E024", "ERRATA.md", None),
        Case("errata-dangling-link", special("ERRATA.md", "dangling"), "E024", "ERRATA.md", None),
        Case("po-fifo", steps(ru, special(po, "fifo")), "E022", po, None, cli=True),
        Case("po-dev-zero", steps(ru, special(po, "zero")), "E022", po, None, cli=True),
        Case("po-self-link", steps(ru, special(po, "self")), "E022", po, None, cli=True),
        Case("po-dangling-link", steps(ru, special(po, "dangling")), "E022", po, None),
        Case("po-socket", steps(ru, special(po, "socket")), "E022", po, None),
        Case("terms-fifo", steps(with_ru(PO_HEAD), special("locale/ru.terms.yaml", "fifo")), "E001",
             "locale/ru.terms.yaml", None, cli=True),
        Case("terms-dangling-link", steps(with_ru(PO_HEAD), special("locale/ru.terms.yaml", "dangling")), "E001",
             "locale/ru.terms.yaml", None),
        Case("contexts-fifo", steps(with_ru(PO_HEAD), special("locale/contexts.yaml", "fifo")), "E001",
             "locale/contexts.yaml", None),
        Case("ui-override-fifo", steps(de, special("locale/ui.de.po", "fifo")), "E022", "locale/ui.de.po", None),
        Case("procedures-fifo", steps(with_procedures, special("procedures.py", "fifo")), "E034", "procedures.py",
             None, cli=True),
        Case("procedures-self-link", steps(with_procedures, special("procedures.py", "self")), "E034",
             "procedures.py", None, cli=True),
        Case("template-fifo", special("templates/cards.css", "fifo"), "E024", "templates/cards.css", None, cli=True),
        Case("template-dangling-link", special("templates/card.html.j2", "dangling"), "E024",
             "templates/card.html.j2", None),
    ]


def _po_syntax_cases() -> list[Case]:
    """Catalogs msgfmt --check rejects, each fault at the line msgfmt names (tests/test_catalog_syntax.py
    compares with msgfmt itself)."""
    po = "locale/ru.po"
    good = PO_HEAD + 'msgid "Scouts"\nmsgstr "Разведчики"\n'
    forms = 'msgid "scout"\nmsgid_plural "scouts"\n'
    plural_head = PO_HEAD.replace('\\n"\n\n', '\\n"\n"Plural-Forms: nplurals=3; plural=n +;\\n"\n\n')
    return [
        Case("po-invalid-escape", with_ru(PO_HEAD + 'msgid "Scouts"\nmsgstr "Раз\\qведчики"\n'), "E022", po, 6, cli=True),
        Case("po-hex-escape-without-digits", with_ru(PO_HEAD + 'msgid "Scouts"\nmsgstr "Раз\\xведчики"\n'), "E022", po, 6),
        Case("po-msgid-without-msgstr", with_ru(good + '\nmsgid "Orphan"\n'), "E022", po, 8, cli=True),
        Case("po-msgstr-n-without-msgid-plural", with_ru(PO_HEAD + 'msgid "Scouts"\nmsgstr[0] "Разведчики"\n'),
             "E022", po, 5, cli=True),
        Case("po-msgid-plural-with-plain-msgstr", with_ru(PO_HEAD + forms + 'msgstr "разведчики"\n'), "E022", po, 7),
        Case("po-plural-index-out-of-order", with_ru(PO_HEAD + forms + 'msgstr[1] "a"\nmsgstr[0] "b"\n'),
             "E022", po, 7),
        Case("po-forms-without-plural-forms", with_ru(PO_HEAD + forms + 'msgstr[0] "a"\nmsgstr[1] "b"\n'),
             "E022", po, 7),
        Case("po-bad-plural-expression", with_ru(plural_head + good[len(PO_HEAD):]), "E022", po, 2),
        Case("po-duplicate-message", with_ru(good + '\nmsgid "Scouts"\nmsgstr "Скауты"\n'), "E022", po, 8),
        Case("po-no-header", with_ru('msgid "Scouts"\nmsgstr "Разведчики"\n'), "E022", po, 1),
        Case("po-msgctxt-without-msgid", with_ru(good + '\nmsgctxt "x"\nmsgstr "y"\n'), "E022", po, 9),
        Case("po-newline-differs", with_ru(PO_HEAD + 'msgid "Scouts\\n"\nmsgstr "Разведчики"\n'), "E022", po, 6),
        Case("po-c-format-differs", with_ru(PO_HEAD + '#, c-format\nmsgid "%d scouts"\nmsgstr "разведчики"\n'),
             "E022", po, 7),
        Case("po-obsolete-mixed", with_ru(PO_HEAD + 'msgid "Scouts"\n#~ msgstr "Разведчики"\n'), "E022", po, 6),
    ]


CASES: list[Case] = (_yaml_cases() + _file_cases() + _language_cases() + _value_cases() + _markdown_cases()
                     + _special_file_cases() + _po_syntax_cases() + _po_cases() + _errata_cases() + _procedure_cases() + _build_cases() + _model_cases()
                     + _component_cases() + _asset_cases() + _roster_cases())


def expected_line(ws: Workspace, case: Case) -> int | None:
    if case.line is None or isinstance(case.line, int):
        return case.line
    path = ws.game / case.file
    for number, text in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if case.line in text:
            return number
    raise AssertionError(f"{case.line!r} not in {path}")


def run_case(ws: Workspace, case: Case) -> list:
    """Break the workspace as the case says and run it in-process; the diagnostics."""
    from generator.core.diagnostics import Report
    from generator.project import Project

    case.setup(ws)
    project = Project(ws.root)
    if case.runner == "validate":
        report = Report()
        for name in project.game_ids():
            project.load(name, report)
        return report.diagnostics
    if case.runner == "roster":  # a player's army list (rulesmith roster check), beside the game's files
        from generator.roster.session import check_list

        report = Report()
        check_list(project, ws.game / "army.yaml", report)
        return report.diagnostics
    if case.runner == "site":  # the game's site pages, in-process (their card pages are fitted like the sheets)
        from generator import outputs
        from generator.print.context import BuildContext
        from generator.site.pages import game_pages

        outputs.confine_to(project.output)  # as a build does: its fitting writes to output/ only
        report = Report()
        game_pages(BuildContext(project.load("demo", report), "en", ws.root), report)
        return report.diagnostics
    if case.runner == "check":
        from generator.checks.trial import check_project

        run = check_project(project, project.game_ids())
        found = [d for g in run.games for d in g.report.diagnostics]
        return found
    from generator.print.jobs import Job, run_job

    kind = {"reference-ru": "reference", "counters": "counters", "rulebook": "rulebook"}.get(case.runner, "cards")
    shop = {"bleed": {"bleed": True}, "print-shop": {"print_shops": ("makeplayingcards",)}}.get(case.runner, {})
    job = Job(ws.root, "demo", "ru" if case.runner == "reference-ru" else "en", kind, images=False, **shop)
    return run_job(job).diagnostics


def matches(ws: Workspace, case: Case, diagnostic) -> bool:
    path = os.path.abspath(ws.game / case.file) if case.file else os.path.abspath(ws.game)
    if diagnostic.code != case.code or os.path.abspath(diagnostic.location.path) != path:
        return False
    line = expected_line(ws, case)
    return line is None or diagnostic.location.line == line


__all__ = ["CASES", "Case", "TIME_LIMIT", "expected_line", "matches", "run_case"]
