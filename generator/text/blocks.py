"""HTML for data shown inside the text: tables, the glossary, the roster, other sections.
Shared by the rulebook, the reference sheet and the site, so they always agree."""

from __future__ import annotations

import re
from typing import Callable, Collection

from markupsafe import Markup, escape

from ..reading.game import Game
from ..i18n.translate import Translator
from ..i18n.ui import english as english_words
from ..model import Record, Table, Unit
from ..model.tables import coded_ids
from ..values import DASH, StatType, Unstated, format_value, format_written, unit_word, unstated_note
from .cases import apply_case
from .computed import ShownTable
from .editorial import field_html, mark_if_editors, trailing_mark
from .keywords import KeywordIndex, parse_use, same_name

Linker = Callable[[Record], str | None]
ERRATUM_MARK = "†"  # after a word or value printed as the source writes it; not the marked blank's ‡
_LETTER = re.compile(r"[^\W\d_]")


def anchor(record: Record) -> str:
    return f"{record.kind}-{record.id}"


def text_anchor(record: Record, field: str = "text") -> str:
    """The anchor of the chapter paragraph that prints one text field of a record by reference,
    where the record also keeps an appendix entry (which holds `anchor(record)`):
    `rule-catch-up--text`, `unit-mai--abilities-0-text`."""
    return f"{record.kind}-{record.id}--{field.replace('.', '-')}"


# (kind, id, field) -> what stands in place of a text field a chapter prints (printed_at)
Printed = dict[tuple[str, str, str], Markup]


def _text(tr: Translator, record: Record, printed: Printed | None, *path) -> Markup:
    """A text field of a record, or the pointer to the chapter that prints it."""
    elsewhere = (printed or {}).get((record.kind, record.id, ".".join(map(str, path))))
    return field_html(record, tr, *path) if elsewhere is None else elsewhere


def _cell(value) -> str:
    return "–" if value is None else str(value)


def _signed(value) -> str:
    """A modifier as the source writes it: +2, -2, 0."""
    return f"+{value}" if isinstance(value, (int, float)) and not isinstance(value, bool) and value > 0 else _cell(value)


def unstated_notes(game: Game, tr: Translator, record: Record) -> Markup:
    """One note per value of the record the source does not give: what the marked blank (?‡) means.
    Table cells of one column with the same reason share a note ("Effect, 1–6")."""
    grouped: dict[tuple, list] = {}
    for path, value in record.unstated():
        reason = tr.field(record, *path, "reason") if value.reason else None
        if isinstance(record, Table) and len(path) == 3 and path[0] == "rows":
            grouped.setdefault(("cell", path[2], reason), []).append(path[1] + 1)
        else:
            grouped.setdefault(("field", path, reason), [])
    out = []
    for (what, where, reason), rows in grouped.items():
        if what == "cell":
            label = f"{_field_label(game, tr, record, ('rows', 0, where))}, {_runs(rows)}"
        else:
            label = _field_label(game, tr, record, where)
        out.append(Markup('<p class="unstated-note">{}</p>').format(unstated_note(tr.lang, reason, label)))
    return Markup("").join(out)


def _runs(numbers: list[int]) -> str:
    """[1, 2, 3, 6] -> '1–3, 6'."""
    out: list[tuple[int, int]] = []
    for n in numbers:
        if out and out[-1][1] == n - 1:
            out[-1] = (out[-1][0], n)
        else:
            out.append((n, n))
    return ", ".join(str(a) if a == b else f"{a}–{b}" for a, b in out)


# Fields a record list prints as "Label: value" (so a marked blank ?‡ shows where it belongs).
FACT_FIELDS: dict[str, tuple[str, ...]] = {"die": ("sides",), "deck": ("size",)}


def field_label(tr: Translator, name: str) -> str:
    """A record field's name for readers: 'sides' -> 'Faces' / 'Граней' (the interface word
    field-NAME, generator/locale/ui/); the field's own name where Rulesmith has no word for it."""
    key = f"field-{name}"
    return tr.ui(key) if key in english_words() else name


# Dice notation as the data may write it: 2d6, D6, d100, Д6, k10, W10.
_DICE_NOTATION = re.compile(r"(?<!\w)(\d*)[dDдДkKwW](\d+)(?!\w)")


def dice_letter(tr: Translator) -> str | None:
    """The letter of dice notation in an edition: the game's own for its language (game.yaml
    dice_notation:), else in a translation its language's (the interface word dice-letter);
    None where the source prints its data as written."""
    given = tr.game.manifest.dice_notation.get(tr.lang)
    if given:
        return given
    return None if tr.is_source else tr.ui("dice-letter")


def dice_notation(text: str, tr: Translator) -> str:
    """Dice notation as the edition writes it (see dice_letter): 2D6, 2k6, 2W6, 2Д6."""
    letter = dice_letter(tr)
    if letter is None:
        return text
    return _DICE_NOTATION.sub(lambda m: f"{m.group(1)}{letter}{m.group(2)}", text)


def _field_label(game: Game, tr: Translator, record: Record, path: tuple) -> str:
    """What an unstated value is, for its note: a stat's name, a table cell's column, or the field."""
    if len(path) >= 2 and path[0] == "stats":
        stat = game.stat_def(str(path[1]))
        if stat is not None:
            return tr.manifest("stats", game.manifest.stats.index(stat), "name")
    if len(path) >= 3 and path[0] == "rows" and isinstance(record, Table):
        column = next((c for c in record.columns if c.id == path[2]), None)
        if column is not None:
            return tr.field(record, "columns", record.columns.index(column), "name")
    if len(path) == 1:
        return field_label(tr, str(path[0]))
    return ".".join(str(p) for p in path)


def draft_badge(record: Record, tr: Translator) -> Markup:
    if not record.incomplete:
        return Markup("")
    reason = tr.field(record, "incomplete")
    return Markup('<span class="draft" title="{}">{}</span>').format(reason, tr.ui("draft"))


def incomplete_reason(record: Record, tr: Translator, game: Game | None = None, link: Linker | None = None) -> Markup:
    """Why a record is a draft, said where readers see it (the badge's tooltip does not print);
    with `game`, followed by the marks of the errata whose wording it repeats."""
    if not record.incomplete:
        return Markup("")
    marks = field_marks(game, tr, record, "incomplete", link) if game is not None else Markup("")
    return Markup('<p class="incomplete-reason">{}: {}{}</p>').format(tr.ui("incomplete"), tr.field(record, "incomplete"),
                                                                      marks)


def _no_link(record: Record) -> None:
    return None


def parameter_value(param, lang: str = "en", game: Game | None = None, words: dict | None = None) -> str:
    """A parameter as printed in `lang`: the number, with its unit where the unit is a unit of
    measure ("24 гекс." / "24 hex"; a unit of the game's own in `words`, the edition's words for
    the game's units; Manifest.parameter_value); a dash where the game leaves the number open."""
    if param.value is None:
        return "—"
    return format_value(game.manifest.parameter_value(param) if game is not None else param.value, lang, words)


def parameters_html(game: Game, tr: Translator, row_heads: bool = False) -> Markup:
    """The game's parameters as a two-column table; an open value says why in its note."""
    cell = Markup('<th scope="row">{}</th>') if row_heads else Markup("<td>{}</td>")
    rows = []
    for i, param in enumerate(game.manifest.parameters):
        value = Markup("{}").format(parameter_value(param, tr.lang, game, tr.measure_words()))
        if param.value is None and param.note:
            value += Markup(' <span class="param-note">{}{}</span>').format(tr.manifest("parameters", i, "note"),
                                                                           mark_if_editors(param, "note", tr))
        name = Markup("{}{}").format(tr.manifest("parameters", i, "name"), mark_if_editors(param, "name", tr))
        rows.append(Markup("<tr>{}<td>{}</td></tr>").format(cell.format(name), value))
    return Markup('<table class="data-table"><tbody>{}</tbody></table>').format(Markup("").join(rows))


def coded_names(table: Table, index: int, column, cell: str, tr: Translator, marked: bool = False) -> str:
    """A coded cell as readers see it: each value id replaced by the value's name; `marked`:
    as HTML, a name that is the editor's text followed by its mark."""
    names = []
    for part in coded_ids(cell):
        value = column.value(part)
        if value is None:
            names.append(escape(part) if marked else part)
            continue
        path = ("columns", index, "values", column.values.index(value), "name")
        names.append(field_html(table, tr, *path) if marked else tr.field(table, *path))
    return Markup(", ").join(names) if marked else ", ".join(names)


def table_html(table: Table, tr: Translator, link: Linker | None = None, caption: bool = True) -> Markup:
    """A data table as HTML: its caption (unless the page's heading names it), headings and rows,
    the notes on values the source does not give, and the table's own note."""
    columns = _table_columns(table, tr)
    out = [Markup('<table class="data-table" id="{}">').format(anchor(table))]
    if caption:
        out.append(Markup("<caption>{}{}</caption>").format(field_html(table, tr, "name"), draft_badge(table, tr)))
    out.append(Markup("<thead><tr>") + Markup("").join(Markup("<th scope=\"col\">{}</th>").format(n) for _, n in columns)
               + Markup("</tr></thead><tbody>"))
    by_id = {c.id: c for c in table.columns}
    for i, row in enumerate(table.rows):
        cells = [Markup("<td>{}</td>").format(_table_cell(table, tr, link or _no_link, by_id, (i, key), row.get(key)))
                 for key, _ in columns]
        out.append(Markup("<tr>") + Markup("").join(cells) + Markup("</tr>"))
    out.append(Markup("</tbody></table>"))
    out.append(unstated_notes(tr.game, tr, table))
    if table.text:
        out.append(Markup('<p class="table-note">{}</p>').format(field_html(table, tr, "text")))
    return Markup("").join(out)


def _table_columns(table: Table, tr: Translator) -> list[tuple[str, str]]:
    """(column id, heading) of a data table: a roll column first where the table has dice and no
    column of its own for the roll; the keys of the first row where it declares no columns."""
    columns = [(c.id, field_html(table, tr, "columns", table.columns.index(c), "name")) for c in table.columns]
    if table.dice and not any(c == "roll" for c, _ in columns):
        columns.insert(0, ("roll", f"{tr.ui('roll')} ({dice_notation(table.dice, tr)})"))
    if not columns and table.rows:
        columns = [(key, key) for key in table.rows[0]]
    return columns


def _table_cell(table: Table, tr: Translator, link: Linker, by_id: dict, at: tuple[int, str], value) -> str:
    """One cell of a data table (`at`: row index, column id): a coded cell by its values' names,
    text with its references printed and the editor's mark, a number (signed where the column
    is), a dash for none."""
    row, key = at
    column = by_id.get(key)
    if column is not None and column.values and isinstance(value, str) and value != "-":
        return coded_names(table, table.columns.index(column), column, value, tr, marked=True)
    if isinstance(value, str) and key != "roll":
        return inline_refs_html(tr.game, tr, tr.field(table, "rows", row, key, refs=False), link) \
            + mark_if_editors(table, ("rows", row, key), tr)
    return _signed(value) if column is not None and column.signed else _cell(value)


_CELL = re.compile(r"^rows\.(\d+)\.([a-z0-9_][a-z0-9_-]*)$")


def table_cell_html(tr: Translator, resolved, link: Linker | None = None) -> Markup | None:
    """`{{ table:ID.rows.N.COLUMN }}`: the cell as its table prints it (in this language, its own
    references printed, a modifier with its sign, a coded value by its name); None for a
    reference to anything else."""
    record, field = resolved.record, resolved.ref.field
    match = _CELL.match(field) if isinstance(record, Table) and field else None
    if match is None:
        return None
    by_id = {c.id: c for c in record.columns}
    at = (int(match.group(1)), match.group(2))
    return escape(_table_cell(record, tr, link or _no_link, by_id, at, resolved.value))


def _in_lang(text, lang: str, source: str) -> str:
    """A title or heading given as text, or as {lang: text}."""
    if isinstance(text, dict):
        return str(text.get(lang) or text.get(source) or next(iter(text.values()), ""))
    return str(text)


def computed_table_html(table: ShownTable, tr: Translator) -> Markup:
    """A probability table of the rules checker (procedures.py @table), as computed for the game
    (game.computed.table: text/computed.py)."""
    source = tr.game.manifest.source_language
    out = [Markup('<table class="data-table computed-table" id="table-{}">').format(table.id),
           # the checker computes the table and the edition titles it: the editor's words (a game of
           # its designer's own, game.yaml original: true, has no source for them to differ from)
           Markup("<caption>{}{}</caption>").format(_in_lang(table.title, tr.lang, source),
                                                    Markup("") if tr.game.manifest.original else trailing_mark(tr)),
           Markup("<thead><tr>")]
    out += [Markup('<th scope="col">{}</th>').format(_in_lang(c["name"], tr.lang, source)) for c in table.columns]
    out.append(Markup("</tr></thead><tbody>"))
    for row in table.printed_rows(tr):
        out.append(Markup("<tr>") + Markup("").join(Markup("<td>{}</td>").format(_cell(row.get(c["id"])))
                                                    for c in table.columns) + Markup("</tr>"))
    out.append(Markup("</tbody></table>"))
    return Markup("").join(out)


def ref_label(game: Game, tr: Translator, resolved) -> Markup:
    """What a reference to a record's or a stat's name prints: its written form, or the name in
    this language (the editor's mark after a record's), each in the reference's case form."""
    case = resolved.ref.case
    if resolved.ref.label:
        return escape(apply_case(resolved.ref.label, case))
    if resolved.ref.kind == "stat":
        return escape(apply_case(tr.manifest("stats", game.manifest.stats.index(resolved.value), "name"), case))
    record = resolved.record
    if hasattr(record, "name"):
        return field_html(record, tr, "name", case=case)
    return field_html(record, tr, "summary", case=case) if hasattr(record, "summary") else escape(record.id)


def inline_refs_html(game: Game, tr: Translator, text: str, link: Linker) -> Markup:
    """Text with its {{ kind:id }} references printed inline (a record's name, a value)."""
    from .refs import REFERENCE, Ref, RefError, is_block, resolve

    out, at = [], 0
    for match in REFERENCE.finditer(text):
        out.append(escape(text[at:match.start()]))
        at = match.end()
        try:
            resolved = resolve(game, Ref.parse(match.group(1)))
        except RefError:
            out.append(Markup('<span class="broken-ref">{}</span>').format(match.group(0)))
            continue
        if is_block(resolved):
            out.append(Markup('<span class="broken-ref">{}</span>').format(match.group(0)))
        elif (cell := table_cell_html(tr, resolved, link)) is not None:
            out.append(cell)
        elif resolved.record is not None and resolved.ref.field is None:
            record = resolved.record
            label = ref_label(game, tr, resolved)
            href = link(record)
            out.append(Markup('<a class="ref ref-{}" href="{}">{}</a>').format(record.kind, href, label) if href
                       else Markup('<span class="ref ref-{}">{}</span>').format(record.kind, label))
        elif resolved.ref.kind == "stat":
            out.append(ref_label(game, tr, resolved))
        elif resolved.ref.kind == "case":
            out.append(case_ref_html(resolved.value, link))
        else:
            out.append(escape(resolved.text(tr.lang, tr.measure_words())))
    out.append(escape(text[at:]))
    return Markup("").join(out)


def case_ref_html(case, link: Linker) -> Markup:
    """`{{ case:ID }}`: the case's number, linked to its heading where the document holds it."""
    href = link(case)
    if href is None:
        return Markup('<span class="ref ref-case">{}</span>').format(case.number)
    return Markup('<a class="ref ref-case" href="{}">{}</a>').format(href, case.number)


_CASE_REF = re.compile(r"\{\{\s*case\s*:[^{}]*\}\}")


def cases_linked(record: Record, tr: Translator, path: tuple, link: Linker) -> Markup | None:
    """A text field holding `{{ case:... }}` references, each printed as its number linked to
    the case (the other references as words, as field_html prints them); None for a text
    without one."""
    from .refs import reference_words

    text = tr.field(record, *path, refs=False)
    if not _CASE_REF.search(text):
        return None
    out, at = [], 0
    for match in _CASE_REF.finditer(text):
        out.append(escape(reference_words(tr, text[at:match.start()])))
        out.append(inline_refs_html(tr.game, tr, match.group(0), link))
        at = match.end()
    out.append(escape(reference_words(tr, text[at:])))
    return Markup("").join(out) + mark_if_editors(record, path, tr)


def keyword_label(game: Game, tr: Translator, record) -> Markup:
    name = escape(tr.field(record, "name"))
    if getattr(record, "parameter", None):
        name = Markup("{} ({})").format(name, record.parameter)
    return name + mark_if_editors(record, ("name",), tr)


def stat_columns(game: Game, kind: str, records) -> list:
    """The stats of `kind` that at least one of the records has (written, or read through an erratum)."""
    ids = {(r.section, r.id) for r in records}
    used = {stat for (section, rid, stat) in game.values if (section, rid) in ids}
    return [s for s in game.manifest.stats if kind in s.applies_to and s.id in used]


def stat_text(game: Game, record: Record, stat_id: str, lang: str = "en", words: dict | None = None) -> str:
    key = (record.section, record.id, stat_id)
    if key not in game.values:
        return "–"
    value = game.values[key]
    if isinstance(value, tuple):
        return " / ".join(format_value(v, lang, words) for v in value)
    return format_value(value, lang, words)


def _value_erratum(game: Game, record: Record, stat_id: str):
    """The erratum that reads this stat of this record (record:/field: stats.ID), if any."""
    return next(iter(field_errata(game, record, f"stats.{stat_id}")), None)


def field_errata(game: Game, record: Record, field: str) -> list:
    """The errata read at one text field of a record (its name, its text): an erratum that names
    the record and field (record:/field:), or one the record cites (errata: [...]) that names the
    same field and whose quote the field holds (a veteran's name repeating its unit's misspelling),
    or a misspelt name (an erratum on a name) that the field repeats as the source writes it."""
    where = f"{record.section}/{record.id}"
    text = getattr(record, field, None)
    found = []
    for erratum in game.errata.values():
        quote = erratum.source.strip()
        holds = isinstance(text, str) and bool(quote) and quote in text
        if erratum.field == field and (erratum.record == where or (erratum.id in record.errata and holds)):
            found.append(erratum)
        elif erratum.field == "name" and erratum.record and len(quote) >= 3 and holds:
            found.append(erratum)  # a misspelt name, repeated in another text («из разделов Mai и С hi»)
    return found


def field_marks(game: Game, tr: Translator, record: Record, field: str, link: Linker | None = None) -> Markup:
    """The erratum marks that follow a text field printed as the source writes it («С hi»†);
    in a translation only those whose quote the translated text still shows (a misspelt
    Russian name translated into English shows no misspelling to mark)."""
    return Markup("").join(erratum_mark(game, tr, e.id, link or _no_link)
                           for e in shown_errata(game, tr, record, field))


def shown_errata(game: Game, tr: Translator, record: Record, field: str) -> list:
    """The errata of a text field the reader of `tr`'s language can see in the printed text."""
    found = field_errata(game, record, field)
    if tr.is_source or not found:
        return found
    printed = spaced(str(tr.field(record, field) or ""))
    return [e for e in found if not e.source.strip() or spaced(e.source) in printed]


def title_errata(game: Game, tr: Translator, record: Record | None, link: Linker) -> Markup:
    """Under a page's title that prints a record's name as the source writes it: what the
    erratum says, with its mark (a title itself carries no mark: it is also the search result's)."""
    if record is None or not hasattr(record, "name"):
        return Markup("")
    return Markup("").join(Markup('<p class="title-erratum">{}{}</p>').format(
        tr.field(e, "summary"), erratum_mark(game, tr, e.id, link)) for e in shown_errata(game, tr, record, "name"))


def spaced(text: str) -> str:
    """Text with its runs of spaces as one space: how a keyword use and an erratum's reading match."""
    return " ".join(text.split())


def _same_print(a: str, b: str) -> bool:
    return spaced(a) == spaced(b.replace("\u00a0", " "))


def _as_written(raw) -> str | None:
    """A stat's YAML text when it is text the source wrote (not a dash or a marked blank)."""
    if isinstance(raw, list):
        parts = [_as_written(v) for v in raw]
        return None if None in parts else " / ".join(parts)  # type: ignore[arg-type]
    if isinstance(raw, str) and raw.strip() not in DASH:
        return raw.strip()
    if isinstance(raw, int) and not isinstance(raw, bool):
        return str(raw)
    return None


def stat_html(game: Game, tr: Translator, record: Record, stat_id: str, link: Linker | None = None) -> Markup:
    """A stat as the source writes it: in the source language its own wording ("Н3",
    "40 см (60 см)"; a bare distance with its unit's word, "22 cale"), in a translation the same form with the values printed for the language
    (dice in its notation: 2k6 in Polish). A value read through an erratum prints as written,
    then a mark that links to the erratum."""
    shown = _stat_shown(game, tr, record, stat_id, link)
    stat = game.stat_def(stat_id)
    if stat is None or stat.type != StatType.DICE or dice_letter(tr) is None:
        return shown
    return Markup(dice_notation(str(shown), tr)) if "<" not in str(shown) else shown


def _stat_shown(game: Game, tr: Translator, record: Record, stat_id: str, link: Linker | None) -> Markup:
    words, known = tr.measure_words(), game.manifest.unit_words()
    canonical = stat_text(game, record, stat_id, tr.lang, words)
    stat = game.stat_def(stat_id)
    erratum = _value_erratum(game, record, stat_id)
    if erratum is not None:
        shown = _erratum_reading_shown(tr, stat, erratum.source.strip(), canonical, words, known)
        return Markup("{}{}").format(shown, erratum_mark(game, tr, erratum.id, link or _no_link))
    written = getattr(record, "as_written", {}).get(stat_id)
    short = None if tr.is_source or stat is None else _abbreviated(
        game, tr, stat, written or _as_written(getattr(record, "stats", {}).get(stat_id)))
    if short:
        return Markup("{}").format(short)
    if written is None and tr.is_source:
        written = _as_written(getattr(record, "stats", {}).get(stat_id))
    if written is None or stat is None or (record.section, record.id, stat_id) not in game.values:
        return Markup("{}").format(canonical)
    if tr.is_source and stat.type == StatType.DISTANCE and not _LETTER.search(written):
        return Markup("{}").format(canonical)  # a bare number in the stat's unit: with the unit's word ("22 cale")
    shown = written if tr.is_source else format_written(written, stat.type, stat.unit, tr.lang, words, known)
    if shown is None or _same_print(shown, canonical):
        return Markup("{}").format(canonical)
    return Markup("{}").format(shown)


def _erratum_reading_shown(tr: Translator, stat, written: str, canonical: str, words: dict, known: dict) -> str:
    """What a stat read through an erratum prints: the source's wording `written` (in a
    translation, the same form with the values in the reader's language, `words` and `known`
    units as for format_written); the reading `canonical` where the source writes nothing, or
    writes a code or a name that a translation prints as it reads it."""
    if not written:
        return canonical  # the source writes nothing here: the reading's dash, marked
    if tr.is_source or not _LETTER.search(written):
        return written
    if stat is None or stat.type is StatType.TEXT:
        return canonical  # a code or name: the reading, as the translation writes it
    return format_written(written, stat.type, stat.unit, tr.lang, words, known) or canonical


def _abbreviated(game: Game, tr: Translator, stat, written: str) -> str | None:
    """A value the source writes behind the stat's abbreviation («Н3»: range 3), in the same
    form with the abbreviation of the reader's language ("R3"), as the rules' own formula
    writes it; None for any other form."""
    if not stat.abbr or not isinstance(written, str):
        return None
    source_abbr = str(stat.abbr)
    number = written.strip()[len(source_abbr):]
    if not written.strip().startswith(source_abbr) or not re.fullmatch(r"\d+(?:[.,]\d+)?", number):
        return None
    return f"{tr.manifest('stats', game.manifest.stats.index(stat), 'abbr')}{number}"


def erratum_mark(game: Game, tr: Translator, erratum_id: str, link: Linker) -> Markup:
    """A small mark after text printed as the source writes it: it links to the erratum
    (print: #erratum-ID in the errata appendix; site: the errata page) and says what it is."""
    erratum = game.errata.get(erratum_id)
    if erratum is None:
        return Markup("")
    label = f"{tr.ui('errata')}: {tr.field(erratum, 'summary')}"
    href = link(erratum)
    if href:
        return Markup('<a class="erratum-mark" href="{}" title="{}" aria-label="{}">{}</a>').format(
            href, label, label, ERRATUM_MARK)
    return Markup('<span class="erratum-mark" role="note" title="{}" aria-label="{}">{}</span>').format(
        label, label, ERRATUM_MARK)


def erratum_reading(tr: Translator, erratum: Record) -> tuple[str, str]:
    """(language, text) of an erratum's reading in this edition: translated like its summary;
    in the source language while the catalog lacks it (the source stays a quote, never translated)."""
    before = len(tr.missing)
    text = tr.field(erratum, "reading") or "–"
    found = len(tr.missing) == before
    return (tr.lang if found else tr.game.manifest.source_language), text


def record_stats_html(game: Game, tr: Translator, record: Record, link: Linker | None = None) -> Markup:
    """A record's typed stats on one line ("Move cost: 2 · Cover: -1"), for terrain, cards, actions."""
    parts = []
    for index, stat in enumerate(game.manifest.stats):
        if (record.section, record.id, stat.id) in game.values:
            name = tr.manifest("stats", index, "name")
            parts.append(Markup("{}: {}").format(name, stat_html(game, tr, record, stat.id, link)))
    return Markup('<p class="record-stats">{}</p>').format(Markup(" · ").join(parts)) if parts else Markup("")


def stat_heading(game: Game, tr: Translator, stat) -> Markup:
    """A stat's column heading: its abbreviation, else its name, marked where it is the editor's."""
    index = game.manifest.stats.index(stat)
    field = "abbr" if tr.manifest("stats", index, "abbr") else "name"
    return Markup("{}{}").format(tr.manifest("stats", index, field), mark_if_editors(stat, field, tr))


def roster_html(game: Game, tr: Translator, link: Linker, printed: Printed | None = None,
                only: Collection[str] | None = None) -> Markup:
    """The units' table with each unit's details; `only`: the ids of the units to show (an army list's)."""
    units = [u for u in game.units.values() if only is None or u.id in only]
    stats = stat_columns(game, "unit", units)
    head = [tr.ui("name"), *(stat_heading(game, tr, s) for s in stats)]
    out = [Markup('<table class="data-table roster"><thead><tr>'),
           Markup("").join(Markup('<th scope="col">{}</th>').format(h) for h in head),
           Markup("</tr></thead><tbody>")]
    for unit in units:
        name = field_html(unit, tr, "name")
        href = link(unit)
        if href and not href.endswith(f"#{anchor(unit)}"):  # its own page (site), not this very row (print)
            name = Markup('<a href="{}">{}</a>').format(href, name)
        out.append(Markup('<tr id="{}"><th scope="row">{}{}{}</th>').format(
            anchor(unit), name, field_marks(game, tr, unit, "name", link), draft_badge(unit, tr)))
        for stat in stats:
            out.append(Markup("<td>{}</td>").format(stat_html(game, tr, unit, stat.id, link)))
        out.append(Markup("</tr>"))
        extra = unit_details(game, tr, unit, link, printed)
        if extra:
            out.append(Markup('<tr class="details"><td colspan="{}">{}</td></tr>').format(len(head), extra))
    out.append(Markup("</tbody></table>"))
    return Markup("").join(out)


def written_uses(game: Game, errata) -> dict:
    """A weapon line's errata by the keyword use each reads ("ББ (1)" -> the erratum whose
    source writes it "ББ(1)")."""
    return {spaced(e.reading): e for e in (game.errata.get(i) for i in errata) if e is not None}


def keyword_uses_html(game: Game, tr: Translator, uses, link: Linker, written: dict | None = None) -> Markup:
    """Keyword uses linked to the glossary. A use spelled as an erratum alias keeps the
    source's spelling (its translation in another language), marked and linked to the erratum;
    so does a use that `written` (written_uses) says this line writes otherwise: the source
    edition prints the line's own spelling."""
    index = KeywordIndex.build(game.keywords)
    parts = []
    for text in uses:
        line = (written or {}).get(spaced(text))
        if line is not None:
            found = index.find(parse_use(text).name)
            part = (keyword_ref_html(found[0], line.source.strip(), tr, link) if tr.is_source and found
                    else keyword_uses_html(game, tr, [text], link))
            parts.append(part + erratum_mark(game, tr, line.id, link))
            continue
        use = parse_use(text)
        found = index.find(use.name)
        if found is None:
            parts.append(escape(text))
            continue
        keyword, erratum_id = found
        alias = _alias_name(tr, keyword, use.name) if erratum_id is not None else None
        label = Markup("{}{}{}").format(alias or tr.field(keyword, "name"), f" ({use.param})" if use.param else "",
                                        "" if alias else mark_if_editors(keyword, "name", tr))
        part = keyword_ref_html(keyword, label, tr, link)
        if erratum_id is not None:
            part += erratum_mark(game, tr, erratum_id, link)
        parts.append(part)
    return Markup(", ").join(parts)


def _alias_name(tr: Translator, keyword, written: str) -> str | None:
    """The alias as the source writes it, or its translation; None where the catalog has no
    translation of its own (the keyword's name then stands for it)."""
    for i, alias in enumerate(keyword.aliases):
        if same_name(alias.name, written):
            if tr.is_source:
                return alias.name
            translated = tr.field(keyword, "aliases", i, "name")
            return translated if translated != alias.name else None
    return None


def keyword_ref_html(keyword, label: str, tr: Translator, link: Linker) -> Markup:
    href = link(keyword)
    tip = Markup('<span class="kw-tip" role="tooltip">{}</span>').format(field_html(keyword, tr, "definition"))
    if href is None:
        return Markup('<span class="kw">{}</span>').format(label)
    return Markup('<a class="kw" href="{}">{}{}</a>').format(href, label, tip)


def unit_details(game: Game, tr: Translator, unit: Unit, link: Linker, printed: Printed | None = None) -> Markup:
    out = []
    if unit.type:
        out.append(Markup('<p class="unit-type">{}</p>').format(field_html(unit, tr, "type")))
    if unit.keywords:
        out.append(Markup('<p class="unit-keywords">{}</p>').format(keyword_uses_html(game, tr, unit.keywords, link)))
    if unit.weapons:
        rows = []
        carried = [game.weapons[w.weapon] for w in unit.weapons if w.weapon in game.weapons]
        wstats = stat_columns(game, "weapon", carried)
        with_keywords = any(w.keywords for w in carried)  # no empty column when no weapon has any
        for entry in unit.weapons:
            weapon = game.weapons.get(entry.weapon)
            if weapon is None:
                continue
            count = f"{format_value(entry.count)}× " if entry.count or isinstance(entry.count, Unstated) else ""
            cells = Markup("").join(Markup("<td>{}</td>").format(stat_html(game, tr, weapon, s.id, link))
                                    for s in wstats)
            if with_keywords:
                cells += Markup("<td>{}</td>").format(
                    keyword_uses_html(game, tr, weapon.keywords, link, written_uses(game, entry.errata)))
            # the source language prints the weapon as this profile writes it («Лазвинтовки»)
            label = entry.label if tr.is_source and entry.label else tr.field(weapon, "name")
            rows.append(Markup('<tr><th scope="row">{}{}</th>{}</tr>').format(count, label, cells))
        head = Markup("").join(Markup('<th scope="col">{}</th>').format(
            tr.manifest("stats", game.manifest.stats.index(s), "name")) for s in wstats)
        if with_keywords:
            head += Markup('<th scope="col">{}</th>').format(tr.ui("keywords"))
        out.append(Markup('<table class="weapons"><thead><tr><th scope="col">{}</th>{}</tr></thead>'
                          '<tbody>{}</tbody></table>').format(tr.ui("weapons"), head, Markup("").join(rows)))
    for i, ability in enumerate(unit.abilities):
        out.append(Markup('<p class="ability"><strong>{}.</strong> {}</p>').format(
            field_html(unit, tr, "abilities", i, "name"), _text(tr, unit, printed, "abilities", i, "text")))
    if unit.text:
        out.append(Markup('<p class="flavour">{}</p>').format(_text(tr, unit, printed, "text")))
    out.append(incomplete_reason(unit, tr, game, link))
    out.append(unstated_notes(game, tr, unit))
    return Markup("").join(out)


def glossary_html(game: Game, tr: Translator, link: Linker, printed: Printed | None = None,
                  only: Collection[str] | None = None) -> Markup:
    """Every keyword (`only`: those ids) and its definition; `printed` as for records_html."""
    out = [Markup('<dl class="glossary">')]
    for keyword in game.keywords.values():
        if only is not None and keyword.id not in only:
            continue
        out.append(Markup('<dt id="{}">{}{}</dt><dd>{}{}{}</dd>').format(
            anchor(keyword), keyword_label(game, tr, keyword), field_marks(game, tr, keyword, "name", link),
            _text(tr, keyword, printed, "definition"), field_marks(game, tr, keyword, "definition", link),
            aliases_html(keyword, tr)))
    out.append(Markup("</dl>"))
    return Markup("").join(out)


def aliases_html(keyword, tr: Translator) -> Markup:
    """The other spellings of a keyword the source uses ("Также пишется: Юнит"), with their notes:
    spellings of the source's language, so printed in its own edition only."""
    if not keyword.aliases or not tr.is_source:
        return Markup("")
    names = [Markup("{} ({})").format(a.name, field_html(keyword, tr, "aliases", i, "note")) if a.note else escape(a.name)
             for i, a in enumerate(keyword.aliases)]
    return Markup('<span class="aliases"> {}: {}.</span>').format(tr.ui("also-written"), Markup("; ").join(names))


def printed_at(href: str, title: str, page_word: str = "") -> Markup:
    """An appendix entry's pointer to the chapter paragraph that prints one of the record's
    texts: the chapter's title, linked (in print, `page_word` and the page number follow:
    rulebook.css)."""
    data = Markup(' data-page="{}"').format(page_word) if page_word else ""
    return Markup('<a class="printed-at" href="{}"{}>→ {}</a>').format(href, data, title)


def pointers(game: Game, chapters, titles: dict[str, str], page_of: Callable[..., str] = lambda chapter: "",
             anchored: frozenset[str] | set[str] = frozenset(), page_word: str = "") -> Printed:
    """(kind, id, field) -> the pointer (printed_at) to the chapter paragraph that prints that
    text of a record by reference, for an appendix or a reference page to show in its place.
    `titles`: chapter slug (and a numbered heading's anchor, `case-5.3.1`) -> title as rendered; `page_of`: a chapter's page on the site ("" in
    the book); `anchored`: sections printed whole by reference, whose texts carry the record's
    own anchor."""
    from .numbering import game_numbering
    from .refs import KIND_SECTIONS, TEXT_FIELDS, printed_fields

    numbering = game_numbering(game)
    lines = _reference_lines(chapters) if numbering.numbered else {}
    out = {}
    for (kind, record_id, field), chapter in printed_fields(game, chapters).items():
        record = game.section(KIND_SECTIONS[kind])[record_id]
        here = anchor(record) if record.section in anchored and field in TEXT_FIELDS else text_anchor(record, field)
        # where the game numbers its cases, the case that prints it ("5.3.4.1 Attack"), else the chapter
        case = numbering.case_at(chapter.path, lines.get((chapter.path, kind, record_id, field), 0))
        title = titles.get(case.anchor) if case is not None else None
        out[(kind, record_id, field)] = printed_at(f"{page_of(chapter)}#{here}",
                                                   title or titles.get(chapter.slug, chapter.title), page_word)
    return out


def _reference_lines(chapters) -> dict[tuple, int]:
    """(chapter path, kind, id, field) -> the line of the first reference to that field."""
    from .refs import Ref, RefError

    out: dict[tuple, int] = {}
    for chapter in chapters:
        for text, line in chapter.references():
            try:
                ref = Ref.parse(text)
            except RefError:
                continue
            out.setdefault((chapter.path, ref.kind, ref.id, ref.field), line)
    return out


def records_html(game: Game, section: str, tr: Translator, link: Linker, printed: Printed | None = None) -> Markup:
    """Any section as a definition list: each record's name, then every field the source gives
    it (its text, facts, stats, keywords, faces with their texts, notes on unstated values).
    `printed`: (kind, id, field) -> a pointer to the chapter paragraph that prints that text of
    the record; such a text is not printed again, the pointer stands in its place."""
    if section == "keywords":
        return glossary_html(game, tr, link, printed)
    if section == "units":
        return roster_html(game, tr, link, printed)
    if section == "tables":
        return Markup("").join(table_html(t, tr, link) for t in game.tables.values())
    out = [Markup('<dl class="records records-{}">').format(section)]
    for record in game.section(section).values():
        name = field_html(record, tr, "name") if hasattr(record, "name") else record.id
        body = []
        for attr in ("text", "definition", "summary"):
            elsewhere = (printed or {}).get((record.kind, record.id, attr))
            if getattr(record, attr, None):
                body.append(paragraphs(tr.field(record, attr), mark_if_editors(record, (attr,), tr)
                                       + field_marks(game, tr, record, attr, link))
                            if elsewhere is None
                            else Markup("<p>{}</p>").format(elsewhere) if elsewhere else Markup(""))
        facts = [Markup("{}: {}").format(field_label(tr, name), format_value(getattr(record, name), tr.lang))
                 for name in FACT_FIELDS.get(record.kind, ()) if getattr(record, name, None) is not None]
        facts += _record_facts(game, tr, record)
        if facts:
            body.append(Markup('<p class="record-facts">{}</p>').format(Markup(" · ").join(facts)))
        if getattr(record, "stats", None):
            body.append(record_stats_html(game, tr, record, link))
        if getattr(record, "keywords", None):
            body.append(Markup("<p>{}</p>").format(keyword_uses_html(game, tr, record.keywords, link)))
        if getattr(record, "faces", None):
            body.append(faces_html(record, tr))
        if section == "bands":
            unit = unit_word(record.unit, tr.lang, tr.measure_words())
            body.insert(0, Markup("<p>{}\u00a0{}</p>").format(band_span(record), unit))
        body.append(unstated_notes(game, tr, record))
        body.append(incomplete_reason(record, tr, game, link))
        out.append(Markup('<dt id="{}">{}{}{}</dt><dd>{}</dd>').format(
            anchor(record), name, field_marks(game, tr, record, "name", link) if hasattr(record, "name") else "",
            draft_badge(record, tr), Markup("").join(body)))
    out.append(Markup("</dl>"))
    return Markup("").join(out)


def paragraphs(text: str, after: Markup = Markup("")) -> Markup:
    """A text field as paragraphs: a line break kept in the data (a blank line of a folded YAML
    string) starts a new one (a die face's ЧТО: … / КОГДА: …). `after` ends the last one (the
    editor's-text mark, the field's erratum marks)."""
    parts = [p.strip() for p in text.split("\n") if p.strip()]
    return Markup("").join(Markup("<p>{}{}</p>").format(p, after if i == len(parts) - 1 else "")
                           for i, p in enumerate(parts))


def faces_html(die, tr: Translator) -> Markup:
    """Each face of a die: its number, its name (or symbol) and what it does."""
    items = []
    for i, face in enumerate(die.faces):
        label = escape(f"{format_value(face.value, tr.lang)}: " if face.value is not None else "") + \
            ((field_html(die, tr, "faces", i, "name") if face.name else None) or face.symbol or "")
        text = paragraphs(tr.field(die, "faces", i, "text"), mark_if_editors(die, ("faces", i, "text"), tr)) \
            if face.text else Markup("")
        items.append(Markup('<li><p class="face-name">{}</p>{}</li>').format(label, text) if text
                     else Markup("<li>{}</li>").format(label))
    return Markup('<ul class="faces">{}</ul>').format(Markup("").join(items))


def _record_facts(game: Game, tr: Translator, record: Record) -> list[Markup]:
    """Facts of a record beyond its text: an action's length, a deck's side."""
    facts = []
    length = getattr(record, "length", None)
    if record.kind == "action" and isinstance(length, str):
        facts.append(Markup("{}").format(tr.ui(f"action-{length}")))
    side = tr.side_name(getattr(record, "side", None)) if record.kind == "deck" else None
    if side:
        facts.append(Markup("{}: {}").format(field_label(tr, "side"), side))
    return facts


def band_span(band) -> str:
    """0–1, 8+, ≤ 1 or ≥ 2 for a distance band; > 2 for one that starts past its `min`
    (`above`: "more than 2 cm" is not "2 cm or more")."""
    low, high = band.min, band.max
    if band.above and low is not None:
        return f"> {format_value(low)}" + (f", ≤ {format_value(high)}" if high is not None else "")
    if low is not None and high is not None:
        return f"{format_value(low)}–{format_value(high)}"
    if high is None and low is not None:
        return f"{format_value(low)}+"
    if low is None and high is not None:
        return f"≤ {format_value(high)}"
    return "–"
