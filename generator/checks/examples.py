"""Check blocks of worked examples, and the procedures module they run: E030–E034.

Only what stops a check from running is reported here (a block outside an example, an
unknown procedure, inputs that do not fit, bad YAML, a procedures module that cannot be
loaded); whether the examples agree with the rules is `rulesmith check`'s business.
"""

from __future__ import annotations

from ..checker.examples import game_examples
from ..checker.procedures import load_procedures
from ..checker.runner import block_diagnostics, procedure_diagnostics
from ..diagnostics import Report
from ..game import Game


def check(game: Game, report: Report) -> None:
    examples, stray = game_examples(game.folder)
    blocks = [b for e in examples for b in e.checks] + stray
    procedures = load_procedures(game.folder)
    for d in procedure_diagnostics(procedures):
        report.add(d.code, d.message, d.location, d.hint)
    for block in blocks:
        for d in block_diagnostics(game, block, procedures):
            report.add(d.code, d.message, d.location, d.hint)
