"""No function of generator/ is above cyclomatic complexity 20 on radon's scale: a reader can
hold each one in mind. A function that grows past the limit fails here with its file:line."""

from __future__ import annotations

from pathlib import Path

from radon.complexity import cc_visit

REPO = Path(__file__).resolve().parents[1]
LIMIT = 20


def too_complex(source: str, name: str) -> list[str]:
    """`file:line name (complexity)` of each function or method of `source` above LIMIT."""
    found = []
    for block in cc_visit(source):
        for part in [block, *getattr(block, "methods", [])]:
            if part.complexity > LIMIT and getattr(part, "letter", "F") != "C":
                found.append(f"{name}:{part.lineno} {part.fullname} ({part.complexity})")
    return found


def test_no_function_of_the_generator_is_above_the_limit():
    found = []
    for path in sorted((REPO / "generator").rglob("*.py")):
        found += too_complex(path.read_text(encoding="utf-8"), str(path.relative_to(REPO)))
    assert not found, "split these into named steps or a table of cases:\n" + "\n".join(found)


def test_a_function_past_the_limit_is_named_with_its_line():
    branches = "\n".join(f"    if x == {i}:\n        return {i}" for i in range(LIMIT))
    source = f"def fine(x):\n    return x\n\n\ndef long(x):\n{branches}\n    return -1\n"
    assert too_complex(source, "planted.py") == [f"planted.py:5 long ({LIMIT + 1})"]
    assert too_complex(source.replace(f"    if x == {LIMIT - 1}:\n        return {LIMIT - 1}\n", ""), "planted.py") == []
