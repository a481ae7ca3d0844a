"""Build output/site/: all games and languages, assets, downloads, then the search index.
Each game-language folder is rebuilt only when its inputs changed; within it a page is
written only when its bytes differ, each file atomically; the search index is rebuilt beside
the old one and swapped in whole."""

from __future__ import annotations

import functools
import json
import shutil
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from markupsafe import Markup

from ..system import folders
from .. import outputs
from ..outputs.layout import SITE, SITE_ASSETS, SITE_INDEX, SITE_OWN, SITE_SEARCH, SITE_SEARCH_NEW
from ..core.diagnostics import Report
from ..i18n.translate import report_fallbacks
from ..i18n.ui import ui
from ..project.manifest import Manifest, digest, file_hash, load_diagnostics, save_diagnostics
from ..print.context import PACKAGE_TEMPLATES, BuildContext, environment, template_text
from ..project import Project
from ..project.rebuild import Inputs
from .changes import DATA as changes_data
from .components import copy_images
from .markup import scaled_units
from .offline import offline_files, write_game_list, write_worker
from .pages import SitePage, chapter_aliases, game_pages
from .search import game_terms, index_site
from .webfonts import FONTS, font_face_css, preloads, scripts_of, write_fonts

TERMS = "terms.json"  # in each game-language folder: the words "did you mean" draws from
TEMPLATES = ("site/*", "card.html.j2", "cards.css", "counter.html.j2", "counters.css", "sheets.yaml")


@dataclass
class SiteResult:
    root: Path
    pages: int
    seconds: float
    search: bool
    rebuilt: list[str] | None = None  # game/lang folders written this time


def _write_assets(dirs: list[Path], out: Path) -> list[Path]:
    assets = out / SITE_ASSETS
    written = write_fonts(out.parent, assets)
    for path in folders.files(assets / FONTS):  # the pieces of an older cut, or the TrueType files before them
        if path not in written:
            path.unlink()
    css = [font_face_css()]
    for name in ("cards.css", "counters.css", "site/site.css", "site/roster.css"):  # the site's own rules win over the sheets'
        text = template_text(dirs, name)
        if name == "cards.css":  # print-only rules are harmless in a browser, but keep the file clean
            text = "\n".join(line for line in text.splitlines() if not line.startswith("@page"))
            text = scaled_units(text)  # the preview's own scale (markup.scale_preview)
        if name == "counters.css":
            text = counter_rules(text)
        css.append(text)
    outputs.write_if_changed(assets / "site.css", "\n".join(css))
    for name in ("site.js", "roster.js", "js-yaml.min.js"):  # js-yaml: the list builder opens YAML list files
        outputs.write_if_changed(assets / name, template_text(dirs, f"site/{name}"))
    return [*written, assets / "site.css", assets / "site.js", assets / "roster.js", assets / "js-yaml.min.js"]


def counter_rules(css: str) -> str:
    """The printed counters' own rules (.counter, .t-*), scoped to the counters page's drawings;
    the sheet's page and slot rules stay out."""
    import re

    rules = []
    for selectors, body in re.findall(r"([^{}]+)\{([^{}]*)\}", re.sub(r"/\*.*?\*/", "", css, flags=re.S)):
        chosen = [s.strip() for s in selectors.split(",") if s.strip().startswith((".counter", ".t-"))]
        if chosen:
            rules.append(", ".join(f".counter-scale {s}" for s in chosen) + " {" + body + "}")
    return "\n".join(rules)


def build_site(project: Project, games: list[str], report: Report, search: bool = True,
               only: set[str] | None = None, *, manifest: Manifest | None = None, inputs: Inputs | None = None,
               verified: dict[str, dict[str, bool]] | None = None, on_page=None,
               langs: list[str] | None = None, site_url: str = "", changes: bool = False) -> SiteResult:
    """Build the site for `games`; with `only`, rebuild just those games and keep the others'
    folders as they are (their content was not validated in this run); with `langs` (build
    --lang), rebuild only those languages and keep the other languages' pages as built.
    `site_url`, the address the site is published at, makes the pages' canonical and language
    links absolute. `changes` (build --changes-since): each game gets its page of what changed,
    from the errata sheet's entries."""
    start = time.perf_counter()
    outputs.confine_to(project.output)
    run = _SiteBuild(project, project.output / SITE, report,
                     manifest if manifest is not None else Manifest.load(project.output), inputs or Inputs(project),
                     verified if verified is not None else {}, on_page, langs,
                     site_url.rstrip("/") + "/" if site_url else "", changes=changes)
    count, catalogue = _build_games(run, games, only)
    if only is None:
        _remove_dropped_games(run.final, catalogue)
    changed = _write_shared(run, catalogue)
    searched = _search_index(run, changed) if search else False
    if manifest is None:  # the caller saves its own
        run.manifest.save()
    return SiteResult(run.final, count + 1, time.perf_counter() - start, searched, run.rebuilt)


@dataclass
class _SiteBuild:
    """One run of build_site: where it writes, what the last build left (`manifest`), what it
    was asked for, and the game-language folders it rebuilt."""

    project: Project
    final: Path  # output/site
    report: Report
    manifest: Manifest
    inputs: Inputs
    verified: dict[str, dict[str, bool]]  # game -> its examples and whether each checks out
    on_page: Callable[[str, int, float], None] | None  # told of each folder built: label, pages, seconds
    langs: list[str] | None  # only these languages (build --lang)
    site_url: str  # ends with "/", or ""
    changes: bool = False  # each game's page of what changed (build --changes-since)
    rebuilt: list[str] = field(default_factory=list)  # game/lang folders written this time


def _build_games(run: _SiteBuild, games: list[str], only: set[str] | None) -> tuple[int, list[dict]]:
    """(pages, the site's catalogue of games): each game asked for is built; a game not in
    `only` keeps its folder and its place in the catalogue, if it was built before."""
    count, catalogue = 0, []
    for name in games:
        if only is not None and name not in only:
            entry = run.manifest.get(f"site-game:{name}")
            if entry and (run.final / name).is_dir():
                catalogue.append(entry["catalogue"])
            continue
        built = _build_game(run, name)
        if built is None:
            continue
        pages, entry = built
        count += pages
        catalogue.append(entry)
        run.manifest.entries[f"site-game:{name}"] = {"inputs": "", "files": {}, "catalogue": entry}
    return count, catalogue


def _remove_dropped_games(final: Path, catalogue: list[dict]) -> None:
    """Games no longer built leave the site."""
    if not final.is_dir():
        return
    kept = {c["id"] for c in catalogue} | set(SITE_OWN)
    for folder in final.iterdir():
        if folder.is_dir() and folder.name not in kept:
            folders.remove(folder)


def _write_shared(run: _SiteBuild, catalogue: list[dict]) -> bool:
    """What the games share: the assets, the offline worker, the site's index page, then each
    game's list of files for offline use (its version is made from the files it lists). True
    if the index page changed."""
    project, final = run.project, run.final
    dirs = [d for d in (project.templates, PACKAGE_TEMPLATES) if d.is_dir()]
    _write_assets(dirs, final)
    write_worker(final)
    changed = outputs.write_if_changed(final / SITE_INDEX, _index_html(dirs, catalogue))
    for entry in catalogue:
        write_game_list(final, entry["id"])
    return changed


def _search_index(run: _SiteBuild, changed: bool) -> bool:
    """The search index, made again when a page folder or the index page changed since it was
    made. False if it could not be made."""
    key = "site-search"
    manifest = run.manifest
    state = digest(sorted((k, e["inputs"]) for k, e in manifest.entries.items() if k.startswith("site:")),
                   file_hash(run.final / SITE_INDEX))
    if not (run.rebuilt or changed or not manifest.fresh(key, state)):
        return True
    searched = _index(run.final)
    if searched:
        manifest.record(key, state, folders.files(run.final / SITE_SEARCH))
    return searched


def _build_game(run: _SiteBuild, name: str) -> tuple[int, dict] | None:
    """(pages, the game's catalogue entry) of a game's folder, language by language; a language
    whose inputs are as the last build found them (or not asked for) keeps its pages. None if
    the game cannot be loaded."""
    from ..reading.loader import load_manifest

    loaded = load_manifest(run.project.content / name, Report())
    if loaded is None:
        return None
    game_manifest = loaded[0]
    langs = [game_manifest.source_language, *game_manifest.languages]
    load = functools.cache(lambda: run.project.load(name, Report(), checks=False))  # once, if a language needs it
    count, titles = 0, {}
    for lang in langs:
        state = _language_state(run, name, lang, langs)
        entry = _kept_language(run, name, lang, state)
        if entry is None:
            entry = _build_language(run, name, load, lang, langs, state)
        if entry is None:  # the game cannot be loaded
            return None
        titles[lang] = entry["title"]
        count += entry["pages"]
    return count, {"id": name, "langs": [[lang, LANG_NAMES.get(lang, lang), titles[lang]] for lang in langs]}


def _language_state(run: _SiteBuild, name: str, lang: str, langs: list[str]) -> str:
    """What a game-language folder is made from: the game's files in that language, the
    templates, the checker's tables and examples, the PDFs it offers, the game's languages and
    the site's address."""
    downloads = [run.project.output / name / lang / f"{kind}.pdf" for kind in DOWNLOADS]
    state = [Inputs.common(), "site", run.inputs.game(name, lang), run.inputs.templates(name, TEMPLATES),
             run.inputs.tables(name), sorted((run.verified.get(name) or {}).items()),
             [file_hash(p) if p.is_file() else "-" for p in downloads], langs, run.site_url]
    if run.changes:  # the page of what changed, from the errata sheet's entries
        listed = run.project.output / name / lang / changes_data
        state.append(file_hash(listed) if listed.is_file() else "-")
    return digest(*state)


def _kept_language(run: _SiteBuild, name: str, lang: str, state: str) -> dict | None:
    """The manifest's entry of a language folder kept as built: not asked for (and built
    before), or unchanged; its warnings are repeated. None if it is to be built."""
    manifest, key = run.manifest, f"site:{name}/{lang}"
    kept = run.langs and lang not in run.langs and (run.final / name / lang).is_dir() and manifest.get(key)
    if not (kept or manifest.fresh(key, state)):
        return None
    entry = manifest.get(key)
    load_diagnostics(entry.get("diagnostics", []), run.report)
    return entry


def _build_language(run: _SiteBuild, name: str, load: Callable, lang: str, langs: list[str],
                    state: str) -> dict | None:
    """Write a game's pages in one language (and what they offer: downloads, images, the
    offline files), remove the pages that are gone, and remember what was written. `load`
    loads the game; None if it cannot be loaded."""
    started = time.perf_counter()
    game = load()
    if game is None:
        return None
    folder = run.final / name / lang
    local = Report()
    ctx = BuildContext(game, lang, run.project.root, examples=_examples(run, name, game))
    pages = game_pages(ctx, local, changes=run.changes)
    files = _write_pages(ctx, pages, langs, folder, run.site_url)
    report_fallbacks(ctx.tr, local, f"{game.id} site ({lang})")
    files += _copy_downloads(ctx, folder)
    files += copy_images(ctx, folder)
    _remove_gone(folder, files)
    run.report.diagnostics.extend(local.diagnostics)
    run.manifest.record(f"site:{name}/{lang}", state, files, title=ctx.title, pages=len(pages),
                        diagnostics=save_diagnostics(local))
    run.rebuilt.append(f"{name}/{lang}")
    if run.on_page:
        run.on_page(f"{name}/{lang}/site", len(pages), time.perf_counter() - started)
    return {"title": ctx.title, "pages": len(pages)}


def _examples(run: _SiteBuild, name: str, game) -> dict[str, bool]:
    """The game's examples and whether each checks out: as the build checked them, else
    checked now (once per game)."""
    examples = run.verified.get(name)
    if examples is None:
        from ..print.jobs import checked_examples

        examples = run.verified[name] = checked_examples(game)
    return examples


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
    """Files of the folder this build did not write: pages that are gone."""
    keep = set(files)
    for path in folders.files(folder):
        if path not in keep:
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


LANG_NAMES = {"ru": "Русский", "en": "English", "de": "Deutsch", "fr": "Français", "es": "Español", "pl": "Polski"}


DOWNLOADS = ("rulebook", "cards", "reference", "counters", "maps", "maps-large")


def _copy_downloads(ctx: BuildContext, folder: Path) -> list[Path]:
    out = []
    for kind in DOWNLOADS:
        source = ctx.output_dir() / f"{kind}.pdf"
        if source.exists():
            target = folder / "downloads" / f"{kind}.pdf"
            outputs.write_if_changed(target, source.read_bytes())
            out.append(target)
    return out


def _index_html(dirs: list[Path], catalogue) -> str:
    env = environment(dirs)
    env.globals.update(ui=lambda key, lang="en": ui(lang, key))
    games = [{"id": c["id"], "langs": [tuple(item) for item in c["langs"]]} for c in catalogue]
    scripts = {script for c in catalogue for lang, *_ in c["langs"] for script in scripts_of(lang)}
    return env.get_template("site/index.html.j2").render(games=games, Markup=Markup,
                                                         preloads=preloads(tuple(sorted(scripts)) or ("latin",)))


def _index(site: Path) -> bool:
    """Pagefind into a fresh folder, then swapped in whole. The entry file's language order is
    made stable; Pagefind 1.x still writes its filter and meta files with different bytes (and
    so different hashed names) from run to run on the same pages, which only a rebuild of the
    index shows: an unchanged site is not indexed again."""
    tmp = site / SITE_SEARCH_NEW
    shutil.rmtree(tmp, ignore_errors=True)
    try:
        if not index_site(site, tmp):
            return False
        entry = tmp / "pagefind-entry.json"  # Pagefind lists the languages in whatever order its threads finished
        data = json.loads(entry.read_text(encoding="utf-8"))
        outputs.write_text(entry, json.dumps(data, sort_keys=True, separators=(",", ":")))
        outputs.swap_folder(tmp, site / SITE_SEARCH)
    finally:  # a failed or interrupted index leaves no half-made folder behind
        shutil.rmtree(tmp, ignore_errors=True)
    return True
