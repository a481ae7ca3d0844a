"""Build output/site/: all games and languages, assets, downloads, then the search index.
Each game-language folder is rebuilt only when its inputs changed (language.py makes it, in a
worker of `rulesmith build` while other workers make the documents); its downloads are copied
in once the documents are done, and again alone when a document changed; within a folder a
page is written only when its bytes differ, each file atomically; the search index is rebuilt
beside the old one and swapped in whole. In `rulesmith build` Pagefind starts once the last
folder is made, beside the documents still at work (`indexing_ahead`)."""

from __future__ import annotations

import json
import shutil
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from pathlib import Path

from markupsafe import Markup

from ..system import folders
from .. import outputs
from ..outputs.layout import SITE, SITE_ASSETS, SITE_INDEX, SITE_OWN, SITE_SEARCH, SITE_SEARCH_NEW
from ..core.diagnostics import Report
from ..i18n.ui import ui
from ..project.manifest import Manifest, digest, file_hash, load_diagnostics, save_diagnostics
from ..print.context import PACKAGE_TEMPLATES, environment, template_text
from ..project import Project
from ..project.rebuild import Inputs
from . import downloads
from .changes import DATA as changes_data
from .language import LANG_NAMES, SiteLanguage, SitePages, make_pages
from .markup import scaled_units
from .offline import write_game_list, write_worker
from .search import Indexing
from .webfonts import FONTS, font_face_css, preloads, scripts_of, write_fonts

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
    """Build the site for `games`, in this process; with `only`, rebuild just those games and
    keep the others' folders as they are (their content was not validated in this run); with
    `langs` (build --lang), rebuild only those languages and keep the other languages' pages as
    built. `site_url`, the address the site is published at, makes the pages' canonical and
    language links absolute. `changes` (build --changes-since): each game gets its page of what
    changed, from the errata sheet's entries. (`rulesmith build` makes the languages' pages on
    its workers beside the documents: SiteBuild.)"""
    run = SiteBuild.of(project, games, report, only, manifest=manifest, inputs=inputs, verified=verified,
                       on_page=on_page, langs=langs, site_url=site_url, changes=changes)
    loaded: dict = {}
    for work in run.languages():
        if run.admit(work):
            run.make_here(work, loaded)
    built = run.finish(search)
    if manifest is None:  # the caller saves its own
        run.manifest.save()
    return built


@dataclass
class SiteBuild:
    """One build of the site, in three steps: `languages()`, the game-language folders to
    make, each a piece of work (SiteLanguage) that may run in another process once the
    documents of its game and language are done; `admit(work)` and `take(made)` before and
    after each, in this process; and `finish()` once every document is done: the downloads
    copied in, what was made recorded, the shared files and the search index. Holds where it
    writes, what the last build left (`manifest`), what it was asked for, and what it made."""

    project: Project
    final: Path  # output/site
    report: Report
    manifest: Manifest
    inputs: Inputs
    verified: dict[str, dict[str, bool]]  # game -> its examples and whether each checks out
    on_page: Callable[[str, int, float], None] | None  # told of each folder built: label, pages, seconds
    langs: list[str] | None  # only these languages (build --lang)
    site_url: str  # ends with "/", or ""
    games: list[str] = field(default_factory=list)
    only: set[str] | None = None  # the games rebuilt; the others keep their folders
    changes: bool = False  # each game's page of what changed (build --changes-since)
    rebuilt: list[str] = field(default_factory=list)  # game/lang folders written this time
    seconds: float = 0.0  # spent on the site: its languages' pages and the finish
    _langs_of: dict[str, list[str]] = field(default_factory=dict)  # each game's languages
    _states: dict[tuple[str, str], str] = field(default_factory=dict)  # what each folder to make is made from
    _made: dict[tuple[str, str], SitePages] = field(default_factory=dict)
    _unchanged: set[tuple[str, str]] = field(default_factory=set)  # as the last build made them
    _failed: set[tuple[str, str]] = field(default_factory=set)
    _unloadable: set[str] = field(default_factory=set)
    # each folder admitted: its work and the downloads there were then (what its pages list)
    _admitted: dict[tuple[str, str], tuple[SiteLanguage, list[bool]]] = field(default_factory=dict)
    # the search index started once every folder is made, beside the documents still at work
    index_ahead: bool = False
    _pending: set[tuple[str, str]] = field(default_factory=set)  # folders neither made nor found unchanged yet
    _indexing: Indexing | None = None
    _index_page_changed: bool = False  # by the index page written ahead

    @classmethod
    def of(cls, project: Project, games: list[str], report: Report, only: set[str] | None = None, *,
           manifest: Manifest | None = None, inputs: Inputs | None = None,
           verified: dict[str, dict[str, bool]] | None = None, on_page=None, langs: list[str] | None = None,
           site_url: str = "", changes: bool = False) -> "SiteBuild":
        outputs.confine_to(project.output)
        return cls(project, project.output / SITE, report,
                   manifest if manifest is not None else Manifest.load(project.output), inputs or Inputs(project),
                   verified if verified is not None else {}, on_page, langs,
                   site_url.rstrip("/") + "/" if site_url else "", list(games), only, changes)

    def languages(self) -> list[SiteLanguage]:
        """The game-language folders that may need making: of each game asked for, each language
        asked for (or not built before)."""
        from ..reading.loader import load_manifest

        out = []
        for name in self.games:
            loaded = None if self.only is not None and name not in self.only else \
                load_manifest(self.project.content / name, Report())
            if loaded is None:
                continue
            langs = self._langs_of[name] = [loaded[0].source_language, *loaded[0].languages]
            examples = tuple(sorted(self.verified[name].items())) if name in self.verified else None
            for lang in langs:
                if not _not_asked(self, name, lang):
                    out.append(SiteLanguage(self.project.root, name, lang, tuple(langs), examples, self.site_url,
                                            self.changes, _cost(self.manifest.get(f"site:{name}/{lang}"))))
        self._pending = {(work.game, work.lang) for work in out}
        return out

    def admit(self, work: SiteLanguage) -> bool:
        """Whether the folder is to be made: False if it is made from what the last build made it
        from (the documents it offers done by now: the pages show which there are)."""
        place = (work.game, work.lang)
        self._admitted[place] = (work, downloads.offered(self.project.output, work.game, work.lang))
        state = _language_state(self, work.game, work.lang, list(work.langs))
        if self.manifest.fresh(f"site:{work.game}/{work.lang}", state):
            self._unchanged.add(place)
            self._settled(place)
            return False
        self._states[place] = state
        return True

    def take(self, made) -> bool:
        """A folder's pages made (SitePages), or the work's failure (its `error`). False if the
        site failed."""
        work = made.job
        self.seconds += made.seconds
        if made.error:
            self._failed.add((work.game, work.lang))
            self._settled((work.game, work.lang))
            return False
        elif made.title is None:
            self._unloadable.add(work.game)
        else:
            self._made[(work.game, work.lang)] = made
            if f"{work.game}/{work.lang}" not in self.rebuilt:
                self.rebuilt.append(f"{work.game}/{work.lang}")
            if self.on_page:
                self.on_page(work.label, made.pages, made.seconds)
        self._settled((work.game, work.lang))
        return True

    def _settled(self, place: tuple[str, str]) -> None:
        """A folder made or found unchanged: with `index_ahead`, once it is the last, the index
        page is written and the search index started (`_index_ahead`)."""
        if place in self._pending:
            self._pending.discard(place)
            if self.index_ahead and not self._pending:
                self._index_ahead()

    def _index_ahead(self) -> None:
        """Every folder made: the index page written and Pagefind started on the site while the
        documents still at work are finished, if a folder or the index page changed. finish()
        takes that index, or makes it again where it no longer holds (a folder made again
        there, another index page). Nothing is started after a folder failed."""
        catalogue = None if self._failed else self._catalogue()
        if catalogue is None:
            return
        if self.only is None:
            _remove_dropped_games(self.final, catalogue)
        self._index_page_changed = _write_index_page(self, catalogue)
        if self.rebuilt or self._index_page_changed:
            self._indexing = _index_started(self.final)

    def _catalogue(self) -> list[dict] | None:
        """The catalogue as finish() will make it, worked out without recording anything (None
        where a title is not known yet)."""
        catalogue = []
        for name in self.games:
            if self.only is not None and name not in self.only:
                catalogue += self._kept_catalogue(name)
                continue
            langs = self._langs_of.get(name)
            if langs is None or name in self._unloadable:
                continue
            titles = {}
            for lang in langs:
                made, entry = self._made.get((name, lang)), self.manifest.get(f"site:{name}/{lang}")
                titles[lang] = made.title if made is not None else (entry or {}).get("title")
                if titles[lang] is None:
                    return None
            catalogue.append(_catalogue_entry(name, langs, titles))
        return catalogue

    @contextmanager
    def indexing_ahead(self) -> Iterator[None]:
        """While the documents and the pages are made: the search index started as soon as the
        pages are all made (`index_ahead`), and ended if the build does not get to finish()."""
        self.index_ahead = True
        try:
            yield
        finally:
            self.stop()

    def _kept_catalogue(self, name: str) -> list[dict]:
        """The catalogue entry of a game not rebuilt, as the last build made it, if its folder
        is kept (none otherwise)."""
        entry = self.manifest.get(f"site-game:{name}")
        return [entry["catalogue"]] if entry and (self.final / name).is_dir() else []

    def stop(self) -> None:
        """End a search index started ahead and not taken (the build did not get to finish)."""
        if self._indexing is not None:
            self._indexing.stop()
            self._indexing = None
            shutil.rmtree(self.final / SITE_SEARCH_NEW, ignore_errors=True)

    def examples(self, name: str, game) -> tuple[tuple[str, bool], ...]:
        """The game's examples and whether each checks out: as the build checked them, else
        checked now (once per game)."""
        if name not in self.verified:
            from ..print.jobs import checked_examples

            self.verified[name] = checked_examples(game)
        return tuple(sorted(self.verified[name].items()))

    def finish(self, search: bool = True) -> SiteResult:
        """After the documents: each folder's downloads and what it was made from recorded, the
        catalogue, the shared files and the search index."""
        started = time.perf_counter()
        if self._made_again():
            self.stop()  # the index started ahead read a folder since made again
        count, catalogue = 0, []
        for name in self.games:
            if self.only is not None and name not in self.only:
                catalogue += self._kept_catalogue(name)
                continue
            built = _finish_game(self, name)
            if built is None:
                continue
            pages, entry = built
            count += pages
            catalogue.append(entry)
        if self.only is None:
            _remove_dropped_games(self.final, catalogue)
        changed = _write_shared(self, catalogue)
        if changed:
            self.stop()  # the index started ahead read another index page
        searched = _search_index(self, changed or self._index_page_changed) if search else False
        self.stop()
        self.seconds += time.perf_counter() - started
        return SiteResult(self.final, count + 1, self.seconds, searched, self.rebuilt)

    def _made_again(self) -> bool:
        """The folders whose pages were made (or found as the last build made them) beside
        documents of theirs that did not leave the downloads the pages list (a document that
        failed, or made no PDF; SiteLanguage.needs): made again here, now that every document
        is done. Whether there was one."""
        games: dict = {}
        again = False
        for place, (work, offered) in self._admitted.items():
            if place in self._failed or downloads.offered(self.project.output, *place) == offered:
                continue
            again = True
            self._unchanged.discard(place)
            self._states[place] = _language_state(self, work.game, work.lang, list(work.langs))
            self.make_here(work, games)
        return again

    def make_here(self, work: SiteLanguage, loaded: dict) -> None:
        """Make a folder's pages in this process and take them; `loaded` keeps each game
        loaded once for all its languages."""
        started, cpu = time.perf_counter(), time.process_time()
        if work.game not in loaded:
            loaded[work.game] = self.project.load(work.game, Report(), checks=False)
        game = loaded[work.game]
        if work.examples is None and game is not None:
            work = replace(work, examples=self.examples(work.game, game))
        self.take(make_pages(work, game, started, cpu))


def _cost(entry: dict | None) -> float:
    """CPU seconds a folder took last time, or 0 (not known)."""
    seconds = (entry or {}).get("seconds", 0.0)
    return float(seconds) if isinstance(seconds, (int, float)) and not isinstance(seconds, bool) else 0.0


def _not_asked(run: SiteBuild, name: str, lang: str) -> bool:
    """A language left out by build --lang, built before: its folder is kept as it is."""
    return bool(run.langs and lang not in run.langs and (run.final / name / lang).is_dir()
                and run.manifest.get(f"site:{name}/{lang}"))


def _finish_game(run: SiteBuild, name: str) -> tuple[int, dict] | None:
    """(pages, the game's catalogue entry), its languages finished and recorded. A game that
    could not be loaded is left out; one whose pages failed in a language keeps its place as
    the last build left it (and the language is made again next time)."""
    langs = run._langs_of.get(name)
    if langs is None or name in run._unloadable:
        return None
    if any((name, lang) in run._failed for lang in langs):
        for lang in langs:
            if (name, lang) in run._failed:
                run.manifest.forget(f"site:{name}/{lang}")
        entry = run.manifest.get(f"site-game:{name}")
        return (0, entry["catalogue"]) if entry and (run.final / name).is_dir() else None
    count, titles = 0, {}
    for lang in langs:
        entry = _finish_language(run, name, lang)
        titles[lang] = entry["title"]
        count += entry["pages"]
    catalogue = _catalogue_entry(name, langs, titles)
    run.manifest.entries[f"site-game:{name}"] = {"inputs": "", "files": {}, "catalogue": catalogue}
    return count, catalogue


def _catalogue_entry(name: str, langs: list[str], titles: dict[str, str]) -> dict:
    """A game's entry in the site's index page: its languages, each named, with its title."""
    return {"id": name, "langs": [[lang, LANG_NAMES.get(lang, lang), titles[lang]] for lang in langs]}


def _finish_language(run: SiteBuild, name: str, lang: str) -> dict:
    """The manifest's entry of a game-language folder: made now (its downloads copied in), or
    kept, its downloads copied in again if a document it offers changed; its warnings said."""
    key, folder, output = f"site:{name}/{lang}", run.final / name / lang, run.project.output
    made = run._made.get((name, lang))
    if made is not None:
        files = made.files + downloads.copy_downloads(output, name, lang, folder)
        run.manifest.record(key, run._states[(name, lang)], files, title=made.title, pages=made.pages,
                            diagnostics=save_diagnostics(Report(list(made.diagnostics))),
                            downloads=downloads.state(output, name, lang), seconds=round(made.cpu, 2))
        run.report.diagnostics.extend(made.diagnostics)
        return run.manifest.get(key)
    entry = run.manifest.get(key)
    load_diagnostics(entry.get("diagnostics", []), run.report)
    offered = downloads.state(output, name, lang) if (name, lang) in run._unchanged else entry.get("downloads")
    if entry.get("downloads") != offered:
        pages = [output / rel for rel in entry["files"] if not downloads.is_download(folder, output / rel)]
        files = pages + downloads.copy_downloads(output, name, lang, folder)
        run.manifest.record(key, entry["inputs"], files,
                            **{k: v for k, v in entry.items() if k not in ("inputs", "files", "downloads")},
                            downloads=offered)
    return run.manifest.get(key)


def _remove_dropped_games(final: Path, catalogue: list[dict]) -> None:
    """Games no longer built leave the site."""
    if not final.is_dir():
        return
    kept = {c["id"] for c in catalogue} | set(SITE_OWN)
    for folder in final.iterdir():
        if folder.is_dir() and folder.name not in kept:
            folders.remove(folder)


def _write_shared(run: SiteBuild, catalogue: list[dict]) -> bool:
    """What the games share: the assets, the offline worker, the site's index page, then each
    game's list of files for offline use (its version is made from the files it lists). True
    if the index page changed."""
    project, final = run.project, run.final
    dirs = [d for d in (project.templates, PACKAGE_TEMPLATES) if d.is_dir()]
    _write_assets(dirs, final)
    write_worker(final)
    changed = _write_index_page(run, catalogue)
    for entry in catalogue:
        write_game_list(final, entry["id"])
    return changed


def _write_index_page(run: SiteBuild, catalogue: list[dict]) -> bool:
    """The site's index page, the games of `catalogue` on it; whether it changed."""
    dirs = [d for d in (run.project.templates, PACKAGE_TEMPLATES) if d.is_dir()]
    return outputs.write_if_changed(run.final / SITE_INDEX, _index_html(dirs, catalogue))


def _search_index(run: SiteBuild, changed: bool) -> bool:
    """The search index, made again when a page folder or the index page changed since it was
    made. False if it could not be made."""
    key = "site-search"
    manifest = run.manifest
    state = digest(sorted((k, e["inputs"]) for k, e in manifest.entries.items() if k.startswith("site:")),
                   file_hash(run.final / SITE_INDEX))
    if not (run.rebuilt or changed or not manifest.fresh(key, state)):
        return True
    ahead, run._indexing = run._indexing, None
    searched = _index_finished(run.final, ahead if ahead is not None else _index_started(run.final))
    if searched:
        manifest.record(key, state, folders.files(run.final / SITE_SEARCH))
    return searched


def _language_state(run: SiteBuild, name: str, lang: str, langs: list[str]) -> str:
    """What a game-language folder's pages are made from: the game's files in that language,
    the templates, the checker's tables and examples, which PDFs it offers (not their bytes:
    downloads.py), the game's languages and the site's address."""
    state = [Inputs.common(), "site", run.inputs.game(name, lang), run.inputs.templates(name, TEMPLATES),
             run.inputs.tables(name), sorted((run.verified.get(name) or {}).items()),
             downloads.offered(run.project.output, name, lang), langs, run.site_url]
    if run.changes:  # the page of what changed, from the errata sheet's entries
        listed = run.project.output / name / lang / changes_data
        state.append(file_hash(listed) if listed.is_file() else "-")
    return digest(*state)


def _index_html(dirs: list[Path], catalogue) -> str:
    env = environment(dirs)
    env.globals.update(ui=lambda key, lang="en": ui(lang, key))
    games = [{"id": c["id"], "langs": [tuple(item) for item in c["langs"]]} for c in catalogue]
    scripts = {script for c in catalogue for lang, *_ in c["langs"] for script in scripts_of(lang)}
    return env.get_template("site/index.html.j2").render(games=games, Markup=Markup,
                                                         preloads=preloads(tuple(sorted(scripts)) or ("latin",)))


def _index_started(site: Path) -> Indexing | None:
    """Pagefind started into a fresh folder (None: it is not installed). Pagefind 1.x writes
    its filter and meta files with different bytes (and so different hashed names) from run
    to run on the same pages, which only a rebuild of the index shows: an unchanged site is
    not indexed again."""
    tmp = site / SITE_SEARCH_NEW
    shutil.rmtree(tmp, ignore_errors=True)
    try:
        return Indexing.start(site, tmp)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise


def _index_finished(site: Path, indexing: Indexing | None) -> bool:
    """The index Pagefind made, swapped in whole, the entry file's language order made stable;
    False if Pagefind is not installed."""
    tmp = site / SITE_SEARCH_NEW
    try:
        if indexing is None or not indexing.finish():
            return False
        entry = tmp / "pagefind-entry.json"  # Pagefind lists the languages in whatever order its threads finished
        data = json.loads(entry.read_text(encoding="utf-8"))
        outputs.write_text(entry, json.dumps(data, sort_keys=True, separators=(",", ":")))
        outputs.swap_folder(tmp, site / SITE_SEARCH)
    finally:  # a failed or interrupted index leaves no half-made folder behind
        shutil.rmtree(tmp, ignore_errors=True)
    return True
