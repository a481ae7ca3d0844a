"""Read a game folder into a `Game`: parse YAML, build typed records, collect every problem.

A game folder holds `game.yaml` (the manifest) and data files under `data/`. Each data file
is a mapping whose top-level keys name what it holds (`units:`, `keywords:`, ...), each a
list of records.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pydantic import BaseModel, ValidationError

from ..system import folders
from ..core.diagnostics import Location, Report, did_you_mean
from .game import Game, Origin
from ..model import SECTIONS, GameManifest, Record
from ..model.base import unstated_in
from ..core.languages import HINT as LANGUAGE_HINT, is_language_code, repeated
from ..model.game import LANGUAGE_FIELDS, NUMBERING_ERROR, NUMBERINGS, REPEATED
from ..safety.outside import outside_links
from ..outputs.layout import RESERVED, reserved_hint
from .yamlsource import YamlDocument, load_yaml

MANIFEST = "game.yaml"
DATA_DIR = "data"


def data_files(folder: Path) -> list[Path]:
    """Every *.yaml and *.yml under data/, symlinked folders not followed (a loop ends nowhere);
    a folder or broken link with such a name is listed too, so that it is reported."""
    found: dict[str, list[Path]] = {".yaml": [], ".yml": []}
    for path in folders.walk(folder / DATA_DIR):
        if path.suffix in found:
            found[path.suffix].append(path)
    return found[".yaml"] + found[".yml"]


def _trim(loc: tuple[Any, ...], doc: YamlDocument, prefix: tuple[Any, ...]) -> tuple[Any, ...]:
    """Drop pydantic's union/type tags so the path names real places in the file."""
    out: list[Any] = []
    for part in loc:
        candidate = prefix + tuple(out) + (part,)
        if candidate in doc.marks or candidate in doc.key_marks:
            out.append(part)
        elif isinstance(part, int) and (prefix + tuple(out)) in doc.marks:
            out.append(part)
    return tuple(out)


def report_validation_error(
    exc: ValidationError, model: type[BaseModel], doc: YamlDocument, prefix: tuple[Any, ...], report: Report
) -> None:
    """Turn pydantic's errors into diagnostics with file:line and a hint."""
    seen: set[tuple[Any, ...]] = set()
    settings = not getattr(model, "unstated_allowed", True)  # print.yaml, sheets.yaml: no 'unstated' there
    for error in exc.errors(include_url=False):
        loc = _trim(tuple(error["loc"]), doc, prefix)
        kind = error["type"]
        if kind == "extra_forbidden":
            name = str(error["loc"][-1])
            owner = _model_at(model, loc[:-1])
            fields = list(owner.model_fields) if owner else []
            hint = did_you_mean(name, fields) or (
                f"known fields: {', '.join(fields)}" if fields else "remove this field"
            )
            report.add("E003", f"unknown field '{name}'", doc.location(prefix + loc, key=True), hint)
        elif kind == "missing":
            name = str(error["loc"][-1])
            report.add("E005", f"missing required field '{name}'", doc.location(prefix + loc),
                       f"add '{name}:' here" if settings else
                       f"add '{name}:' to this record ('{name}: unstated' if the source does not give it)")
        else:
            if (prefix + loc) in seen:
                continue  # a union reports one failure per member; one line is enough
            seen.add(prefix + loc)
            where = ".".join(str(p) for p in loc) or "record"
            if model is GameManifest and loc and loc[0] in LANGUAGE_FIELDS:
                message = error["msg"].removeprefix("Value error, ")
                hint = ("give each language once: the source language under source_language, the languages "
                        "it is translated into under languages" if kind == REPEATED else LANGUAGE_HINT)
                report.add("E017", f"{where}: {message}", _language_place(doc, loc), hint)
                continue
            report.add("E004", f"{where}: {error['msg']}", doc.location(prefix + loc),
                       _type_hint(error, unstated=not settings))


def _language_place(doc: YamlDocument, loc: tuple[Any, ...]) -> Location:
    """Where a language code of game.yaml is wrong: the bad or repeated title key or list
    item, not the whole mapping or list."""
    field = loc[0]
    written = doc.data.get(field) if isinstance(doc.data, dict) else None
    if len(loc) == 1 and isinstance(written, (dict, list)):
        codes = list(written)
        source = doc.data.get("source_language") if field == "languages" else None
        twice = repeated(codes + ([source] if is_language_code(source) else []))  # the source is no target
        bad = next((i for i, code in enumerate(codes) if not is_language_code(code)), None)
        if bad is None and twice is not None:
            bad = twice[1] if twice[1] < len(codes) else twice[0]
        if bad is not None:
            return (doc.location((field, codes[bad]), key=True) if isinstance(written, dict)
                    else doc.location((field, bad)))
    return doc.location(loc)


def _type_hint(error: dict[str, Any], unstated: bool = True) -> str:
    """What to write instead; `unstated`: the file is content, where 'unstated' is a value."""
    kind = error["type"]
    if kind.startswith("string_pattern"):
        return "ids are lowercase Latin letters, digits and hyphens, e.g. heavy-tank"
    if kind in {"list_type", "tuple_type"}:
        return "write a list: one '- item' per line, or [a, b]"
    if kind in {"dict_type", "model_type"}:
        return "write a mapping of 'key: value' lines"
    if kind in {"greater_than_equal", "greater_than"}:  # a count below its minimum, a negative size
        bound = error.get("ctx", {}).get("ge", error.get("ctx", {}).get("gt"))
        return (f"write a number {'of' if kind == 'greater_than_equal' else 'above'} {bound}"
                f"{' or more' if kind == 'greater_than_equal' else ''}, as the source gives it"
                + ("; or 'unstated' if it does not give it" if unstated else ""))
    if kind == NUMBERING_ERROR:
        return (f"write numbering: {NUMBERINGS[0]} (chapters and headings numbered 1, 1.1, 1.1.1), numbering: "
                f"{NUMBERINGS[1]} (their paragraphs too), or leave it out")
    if kind == "literal_error":
        return "use one of the values listed" + (", or 'unstated' if the source does not give it" if unstated else "")
    return "check the value's type" + ("; write 'unstated' if the source does not give it" if unstated else "")


def _model_at(model: type[BaseModel], loc: tuple[Any, ...]) -> type[BaseModel] | None:
    """The nested model class found by following `loc` through field annotations."""
    current: Any = model
    for part in loc:
        if isinstance(part, int):
            continue
        if not _is_model(current):
            return None
        info = current.model_fields.get(part)
        if info is None:
            return None
        current = _unwrapped(info.annotation)
    return current if _is_model(current) else None


def _is_model(value: Any) -> bool:
    return isinstance(value, type) and issubclass(value, BaseModel)


def _unwrapped(current: Any) -> Any:
    """The model inside an annotation (`tuple[Unit, ...]`, `Unit | None`, a tagged union's
    first member), or the innermost type it wraps."""
    import typing

    while typing.get_origin(current) in (tuple, list, typing.Union, type(None)) or (
        typing.get_args(current) and not _is_model(current)
    ):
        args = [typing.get_args(a)[0] if typing.get_origin(a) is typing.Annotated else a  # a tagged member
                for a in typing.get_args(current) if a is not Ellipsis and a is not type(None)]
        models = [a for a in args if _is_model(a)]
        if models:
            return models[0]
        if not args:
            break
        current = args[0]
    return current


def load_manifest(folder: Path, report: Report) -> tuple[GameManifest, YamlDocument] | None:
    path = folder / MANIFEST
    if not folders.present(path) or path.is_dir():  # a FIFO, a loop...: load_yaml says what it is (E001)
        report.add("E017", f"no {MANIFEST} in game folder '{folder.name}'", Location(folder),
                   f"create {MANIFEST} with id, title and source_language, or run 'rulesmith new {folder.name}'")
        return None
    doc = load_yaml(path, report)
    if doc is None:
        return None
    if not isinstance(doc.data, dict):
        report.add("E017", "the manifest must be a mapping (id:, title:, ...)", doc.location(()),
                   "see 'rulesmith new' for a starting point")
        return None
    try:
        manifest = GameManifest.model_validate(doc.data)
    except ValidationError as exc:
        report_validation_error(exc, GameManifest, doc, (), report)
        return None
    for param in manifest.parameters:
        for _path, value in unstated_in(param.value, ()):
            value.placed(f"parameter '{param.id}'")
    taken = next((name for name in (folder.name, manifest.id) if name in RESERVED), None)
    if taken is not None:
        report.add("E017", f"game id '{taken}' is reserved: Rulesmith keeps that name for its own files beside "
                   f"the games in output/", doc.location(("id",)),
                   f"{reserved_hint()} and rename the folder content/{folder.name} to match")
    if manifest.id != folder.name:
        report.add("E017", f"manifest id '{manifest.id}' differs from the folder name '{folder.name}'",
                   doc.location(("id",)), f"rename the folder or set id: {folder.name}")
    if manifest.source_language not in manifest.title:
        report.add("E005", f"title has no '{manifest.source_language}' (source language) entry",
                   doc.location(("title",)), f"add '{manifest.source_language}: <title>' under title")
    return manifest, doc


def load_game(folder: Path, report: Report) -> Game | None:
    """Load one game; every problem goes to `report`. None if the manifest is unusable."""
    loaded = load_manifest(folder, report)
    if loaded is None:
        return None
    manifest, manifest_doc = loaded
    game = Game(folder=folder, manifest=manifest, manifest_doc=manifest_doc)
    linked_out = {link for link, _target in outside_links(folder, game.project_root)}  # checks/links.py reports them
    for path in data_files(folder):
        if path in linked_out:
            continue
        doc = load_yaml(path, report)
        if doc is None or doc.data is None:
            continue
        if not isinstance(doc.data, dict):
            report.add("E014", "a data file must be a mapping of sections (units:, keywords:, ...)",
                       doc.location(()), f"start the file with one of: {', '.join(SECTIONS)}")
            continue
        for section, items in doc.data.items():
            _load_section(game, doc, section, items, report)
    return game


def _load_section(game: Game, doc: YamlDocument, section: Any, items: Any, report: Report) -> None:
    model = SECTIONS.get(section)
    if model is None:
        report.add("E014", f"unknown section '{section}'", doc.location((section,), key=True),
                   did_you_mean(str(section), SECTIONS) or f"known sections: {', '.join(SECTIONS)}")
        return
    if not isinstance(items, list):
        report.add("E004", f"'{section}' must be a list of records", doc.location((section,)),
                   "put each record under a '- id: ...' item")
        return
    bucket = game.records.setdefault(section, {})
    for index, item in enumerate(items):
        prefix = (section, index)
        try:
            record: Record = model.model_validate(item)
        except ValidationError as exc:
            report_validation_error(exc, model, doc, prefix, report)
            if isinstance(item, dict) and isinstance(item.get("id"), str):
                game.dropped.setdefault(section, set()).add(item["id"])  # a placeholder for references
            continue
        if record.id in bucket:
            first = game.origins[(section, record.id)].location("id")
            report.add("E006", f"duplicate {model.kind} id '{record.id}' (first at {first.display(game.project_root)})",
                       doc.location(prefix + ("id",)), "give each record its own id")
            continue
        bucket[record.id] = record
        game.origins[(section, record.id)] = Origin(doc, prefix)
        record.place_unstated()


def load_mapping(path: Path, model: type[BaseModel], report: Report, not_mapping: tuple[str, str]
                 ) -> tuple[BaseModel, YamlDocument] | None:
    """A YAML file that is one mapping checked against `model`: the model and its document, or
    None with every problem in `report`; `not_mapping`: (message, hint) where it is no mapping."""
    doc = load_yaml(path, report)
    if doc is None:
        return None
    if not isinstance(doc.data, dict):
        report.add("E004", not_mapping[0], doc.location(()), not_mapping[1])
        return None
    try:
        return model.model_validate(doc.data), doc
    except ValidationError as exc:
        report_validation_error(exc, model, doc, (), report)
        return None


def load_settings(path: Path, model: type[BaseModel], report: Report) -> dict | None:
    """A settings file (print.yaml, sheets.yaml) checked against its model; every problem goes
    to `report`. Its data as read, or None if it is unusable."""
    loaded = load_mapping(path, model, report, (f"{path.name} must be a mapping of settings ('name: value' lines)",
                                                f"known settings: {', '.join(model.model_fields)}"))
    return None if loaded is None else loaded[1].data


def read_settings(path: Path, model: type[BaseModel]) -> dict:
    """A settings file for a build: its data, or ValueError naming its first problem at file:line."""
    report = Report()
    data = load_settings(path, model, report)
    if data is None:
        raise ValueError(report.sorted()[0].format_text() if report.diagnostics else f"{path}: cannot be read")
    return data
