"""What goes where under output/: a folder per game (output/GAME/LANG/*.pdf and the site's
output/site/GAME/LANG/), and beside them the files and folders Rulesmith keeps for itself.
A game whose id took one of those names would have its files overwritten or deleted by
another output, so `RESERVED` is refused as a game id (loader.py, `rulesmith new`). A new
output beside the games names itself here, and is reserved with it."""

from __future__ import annotations

# Beside the games in output/.
SITE = "site"            # the static site (site/build.py)
SCHEMA = "schema"        # `rulesmith schema`'s JSON Schema files
STATE = ".rulesmith"     # the build's own records: manifest.json, fit.json, layout.json, chunks/
LOCK = ".lock"           # one build at a time (outputs.BuildLock)

# Beside the games in output/site/.
SITE_ASSETS = "assets"          # fonts, site.css, site.js
SITE_SEARCH = "pagefind"        # the search index
SITE_SEARCH_NEW = ".pagefind-new"  # the index being made, swapped in whole
SITE_INDEX = "index.html"       # the list of games
SITE_WORKER = "sw.js"           # the offline copy's service worker (site/offline.py)

# In output/site/GAME/.
SITE_OFFLINE_LIST = "offline.json"  # what the worker keeps of the game

OWN = (SITE, SCHEMA, STATE, LOCK)
SITE_OWN = (SITE_ASSETS, SITE_SEARCH, SITE_SEARCH_NEW, SITE_INDEX, SITE_WORKER)
RESERVED = frozenset(OWN + SITE_OWN)


def reserved_hint() -> str:
    """What every refusal of a reserved game id suggests."""
    names = ", ".join(sorted(name for name in RESERVED if "." not in name))  # those an id could take
    return f"choose another id (reserved: {names})"


# In output/GAME/LANG/: the outputs a document makes besides itself, each asked for by an
# option of `build`. A build removes a file it no longer makes only when the file belongs to
# an output it was asked for; the others stay, side by side, until `rulesmith clean`.
PRINT_SHOP = "print-shop"  # print-shop/PRESET/ (cards) and print-shop/PRESET-counters/
IMAGE_FOLDERS = ("cards", "counters", "tts")  # PNGs of the cards and counters, Tabletop Simulator sheets


DEFAULT_SIZE = "a4"  # --book and --paper: the size whose files take the plain names
PAPER_DOCUMENTS = ("cards", "counters", "maps")  # laid out on --paper


def sized(stem: str, size: str, suffix: str = ".pdf") -> str:
    """The file name of a document made in a size: rulebook.pdf in A4, rulebook-a5.pdf,
    cards-letter.pdf, cards-letter.json... so that each size's files stay beside the others."""
    return f"{stem}{suffix}" if size == DEFAULT_SIZE else f"{stem}-{size}{suffix}"


def variant(rel: str) -> str:
    """Which output a file of a game's language folder (`rel`, from output/GAME/LANG/) is part
    of: "book:SIZE" (the rulebook in a --book size), "paper:SIZE" (the sheets on a --paper),
    "bleed" (--bleed), "booklet" (--booklet), "print-shop:PRESET" (--print-shop PRESET),
    "images" (left out by --no-images), or "" (made whatever the options)."""
    parts = rel.split("/")
    if parts[0] == PRINT_SHOP and len(parts) > 2:
        return f"print-shop:{parts[1].removesuffix('-counters')}"
    if parts[0] in IMAGE_FOLDERS and len(parts) > 1:
        return "images"
    if len(parts) > 1:
        return ""
    stem, _, suffix = parts[0].partition(".")
    base, _, rest = stem.partition("-")
    if rest in ("bleed", "booklet"):
        return rest
    if base == "rulebook" and suffix.endswith("pdf"):  # NAME.layout-errors.pdf too (print/pdf.py)
        return f"book:{rest or DEFAULT_SIZE}"
    if base in PAPER_DOCUMENTS and (suffix == "json" or suffix.endswith("pdf")) and rest in ("", "letter"):
        return f"paper:{rest or DEFAULT_SIZE}"
    return ""
