"""JSON Schema for each kind of YAML file, for editors (yaml-language-server) and tools."""

from __future__ import annotations

import json
from pathlib import Path

from pydantic import ConfigDict, create_model

from . import SECTIONS, GameManifest
from ..outputs.layout import SCHEMA

SCHEMA_DIR = Path("output") / SCHEMA


def schemas() -> dict[str, dict]:
    """File name -> JSON Schema: game.schema.json, units.schema.json, ..."""
    out = {"game.schema.json": _titled(GameManifest.model_json_schema(), "Rulesmith game manifest (game.yaml)")}
    for section, model in SECTIONS.items():
        wrapper = create_model(
            f"{section.capitalize()}File",
            __config__=ConfigDict(extra="forbid"),
            **{section: (list[model], ...)},
        )
        out[f"{section}.schema.json"] = _titled(
            wrapper.model_json_schema(), f"Rulesmith data file: {section}"
        )
    return out


def _titled(schema: dict, title: str) -> dict:
    return {"$schema": "https://json-schema.org/draft/2020-12/schema", **schema, "title": title}


def schema_comment(section: str | None, depth: int) -> str:
    """The first line a content file carries so editors find its schema."""
    name = "game" if section is None else section
    return f"# yaml-language-server: $schema={'../' * depth}output/{SCHEMA}/{name}.schema.json"


def write_schemas(folder: Path) -> list[Path]:
    from .. import outputs

    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for name, schema in schemas().items():
        path = folder / name
        outputs.write_text(path, json.dumps(schema, ensure_ascii=False, indent=2) + "\n")
        written.append(path)
    return written
