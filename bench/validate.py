"""How long `validate` spends checking translations against term lists (W002) on the shipped
games, old and new side by side in one run.

    python bench/validate.py [--old REV] [--repeats N] [GAME...]

Old is generator/i18n/terms.py as of REV (default ec5a002, the last commit before the term
index), read from git and loaded beside the current module; new is the current module. Each
measurement loads the game's term lists and checks every finished entry of its catalogs, as
`validate` does, starting with the module's caches empty (each game is validated in a child
process of its own, so that is what a user waits for), and once more at once in the same process
(what a watched project or the test suite meets). Prints, per game and for all, the median of
the repeats and old / new.

First, untimed, every entry is also checked against the next entry's translation, a wrong one
that lacks most terms, so that W002 is reported often: old and new must report the same
diagnostics in the same order (with the right translations too), or the script stops.
"""

from __future__ import annotations

import argparse
import importlib.util
import statistics
import subprocess
import sys
import time
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parents[1]
OLD = "ec5a002"
MODULE = "generator/i18n/terms.py"


def load_old(rev: str) -> ModuleType:
    """The term module as of `rev`, importable beside the current one (its relative imports
    resolve to the current generator package)."""
    source = subprocess.run(["git", "-C", str(ROOT), "show", f"{rev}:{MODULE}"], capture_output=True, text=True)
    if source.returncode != 0:
        sys.exit(f"cannot read {MODULE} at {rev}: {source.stderr.strip()}")
    name = "generator.i18n.terms_old"
    module = importlib.util.module_from_spec(importlib.util.spec_from_loader(name, loader=None))
    module.__package__ = "generator.i18n"
    sys.modules[name] = module
    exec(compile(source.stdout, f"{rev}:{MODULE}", "exec"), module.__dict__)
    return module


def forget(module: ModuleType) -> None:
    """Empty every cache of the module (its lru_cache functions)."""
    for value in vars(module).values():
        if callable(getattr(value, "cache_clear", None)):
            value.cache_clear()


def entries(game: Path, wrong: bool = False) -> list[tuple[Path, str, list]]:
    """Each catalog with a term list: (term list, language, [(msgid, msgstr, where)...]); with
    `wrong`, each entry also with the next entry's translation."""
    from generator.core.diagnostics import Location
    from generator.i18n.catalog import read_catalog

    found = []
    for po in sorted((game / "locale").glob("*.po")):
        glossary = po.with_name(f"{po.stem}.terms.yaml")
        if not glossary.is_file() or po.name.startswith("ui."):
            continue
        done = [e for e in read_catalog(po) if not (e.obsolete or not e.msgstr or e.fuzzy)]
        pairs = [(e.msgid, e.msgstr, Location(po, e.linenum, 1)) for e in done]
        if wrong:
            pairs += [(e.msgid, done[(i + 1) % len(done)].msgstr, Location(po, e.linenum, 1)) for i, e in enumerate(done)]
        found.append((glossary, po.stem, pairs))
    return found


def check_old(module: ModuleType, glossary: Path, source: str, lang: str, pairs: list, report) -> None:
    terms = module.load_terms(glossary, report, source, lang)
    quick = module.any_source(terms)
    for msgid, msgstr, where in pairs:
        module.check_entry(terms, msgid, msgstr, where, report, quick)


def check_new(module: ModuleType, glossary: Path, source: str, lang: str, pairs: list, report) -> None:
    index = module.TermIndex(module.load_terms(glossary, report, source, lang))
    for msgid, msgstr, where in pairs:
        module.check_entry(index, msgid, msgstr, where, report)


def measure(check, module: ModuleType, catalogs: list, source: str, cold: bool = True) -> tuple[float, list]:
    from generator.core.diagnostics import Report

    if cold:
        forget(module)
    report = Report()
    start = time.perf_counter()
    for glossary, lang, pairs in catalogs:
        check(module, glossary, source, lang, pairs, report)
    return time.perf_counter() - start, report.diagnostics


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("games", nargs="*")
    parser.add_argument("--old", default=OLD, help=f"the revision to compare with (default {OLD})")
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    sys.path.insert(0, str(ROOT))
    import yaml

    from generator.i18n import terms as new

    old = load_old(args.old)
    games = args.games or sorted(p.name for p in (ROOT / "content").iterdir() if (p / "locale").is_dir())
    keys = ("old", "new", "old again", "new again")
    totals = dict.fromkeys(keys, 0.0)
    print(f"{'game':14} {'entries':>7} {'W002*':>6} {'old s':>8} {'new s':>8} {'old/new':>8}   "
          f"{'again:old':>8} {'new':>8} {'old/new':>8}")
    for name in games:
        folder = ROOT / "content" / name
        source = yaml.safe_load((folder / "game.yaml").read_text(encoding="utf-8"))["source_language"]
        before, after = (measure(check, module, entries(folder, wrong=True), source)[1]
                         for check, module in ((check_old, old), (check_new, new)))
        if [d.format_text(ROOT) for d in before] != [d.format_text(ROOT) for d in after]:
            sys.exit(f"{name}: old and new report different diagnostics")
        catalogs = entries(folder)
        times: dict[str, list[float]] = {key: [] for key in keys}
        for _ in range(args.repeats):  # alternated, so that a busy neighbour slows both alike
            for key, check, module in (("old", check_old, old), ("new", check_new, new)):
                times[key].append(measure(check, module, catalogs, source)[0])
                times[f"{key} again"].append(measure(check, module, catalogs, source, cold=False)[0])
        medians = {key: statistics.median(values) for key, values in times.items()}
        for key in totals:
            totals[key] += medians[key]
        checked = sum(len(pairs) for _, _, pairs in catalogs)
        warnings = sum(d.code == "W002" for d in after)
        print(f"{name:14} {checked:7} {warnings:6} {columns(medians)}")
    print(f"{'all':14} {'':7} {'':6} {columns(totals)}")
    print(f"median of {args.repeats} runs each; caches empty, and again at once in the same process (as a "
          "watched project or the test suite validates)")
    print("W002*: the warnings both reported with the wrong translations too (identical: checked)")


def columns(seconds: dict[str, float]) -> str:
    return "   ".join(f"{seconds[old]:8.3f} {seconds[new]:8.3f} {seconds[old] / max(seconds[new], 1e-9):7.1f}x"
                       for old, new in (("old", "new"), ("old again", "new again")))


if __name__ == "__main__":
    main()
