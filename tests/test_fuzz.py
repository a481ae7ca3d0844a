"""No content error, whatever the input, ends in a traceback: mutate real content files at
random (seeded, bounded) and validate each result."""

from __future__ import annotations

import random
import shutil
from pathlib import Path

import pytest

from generator.core.diagnostics import Report
from generator.project import Project

from .conftest import REPO

MUTATIONS = 60
SNIPPETS = ["", ":", "- ", "{", "}", "[", "]", "'", '"', "\n  ", "\t", "&a ", "*a", "!!binary ", "? ",
            "{{ unit:", "}}", "::: example", ":::", "# ", "\x00", "~", "null", "-1", "1e999", "id: X",
            "stats: {", "quality: 9", "roll: 7-1", "keywords: [ББ]", "| a |", "\ufeff", "%YAML 1.1\n---\n"]


def mutate(text: str, rng: random.Random) -> str:
    for _ in range(rng.randint(1, 4)):
        pos = rng.randrange(len(text) + 1)
        action = rng.random()
        if action < 0.4:
            text = text[:pos] + rng.choice(SNIPPETS) + text[pos:]
        elif action < 0.7:
            text = text[:pos] + text[pos + rng.randint(1, 40):]
        else:
            lines = text.splitlines(keepends=True)
            if lines:
                i = rng.randrange(len(lines))
                lines.insert(rng.randrange(len(lines) + 1), lines[i])
                text = "".join(lines)
    return text


@pytest.mark.parametrize("game", ["nuclear", "rock-n-roll"])
def test_mutated_content_never_crashes(game: str, tmp_path: Path):
    folder = tmp_path / "content" / game
    shutil.copytree(REPO / "content" / game, folder, ignore=shutil.ignore_patterns("procedures.py"))
    files = sorted(folder.glob("data/*.yaml")) + [folder / "game.yaml"] + sorted(folder.glob("rules/*.md"))[:3] \
        + sorted(folder.glob("locale/*.po"))
    rng = random.Random(f"{game}-fuzz")
    originals = {p: p.read_text(encoding="utf-8") for p in files}
    for _ in range(MUTATIONS):
        path = rng.choice(files)
        path.write_text(mutate(originals[path], rng), encoding="utf-8")
        report = Report()
        Project(tmp_path).load(game, report)  # must not raise
        for d in report.diagnostics:
            assert d.code and d.message and d.location.path.exists()
        path.write_text(originals[path], encoding="utf-8")
