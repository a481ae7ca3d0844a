"""Build output/site/: all games and languages, assets, downloads, then the search index.
Each game-language folder is rebuilt only when its inputs changed; within it a page is
written only when its bytes differ, each file atomically; the search index is rebuilt beside
the old one and swapped in whole."""

from __future__ import annotations

import json
import shutil
import time
from dataclasses import dataclass
from pathlib import Path

from markupsafe import Markup

from .. import folders, outputs
from ..output_layout import SITE, SITE_ASSETS, SITE_INDEX, SITE_OWN, SITE_SEARCH, SITE_SEARCH_NEW
from ..diagnostics import Report
from ..i18n.translate import report_fallbacks
from ..i18n.ui import ui
from ..manifest import Manifest, digest, file_hash, load_diagnostics, save_diagnostics
from ..print.context import PACKAGE_TEMPLATES, BuildContext, environment
from ..project import Project
from ..rebuild import Inputs
from .components import copy_images
from .markup import scaled_units
from .offline import offline_files, write_game_list, write_worker
from .pages import SitePage, game_pages
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
        path = next(d / name for d in dirs if (d / name).exists())
        text = path.read_text(encoding="utf-8")
        if name == "cards.css":  # print-only rules are harmless in a browser, but keep the file clean
            text = "\n".join(line for line in text.splitlines() if not line.startswith("@page"))
            text = scaled_units(text)  # the preview's own scale (markup.scale_preview)
        if name == "counters.css":
            text = counter_rules(text)
        css.append(text)
    outputs.write_if_changed(assets / "site.css", "\n".join(css))
    for name in ("site.js", "roster.js"):
        js = next(d / "site" / name for d in dirs if (d / "site" / name).exists())
        outputs.write_if_changed(assets / name, js.read_bytes())
    return [*written, assets / "site.css", assets / "site.js", assets / "roster.js"]


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
               langs: list[str] | None = None, site_url: str = "") -> SiteResult:
    """Build the site for `games`; with `only`, rebuild just those games and keep the others'
    folders as they are (their content was not validated in this run); with `langs` (build
    --lang), rebuild only those languages and keep the other languages' pages as built.
    `site_url`, the address the site is published at, makes the pages' canonical and language
    links absolute."""
    site_url = site_url.rstrip("/") + "/" if site_url else ""
    start = time.perf_counter()
    final = project.output / SITE
    outputs.confine_to(project.output)
    own_manifest = manifest is None
    manifest = manifest if manifest is not None else Manifest.load(project.output)
    inputs = inputs or Inputs(project)
    verified = verified if verified is not None else {}
    count, rebuilt, catalogue = 0, [], []
    dirs = [d for d in (project.templates, PACKAGE_TEMPLATES) if d.is_dir()]
    for name in games:
        if only is not None and name not in only:
            entry = manifest.get(f"site-game:{name}")
            if entry and (final / name).is_dir():
                catalogue.append(entry["catalogue"])
            continue
        built = _build_game(project, name, final, report, manifest, inputs, verified, rebuilt, on_page, site_url, langs)
        if built is None:
            continue
        pages, entry = built
        count += pages
        catalogue.append(entry)
        manifest.entries[f"site-game:{name}"] = {"inputs": "", "files": {}, "catalogue": entry}
    if only is None and final.is_dir():  # games no longer built leave the site
        for folder in final.iterdir():
            if folder.is_dir() and folder.name not in {c["id"] for c in catalogue} | set(SITE_OWN):
                folders.remove(folder)
    _write_assets(dirs, final)
    write_worker(final)
    index = final / SITE_INDEX
    changed = outputs.write_if_changed(index, _index_html(dirs, catalogue))
    for entry in catalogue:  # after every file they list (their version is made from them)
        write_game_list(final, entry["id"])
    count += 1
    searched = False
    if search:
        key = "site-search"
        state = digest(sorted((k, e["inputs"]) for k, e in manifest.entries.items() if k.startswith("site:")),
                       file_hash(index))
        if rebuilt or changed or not manifest.fresh(key, state):
            searched = _index(final)
            if searched:
                manifest.record(key, state, folders.files(final / SITE_SEARCH))
        else:
            searched = True
    if own_manifest:
        manifest.save()
    return SiteResult(final, count, time.perf_counter() - start, searched, rebuilt)


def _build_game(project, name, final, report, manifest, inputs, verified, rebuilt, on_page, site_url, only_langs=None):
    from ..loader import load_manifest

    loaded = load_manifest(project.content / name, Report())
    if loaded is None:
        return None
    game_manifest = loaded[0]
    langs = [game_manifest.source_language, *game_manifest.languages]
    game = None
    count = 0
    titles = {}
    for lang in langs:
        key = f"site:{name}/{lang}"
        folder = final / name / lang
        downloads = [project.output / name / lang / f"{kind}.pdf" for kind in DOWNLOADS]
        state = digest(Inputs.common(), "site", inputs.game(name, lang), inputs.templates(name, TEMPLATES),
                       inputs.tables(name), sorted((verified.get(name) or {}).items()),
                       [file_hash(p) if p.is_file() else "-" for p in downloads], langs, site_url)
        kept = only_langs and lang not in only_langs and folder.is_dir() and manifest.get(key)
        if kept or manifest.fresh(key, state):  # not asked for (and built before), or unchanged
            entry = manifest.get(key)
            load_diagnostics(entry.get("diagnostics", []), report)
            titles[lang] = entry["title"]
            count += entry["pages"]
            continue
        started = time.perf_counter()
        if game is None:
            game = project.load(name, Report(), checks=False)
            if game is None:
                return None
        local = Report()
        examples = verified.get(name)
        if examples is None:
            from ..print.jobs import checked_examples

            examples = verified[name] = checked_examples(game)
        ctx = BuildContext(game, lang, project.root, examples=examples)
        pages = game_pages(ctx, local)
        files = [folder / TERMS]
        outputs.write_if_changed(folder / TERMS, json.dumps(game_terms(pages), ensure_ascii=False))
        for page in pages:
            files.append(_write_page(ctx, page, pages, langs, folder, site_url))
        files += offline_files(ctx, pages, folder)
        report_fallbacks(ctx.tr, local, f"{game.id} site ({lang})")
        files += _copy_downloads(ctx, folder)
        files += copy_images(ctx, folder)
        keep = set(files)
        for path in folders.files(folder):  # pages that are gone
            if path not in keep:
                path.unlink()
        report.diagnostics.extend(local.diagnostics)
        titles[lang] = ctx.title
        manifest.record(key, state, files, title=ctx.title, pages=len(pages), diagnostics=save_diagnostics(local))
        rebuilt.append(f"{name}/{lang}")
        count += len(pages)
        if on_page:
            on_page(f"{name}/{lang}/site", len(pages), time.perf_counter() - started)
    return count, {"id": name, "langs": [[lang, LANG_NAMES.get(lang, lang), titles[lang]] for lang in langs]}


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
    """Pagefind into a fresh folder, made byte-identical run to run, then swapped in whole."""
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
