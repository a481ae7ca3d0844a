"""One game's site pages in one language (output/site/GAME/LANG/): the pages, the chapters'
pages under other editions' names, the words for "did you mean", the install files and the
designer's pictures. A piece of work on its own (`SiteLanguage.run`), so that a build's worker
makes it while other workers make the documents; what it offers for download (the PDFs) is
copied in after the documents are done (downloads.py), and the main process records it all."""

from __future__ import annotations

import json
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import ClassVar

from markupsafe import Markup

from ..system import folders
from .. import outputs
from ..outputs.layout import SITE
from ..core.diagnostics import Diagnostic, Report
from ..i18n.translate import report_fallbacks
from ..print.context import BuildContext
from ..project import Project
from ..project.loaded import loaded
from .components import copy_images
from .downloads import is_download, made_again
from .offline import offline_files
from .pages import SitePage, chapter_aliases, game_pages
from .search import game_terms
from .webfonts import preloads, scripts_of

TERMS = "terms.json"  # in each game-language folder: the words "did you mean" draws from
LANG_NAMES = {"ru": "Русский", "en": "English", "de": "Deutsch", "fr": "Français", "es": "Español", "pl": "Polski"}


@dataclass(frozen=True)
class SiteLanguage:
    """The pages of `game` in `lang` to make: the game's languages (each page links them), its
    examples and whether each checks out (None: checked when made), the site's address,
    whether the page of what changed is made, and the CPU seconds it took last time (0: not
    known), so that the longest goes first."""

    root: Path
    game: str
    lang: str
    langs: tuple[str, ...]
    examples: tuple[tuple[str, bool], ...] | None = None
    site_url: str = ""  # ends with "/", or ""
    changes: bool = False
    cost: float = 0.0
    kind: ClassVar[str] = "site"

    @property
    def label(self) -> str:
        return f"{self.game}/{self.lang}/site"

    @property
    def folder(self) -> Path:
        return self.root / "output" / SITE / self.game / self.lang

    def needs(self, job) -> bool:
        """Whether the pages wait for `job`, a document of their game and language. The pages
        show only which of the documents they offer there are, so one made again over its PDF
        of an earlier build is not waited for: the pages are made beside it (and made again
        after it, should its PDF not stay: SiteBuild.finish). Any other document is."""
        return not made_again(self.root / "output", self.game, self.lang, job.kind)

    def run(self) -> "SitePages":
        """Load the game and make its pages (in a worker of the build: the game is loaded there,
        or kept from the worker's documents of it: project/loaded.py)."""
        project = Project(self.root)
        outputs.confine_to(project.output)
        started, cpu = time.perf_counter(), time.process_time()
        return make_pages(self, loaded(project, self.game, Report()), started, cpu)


@dataclass
class SitePages:
    """What making a language's pages gave: the files written (the downloads are not among
    them), the game's title in the language (None: the game could not be loaded), the pages,
    the diagnostics, and how long it took (wall and CPU seconds)."""

    job: SiteLanguage
    files: list[Path] = field(default_factory=list)
    title: str | None = None
    pages: int = 0
    diagnostics: list[Diagnostic] = field(default_factory=list)
    seconds: float = 0.0
    cpu: float = 0.0
    error: str | None = None
    fault: OSError | None = None


def make_pages(work: SiteLanguage, game, started: float | None = None, cpu: float | None = None) -> SitePages:
    """Write the language's pages from the loaded `game` and remove the files of the folder
    that are gone (except the downloads, which are copied later). `started`, `cpu`: when the
    work started (perf_counter, process_time), if before the game was loaded."""
    started = time.perf_counter() if started is None else started
    cpu = time.process_time() if cpu is None else cpu
    if game is None:
        return SitePages(work)
    from ..print.jobs import checked_examples

    examples = dict(work.examples) if work.examples is not None else checked_examples(game)
    local = Report()
    ctx = BuildContext(game, work.lang, work.root, examples=examples)
    pages = game_pages(ctx, local, changes=work.changes)
    files = _write_pages(ctx, pages, list(work.langs), work.folder, work.site_url)
    report_fallbacks(ctx.tr, local, f"{game.id} site ({work.lang})")
    files += copy_images(ctx, work.folder)
    _remove_gone(work.folder, files)
    return SitePages(work, files, ctx.title, len(pages), local.diagnostics, time.perf_counter() - started,
                     time.process_time() - cpu)


def _write_pages(ctx: BuildContext, pages: list[SitePage], langs: list[str], folder: Path, site_url: str) -> list[Path]:
    """The language folder's words for "did you mean", its pages and its offline files."""
    files = [folder / TERMS]
    outputs.write_if_changed(folder / TERMS, json.dumps(game_terms(pages, ctx.lang), ensure_ascii=False))
    files += [_write_page(ctx, page, pages, langs, folder, site_url) for page in pages]
    files += [_write_alias(ctx, alias, target, pages, folder) for alias, target in chapter_aliases(ctx, langs).items()]
    return files + offline_files(ctx, pages, folder)


def _write_alias(ctx: BuildContext, alias: str, target: str, pages: list[SitePage], folder: Path) -> Path:
    """A chapter's page under another edition's name for it: a page that sends the reader on to
    the chapter (keeping the #section), for search engines its canonical address, and no body
    for the search index."""
    title = next((page.title for page in pages if page.path == target), target)
    html = Markup('<!doctype html>\n<html lang="{lang}"><head><meta charset="utf-8"><title>{title}</title>'
                  '<link rel="canonical" href="{target}"><meta name="robots" content="noindex">'
                  '<meta http-equiv="refresh" content="0; url={target}">'
                  '<script>location.replace("{target}" + location.hash)</script></head>'
                  '<body><p><a href="{target}">{title}</a></p></body></html>\n').format(
        lang=ctx.lang, title=title, target=target)
    path = folder / alias
    outputs.write_if_changed(path, str(html))
    return path


def _remove_gone(folder: Path, files: list[Path]) -> None:
    """Files of the folder this build did not write: pages that are gone. The downloads are
    left to the step that copies them."""
    keep = set(files)
    for path in folders.files(folder):
        if path not in keep and not is_download(folder, path):
            path.unlink()


def _write_page(ctx: BuildContext, page: SitePage, pages: list[SitePage], langs: list[str], folder: Path,
                site_url: str) -> Path:
    up = "../" * page.depth
    root = up + "../../"
    nav = [p for p in pages if p.nav]
    index = nav.index(page) if page in nav else None
    prev_page = nav[index - 1] if index else None
    next_page = nav[index + 1] if index is not None and index + 1 < len(nav) else None
    template = ctx.env.get_template("site/page.html.j2")
    html = template.render(
        page=page, nav=nav, up=up, root=root, prev=prev_page, next=next_page,
        game_title=ctx.title, langs=langs, lang_names=LANG_NAMES, game_id=ctx.game.id,
        preloads=preloads(scripts_of(ctx.lang)), site_url=site_url,
    )
    path = folder / page.path
    outputs.write_if_changed(path, html)
    return path


__all__ = ["LANG_NAMES", "TERMS", "SiteLanguage", "SitePages", "make_pages"]
