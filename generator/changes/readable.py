"""A change's texts as the reader reads them: its `{{ kind:id }}` references printed as each
edition prints them (`{{ case:attack }}` as 5.3.4.1, a unit by its name in that language, a
parameter by its value), the old text with the older version's data and numbers, the new with
this version's. The texts as written stay with the change (`Change.written`) for a document
that renders the Markdown itself."""

from __future__ import annotations

from dataclasses import replace

from ..i18n.translate import Translator
from ..reading.game import Game
from . import Change


class Readers:
    """The translators of one version of a game, by language, loaded as they are needed."""

    def __init__(self, game: Game):
        self.game = game
        self.loaded: dict[str, Translator] = {}

    def words(self, lang: str, text: str | None) -> str | None:
        """`text` with its references printed in `lang` (None stays None)."""
        if text is None or "{{" not in text:
            return text
        if lang not in self.loaded:
            self.loaded[lang] = Translator.load(self.game, lang)
        return self.loaded[lang].references(text)


def readable(changes: list[Change], old: Game, new: Game) -> list[Change]:
    """The changes with their old and new texts, and each edition's, as the reader reads them."""
    before, after = Readers(old), Readers(new)
    source = new.manifest.source_language
    out = []
    for change in changes:
        texts = (change.old, change.new, *(t for e in change.editions.values() for t in (e.old, e.new)))
        if not any(text and "{{" in text for text in texts):
            out.append(change)
            continue
        editions = {lang: replace(e, old=before.words(lang, e.old), new=after.words(lang, e.new))
                    for lang, e in change.editions.items()}
        out.append(replace(change, old=before.words(source, change.old), new=after.words(source, change.new),
                           editions=editions, written=change.markup))
    return out
