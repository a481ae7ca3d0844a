"""Build output/site/: all games and languages, assets, downloads, then the search index.
The site is written to a temporary folder and swapped in whole, never half-written."""

from __future__ import annotations

import shutil
import time
from dataclasses import dataclass
from pathlib import Path

from markupsafe import Markup

from ..print.context import PACKAGE_TEMPLATES, BuildContext, environment, template_dirs
from ..print.fonts import FAMILIES, STYLES
from ..diagnostics import Report
from ..i18n.translate import report_fallbacks
from ..i18n.ui import ui
from ..project import Project
from .components import copy_images
from .pages import SitePage, game_pages
from .search import index_site


@dataclass
class SiteResult:
    root: Path
    pages: int
    seconds: float
    search: bool


def _font_css() -> str:
    rules = []
    for family, (_folder, prefix) in FAMILIES.items():
        for (weight, style), suffix in STYLES.items():
            rules.append(f'@font-face {{ font-family: "{family}"; font-weight: {weight}; font-style: {style}; '
                         f'font-display: swap; src: url("fonts/{prefix}-{suffix}.ttf"); }}')
    return "\n".join(rules)


def _copy_assets(dirs: list[Path], out: Path) -> None:
    assets = out / "assets"
    (assets / "fonts").mkdir(parents=True, exist_ok=True)
    for _family, (folder, prefix) in FAMILIES.items():
        for suffix in STYLES.values():
            shutil.copyfile(folder / f"{prefix}-{suffix}.ttf", assets / "fonts" / f"{prefix}-{suffix}.ttf")
    css = [_font_css()]
    for name in ("site/site.css", "cards.css"):
        path = next(d / name for d in dirs if (d / name).exists())
        text = path.read_text(encoding="utf-8")
        if name == "cards.css":  # print-only rules are harmless in a browser, but keep the file clean
            text = "\n".join(line for line in text.splitlines() if not line.startswith("@page"))
        css.append(text)
    (assets / "site.css").write_text("\n".join(css), encoding="utf-8")
    js = next(d / "site/site.js" for d in dirs if (d / "site/site.js").exists())
    shutil.copyfile(js, assets / "site.js")


def build_site(project: Project, games: list[str], report: Report, search: bool = True,
               only: set[str] | None = None) -> SiteResult:
    """Build the site for `games`; with `only`, rebuild just those games' pages inside the
    existing site (what `rulesmith serve` does when content changes)."""
    start = time.perf_counter()
    final = project.output / "site"
    if only is not None and final.is_dir():
        return _rebuild_games(project, games, only, report, search, start)
    tmp = project.output / ".site-tmp"
    shutil.rmtree(tmp, ignore_errors=True)
    tmp.mkdir(parents=True)
    count, catalogue, dirs = _build_games(project, games, tmp, report)
    if not dirs:
        dirs = [d for d in (project.root / "templates", PACKAGE_TEMPLATES) if d.is_dir()]
    _copy_assets(dirs, tmp)
    _write_index(dirs, catalogue, tmp)
    count += 1
    searched = index_site(tmp) if search else False
    shutil.rmtree(final, ignore_errors=True)
    tmp.rename(final)
    return SiteResult(final, count, time.perf_counter() - start, searched)


def _rebuild_games(project: Project, games: list[str], only: set[str], report: Report, search: bool,
                   start: float) -> SiteResult:
    final = project.output / "site"
    tmp = project.output / ".site-part"
    shutil.rmtree(tmp, ignore_errors=True)
    tmp.mkdir(parents=True)
    count, _catalogue, dirs = _build_games(project, [g for g in games if g in only], tmp, report)
    if dirs:  # stylesheets and scripts may have changed too
        _copy_assets(dirs, tmp)
        shutil.rmtree(final / "assets", ignore_errors=True)
    for folder in tmp.iterdir():
        shutil.rmtree(final / folder.name, ignore_errors=True)
        folder.rename(final / folder.name)
    shutil.rmtree(tmp, ignore_errors=True)
    shutil.rmtree(final / "pagefind", ignore_errors=True)
    searched = index_site(final) if search else False
    return SiteResult(final, count, time.perf_counter() - start, searched)


def _build_games(project: Project, games: list[str], tmp: Path, report: Report):
    catalogue = []
    count = 0
    dirs: list[Path] = []
    for name in games:
        game = project.load(name, Report())
        if game is None:
            continue
        langs = [game.manifest.source_language, *game.manifest.languages]
        dirs = template_dirs(game, project.root)
        for lang in langs:
            ctx = BuildContext(game, lang, project.root, examples=_verified(game))
            pages = game_pages(ctx, report)
            folder = tmp / game.id / lang
            for page in pages:
                _write_page(ctx, page, pages, langs, folder)
                count += 1
            report_fallbacks(ctx.tr, report, f"{game.id} site ({lang})")
            _copy_downloads(ctx, folder)
            copy_images(ctx, folder)
        catalogue.append((game, langs))
    return count, catalogue, dirs


def _verified(game) -> dict[str, bool]:
    from ..print.jobs import _verified as verified

    return verified(game)


def _write_page(ctx: BuildContext, page: SitePage, pages: list[SitePage], langs: list[str], folder: Path) -> None:
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
    )
    path = folder / page.path
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(html, encoding="utf-8")


LANG_NAMES = {"ru": "Русский", "en": "English", "de": "Deutsch", "fr": "Français", "es": "Español", "pl": "Polski"}


def _copy_downloads(ctx: BuildContext, folder: Path) -> None:
    for kind in ("rulebook", "cards", "reference", "counters", "maps", "maps-large"):
        source = ctx.output_dir() / f"{kind}.pdf"
        if source.exists():
            (folder / "downloads").mkdir(parents=True, exist_ok=True)
            shutil.copyfile(source, folder / "downloads" / f"{kind}.pdf")


def _write_index(dirs: list[Path], catalogue, out: Path) -> None:
    env = environment(dirs)
    env.globals.update(ui=lambda key, lang="en": ui(lang, key))
    games = [{"id": g.id, "langs": [(lang, LANG_NAMES.get(lang, lang), g.manifest.title.get(lang) or
                                     g.manifest.title[g.manifest.source_language]) for lang in langs]}
             for g, langs in catalogue]
    html = env.get_template("site/index.html.j2").render(games=games, Markup=Markup)
    (out / "index.html").write_text(html, encoding="utf-8")
