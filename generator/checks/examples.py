"""Check blocks of worked examples, the procedures module they run, and the numbers of the
examples' prose: E030–E034, E038, W031.

Only what stops a check from running is reported here (a block outside an example, an
unknown procedure, inputs that do not fit, bad YAML, a procedures module that cannot be
loaded, a number bound to nothing the block holds); whether the examples agree with the
rules is `rulesmith check`'s business (binding markup outside an example, which nothing
would check, is E038 too). A number of an example's prose that is neither bound
to its check block nor marked free is a warning (W031): the text makes a claim no one checks.
"""

from __future__ import annotations

from ..checker.examples import Example, game_examples, loose_prose
from ..checker.procedures import load_procedures
from ..checker.prose import bound_value, cited_errata, example_claims
from ..checker.runner import block_diagnostics, procedure_diagnostics
from ..core.diagnostics import Location, Report, did_you_mean
from ..reading.game import Game
from ..text.claims import FREE, claims


def check(game: Game, report: Report) -> None:
    examples, stray = game_examples(game.folder)
    blocks = [b for e in examples for b in e.checks] + stray
    procedures = load_procedures(game.folder)
    for d in procedure_diagnostics(procedures):
        report.add(d.code, d.message, d.location, d.hint)
    for block in blocks:
        for d in block_diagnostics(game, block, procedures):
            report.add(d.code, d.message, d.location, d.hint)
    for example in examples:
        prose_numbers(example, game.manifest.source_language, report)
    for paragraph in loose_prose(game.folder):
        if "]{" not in paragraph.text:
            continue
        for claim in claims(paragraph.text, game.manifest.source_language):
            if claim.binding or claim.free or claim.problems:
                line, col = paragraph.place(claim.start)
                written = paragraph.text[claim.start:claim.end]
                report.add("E038", f"'{written}' stands outside a worked example: nothing checks it",
                           Location(paragraph.path, line, col),
                           f"bind numbers inside '::: example ID' only; here write {claim.text}")
    for erratum, (path, line, col) in cited_errata(examples, game.manifest.source_language).items():
        if erratum not in game.errata:
            report.add("E007", f"a number of an example's prose cites unknown erratum '{erratum}'",
                       Location(path, line, col), did_you_mean(erratum, game.errata) or "define it in data/errata.yaml")


def prose_numbers(example: Example, lang: str, report: Report) -> None:
    """W031 for each number of the prose bound to nothing; E038 for a binding that cannot be read."""
    for claim, path, line, col in example_claims(example, lang):
        where = Location(path, line, col)
        if claim.problems:
            report.add("E038", f"number '{claim.text}' of example '{example.id}': {'; '.join(claim.problems)}", where,
                       "write [3]{input=NAME}, [3]{result=NAME}, [3]{die=N} (add check=N for another check "
                       "block), or [3]{" + FREE + "}")
            continue
        if claim.free:
            continue
        if claim.binding is None:
            free = f"[{claim.text}]{{{FREE}}}"
            hint = (f"bind it: [{claim.text}]{{result=NAME}} (or input=NAME, die=N), or mark it {free} if it "
                    "claims nothing about the rules") if example.checks else (
                f"the example has no ```check block to bind it to: add one, or mark it {free}")
            report.add("W031", f"number '{claim.text}' in example '{example.id}' is neither bound to its check "
                               f"nor marked free", where, hint)
            continue
        binding = claim.binding
        if binding.check > len(example.checks):
            report.add("E038", f"number '{claim.text}' is bound to check {binding.check}, but example "
                               f"'{example.id}' has {len(example.checks)} check block(s)", where,
                       "count the example's ```check blocks from 1")
        elif binding.kind != "result":  # a result exists only once the block has run: `check` says
            try:
                bound_value(binding, example.checks[binding.check - 1], None)
            except KeyError as exc:
                report.add("E038", f"number '{claim.text}' of example '{example.id}': {exc.args[0]}", where,
                           "bind it to an input the check block gives, or a die it shows")
