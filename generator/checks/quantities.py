"""Card quantities a print run can hold: more copies than any deck needs is likely a typo."""

from __future__ import annotations

from ..core.diagnostics import Report
from ..reading.game import Game

MAX_COPIES = 1000  # above this, printing one card's copies takes minutes and pages by the hundred


def check(game: Game, report: Report) -> None:
    for card in game.cards.values():
        if isinstance(card.quantity, int) and card.quantity > MAX_COPIES:
            report.add("W007", f"card '{card.id}' asks for {card.quantity:,} copies",
                       game.origin(card).location("quantity"),
                       f"more than {MAX_COPIES:,} copies of one card is likely a typo; write the number in the box")
