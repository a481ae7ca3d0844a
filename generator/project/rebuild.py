"""What an output is made from, hashed: the game's files (only its own language's
translation), the template files it reads, the fonts, the build options and Rulesmith's
version. Two builds that hash an output's inputs alike make the same files, so the second
one keeps them (see manifest.py)."""

from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path

from ..system import folders
from .manifest import digest, file_hash, files_hash, fonts_hash, rulesmith_version
from .templates import PACKAGE_TEMPLATES

LOCALE_FILE = re.compile(r"^([A-Za-z]{2,3}(?:-[A-Za-z0-9]+)*)\.(po|terms\.yaml)$")


class Inputs:
    """Hashes of one project's inputs, each file read once per build."""

    def __init__(self, project):
        self.project = project
        self._files: dict[str, list[tuple[str, str]]] = {}

    def _game_files(self, game: str) -> list[tuple[str, str]]:
        if game not in self._files:
            folder = self.project.content / game
            found = []
            for path in folders.files(folder, {"__pycache__"}):
                found.append((path.relative_to(folder).as_posix(), file_hash(path)))
            self._files[game] = found
        return self._files[game]

    def game(self, game: str, lang: str | None = None) -> str:
        """The game's files; with `lang`, without other languages' translations."""
        parts = []
        for rel, sha in self._game_files(game):
            match = LOCALE_FILE.match(rel.rsplit("/", 1)[-1]) if rel.startswith("locale/") else None
            if lang is not None and match and match.group(1) != lang:
                continue
            parts += [rel, sha]
        return digest(*parts)

    def template_dirs(self, game: str) -> list[Path]:
        dirs = [self.project.content / game / "templates", self.project.templates, PACKAGE_TEMPLATES]
        return [d for d in dirs if d.is_dir()]

    def templates(self, game: str, names) -> str:
        files = []
        for folder in self.template_dirs(game):
            for name in names:
                files += sorted(folder.glob(name)) if "*" in name else [folder / name]
        return files_hash(files)

    def tables(self, game: str) -> str:
        folder = self.project.output / game / "tables"
        return files_hash(sorted(folder.glob("*.json"))) if folder.is_dir() else digest()

    @staticmethod
    def common() -> str:
        return digest(rulesmith_version(), fonts_hash())

    @staticmethod
    @lru_cache(maxsize=None)
    def weasyprint() -> str:
        from weasyprint import __version__

        return __version__
