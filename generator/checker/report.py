"""A check run as text for people, JSON for tools, or GitHub workflow annotations."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from ..core.diagnostics import Location
from .expect import Mismatch, show
from .prose import ClaimResult
from .runner import ERROR, FAIL, PASS, UNCHECKED, CheckResult, CheckRun, ExampleResult, GameResult, RuleResult

LABELS = {PASS: "PASS", FAIL: "FAIL", ERROR: "ERROR", UNCHECKED: "UNCHECKED"}
CLAIM_STATES = ("bound", "free", "unbound")  # what the numbers of an example's prose are (text/claims.py)


def _where(path: Path | None, line: int, root: Path | None) -> str:
    return Location(path, line).display(root) if path is not None else "?"


def _subject(check: CheckResult, mismatch: Mismatch) -> str:
    return mismatch.subject or check.block.procedure or "?"


# --- text ------------------------------------------------------------------------------

def _text_check(check: CheckResult, root: Path | None) -> list[str]:
    out = []
    for mismatch in check.mismatches:
        out.append(f"  {_where(check.block.path, mismatch.line or check.block.line, root)}: "
                   f"{_subject(check, mismatch)}: {mismatch.what}")
        out.append(f"    expected: {mismatch.expected}")
        out.append(f"    actual:   {mismatch.actual}")
    for note in check.notes:
        out.append(f"  {note.location.display(root)}: {note.message}")
    return out


def _text_example(result: ExampleResult, root: Path | None) -> list[str]:
    example = result.example
    status = result.status
    extra = f" ({len(result.checks)} checks)" if len(result.checks) > 1 else ""
    lines = [f"{LABELS[status]:<9} {_where(example.path, example.line, root)} {example.id}{extra}"]
    for check in result.checks:
        if check.status != PASS:
            lines.extend(_text_check(check, root))
    for claim in result.claims:
        if claim.failed:
            lines.append(f"  {Location(claim.path, claim.line, claim.col).display(root)}: {claim.message}")
    return lines


def _text_rule(rule: RuleResult, root: Path | None) -> list[str]:
    lines = [f"{LABELS[rule.status]:<9} {_where(rule.rule.path, rule.rule.line, root)} rule {rule.rule.id}"]
    lines.extend(f"  {problem}" for problem in rule.problems)
    return lines


def _summary(game: GameResult) -> str:
    rules_ok = sum(1 for r in game.rules if r.status == PASS)
    parts = [f"{game.count(PASS)} passed", f"{game.count(FAIL)} failed"]
    if game.count(ERROR) or game.stray:
        parts.append(f"{game.count(ERROR) + len(game.stray)} with errors")
    parts.append(f"{game.count(UNCHECKED)} unchecked")
    text = f"{game.game}: {len(game.examples)} example{'' if len(game.examples) == 1 else 's'}: " + ", ".join(parts)
    text += f"; prose numbers: {_claim_counts(game)}"
    if game.rules:
        text += f"; consistency rules: {rules_ok}/{len(game.rules)} hold"
    if game.report.errors:
        text += f"; {len(game.report.errors)} content error(s)"
    return text + (" — FAILED" if game.failed else " — ok")


def _claim_counts(game: GameResult) -> str:
    return ", ".join(f"{game.claims(state)} {state}" for state in CLAIM_STATES)


def render_text(run: CheckRun, root: Path | None = None) -> str:
    lines: list[str] = []
    for game in run.games:
        lines.extend(d.format_text(root) for d in game.report.sorted())
        for example in game.examples:
            lines.extend(_text_example(example, root))
        for check in game.stray:
            lines.append(f"{LABELS[ERROR]:<9} {_where(check.block.path, check.block.line, root)} (outside any example)")
            lines.extend(_text_check(check, root))
        for rule in game.rules:
            lines.extend(_text_rule(rule, root))
    return "\n".join(lines)


def summary_text(run: CheckRun) -> str:
    return "\n".join(_summary(game) for game in run.games)


# --- json ------------------------------------------------------------------------------

def _json_check(check: CheckResult, root: Path | None) -> dict[str, Any]:
    block = check.block
    return {
        "line": block.line,
        "procedure": block.procedure,
        "dice": block.dice,
        "result": check.status,
        "mismatches": [{"what": m.what, "expected": m.expected, "actual": m.actual, "line": m.line or block.line,
                        "run": m.subject} for m in check.mismatches],
        "messages": [{"message": n.message, "file": Location(n.location.path).display(root), "line": n.location.line}
                     for n in check.notes],
    }


def _json_claim(claim: ClaimResult, root: Path | None) -> dict[str, Any]:
    return {"file": Location(claim.path).display(root), "line": claim.line, "column": claim.col,
            "text": claim.claim.text, "value": None if claim.claim.value is None else show(claim.claim.value),
            "state": claim.claim.state, "binding": str(claim.claim.binding) if claim.claim.binding else None,
            "bound_result": claim.actual, "verdict": claim.verdict, "message": claim.message}


def as_dict(run: CheckRun, root: Path | None = None) -> dict[str, Any]:
    examples, rules, stray, diagnostics = [], [], [], []
    for game in run.games:
        diagnostics.extend(d.as_dict(root) for d in game.report.sorted())
        for result in game.examples:
            examples.append({
                "game": game.game, "id": result.example.id,
                "file": Location(result.example.path).display(root), "line": result.example.line,
                "result": result.status, "checks": [_json_check(c, root) for c in result.checks],
                "claims": [_json_claim(c, root) for c in result.claims],
            })
        for check in game.stray:
            stray.append({"game": game.game, "file": Location(check.block.path).display(root),
                          **_json_check(check, root)})
        for rule in game.rules:
            rules.append({"game": game.game, "id": rule.rule.id,
                          "file": Location(rule.rule.path).display(root) if rule.rule.path else None,
                          "line": rule.rule.line, "result": rule.status, "problems": rule.problems})
    count = {s: sum(1 for e in examples if e["result"] == s) for s in (PASS, FAIL, ERROR, UNCHECKED)}
    return {
        "passed": not run.failed,
        "games": [{"game": g.game, "passed": not g.failed,
                   "claims": {state: g.claims(state) for state in CLAIM_STATES}} for g in run.games],
        "summary": {"examples": len(examples), **count,
                    "rules": len(rules), "rules_failed": sum(1 for r in rules if r["result"] != PASS),
                    "errors": sum(1 for d in diagnostics if d["severity"] == "error")},
        "examples": examples,
        "stray_checks": stray,
        "rules": rules,
        "diagnostics": diagnostics,
    }


# --- github ----------------------------------------------------------------------------

def _annotation(kind: str, path: Path | None, line: int, title: str, message: str, root: Path | None) -> str:
    message = message.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")
    file = Location(path).display(root) if path else ""
    return f"::{kind} file={file},line={line or 1},title={title}::{message}"


def render_github(run: CheckRun, root: Path | None = None) -> str:
    lines: list[str] = []
    for game in run.games:
        lines.extend(d.format_github(root) for d in game.report.sorted())
        for result in game.examples:
            title = f"example {result.example.id}"
            for check in result.checks:
                for m in check.mismatches:
                    lines.append(_annotation("error", check.block.path, m.line or check.block.line, title,
                                             f"{_subject(check, m)}: {m.what}: expected {m.expected}, actual {m.actual}",
                                             root))
                for n in check.notes:
                    if n.diagnostic:
                        continue  # already annotated as a validation diagnostic
                    lines.append(_annotation("error", n.location.path, n.location.line, title, n.message, root))
            for claim in result.claims:
                if claim.failed:
                    lines.append(_annotation("error", claim.path, claim.line, title, claim.message, root))
        for rule in game.rules:
            for problem in rule.problems:
                lines.append(_annotation("error", rule.rule.path, rule.rule.line, f"rule {rule.rule.id}", problem, root))
    return "\n".join(lines)


def render(run: CheckRun, fmt: str, root: Path | None = None) -> str:
    if fmt == "json":
        return json.dumps(as_dict(run, root), ensure_ascii=False, indent=2)
    if fmt == "github":
        return render_github(run, root)
    return render_text(run, root)


__all__ = ["as_dict", "render", "render_github", "render_text", "summary_text"]
