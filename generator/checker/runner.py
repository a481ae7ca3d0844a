"""Running a game's worked examples and consistency rules against its procedures.

Each check block runs its procedure with the example's dice and compares `expect`, and
runs it exactly and compares `exact`. An example passes when all its blocks pass; one with
no block is `unchecked`. Problems that stop a block from running at all (unknown procedure,
bad inputs, bad YAML) make it an `error`, and the same problems are `rulesmith validate`
diagnostics (see `block_diagnostics`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from ..core.diagnostics import Diagnostic, Location, Report
from ..reading.game import Game
from .written import fraction
from .examples import CheckBlock, Example, game_examples
from .expect import Mismatch, compare, show_probability
from ..values import UnstatedError
from .modes import ProcedureError, ScriptError, exact, scripted
from .procedures import MODULE, Declared, InputErrors, Procedures, error_line, load_procedures
from .prose import ClaimResult, check_claims

PASS, FAIL, ERROR, UNCHECKED = "pass", "fail", "error", "unchecked"


@dataclass
class Note:
    """A message about a check, at a line of the rules text (or of procedures.py)."""

    message: str
    location: Location
    diagnostic: bool = False  # also a validation diagnostic (so annotations need not repeat it)


@dataclass
class CheckResult:
    block: CheckBlock
    status: str
    mismatches: list[Mismatch] = field(default_factory=list)
    notes: list[Note] = field(default_factory=list)


@dataclass
class ExampleResult:
    game: str
    example: Example
    checks: list[CheckResult] = field(default_factory=list)
    claims: list[ClaimResult] = field(default_factory=list)  # the numbers of its prose (prose.py)

    @property
    def status(self) -> str:
        states = {c.status for c in self.checks}
        if not states:
            return UNCHECKED
        if ERROR in states:
            return ERROR
        return FAIL if FAIL in states or any(c.failed for c in self.claims) else PASS


@dataclass
class RuleResult:
    """A consistency rule of procedures.py and what it found."""

    game: str
    rule: Declared
    status: str
    problems: list[str] = field(default_factory=list)


@dataclass
class GameResult:
    game: str
    folder: Path
    examples: list[ExampleResult] = field(default_factory=list)
    stray: list[CheckResult] = field(default_factory=list)
    rules: list[RuleResult] = field(default_factory=list)
    report: Report = field(default_factory=Report)  # validation diagnostics of this game
    loaded: Game | None = None

    def count(self, status: str) -> int:
        return sum(1 for e in self.examples if e.status == status)

    def claims(self, state: str) -> int:
        """How many numbers of the examples' prose are bound, free or unbound."""
        return sum(1 for e in self.examples for c in e.claims if c.claim.state == state)

    @property
    def failed(self) -> bool:
        return bool(self.report.errors or self.stray or any(e.status in (FAIL, ERROR) for e in self.examples)
                    or any(r.status != PASS for r in self.rules))


@dataclass
class CheckRun:
    games: list[GameResult] = field(default_factory=list)
    tables_failed: bool = False

    @property
    def failed(self) -> bool:
        return any(g.failed for g in self.games)


# --- what stops a block from running --------------------------------------------------

def block_diagnostics(game: Game, block: CheckBlock, procedures: Procedures) -> list[Diagnostic]:
    """Every problem of one check block that `validate` reports (E030–E033, E007)."""
    out = list(block.problems)
    if block.example is None:
        out.append(Diagnostic("E030", "check block outside an example container", block.location(),
                              "put it inside '::: example ID' … ':::', after the example's text"))
    name = block.procedure
    if name is None:
        return out
    proc = procedures.get(name)
    if proc is None:
        if not procedures.problems:  # else the module's own E034 is the one problem to fix
            out.append(Diagnostic("E031", f"unknown procedure '{name}'", block.location("procedure"),
                                  procedures.unknown_hint(name)))
        return out
    try:
        proc.bind(game, block.inputs)
    except InputErrors as exc:
        for error in exc.errors:
            if error.follows:
                continue  # a record that failed validation: reported on the record
            where = block.location("inputs", error.key) if error.key in block.inputs else block.location(
                "inputs" if "inputs" in block.data else "procedure")
            out.append(Diagnostic(error.code, error.args[0], where, error.hint))
    return out


def procedure_diagnostics(procedures: Procedures) -> list[Diagnostic]:
    """Problems of the procedures module itself (E034)."""
    return [Diagnostic(p.code, p.message, Location(p.path, p.line, 1 if p.line else 0), p.hint)
            for p in procedures.problems]


# --- running ---------------------------------------------------------------------------

def run_block(game: Game, block: CheckBlock, procedures: Procedures) -> CheckResult:
    """Run one check block: its dice against `expect`, exactly against `exact`."""
    return _run_block(game, block, procedures)[0]


def _run_block(game: Game, block: CheckBlock, procedures: Procedures) -> tuple[CheckResult, Any]:
    """The block's result, and its run with the block's dice (None without one): what the
    numbers of the example's prose are compared with."""
    stopped, proc, inputs = _prepared(game, block, procedures)
    if stopped is not None:
        return stopped, None
    result = CheckResult(block, PASS)
    outcome = None
    try:
        if block.expect is not None:
            outcome = _against_expect(result, proc, game, inputs)
        if block.exact:
            _against_exact(result, proc, game, inputs)
    except _Crash as crash:  # a bug in procedures.py: show where, not a traceback
        return _crashed(result, proc.path, crash.error), None
    if result.mismatches or result.notes:
        result.status = FAIL
    return result, outcome


class _Crash(Exception):
    """A procedure raised what no rule explains (a bug in procedures.py): the block stops."""

    def __init__(self, error: Exception):
        super().__init__(str(error))
        self.error = error


def _prepared(game: Game, block: CheckBlock, procedures: Procedures) -> tuple[CheckResult | None, Any, Any]:
    """(None, the procedure, its inputs) for a block that can run, else (its ERROR result, None,
    None): a validation problem, a procedures module that cannot be loaded, inputs it refuses."""
    problems = block_diagnostics(game, block, procedures)
    if problems:
        notes = [Note(f"{d.message}" + (f" ({d.hint})" if d.hint else ""), d.location, True) for d in problems]
        return CheckResult(block, ERROR, notes=notes), None, None
    proc = procedures.get(block.procedure or "")
    if proc is None:  # procedures.py cannot be loaded: its E034 says why
        where = Location(procedures.path, 1) if procedures.path else block.location()
        return CheckResult(block, ERROR, notes=[Note(f"procedure '{block.procedure}' is not available: "
                                                     f"{MODULE} has problems (E034)", where, True)]), None, None
    try:
        return None, proc, proc.bind(game, block.inputs)
    except InputErrors as exc:
        return CheckResult(block, ERROR, notes=[Note(str(exc), block.location("inputs"), True)]), None, None


def _against_expect(result: CheckResult, proc: Any, game: Game, inputs: Any) -> Any:
    """Run the block's procedure with its dice and compare the outcome with `expect`; the
    outcome, or None where the run fails (a note says why). _Crash for a bug."""
    block = result.block
    try:
        outcome = scripted(proc, game, block.dice or [], inputs)
    except ScriptError as exc:
        result.notes.append(Note(str(exc), block.location("dice") if block.dice is not None else block.location()))
        return None
    except (ProcedureError, UnstatedError) as exc:
        result.notes.append(Note(f"{proc.id}: {exc}", block.location()))
        return None
    except Exception as exc:
        raise _Crash(exc) from exc
    subject = proc.id + (" with dice [" + ", ".join(map(str, block.dice)) + "]" if block.dice else "")
    for key, mismatch in compare(outcome, block.expect):
        result.mismatches.append(Mismatch(mismatch.what, mismatch.expected, mismatch.actual,
                                          block.location("expect", key).line, subject))
    return outcome


def _against_exact(result: CheckResult, proc: Any, game: Game, inputs: Any) -> None:
    """Run the block's procedure exactly and compare each statistic with `exact` (a note where
    the run fails). _Crash for a bug."""
    block = result.block
    try:
        dist = exact(proc, game, inputs)
    except (ProcedureError, UnstatedError) as exc:
        result.notes.append(Note(f"{proc.id}: {exc}", block.location("exact", key=True)))
        return
    except Exception as exc:
        raise _Crash(exc) from exc
    for key, stat in block.stats.items():
        line = block.location("exact", key).line
        want = fraction(block.exact[key])
        try:
            got = stat.of(dist)
        except (KeyError, ValueError) as exc:
            result.mismatches.append(Mismatch(key, show_probability(want), str(exc.args[0]), line,
                                              f"{proc.id}, exactly"))
            continue
        if got != want:
            result.mismatches.append(Mismatch(key, show_probability(want), show_probability(got), line,
                                              f"{proc.id}, exactly"))


def _crashed(result: CheckResult, path: Path | None, exc: Exception) -> CheckResult:
    line = error_line(exc, path)
    where = Location(path, line) if path and line else result.block.location()
    result.notes.append(Note(f"the procedure raised {type(exc).__name__}: {exc}", where))
    result.status = ERROR
    return result


def run_rule(game: Game, rule: Declared) -> RuleResult:
    try:
        found = rule.fn(game)
        problems = [str(p) for p in (found or [])] if not isinstance(found, str) else [found]
    except AssertionError as exc:
        problems = [str(exc) or "assertion failed"]
    except UnstatedError as exc:
        problems = [str(exc)]
    except Exception as exc:
        line = error_line(exc, rule.path)
        where = f" (line {line})" if line else ""
        return RuleResult(game.id, rule, ERROR, [f"raised {type(exc).__name__}: {exc}{where}"])
    return RuleResult(game.id, rule, FAIL if problems else PASS, problems)


def check_game(game: Game, report: Report | None = None) -> GameResult:
    """Run every example and consistency rule of one loaded game."""
    procedures = load_procedures(game.folder)
    examples, stray = game_examples(game.folder)
    result = GameResult(game.id, game.folder, report=report or Report(), loaded=game)
    for example in examples:
        runs = [_run_block(game, b, procedures) for b in example.checks]
        claims = check_claims(example, [outcome for _, outcome in runs], game.manifest.source_language)
        result.examples.append(ExampleResult(game.id, example, [check for check, _ in runs], claims))
    result.stray = [run_block(game, b, procedures) for b in stray]
    result.rules = [run_rule(game, rule) for rule in procedures.consistency.values()]
    return result


def _verified(game: Game) -> dict[str, bool]:
    return {e.example.id: e.status == PASS for e in check_game(game).examples if e.status != UNCHECKED}


def verified_examples(game: Game) -> dict[str, bool]:
    """{example id: passed} for every example with a check block: what renderers mark 'verified'.
    The examples run bounded (bounded.py); none counts as verified when they overrun."""
    return start_verified(game)()


def start_verified(game: Game) -> Callable[[], dict[str, bool]]:
    """verified_examples started: the examples run in their bounded child while the caller
    goes on; calling what is returned waits for them."""
    from .bounded import start_bounded

    if not (game.folder / "procedures.py").is_file():
        found = _verified(game)
        return lambda: found
    child = start_bounded(_verified, game)

    def wait() -> dict[str, bool]:
        outcome = child.wait()
        return outcome.value if outcome.ok else {}
    return wait


__all__ = [
    "CheckResult", "CheckRun", "ERROR", "ExampleResult", "FAIL", "GameResult", "Note", "PASS",
    "RuleResult", "UNCHECKED", "block_diagnostics", "check_game", "procedure_diagnostics", "run_block", "run_rule",
    "start_verified", "verified_examples",
]
