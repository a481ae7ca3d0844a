"""A designer's project folder: `content/` with one folder per game, `templates/`, `output/`."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from ..core.diagnostics import Location, Report, did_you_mean
from ..reading.game import Game
from ..reading.loader import MANIFEST, load_game, load_manifest


# A folder under content/ with any of these is a game (one without game.yaml gets E017, not skipped).
GAME_PARTS = (MANIFEST, "data", "rules", "locale", "procedures.py", "ERRATA.md")


class UsageError(Exception):
    """The command was asked for something that does not exist (exit code 2)."""


@dataclass(frozen=True)
class Project:
    root: Path

    @property
    def content(self) -> Path:
        return self.root / "content"

    @property
    def output(self) -> Path:
        return self.root / "output"

    @property
    def templates(self) -> Path:
        return self.root / "templates"

    def game_ids(self) -> list[str]:
        if not self.content.is_dir():
            return []
        return sorted(p.name for p in self.content.iterdir()
                      if p.is_dir() and any((p / name).exists() for name in GAME_PARTS))

    def resolve_games(self, names: tuple[str, ...] | list[str]) -> list[str]:
        known = self.game_ids()
        if not names:
            if not known:
                raise UsageError(f"no games under {self.content} (a game is a folder with {MANIFEST})")
            return known
        for name in names:
            if name not in known:
                hint = did_you_mean(name, known) or f"games here: {', '.join(known) or 'none'}"
                raise UsageError(f"no game '{name}' under {self.content}; {hint}")
        return list(names)

    def languages(self, names: list[str]) -> dict[str, list[str]]:
        """Each named game's languages, the source first (games whose manifest does not load
        are left out: validating them says why)."""
        found = {}
        for name in names:
            loaded = load_manifest(self.content / name, Report())
            if loaded is not None:
                found[name] = [loaded[0].source_language, *loaded[0].languages]
        return found

    def resolve_languages(self, names: list[str], langs: tuple[str, ...] | list[str]) -> None:
        """Refuse (UsageError) a language that none of the named games is in."""
        have = self.languages(names)
        known = [lang for langs_of in have.values() for lang in langs_of]
        for lang in langs:
            if have and lang not in known:
                each = "; ".join(f"{name}: {', '.join(langs_of)}" for name, langs_of in have.items())
                hint = did_you_mean(lang, known) or "choose one of those, or leave --lang out for all"
                raise UsageError(f"no selected game has language '{lang}' ({each}); {hint}")

    def read(self, game_id: str, report: Report) -> Game | None:
        """Load one game, unchecked, with what the rules checker computes for its text
        (game.computed: `{{ calc:... }}` numbers and the procedures' tables, each computed
        when first shown); None if it could not be loaded at all."""
        game = load_game(self.content / game_id, report)
        if game is not None:
            from ..checker.shown import ProcedureResults

            game.computed = ProcedureResults(game)
        return game

    def load(self, game_id: str, report: Report, checks: bool = True, catalogs: bool = True,
             examples: bool = False) -> Game | None:
        """Load and check one game; None if it could not be loaded at all. With
        checks=False only the stats are parsed (for builds of content already validated);
        catalogs=False skips the translation catalogs (for `rulesmith check`); examples=True
        also runs the worked examples (game.check_result). The game's procedures.py runs in
        a child process with a time limit (checker/bounded.py)."""
        game = self.read(game_id, report)
        if game is not None:
            if checks:
                from ..checks.trial import check_bounded

                game.check_result = check_bounded(game, report, catalogs=catalogs, examples=examples)
            else:
                from ..checks import stats

                stats.check(game, report)
        return game


def find_root(start: Path) -> Path:
    """The nearest folder at or above `start` that has a content/ folder, else `start`."""
    start = start.resolve()
    for folder in (start, *start.parents):
        if (folder / "content").is_dir():
            return folder
    return start


__all__ = ["Location", "Project", "UsageError", "find_root"]
