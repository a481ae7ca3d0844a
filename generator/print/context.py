"""What every document of one game in one language needs: data, text, translations."""

from __future__ import annotations

import os
import posixpath
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING

from jinja2 import Environment, FileSystemLoader, StrictUndefined, TemplateNotFound, select_autoescape
from jinja2.loaders import split_template_path

from ..system import folders
from ..reading.game import Game
from ..i18n.translate import Translator
from ..model import Record
from ..text.chapters import Chapter, load_chapters
from ..project.templates import PACKAGE_TEMPLATES
from .fonts import font_face_css

if TYPE_CHECKING:
    from .facepages import FacePages




def template_dirs(game: Game, project_root: Path) -> list[Path]:
    """A game's own templates/ first, then the project's, then Rulesmith's."""
    dirs = [game.folder / "templates", project_root / "templates", PACKAGE_TEMPLATES]
    out: list[Path] = []
    for folder in dirs:
        if folder.is_dir() and folder.resolve() not in [d.resolve() for d in out]:
            out.append(folder)
    return out


class TemplateFolders(FileSystemLoader):
    """Jinja's loader of template folders, reading each template the one way files are read
    (folders.read_text): a named pipe or a device named like a template is skipped as Jinja
    skips what is not a file, and one swapped in afterwards is refused instead of waited on."""

    def get_source(self, environment: Environment, template: str):
        pieces = split_template_path(template)  # no '..' out of the folders
        found = next((f for f in (posixpath.join(folder, *pieces) for folder in self.searchpath)
                      if os.path.isfile(f)), None)
        if found is None:
            raise TemplateNotFound(template)
        contents, mtime = folders.read_text(found), os.path.getmtime(found)

        def uptodate() -> bool:
            try:
                return os.path.getmtime(found) == mtime
            except OSError:
                return False

        return contents, os.path.normpath(found), uptodate


def template_file(dirs: list[Path], name: str) -> Path:
    """`name` in the first of `dirs` that holds it as a file; FileNotFoundError when none does."""
    for folder in dirs:
        if (folder / name).is_file():
            return folder / name
    raise FileNotFoundError(f"no template file {name} in {', '.join(map(str, dirs))}")


def template_text(dirs: list[Path], name: str) -> str:
    """The text of `template_file(dirs, name)`, read the one way files are read."""
    return folders.read_text(template_file(dirs, name))


def environment(dirs: list[Path]) -> Environment:
    env = Environment(loader=TemplateFolders([str(d) for d in dirs]), autoescape=select_autoescape(["j2", "html"]),
                      undefined=StrictUndefined, trim_blocks=True, lstrip_blocks=True)
    return env


@dataclass
class BuildContext:
    game: Game
    lang: str
    project_root: Path
    examples: dict[str, bool] = field(default_factory=dict)
    # build --changes-since: a project folder holding the game at REF, as the build read it from
    # git (once for all its documents); None: each reads REF itself (print/living.py)
    older: Path | None = None
    # the card faces the fitting laid out, kept for the card images (facepages.FacePages); None: not kept
    face_pages: FacePages | None = field(default=None, compare=False, repr=False)
    _modules: dict[str, list] = field(default_factory=dict, init=False, repr=False, compare=False)
    _stylesheets: dict[str, str] = field(default_factory=dict, init=False, repr=False, compare=False)

    @cached_property
    def tr(self) -> Translator:
        return Translator.load(self.game, self.lang)

    @cached_property
    def authors(self) -> str:
        """The credits as this language writes them ('Дракон (перевод)' -> 'Дракон (translation)')."""
        return ", ".join(self.tr.manifest("authors", i) for i in range(len(self.game.manifest.authors)))

    @cached_property
    def chapters(self) -> list[Chapter]:
        return load_chapters(self.game.folder)

    @cached_property
    def templates(self) -> list[Path]:
        return template_dirs(self.game, self.project_root)

    @cached_property
    def env(self) -> Environment:
        env = environment(self.templates)
        env.globals.update(ui=self.tr.ui, lang=self.lang, fonts_css=font_face_css())
        return env

    def macro(self, template: str, name: str):
        """The macro `name` from the first template folder whose `template` file defines it (the
        game's, then the project's, then Rulesmith's): a game's file holds only the macros it
        adds or changes. KeyError when none does."""
        modules = self._modules.get(template)
        if modules is None:
            modules = self._modules[template] = [
                self.env.from_string(folders.read_text(folder / template)).module
                for folder in self.templates if (folder / template).is_file()]
        for module in modules:
            if hasattr(module, name):
                return getattr(module, name)
        raise KeyError(f"no macro '{name}' in {template} of {', '.join(str(f) for f in self.templates)}")

    def css(self, name: str) -> str:
        """A stylesheet from the first template folder that has it (read once per context: a
        deck's thousand faces each take the card stylesheet)."""
        found = self._stylesheets.get(name)
        if found is None:
            found = self._stylesheets[name] = template_text(self.templates, name)
        return found

    @property
    def roots(self) -> list[Path]:
        """Folders WeasyPrint may read from."""
        return [self.game.folder, *self.templates]

    @property
    def title(self) -> str:
        return self.tr.title()

    def output_dir(self) -> Path:
        return self.project_root / "output" / self.game.id / self.lang


def print_config(ctx: BuildContext) -> dict:
    """The game's print.yaml (how it prints: reference sections, layout limits), or {}."""
    from ..reading.loader import read_settings
    from ..model.printing import PrintConfig

    path = ctx.game.folder / "print.yaml"
    if not path.is_file():
        return {}
    return read_settings(path, PrintConfig)


def print_linker(anchors: set[str]):
    """Links inside one PDF: only to anchors the document really has."""
    def link(record: Record) -> str | None:
        anchor = f"{record.kind}-{record.id}"
        return f"#{anchor}" if anchor in anchors else None
    return link


def source_mark(game: Game, location) -> str:
    """`data-src` value for an element printed from `location` (a Location or a Record):
    'data/units.yaml:12', relative to the game folder, for the layout check to cite."""
    if isinstance(location, Record):
        try:
            location = game.origin(location).location("id")
        except KeyError:
            return ""
    if location is None:
        return ""
    try:  # as written first (a deck's cards are read from a few files: no lookups on disk for each)
        path = Path(os.path.abspath(location.path)).relative_to(os.path.abspath(game.folder))
    except ValueError:
        try:
            path = location.path.resolve().relative_to(game.folder.resolve())
        except ValueError:
            return ""
    return f"{path.as_posix()}:{location.line}"


def section_mark(game: Game, section: str) -> str:
    """`data-src` of a whole section: where its first record is."""
    records = game.section(section)
    return source_mark(game, next(iter(records.values()))) if records else ""
