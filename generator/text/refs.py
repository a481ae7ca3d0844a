"""`{{ kind:id.field }}` references from rules text into the game's data."""

from __future__ import annotations

import re
from dataclasses import dataclass, field as dataclass_field
from typing import Any

import yaml

from ..core.diagnostics import did_you_mean
from ..reading.game import Game
from ..model import SECTIONS, Record
from ..values import Unstated, format_value, unstated_inline
from ..reading.yamlsource import yaml_value
from .cases import FORMS, apply_case, split_case

KIND_SECTIONS: dict[str, str] = {model.kind: section for section, model in SECTIONS.items()}
# kinds whose reference prints a record's name (a table's prints the whole table)
# calc: a number computed by the rules checker (CalcRef; text/computed.py); stat: a stat's name (game.yaml stats);
# case: a numbered chapter's or heading's number (text/numbering.py)
SPECIAL = ("param", "list", "calc", "stat", "case")
NAMED = tuple(kind for kind in KIND_SECTIONS if kind != "table")
_REF = re.compile(r"^(?P<kind>[a-z]+)(?::(?P<id>[a-z0-9][a-z0-9-]*)(?:\.(?P<field>[a-z0-9_][a-z0-9_.-]*))?)?$")


class RefError(ValueError):
    def __init__(self, message: str, hint: str = "", code: str = "E007", follows: bool = False):
        super().__init__(message)
        self.hint = hint
        self.code = code  # E019: malformed; E007: names nothing that exists
        self.follows = follows  # names a record that failed validation: already reported there


@dataclass(frozen=True)
class Ref:
    kind: str
    id: str | None
    field: str | None
    # the words printed in place of the record's name: `{{ unit:gun | guns }}` (translated with its
    # message); keyword-only, so that a Ref's kinds (CalcRef) keep their positions
    label: str | None = dataclass_field(default=None, kw_only=True)
    # the case form the name prints in: `{{ unit:gun !lower }}` (text/cases.py)
    case: str | None = dataclass_field(default=None, kw_only=True)

    @classmethod
    def parse(cls, text: str) -> "Ref":
        if text.strip().startswith("calc:"):
            return CalcRef.parse(text)
        bare, form = split_case(text)
        if form is not None:
            ref = cls.parse(bare)
            if form not in FORMS:
                raise RefError(f"'{{{{ {text.strip()} }}}}': unknown case form '!{form}'",
                               did_you_mean(form, FORMS) or f"case forms: {', '.join('!' + f for f in FORMS)}", "E019")
            if ref.field is not None or ref.kind not in (*NAMED, "stat"):
                raise RefError(f"'{{{{ {text.strip()} }}}}': only a record's or a stat's name takes a case form",
                               f"write {{{{ {bare.strip()} }}}} alone", "E019")
            return cls(ref.kind, ref.id, ref.field, label=ref.label, case=form)
        text, bar, label = text.partition("|")
        if bar:
            ref = cls.parse(text)
            if not label.strip():
                raise RefError(f"'{{{{ {text.strip()} | }}}}' gives no display text after '|'",
                               f"write the words to print, e.g. {{{{ {text.strip()} | plural form }}}}, or leave out '|'",
                               "E019")
            if ref.field is not None or ref.kind not in (*NAMED, "stat"):
                raise RefError(f"'{{{{ {text.strip()} | {label.strip()} }}}}': only a record's or a stat's name takes "
                               "display text", f"write {{{{ {text.strip()} }}}} alone", "E019")
            return cls(ref.kind, ref.id, ref.field, label=" ".join(label.split()))
        match = _REF.match(text.strip())
        if not match:
            raise RefError(f"'{{{{ {text} }}}}' is not a reference",
                           "write {{ kind:id }}, {{ kind:id.field }}, {{ param:id }} or {{ list:section }}", "E019")
        ref = cls(match.group("kind"), match.group("id"), match.group("field"))
        if ref.kind not in KIND_SECTIONS and ref.kind not in SPECIAL:
            raise RefError(f"unknown reference kind '{ref.kind}'",
                           did_you_mean(ref.kind, [*KIND_SECTIONS, *SPECIAL])
                           or f"kinds: {', '.join([*KIND_SECTIONS, *SPECIAL])}", "E019")
        if ref.id is None:
            raise RefError(f"'{{{{ {text} }}}}' names no record", f"write {{{{ {ref.kind}:ID }}}}", "E019")
        return ref

    def __str__(self) -> str:
        return self.kind + (f":{self.id}" if self.id else "") + (f".{self.field}" if self.field else "")


# `{{ calc:PROCEDURE(INPUT=VALUE, ...).P(condition) as percent(1) }}`: a number the rules
# checker computes (docs/checker.md §4). The text reads the reference; the checker reads the
# condition and computes the number (text/computed.py).
CALC_FORMATS = ("percent", "decimal", "fraction")
CALC_SYNTAX = "{{ calc:procedure(input=value, ...).P(condition) }} or .E(result), optionally 'as percent(1)'"
_CALC = re.compile(
    r"^calc:\s*(?P<proc>[a-z0-9][a-z0-9-]*)\s*\((?P<args>.*)\)\s*\.\s*(?P<stat>[PE]\s*\([^()]*\))"
    r"(?:\s+as\s+(?P<fmt>[a-z]+)(?:\s*\(\s*(?P<digits>\d+)\s*\))?)?\s*$", re.S)
_ARG_NAME = re.compile(r"(^|,)\s*([A-Za-z_][\w-]*)\s*=(?!=)")


@dataclass(frozen=True)
class CalcRef(Ref):
    """`{{ calc:... }}`: a Ref whose id is the procedure, with its inputs, the statistic
    (`P(...)` or `E(...)`, read by the checker) and how the number prints."""

    args: tuple[tuple[str, Any], ...] = ()
    stat: str = ""
    fmt: str | None = None
    digits: int | None = None
    source: str = ""

    @classmethod
    def parse(cls, text: str) -> "CalcRef":
        """Read a computed-number reference; RefError (E019) saying what is malformed."""
        source = " ".join(text.split())
        match = _CALC.match(source)
        if not match:
            raise RefError(f"'{{{{ {source} }}}}' is not a computed number", f"write {CALC_SYNTAX}", "E019")
        fmt, digits = match.group("fmt"), match.group("digits")
        if fmt is not None and fmt not in CALC_FORMATS:
            raise RefError(f"unknown number format '{fmt}'", f"formats: {', '.join(CALC_FORMATS)}", "E019")
        if fmt == "fraction" and digits is not None:
            raise RefError("a fraction has no decimal places", "write 'as fraction'", "E019")
        return cls("calc", match.group("proc"), None, _calc_inputs(match.group("args")), match.group("stat").strip(),
                   fmt, int(digits) if digits is not None else None, source)

    def __str__(self) -> str:
        return self.source


def _calc_inputs(text: str) -> tuple[tuple[str, Any], ...]:
    """`attacks=3, band=directed` -> (("attacks", 3), ("band", "directed")): values read as YAML."""
    if not text.strip():
        return ()
    mapping = "{" + _ARG_NAME.sub(lambda m: f"{m.group(1)} {m.group(2)}: ", text) + "}"
    try:
        data = yaml_value(mapping)
    except yaml.YAMLError:
        data = None
    if not isinstance(data, dict) or not _ARG_NAME.match(text.strip()):
        raise RefError(f"cannot read the inputs '({text})'",
                       "write inputs as name=value, separated by commas: (attacks=3, band=directed)", "E019")
    return tuple((str(k), v) for k, v in data.items())


@dataclass(frozen=True)
class Resolved:
    """What a reference points at: a record (maybe one of its fields), a parameter, a stat, a
    section, a computed number (`value`: text/computed.py's ShownNumber) or, with none of these,
    a probability table of the game's procedures (`game.computed.table(ref.id)`)."""

    ref: Ref
    record: Record | None = None
    value: Any = None
    section: str | None = None

    def text(self, lang: str = "en", words: dict | None = None) -> str:
        """The plain text a reader sees in place of the reference (`words`: the game's own unit words)."""
        if self.section is not None:
            return ""
        if self.ref.kind in ("calc", "case"):
            return self.value.number if self.ref.kind == "case" else self.value.text(lang)
        if self.ref.label is not None:
            return apply_case(self.ref.label, self.ref.case)
        if self.ref.kind == "stat":
            return apply_case(self.value.name, self.ref.case)
        if self.ref.kind == "table" and self.record is None:
            return ""
        if self.ref.field is not None or self.record is None:
            if isinstance(self.value, Unstated):
                return unstated_inline(lang)
            if isinstance(self.value, tuple):
                return " / ".join(format_value(v, lang, words) for v in self.value)
            return format_value(self.value, lang, words) if not isinstance(self.value, str) else self.value
        return apply_case(getattr(self.record, "name", None) or getattr(self.record, "summary", self.record.id),
                          self.ref.case)


def resolve(game: Game, ref: Ref) -> Resolved:
    """Find what a reference names; RefError with a hint if it names nothing."""
    special = _SPECIAL_KINDS.get(ref.kind)
    if special is not None:
        return special(game, ref)
    if ref.kind == "table" and ref.id not in game.tables and ref.field is None and ref.id in _computed_table_ids(game):
        return Resolved(ref)  # a probability table of the game's procedures, computed when shown
    return _record_ref(game, ref)


def _calc_ref(game: Game, ref: Ref) -> Resolved:
    """`{{ calc:... }}`: the number the rules checker computes for it (game.computed)."""
    if game.computed is None:
        raise RefError(f"procedure '{ref.id}' is not available: the game was loaded without its procedures",
                       "load it with Project.load", "E031")
    return Resolved(ref, value=game.computed.number(ref))


def _param_ref(game: Game, ref: Ref) -> Resolved:
    """`{{ param:ID }}`: a parameter of game.yaml, with its unit where the unit is a unit of
    measure (`5 cm`); `{{ param:ID.value }}`: the number alone (a sentence that says the unit
    in its own words: "{{ param:range.value }} гекса")."""
    ids = [p.id for p in game.manifest.parameters]
    if ref.id not in ids:
        raise RefError(f"unknown parameter '{ref.id}'",
                       did_you_mean(ref.id, ids) or "declare it under 'parameters:' in game.yaml")
    if ref.field not in (None, "value"):
        raise RefError(f"'{{{{ param:{ref.id}.{ref.field} }}}}': a parameter has no field '{ref.field}'",
                       f"write {{{{ param:{ref.id} }}}} for its value with its unit, or {{{{ param:{ref.id}.value }}}} "
                       "for the number alone", "E019")
    param = game.manifest.parameters[ids.index(ref.id)]
    return Resolved(ref, value=game.manifest.parameter_value(param) if ref.field is None else param.value)


def _stat_ref(game: Game, ref: Ref) -> Resolved:
    """`{{ stat:ID }}`: a stat of game.yaml, printed by its name."""
    stats = {stat.id: stat for stat in game.manifest.stats}
    if ref.id not in stats:
        raise RefError(f"unknown stat '{ref.id}'",
                       did_you_mean(ref.id, stats) or "declare it under 'stats:' in game.yaml")
    if ref.field is not None:
        raise RefError(f"'{{{{ stat:{ref.id}.{ref.field} }}}}': a stat reference prints the stat's name",
                       f"write {{{{ stat:{ref.id} }}}}, or {{{{ KIND:ID.{ref.id} }}}} for one record's value", "E019")
    return Resolved(ref, value=stats[ref.id])


def _list_ref(game: Game, ref: Ref) -> Resolved:
    """`{{ list:SECTION }}`: every record of a section."""
    if ref.id not in SECTIONS:
        raise RefError(f"unknown section '{ref.id}'", did_you_mean(ref.id, SECTIONS) or ", ".join(SECTIONS))
    return Resolved(ref, section=ref.id)


def _case_ref(game: Game, ref: Ref) -> Resolved:
    """`{{ case:ID }}`: the number of a chapter (by its slug or `{#ID}`) or a heading (by its `{#ID}`)."""
    from .numbering import game_numbering

    numbering = game_numbering(game)
    if not numbering.numbered:
        raise RefError(f"'{{{{ case:{ref.id} }}}}': the game does not number its cases",
                       "add 'numbering: cases' to game.yaml", "E082")
    if ref.field is not None:
        raise RefError(f"'{{{{ case:{ref.id}.{ref.field} }}}}': a case reference prints the case's number",
                       f"write {{{{ case:{ref.id} }}}}", "E019")
    if ref.id not in numbering.keys:
        raise RefError(f"no chapter or heading '{ref.id}'", did_you_mean(ref.id, numbering.keys) or
                       "name a chapter by its file's name without the number (03-turn.md: turn), or give the heading "
                       "an id on the line before it: {#ID}")
    case = numbering.keys[ref.id]
    if case is None:
        raise RefError(f"'{{{{ case:{ref.id} }}}}' names an unnumbered heading",
                       "number it (leave out {.unnumbered}), or name the case it belongs to", "E082")
    return Resolved(ref, value=case)


_SPECIAL_KINDS = {"calc": _calc_ref, "param": _param_ref, "stat": _stat_ref, "list": _list_ref, "case": _case_ref}


def _record_ref(game: Game, ref: Ref) -> Resolved:
    """`{{ kind:id }}` or `{{ kind:id.field }}`: a record of the game's data, maybe one of its values."""
    section = KIND_SECTIONS[ref.kind]
    records = game.section(section)
    record = records.get(ref.id)
    if record is None and game.is_dropped(section, ref.id):
        raise RefError(f"{ref.kind} '{ref.id}' failed validation", "see the error on the record itself",
                       follows=True)
    if record is None:
        pool = list(records)
        if ref.kind == "table":
            pool += _computed_table_ids(game)
        raise RefError(f"unknown {ref.kind} '{ref.id}'",
                       did_you_mean(ref.id, pool) or (f"known: {', '.join(sorted(pool)[:10])}" if pool
                                                      else f"this game has no {section}"))
    if ref.field is None:
        return Resolved(ref, record=record)
    return Resolved(ref, record=record, value=_field(game, record, ref.field))


REFERENCE = re.compile(r"\{\{\s*(.*?)\s*\}\}")


def reference_words(tr: Any, text: str) -> str:
    """Text with its {{ kind:id }} references printed as plain words of tr's language (a
    record's translated name, a stat's name, a value); a block or broken one stays as written."""
    game = tr.game

    def words(match: re.Match) -> str:
        try:
            resolved = resolve(game, Ref.parse(match.group(1)))
        except RefError:
            return match.group(0)
        if is_block(resolved):
            return match.group(0)
        case = resolved.ref.case
        if resolved.ref.label is not None:
            return apply_case(resolved.ref.label, case)
        if resolved.record is not None and resolved.ref.field is None:
            record = resolved.record
            return apply_case(tr.field(record, "name") if getattr(record, "name", None) else record.id, case)
        if resolved.ref.kind == "stat":
            return apply_case(tr.manifest("stats", game.manifest.stats.index(resolved.value), "name"), case)
        cell = _cell_words(tr, resolved)
        return cell if cell is not None else resolved.text(tr.lang, tr.measure_words())

    return REFERENCE.sub(words, text)


_CELL = re.compile(r"^rows\.(\d+)\.([a-z0-9_][a-z0-9_-]*)$")


def _cell_words(tr: Any, resolved: Resolved) -> str | None:
    """`{{ table:ID.rows.N.COLUMN }}` as plain words: the cell in tr's language with its own
    references printed, a coded value by its name, a modifier with its sign; None for a
    reference to anything else."""
    record, field, value = resolved.record, resolved.ref.field, resolved.value
    match = _CELL.match(field) if record is not None and record.kind == "table" and field else None
    if match is None:
        return None
    row, key = int(match.group(1)), match.group(2)
    column = next((c for c in record.columns if c.id == key), None)
    if column is not None and column.values and isinstance(value, str) and value != "-":
        return _coded_words(tr, record, column, value)
    if isinstance(value, str) and key != "roll":
        return reference_words(tr, tr.field(record, "rows", row, key, refs=False))
    signed = column is not None and column.signed and type(value) in (int, float) and value > 0
    return f"+{value}" if signed else None


def _coded_words(tr: Any, table: Any, column: Any, cell: str) -> str:
    """A coded cell's values by their names in tr's language ('directed, artillery')."""
    index = table.columns.index(column)
    names = []
    for part in (p.strip() for p in cell.split(",")):
        value = column.value(part) if part else None
        if part:
            names.append(tr.field(table, "columns", index, "values", column.values.index(value), "name")
                         if value is not None else part)
    return ", ".join(names)


def is_block(resolved: "Resolved") -> bool:
    """True for a reference that prints a block (a whole table, every record of a section)."""
    return resolved.section is not None or (resolved.ref.kind == "table" and resolved.ref.field is None)


def _computed_table_ids(game: Game) -> list[str]:
    """The ids of the probability tables the game's procedures declare (game.computed)."""
    return list(game.computed.table_ids()) if game.computed is not None else []


def _field(game: Game, record: Record, field: str) -> Any:
    key = (record.section, record.id, field)
    if key in game.values:
        return game.values[key]
    stats = getattr(record, "stats", None)
    if isinstance(stats, dict) and field in stats:
        return stats[field]
    head, _, rest = field.partition(".")
    if head in type(record).model_fields:
        value = getattr(record, head)
        for part in rest.split(".") if rest else []:
            value = _step(record, field, value, part)
        if value is None:
            raise RefError(f"{record.kind} '{record.id}' has no value for '{field}'", "")
        if isinstance(value, Unstated):
            return value
        inner = getattr(type(value), "model_fields", None) or (value if isinstance(value, dict) else None)
        if inner:
            raise RefError(f"'{field}' of {record.kind} '{record.id}' is a group of values, not one",
                           f"name one of: {', '.join(map(str, inner))}")
        return value
    pool = [*type(record).model_fields, *(stats or {})]
    raise RefError(f"{record.kind} '{record.id}' has no field or stat '{field}'",
                   did_you_mean(field, pool) or f"fields: {', '.join(pool)}")


def _step(record: Record, field: str, value: Any, part: str) -> Any:
    """One step of a dotted path: a list item by index, a mapping key, or a declared field of a
    nested record, and nothing else. Python attributes (`__class__`, methods) are never reached:
    rules text is written by many hands, and a reference must not read the build machine."""
    if isinstance(value, (list, tuple)):
        if part.isdigit() and int(part) < len(value):
            return value[int(part)]
        raise RefError(f"{record.kind} '{record.id}' has no item '{part}' in '{field}'",
                       f"items are numbered 0 to {len(value) - 1}" if value else "the list is empty")
    if isinstance(value, dict):
        if part in value:
            return value[part]
        raise RefError(f"{record.kind} '{record.id}' has no '{part}' in '{field}'",
                       did_you_mean(part, [str(k) for k in value]) or f"keys: {', '.join(map(str, value))}")
    fields = getattr(type(value), "model_fields", None)
    if isinstance(fields, dict) and part in fields:
        return getattr(value, part)
    pool = list(fields or ())
    raise RefError(f"{record.kind} '{record.id}' has no field '{part}' in '{field}'",
                   did_you_mean(part, pool) or (f"fields: {', '.join(pool)}" if pool
                                                 else f"'{field.rsplit('.', 1)[0]}' is a plain value"))


def shown_in(chapters) -> tuple[set[str], set[str]]:
    """What chapters print whole: (sections listed with {{ list:... }}, table ids printed
    with {{ table:... }}). The rulebook's appendix and the site leave these out."""
    sections, tables = set(), set()
    for _chapter, ref in parsed_references(chapters):
        if ref.kind == "list" and ref.id:
            sections.add(ref.id)
        elif ref.kind == "table" and ref.field is None and ref.id:
            tables.add(ref.id)
    return sections, tables


def parsed_references(chapters):
    """(chapter, reference) for every well-formed {{ ... }} of the chapters, in order."""
    for chapter in chapters:
        for text, _line in chapter.references():
            try:
                yield chapter, Ref.parse(text)
            except RefError:
                continue


# The fields that hold a record's own paragraph: what a chapter prints with {{ action:move.text }}.
TEXT_FIELDS = ("text", "definition", "summary")
# Sections whose records are a name and a paragraph: a chapter can print them whole by reference
# (a unit, a table or a card holds more than its text).
TEXT_SECTIONS = ("actions", "keywords", "rules")


def text_references(chapters) -> dict[tuple[str, str], Any]:
    """(kind, id) -> the first chapter that prints that record's own text by reference."""
    found: dict[tuple[str, str], Any] = {}
    for chapter, ref in parsed_references(chapters):
        if ref.id and ref.field in TEXT_FIELDS:
            found.setdefault((ref.kind, ref.id), chapter)
    return found


def named_references(chapters) -> set[tuple[str, str]]:
    """(kind, id) of every record the chapters name (`{{ action:move }}`)."""
    return {(ref.kind, ref.id) for _chapter, ref in parsed_references(chapters) if ref.id and ref.field is None}


def printed_by_reference(game: Game, chapters) -> set[str]:
    """Sections no chapter lists whole, but whose every record with text the chapters print by
    naming it and referring to its text (`{{ action:move }} – {{ action:move.text }}`):
    printed once, where the source prints them. The rulebook adds no appendix for these, the
    site no page of their own, and the reference to a record's text carries its anchor. A
    record whose text is printed but whose name is not keeps the section's appendix, which
    then names it and points at its paragraph (blocks.records_html, `printed_at`)."""
    listed = shown_in(chapters)[0]
    referenced = text_references(chapters)
    named = named_references(chapters)
    out = set()
    for section in TEXT_SECTIONS:
        records = game.section(section).values()
        if any(getattr(r, "stats", None) or getattr(r, "keywords", None) for r in records):
            continue  # the appendix prints more of these than their text
        with_text = [r for r in records if any(getattr(r, name, None) for name in TEXT_FIELDS)]
        if section not in listed and with_text and all((r.kind, r.id) in referenced and (r.kind, r.id) in named
                                                       for r in with_text):
            out.add(section)
    return out


def printed_fields(game: Game, chapters) -> dict[tuple[str, str, str], Any]:
    """(kind, id, field) -> the first chapter that prints that text field of a record by
    reference (`{{ rule:catch-up.text }}`, `{{ unit:mai.abilities.0.text }}`): an appendix or
    reference page that keeps the record points there instead of printing the text again."""
    from ..i18n.messages import is_translatable_path

    out: dict[tuple[str, str, str], Any] = {}
    for chapter, ref in parsed_references(chapters):
        if not ref.id or not ref.field or ref.kind not in KIND_SECTIONS:
            continue
        record = game.section(KIND_SECTIONS[ref.kind]).get(ref.id)
        path = tuple(int(p) if p.isdigit() else p for p in ref.field.split("."))
        if record is not None and path[-1] != "name" and is_translatable_path(record, path):
            out.setdefault((ref.kind, ref.id, ref.field), chapter)
    return out
