"""`rulesmith new GAME`: a small complete game that validates, checks and builds.

The scaffold has two layers: `scaffold/game/` (the manifest, one data file of each kind,
ERRATA.md) and `scaffold/complete/` (rules chapters with references, a worked example with
its check block, and the procedures.py it runs). `new` writes both, then a translation
catalog (locale/LANG.po) for each language asked for.
"""

from __future__ import annotations

import functools
import json
import re
import shutil
import sys
from importlib import resources
from pathlib import Path

import click

from ..system import folders
from .. import outputs
from ..core.diagnostics import Report, render
from ..core.languages import language_code
from ..outputs.layout import RESERVED, reserved_hint
from . import LANGUAGE
from .example import write_example

_ID = re.compile(r"^[a-z0-9][a-z0-9-]*$")


# What `--kind` starts from: a folder under generator/scaffold/.
KINDS = {"skirmish": "game", "counters": "counters"}


# Where a text of the scaffold goes: __T:key__ (the text in the source language) and, in
# procedures.py, "__D:key__" (a {language: text} dict of the source and the translations; in
# quotes, so that the scaffold's procedures.py is Python as it stands).
TEXT_MARK = re.compile(r'"__D:(?P<dict>[a-z0-9-]+)__"|__T:(?P<text>[a-z0-9-]+)__')


@functools.cache
def scaffold_languages() -> tuple[str, ...]:
    """The languages the scaffold is written in (generator/scaffold/words/LANG.yaml)."""
    folder = resources.files("generator") / "scaffold" / "words"
    return tuple(sorted(entry.name.removesuffix(".yaml") for entry in folder.iterdir()
                        if entry.name.endswith(".yaml")))


@functools.cache
def scaffold_words(lang: str) -> dict[str, str]:
    """The scaffold's texts in `lang` (pl-PL: in pl), by key; {} for a language it is not written
    in (read once: not to be changed)."""
    import yaml

    lang = lang if lang in scaffold_languages() else lang.split("-")[0]
    if lang not in scaffold_languages():
        return {}
    source = resources.files("generator") / "scaffold" / "words" / f"{lang}.yaml"
    return yaml.safe_load(source.read_text(encoding="utf-8"))


def scaffold(target: Path, game_id: str, title: str, source_language: str = "en",
             languages: tuple[str, ...] = (), complete: bool = False, kind: str = "skirmish") -> list[Path]:
    """Copy the scaffold into `target`, naming the game, its texts written in `source_language`
    (one of scaffold_languages()); `complete` adds rules and procedures to the skirmish scaffold."""
    layers = [KINDS[kind]] + (["complete"] if complete and kind == "skirmish" else [])
    words = {lang: scaffold_words(lang) for lang in (source_language, *languages)}
    written = []
    for layer in layers:
        source = resources.files("generator") / "scaffold" / layer
        with resources.as_file(source) as folder:
            for path in folders.files(Path(folder), {"__pycache__"}):
                dest = target / _FILE_MARK.sub(lambda m: _file_name(words, source_language, m[1]),
                                               path.relative_to(folder).as_posix())
                text = (path.read_text(encoding="utf-8").replace("__ID__", game_id)
                        .replace("__TITLE__", _written(title, path.suffix))
                        .replace("__SOURCE__", source_language).replace("__LANGUAGES__", ", ".join(languages)))
                text = TEXT_MARK.sub(lambda m, suffix=path.suffix: _text(m, words, source_language, suffix), text)
                outputs.write_content(dest, text)
                written.append(dest)
    return written


# A rules chapter's file is named after its title (rules/01-__F-basics__.md): 01-podstawy.md in
# Polish, so that each edition's site has the chapter at its own title's address (site/pages.py).
_FILE_MARK = re.compile(r"__F-([a-z0-9-]+)__")


def _file_name(words: dict[str, dict[str, str]], source_language: str, key: str) -> str:
    """The file name for the text `key`: its title in the source in Latin letters, else (a title
    in another script) the English one."""
    from ..site.pages import page_address

    return page_address(words[source_language][key]) or page_address(scaffold_words("en")[key])


def _text(match: re.Match, words: dict[str, dict[str, str]], source_language: str, suffix: str) -> str:
    """A scaffold text where its mark stands: __T:key__ in the source language, as the file's
    kind writes it (a Markdown paragraph wrapped); "__D:key__" as a Python {language: text} of
    every language written, or the text alone where there is one."""
    if match["dict"]:
        line = match.string[match.string.rfind("\n", 0, match.start()) + 1:]
        indent = len(line) - len(line.lstrip(" "))  # the dict's lines go under the line it opens on
        given = {lang: texts[match["dict"]] for lang, texts in words.items() if match["dict"] in texts}
        if len(given) == 1:  # one language: the text itself
            return json.dumps(next(iter(given.values())), ensure_ascii=False)
        lines = [f'{" " * (indent + 4)}{json.dumps(lang)}: {json.dumps(text, ensure_ascii=False)},'
                 for lang, text in given.items()]
        return "{\n" + "\n".join(lines) + "\n" + " " * indent + "}"
    text = words[source_language][match["text"]]
    return _wrapped(text) if suffix == ".md" else _written(text, suffix)


# What a Markdown line may break between: words, a {{ reference }} and a [bound]{number} kept
# whole (a no-break space is part of its word).
_ATOM = re.compile(r"(?:\{\{.*?\}\}|\[[^\]]*\]\{[^}]*\}|[^ \n])+")
# A line that starts like this would start a heading, a quote or a list, not go on with the paragraph.
_BLOCK_START = re.compile(r"^(?:[#>*+-]|\d+[.)])")


def _wrapped(text: str, width: int = 95) -> str:
    """A paragraph of the scaffold's Markdown, its lines no longer than `width` where it can."""
    lines: list[str] = []
    for atom in _ATOM.findall(text):
        if lines and (len(lines[-1]) + 1 + len(atom) <= width or _BLOCK_START.match(atom)):
            lines[-1] += " " + atom
        else:
            lines.append(atom)
    return "\n".join(lines)


def _written(title: str, suffix: str) -> str:
    """A text as the scaffold file of this kind holds it: a YAML scalar quoted when it would
    not read back as itself in a block or a flow (War: The Game; Rain: ...), a docstring's
    quotes escaped."""
    if suffix == ".py":
        return title.replace("\\", "\\\\").replace('"', '\\"')
    if suffix != ".yaml":
        return title
    import yaml

    try:
        plain = all(yaml.safe_load(form.format(title)) == expected for form, expected in
                    (("title: {}", {"title": title}), ("{{title: {}}}", {"title": title}), ("[{}]", [title])))
    except yaml.YAMLError:
        plain = False
    return title if plain else json.dumps(title, ensure_ascii=False)


def write_catalogs(project, game_id: str, languages: tuple[str, ...]) -> list[Path]:
    """locale/LANG.po for each language, and messages.pot. A language the scaffold is written in
    gets its translation of every scaffold text (so the game is complete in it); the rest are
    left untranslated."""
    from ..i18n.catalog import TEMPLATE, locale_dir, po_path, template, update, write_catalog

    game = project.load(game_id, Report(), catalogs=False)
    if game is None or not languages:
        return []
    pot = template(game)
    write_catalog(locale_dir(game) / TEMPLATE, pot)
    written = [locale_dir(game) / TEMPLATE]
    source = scaffold_words(game.manifest.source_language)
    for lang in languages:
        catalog = update(game, lang, pot)
        translated(catalog, source, scaffold_words(lang))
        write_catalog(po_path(game, lang), catalog)
        written.append(po_path(game, lang))
    return written


def translated(catalog, source: dict[str, str], target: dict[str, str]) -> None:
    """Fill each untranslated entry whose text is a scaffold text of `source` with that text's
    translation in `target`."""
    translations = {_spaced(text): target[key] for key, text in source.items() if key in target}
    for entry in catalog:
        if not entry.msgstr and not entry.msgid_plural and _spaced(entry.msgid) in translations:
            entry.msgstr = translations[_spaced(entry.msgid)]


def _spaced(text: str) -> str:
    """`text` with every run of spaces one space: a message is extracted with its lines joined
    and a no-break space (French « ») may be read as a space."""
    return " ".join(text.split())


def _example_alone() -> None:
    """--example writes the example as it is: an option that shapes a new game's scaffold
    (its title, languages, kind) is a usage error beside it."""
    given = [f"--{name.replace('_', '-')}" for name in ("title", "source_language", "languages", "kind")
             if click.get_current_context().get_parameter_source(name) != click.core.ParameterSource.DEFAULT]
    if given:
        raise click.UsageError(f"--example writes the example game as it is (Polish, with an English edition); "
                               f"leave out {', '.join(given)} and change its game.yaml afterwards")


def _languages(_ctx, _param, value: str | None) -> tuple[str, ...]:
    """--languages: comma-separated codes, each checked and normalised like game.yaml's."""
    try:
        return tuple(dict.fromkeys(language_code(part) for part in (value or "").split(",") if part.strip()))
    except ValueError as exc:
        raise click.BadParameter(f"{exc}; write e.g. ru,de") from None


@click.command("new")
@click.argument("game")
@click.option("--title", default=None, help="The game's title (default: from its id).")
@click.option("--source-language", type=LANGUAGE, default="en", show_default=True,
              help="The language the rules are written in: en, de, es, fr, pl or ru; the new game's texts are "
                   "written in it.")
@click.option("--languages", default="", callback=_languages,
              help="Comma-separated languages to translate into, e.g. ru,de.")
@click.option("--kind", type=click.Choice(list(KINDS)), default="skirmish", show_default=True,
              help="skirmish: units, cards and tables; counters: sides, counters, a hex map and a results table.")
@click.option("--example", is_flag=True,
              help="Write Rulesmith's example game Zwiad (Polish with an English edition: order cards with backs, "
                   "markers, its own unit of measure, checked d10 examples, roster rules) as GAME, to copy from.")
@click.pass_obj
def command(ctx, game: str, title: str | None, source_language: str, languages: tuple[str, ...], kind: str,
            example: bool) -> None:
    """Create content/GAME: a small complete game (data, rules, a checked example, translations);
    with --example, Rulesmith's example game under that id."""
    if not _ID.match(game):
        raise click.BadParameter("a game id is lowercase Latin letters, digits and hyphens, e.g. my-game",
                                 param_hint="GAME")
    if game in RESERVED:
        raise click.BadParameter(f"'{game}' is reserved: Rulesmith keeps that name for its own files beside the "
                                 f"games in output/; {reserved_hint()}", param_hint="GAME")
    if not scaffold_words(source_language):
        raise click.BadParameter(f"Rulesmith writes a new game in {', '.join(scaffold_languages())}, not in "
                                 f"'{source_language}'; start in the closest of them and translate the texts, or "
                                 f"write the game in one of them with --languages {source_language}",
                                 param_hint="--source-language")
    if example:
        _example_alone()
    langs = tuple(lang for lang in languages if lang != source_language)
    project = ctx.project
    target = project.content / game
    if target.exists():
        click.echo(f"error: {target} already exists; choose another id or remove it", err=True)
        sys.exit(2)
    try:
        if example:
            written = write_example(target, game)
        else:
            written = scaffold(target, game, title or game.replace("-", " ").title(), source_language, langs,
                               complete=True, kind=kind)
            written += write_catalogs(project, game, langs)
    except BaseException:  # a full disk, Ctrl+C: no half-made game is left behind
        shutil.rmtree(target, ignore_errors=True)
        raise
    report = Report()
    project.load(game, report)
    if report.failed():  # the scaffold itself is broken: leave nothing half-made behind
        shutil.rmtree(target)
        click.echo(render(report, "text", project.root), err=True)
        sys.exit(1)
    for path in written:
        click.echo(f"created {path.relative_to(project.root)}")
    where = target.relative_to(project.root)
    if example:
        click.echo(f"\n{game} is Rulesmith's example game Zwiad (Polish, with an English edition in "
                   f"{where}/locale/en.po); it validates. Run 'rulesmith check {game}' and "
                   f"'rulesmith build --game {game}', then make it your own: {where}/game.yaml, {where}/rules/, "
                   f"{where}/data/.")
        click.echo("The documentation: 'rulesmith docs'.")
        return
    click.echo(f"\n{game} validates. Next: edit {where}/game.yaml and {where}/rules/, then run "
               f"'rulesmith validate {game}', 'rulesmith check {game}' and 'rulesmith build --game {game}'.")
    if langs:
        click.echo(f"Translate {', '.join(f'{where}/locale/{lang}.po' for lang in langs)} "
                   f"(after changing the text: 'rulesmith i18n update LANG {game}').")
    click.echo("The documentation: 'rulesmith docs'.")
