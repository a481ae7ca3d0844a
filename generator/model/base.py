"""What every content record shares: an id, a kind, translatable text, draft status."""

from __future__ import annotations

from typing import Annotated, Any, ClassVar, Union, get_args, get_origin

from pydantic import BaseModel, ConfigDict, Field, StringConstraints


class Translatable:
    """Marks a string field as player-facing text that goes into the translation catalogs."""

    def __repr__(self) -> str:  # pragma: no cover - shows up only in schema debugging
        return "Translatable()"


Text = Annotated[str, Translatable()]
Id = Annotated[
    str,
    StringConstraints(pattern=r"^[a-z0-9][a-z0-9-]*$"),
    Field(description="lowercase Latin letters, digits and hyphens: how other records refer to this one"),
]
Scalar = Union[int, float, str, None]
# A stat as written: one value, or several where the source gives a pair ("2+ / 5+").
StatEntry = Union[int, float, str, None, list[Union[int, float, str, None]]]


class Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class Record(Frozen):
    """A content record: one unit, keyword, card, table..."""

    kind: ClassVar[str] = "record"
    section: ClassVar[str] = "records"  # the top-level key of a YAML file holding these

    id: Id
    incomplete: Text | None = Field(
        default=None,
        description="why this record is unfinished (the source does not give it); prints as DRAFT",
    )
    errata: tuple[str, ...] = Field(
        default=(), description="ids of the errata (errata.yaml) that concern this record"
    )

    def export(self) -> dict[str, Any]:
        return {"kind": self.kind, **self.model_dump(mode="json", exclude_defaults=False)}


def is_translatable(field_info: Any) -> bool:
    """True for a `Text` field, also when optional (`Text | None` hides the marker in the union)."""
    if any(isinstance(m, Translatable) for m in field_info.metadata):
        return True
    return _marked(field_info.annotation)


def _marked(annotation: Any) -> bool:
    if get_origin(annotation) is Annotated:
        return any(isinstance(m, Translatable) for m in annotation.__metadata__)
    return any(_marked(arg) for arg in get_args(annotation))
