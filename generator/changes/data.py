"""What changed in a game's data: each record's fields, records added, removed or renamed,
and game.yaml's own fields. A record whose id changed but whose content did not (or hardly)
is one rename, and references to its old id elsewhere are read as the new one."""

from __future__ import annotations

import difflib
import json
from dataclasses import dataclass
from typing import Any, Iterator

from ..i18n.contexts import Contexts, load_contexts
from ..i18n.messages import data_strings, needs_translation, place_of, record_strings
from ..reading.game import Game
from . import ADDED, CHANGED, REMOVED, RENAMED, Change
from .editions import Catalogs, Phrase, editions, shown as shown_or_none

# Two records of one section whose content (all but the id) is at least this similar are
# one record renamed; difflib's ratio over their fields written one per line.
RENAME_CUTOFF = 0.8
# game.yaml's fields that `changes` names in its heading rather than as a change.
OWN_FIELDS = ("version",)


@dataclass(frozen=True)
class Leaf:
    """One comparable value of a record: where it is (`path` as the model holds it), how a
    person names it (`shown`: cost, weapons.0.count, parameters.map-width.value)."""

    path: tuple
    shown: str
    value: Any


def _keyed(items: list) -> bool:
    return bool(items) and all(isinstance(i, dict) and isinstance(i.get("id"), str) for i in items)


def leaves(value: Any, path: tuple = (), shown: tuple = ()) -> Iterator[Leaf]:
    """The values of a dumped record, one per field; a list of records is walked by their ids,
    a stat is named alone (`cost`, not `stats.cost`), a table's row and a list of words are one value."""
    if isinstance(value, dict) and value:
        for key, item in value.items():
            yield from leaves(item, path + (key,), shown if key == "stats" and not path else shown + (key,))
    elif isinstance(value, list) and (_keyed(value) or all(isinstance(i, dict) for i in value)) and value \
            and path[-1:] != ("rows",):
        for index, item in enumerate(value):
            yield from leaves(item, path + (index,), shown + ((item["id"],) if _keyed(value) else (index,)))
    elif isinstance(value, list) and path[-1:] == ("rows",):
        for index, item in enumerate(value):
            yield Leaf(path + (index,), ".".join(map(str, shown + (index,))), item)
    else:
        yield Leaf(path, ".".join(map(str, shown)), value)


def _part(shown: str) -> str:
    """`rows.3` is `row 4`: a person counts a table's rows from one."""
    head, _, index = shown.rpartition(".")
    return f"{head + ' ' if head != 'rows' else ''}row {int(index) + 1}" if (head == "rows" or head.endswith(".rows")) \
        and index.isdigit() else shown


@dataclass
class Side:
    """One version of the game, as the comparison reads it."""

    game: Game
    catalogs: Catalogs
    contexts: Contexts

    @classmethod
    def of(cls, game: Game, languages: list[str]) -> "Side":
        return cls(game, Catalogs(game, languages), load_contexts(game.folder / "locale"))

    def phrases(self, record: Any, owner: str, under: tuple) -> list[Phrase]:
        """The messages of a record (None: game.yaml) inside the field at `under`."""
        found = []
        strings = record_strings(record) if record is not None else _manifest_strings(self.game)
        for path, text in strings:
            if path[:len(under)] == under and needs_translation(text):
                place = place_of(owner, path)
                found.append(Phrase(text, self.contexts.context_of(place), place))
        return found


def _manifest_strings(game: Game) -> list[tuple[tuple, str]]:
    return [(path, text) for record, path, text, _where in data_strings(game) if record is None]


def _dump(record: Any, renames: dict[str, str]) -> dict:
    data = record.model_dump(mode="json")
    return _renamed(data, renames) if renames else data


def _renamed(value: Any, renames: dict[str, str]) -> Any:
    """The old version's value with every renamed id (or `section/id`) read as the new one."""
    if isinstance(value, str):
        section, _, rest = value.rpartition("/")
        if rest in renames and (not section or "/" not in section):
            return f"{section}/{renames[rest]}" if section else renames[rest]
        return value
    if isinstance(value, list):
        return [_renamed(v, renames) for v in value]
    if isinstance(value, dict):
        return {k: _renamed(v, renames) for k, v in value.items()}
    return value


def _content(record: Any) -> str:
    data = record.model_dump(mode="json")
    data.pop("id", None)
    return json.dumps(data, ensure_ascii=False, sort_keys=True, indent=0)


class DataChanges:
    """The changes of a game's data between two versions (`before`, `after`)."""

    def __init__(self, before: Side, after: Side, languages: list[str]):
        self.before, self.after, self.languages = before, after, languages
        self.renames: dict[str, str] = {}  # old id -> new id, over every section
        self.pairs: list[tuple[str, Any, Any]] = []  # (section, old record or None, new or None)
        self._pair_records()

    def _pair_records(self) -> None:
        old_game, new_game = self.before.game, self.after.game
        for section in dict.fromkeys([*old_game.records, *new_game.records]):
            old, new = dict(old_game.section(section)), dict(new_game.section(section))
            for record_id in [i for i in old if i in new]:
                self.pairs.append((section, old[record_id], new[record_id]))
            gone = [old[i] for i in old if i not in new]
            came = [new[i] for i in new if i not in old]
            for old_record, new_record in _renamed_pairs(gone, came):
                self.renames[old_record.id] = new_record.id
                self.pairs.append((section, old_record, new_record))
                gone.remove(old_record)
                came.remove(new_record)
            self.pairs += [(section, r, None) for r in gone] + [(section, None, r) for r in came]

    def changes(self) -> list[Change]:
        out = list(self._manifest())
        for _section, old, new in self.pairs:
            out.extend(self._record(old, new))
        return out

    def _subject(self, record: Any) -> str:
        return f"{record.kind} {self.after.game.id}/{record.id}"

    def _record(self, old: Any, new: Any) -> Iterator[Change]:
        if old is None or new is None:
            yield self._whole(old, new)
            return
        fields = list(self._fields(old, new))
        if old.id == new.id:
            yield from (change for change, _old, _new in fields)
            return
        note = "; ".join(f"{change.part} {change.old} → {change.new}" for change, _old, _new in fields)
        phrases = ([p for _c, old_phrases, _n in fields for p in old_phrases],
                   [p for _c, _o, new_phrases in fields for p in new_phrases])
        yield Change("record", RENAMED, f"{new.kind} {self.after.game.id}/{old.id}", "id", old.id, new.id,
                     self.after.game.origin(new).location("id"), self._editions((old.id, new.id), *phrases), note=note,
                     record=(new.section, new.id))

    def _fields(self, old: Any, new: Any) -> Iterator[tuple[Change, list, list]]:
        """(change, old phrases, new phrases) for each field of a record that differs."""
        yield from self._differences(
            self._subject(new), leaves(_dump(old, self.renames)), leaves(_dump(new, {})),
            lambda path: self.before.phrases(old, f"{old.kind}:{old.id}", path),
            lambda path: self.after.phrases(new, f"{new.kind}:{new.id}", path),
            lambda path: self.after.game.origin(new).location(*path), skip=("id",), record=(new.section, new.id))

    def _differences(self, subject: str, old: Iterator[Leaf], new: Iterator[Leaf], old_phrases, new_phrases,
                     where, skip: tuple[str, ...], record: tuple[str, str] | None = None
                     ) -> Iterator[tuple[Change, list, list]]:
        before = {leaf.shown: leaf for leaf in old}
        after = {leaf.shown: leaf for leaf in new}
        for name in dict.fromkeys([*before, *after]):
            was, now = before.get(name), after.get(name)
            if name.split(".")[0] in skip or (was and now and was.value == now.value):
                continue
            values = (was.value if was else None, now.value if now else None)
            texts = (shown_or_none(values[0]), shown_or_none(values[1]))
            if texts[0] == texts[1]:
                continue  # absent and empty alike
            phrases = (old_phrases(was.path) if was else [], new_phrases(now.path) if now else [])
            action = ADDED if texts[0] is None else REMOVED if texts[1] is None else CHANGED
            change = Change("field", action, subject, _part(name), texts[0], texts[1],
                            where(now.path if now else ()), self._editions(values, *phrases), record=record)
            yield change, phrases[0], phrases[1]

    def _whole(self, old: Any, new: Any) -> Change:
        """A record added or removed: one change, all its fields."""
        record = new if new is not None else old
        side = self.after if new is not None else self.before
        value = {leaf.shown: leaf.value for leaf in leaves(record.model_dump(mode="json"))
                 if shown_or_none(leaf.value) is not None}
        phrases = side.phrases(record, f"{record.kind}:{record.id}", ())
        values = (None, value) if new is not None else (value, None)
        both = ([], phrases) if new is not None else (phrases, [])
        return Change("record", ADDED if new is not None else REMOVED, self._subject(record), "",
                      shown_or_none(values[0]), shown_or_none(values[1]), side.game.origin(record).location("id"),
                      self._editions(values, *both), record=(record.section, record.id))

    def _editions(self, values, old_phrases, new_phrases):
        return editions(self.languages, values, (old_phrases, new_phrases), self.before.catalogs, self.after.catalogs)

    def _manifest(self) -> Iterator[Change]:
        """game.yaml's fields that differ (its version is the output's heading, not a change)."""
        old_game, new_game = self.before.game, self.after.game
        for change, _old, _new in self._differences(
                f"game {new_game.id}", leaves(_renamed(old_game.manifest.model_dump(mode="json"), self.renames)),
                leaves(new_game.manifest.model_dump(mode="json")),
                lambda path: self.before.phrases(None, "game", path),
                lambda path: self.after.phrases(None, "game", path),
                lambda path: new_game.manifest_doc.location(path), skip=OWN_FIELDS):
            yield change


def _renamed_pairs(gone: list, came: list) -> list[tuple[Any, Any]]:
    """(old, new) records of one section that are one record under a new id: the most similar
    pairs first, each record in one pair at most."""
    scored = []
    for old in gone:
        for new in came:
            matcher = difflib.SequenceMatcher(None, _content(old), _content(new), autojunk=False)
            if matcher.real_quick_ratio() < RENAME_CUTOFF or matcher.quick_ratio() < RENAME_CUTOFF:
                continue
            ratio = matcher.ratio()
            if ratio >= RENAME_CUTOFF:
                scored.append((ratio, old, new))
    pairs, used = [], set()
    for _ratio, old, new in sorted(scored, key=lambda s: -s[0]):
        if id(old) not in used and id(new) not in used:
            used |= {id(old), id(new)}
            pairs.append((old, new))
    return pairs
