"""What every content record shares: an id, a kind, translatable text, draft status."""

from __future__ import annotations

from typing import Annotated, Any, ClassVar, Union, get_args, get_origin

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, StringConstraints

from ..values import UNSTATED, Unstated


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


def _read_unstated(value: Any) -> Any:
    """`unstated` or `{unstated: "why"}` in YAML -> an Unstated value; anything else unchanged."""
    if value == UNSTATED or (isinstance(value, dict) and set(value) == {UNSTATED}):
        return Unstated.model_validate(value)
    return value


class OrUnstated:
    """`OrUnstated[int]`: a field that takes an int, or `unstated` where the source does not give it."""

    def __class_getitem__(cls, item: Any) -> Any:
        return Annotated[Union[item, Unstated], BeforeValidator(_read_unstated)]


Scalar = OrUnstated[Union[int, float, str, None]]
# A stat as written: one value, or several where the source gives a pair ("2+ / 5+").
StatEntry = OrUnstated[Union[int, float, str, None, list[OrUnstated[Union[int, float, str, None]]]]]


def as_written_field() -> Any:
    """`as_written:` of a record with stats: a stat as the source writes it, where the typed
    value alone would print otherwise (the source's brackets, say)."""
    return Field(default={}, description="stat id -> the stat as the source writes it where its typed value "
                 "prints otherwise, e.g. movement: \"40 см (60 см)\" for movement: [40 см, 60 см]")


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
    editor: tuple[str, ...] = Field(
        default=(), description="text fields of this record that are the editor's words, not the source's "
        "(dotted paths: text, faces.2.text, rows.0.effect); each prints marked as the editor's text"
    )

    def export(self) -> dict[str, Any]:
        return {"kind": self.kind, **self.model_dump(mode="json", exclude_defaults=False)}

    def unstated(self) -> list[tuple[tuple[Any, ...], Unstated]]:
        """(field path, value) for every value of this record the source does not give."""
        return list(unstated_in(self, ()))

    def place_unstated(self) -> None:
        """Tell each unstated value where it sits, so using it names this record and field."""
        for path, value in self.unstated():
            if len(path) >= 2 and path[0] == "stats":
                value.placed(f"{self.kind} '{self.id}' stat '{path[1]}'")
            else:
                value.placed(f"{self.kind} '{self.id}' field '{'.'.join(map(str, path))}'")


def unstated_in(value: Any, path: tuple[Any, ...]) -> Any:
    """Walk a model's fields, lists and mappings; yield (path, Unstated) for each unstated value."""
    if isinstance(value, Unstated):
        yield path, value
    elif isinstance(value, BaseModel):
        for name in type(value).model_fields:
            yield from unstated_in(getattr(value, name), path + (name,))
    elif isinstance(value, (list, tuple)):
        for i, item in enumerate(value):
            yield from unstated_in(item, path + (i,))
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from unstated_in(item, path + (key,))


def is_translatable(field_info: Any) -> bool:
    """True for a `Text` field, also when optional (`Text | None` hides the marker in the union),
    and for the reason an unstated value gives (it prints as a note)."""
    if field_info is Unstated.model_fields["reason"]:
        return True
    if any(isinstance(m, Translatable) for m in field_info.metadata):
        return True
    return _marked(field_info.annotation)


def _marked(annotation: Any) -> bool:
    if get_origin(annotation) is Annotated:
        return any(isinstance(m, Translatable) for m in annotation.__metadata__)
    return any(_marked(arg) for arg in get_args(annotation))
