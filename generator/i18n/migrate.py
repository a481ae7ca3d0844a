"""Moving catalogs to one message per source string, keeping every translation.

Catalogs written when each YAML string had its own msgctxt (the place: unit:scouts.name) hold
the same words many times. Migration gives each group of identical strings one message and
fills it from the old entries. Where old entries disagree, the translation most of them use
(the first on a tie; the rules text's own, if one is rules text) becomes the shared one, and
every place translated differently keeps its own message through locale/contexts.yaml, so no
translation is lost and the built text stays the same. Running it again changes nothing.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from dataclasses import dataclass, field

import polib

from ..reading.game import Game
from .catalog import TEMPLATE, locale_dir, po_path, read_catalog, template, update, write_catalog
from .contexts import PLACE, contexts_path, load_contexts, write_contexts
from .messages import Message, game_messages


@dataclass(frozen=True)
class Conflict:
    lang: str
    msgid: str
    shared: str
    apart: tuple[tuple[str, str], ...]  # (place, its own translation)


@dataclass
class Migration:
    game: str
    before: int
    after: int = 0
    conflicts: list[Conflict] = field(default_factory=list)


Key = tuple[str | None, str]


def _index(catalog: polib.POFile) -> dict[Key, polib.POEntry]:
    return {(e.msgctxt, e.msgid): e for e in catalog if not e.obsolete}


def _groups(messages: list[Message]) -> dict[Key, list[Message]]:
    groups: dict[Key, list[Message]] = defaultdict(list)
    for message in messages:
        groups[(message.context, message.msgid)].append(message)
    return groups


def _candidates(old: dict[Key, polib.POEntry], key: Key, places: list[Message]) -> list[tuple[str | None, polib.POEntry]]:
    """Old entries that translated this message: its own key first, then one per place."""
    found: list[tuple[str | None, polib.POEntry]] = []
    seen: set[int] = set()
    keys = [(None, key)] + [(m.place, (m.place, key[1])) for m in places if m.place]
    for place, k in keys:
        entry = old.get(k)
        if entry is not None and id(entry) not in seen and entry.msgstr:
            seen.add(id(entry))
            found.append((place, entry))
    return found


def _vote(candidates: list[tuple[str | None, polib.POEntry]]) -> tuple[str | None, polib.POEntry | None]:
    """The translation to share: finished ones before fuzzy; the rules text's if it has one,
    else the most used, else the first."""
    finished = [c for c in candidates if not c[1].fuzzy] or candidates
    if not finished:
        return None, None
    unplaced = [e for place, e in finished if place is None]
    if unplaced:
        return unplaced[0].msgstr, unplaced[0]
    counts = Counter(e.msgstr for _place, e in finished)
    best = max(counts.values())
    winner = next(e for _place, e in finished if counts[e.msgstr] == best)
    return winner.msgstr, winner


def _conflicts(catalogs: dict[str, polib.POFile], messages: list[Message]) -> list[Conflict]:
    found = []
    indexes = {lang: _index(catalog) for lang, catalog in catalogs.items()}
    for key, places in _groups(messages).items():
        for lang, index in indexes.items():
            candidates = [c for c in _candidates(index, key, places) if not c[1].fuzzy]
            shared, _entry = _vote(candidates)
            apart = tuple((place, e.msgstr) for place, e in candidates if e.msgstr != shared and place)
            if apart:
                found.append(Conflict(lang, key[1], shared or "", apart))
    return found


def _regroup(old: polib.POFile, pot: polib.POFile, messages: list[Message]) -> polib.POFile:
    index = _index(old)
    groups = _groups(messages)
    catalog = polib.POFile(wrapwidth=0, check_for_duplicates=True)
    catalog.header, catalog.metadata = old.header, dict(old.metadata)
    used: set[int] = set()
    for template_entry in pot:
        key = (template_entry.msgctxt, template_entry.msgid)
        candidates = _candidates(index, key, groups.get(key, []))
        used.update(id(e) for _place, e in candidates)
        msgstr, chosen = _vote(candidates)
        entry = polib.POEntry(msgid=key[1], msgctxt=key[0], msgstr=msgstr or "",
                              occurrences=list(template_entry.occurrences))
        if chosen is not None:  # translator comments of every merged entry, once each
            comments = dict.fromkeys(e.tcomment for _place, e in candidates if e.tcomment)
            entry.tcomment = "\n".join(comments)
            if chosen.fuzzy:
                entry.flags.append("fuzzy")
                entry.previous_msgid = chosen.previous_msgid
        catalog.append(entry)
    keys = {(e.msgctxt, e.msgid) for e in catalog}
    for entry in old:  # anything not regrouped goes through the ordinary update (fuzzy or obsolete)
        if id(entry) not in used and (entry.msgctxt, entry.msgid) not in keys and (entry.msgstr or entry.obsolete):
            catalog.append(entry)
    return catalog


def migrate(game: Game) -> Migration:
    """Regroup every LANG.po of a game; write contexts.yaml for translations kept apart."""
    folder = locale_dir(game)
    pot_path = folder / TEMPLATE
    before = len(read_catalog(pot_path)) if pot_path.exists() else len(template(game))
    catalogs = {lang: read_catalog(po_path(game, lang)) for lang in game.manifest.languages
                if po_path(game, lang).exists()}
    result = Migration(game.id, before)
    messages = game_messages(game, contexts=load_contexts(folder))
    result.conflicts = _conflicts(catalogs, messages)
    apart = {place: None for c in result.conflicts for place, _ in c.apart}
    if apart:
        write_contexts(folder, apart, "translated differently from the same words elsewhere (rulesmith i18n migrate)")
        messages = game_messages(game, contexts=load_contexts(folder))
    pot = template(game, messages)
    write_catalog(pot_path, pot)
    for lang, old in catalogs.items():
        write_catalog(po_path(game, lang), _regroup(old, pot, messages))
        write_catalog(po_path(game, lang), update(game, lang, pot))
    result.after = len(pot)
    return result


def needs_migration(game: Game, pot: polib.POFile) -> bool:
    """Whether a catalog of the game still holds one message per place (KIND:ID.FIELD) and
    was never migrated (a migrated game's contexts.yaml is the designer's: a place removed
    from it shares the message again instead of getting its context back)."""
    if contexts_path(locale_dir(game)).exists():
        return False
    contexts = {e.msgctxt for e in pot}
    for lang in game.manifest.languages:
        path = po_path(game, lang)
        if path.exists() and any(e.msgctxt and e.msgctxt not in contexts and PLACE.match(e.msgctxt)
                                 for e in read_catalog(path) if not e.obsolete):
            return True
    return False
