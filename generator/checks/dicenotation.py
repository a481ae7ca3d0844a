"""Dice notation per language (game.yaml `dice_notation:`): each letter given for a language of
the game, and a letter a reader can take for one (d, k, W, Д: one to three letters, no digit,
space or punctuation), since it stands between the count and the faces of every die printed
in that edition (2k6)."""

from __future__ import annotations

import re

from ..core.diagnostics import Report
from ..core.languages import language_code
from ..reading.game import Game

LETTER = re.compile(r"[^\W\d_]{1,3}")


def check(game: Game, report: Report) -> None:
    manifest, doc = game.manifest, game.manifest_doc
    written = doc.data.get("dice_notation") if isinstance(doc.data, dict) else None
    if not isinstance(written, dict):
        return
    editions = (manifest.source_language, *manifest.languages)
    for key, letter in written.items():
        lang = language_code(key)
        if lang not in editions:
            report.add("E017", f"dice_notation gives a letter for '{key}', which is not a language of the game",
                       doc.location(("dice_notation", key), key=True),
                       f"give letters for the game's languages ({', '.join(editions)}), or add '{key}' to languages:")
        if not isinstance(letter, str) or not LETTER.fullmatch(letter):
            report.add("E017", f"dice_notation.{key}: {letter!r} is no dice letter",
                       doc.location(("dice_notation", key)),
                       "a dice letter is one to three letters, no digit, space or sign: d (2d6), k (2k6), W (2W6), Д (2Д6)")
