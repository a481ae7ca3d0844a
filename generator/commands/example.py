"""`rulesmith new GAME --example`: Rulesmith's example game Zwiad, written under the designer's id.

There is one copy of the example: the repository's content/zwiad. The wheel carries that folder
as package data (generator/examples/zwiad, pyproject.toml's package-dir), so an installed
Rulesmith writes the same files a checkout has. The copy is renamed where the files name the
game by its id (game.yaml's `id:`, the catalogs' headers and comments, procedures.py's docstring);
the game's own words (its title "Zwiad", the scouts "zwiadowcy") stay as they are.
"""

from __future__ import annotations

import re
from pathlib import Path

import click

from .. import outputs
from ..system import folders

EXAMPLE = "zwiad"

# game.yaml's id line; in the other files the id as a word where a file names the game, not in
# its text: a comment line, a catalog header field, the procedures' Python.
_ID_LINE = re.compile(rf"^id:[ \t]*{EXAMPLE}[ \t]*$", re.MULTILINE)
_ID_WORD = re.compile(rf"(?<![\w-]){EXAMPLE}(?![\w-])")
_NAMING_LINE = re.compile(r'^(?:#|"(?:Project-Id-Version|Last-Translator|Language-Team):)')


def example_folder() -> Path:
    """The example game: generator/examples/zwiad in an installed package, the repository's
    content/zwiad when run from a checkout."""
    installed = Path(__file__).resolve().parents[1] / "examples" / EXAMPLE
    return installed if installed.is_dir() else Path(__file__).resolve().parents[2] / "content" / EXAMPLE


def renamed(relative: str, text: str, game_id: str) -> str:
    """A file of the example (its path inside the game folder, its text) as it reads under `game_id`."""
    if relative == "game.yaml":
        return _ID_LINE.sub(f"id: {game_id}", text)
    if relative.endswith(".py"):
        return _ID_WORD.sub(game_id, text)
    if relative.endswith((".po", ".pot")):
        return "".join(_ID_WORD.sub(game_id, line) if _NAMING_LINE.match(line) else line
                       for line in text.splitlines(keepends=True))
    return text


def write_example(target: Path, game_id: str) -> list[Path]:
    """Write the example game into `target` as `game_id`; the files written."""
    source = example_folder()
    if not (source / "game.yaml").is_file():  # an installation that lost its package data
        raise click.ClickException(f"this Rulesmith has no example game (looked in {source}); reinstall it "
                                   f"(pip install --force-reinstall rulesmith) or start from 'rulesmith new GAME'")
    written = []
    for path in folders.files(source, {"__pycache__"}):
        relative = path.relative_to(source).as_posix()
        if path.suffix == ".pyc":
            continue
        written.append(outputs.write_content(target / relative,
                                             renamed(relative, path.read_text(encoding="utf-8"), game_id)))
    return written
