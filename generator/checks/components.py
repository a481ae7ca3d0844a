"""Counters, sides and maps refer to what exists: sheets, sides, terrain, counters, templates,
pictures in the game folder; map places lie on the grid and hexsides join neighbours."""

from __future__ import annotations

import re
from pathlib import Path

from ..system import folders
from ..core.diagnostics import Report, did_you_mean
from ..reading.game import Game, Origin
from ..model.components import BUILTIN_TEMPLATES
from ..model.mapgrid import Grid
from ..model.maps import cell_xy
from ..safety.pictures import TYPES
from .pictures import report_use

IMAGE_TYPES = tuple(TYPES)


def _missing(report: Report, where, what: str, name: str, pool) -> None:
    pool = list(pool)
    hint = did_you_mean(name, pool) or (f"known: {', '.join(sorted(pool)[:12])}" if pool else f"no {what} is declared")
    report.add("E007", f"unknown {what} '{name}'", where, hint)


def check_image(game: Game, report: Report, where, path: str) -> None:
    """A picture the designer names: a PNG, SVG or JPEG file inside the game folder."""
    folder = game.folder.resolve()
    target = (game.folder / path).resolve()
    if Path(path).is_absolute() or folder not in target.parents:
        report.add("E061", f"image '{path}' is outside the game folder", where,
                   "put the picture in the game folder (e.g. images/) and give its path from there")
    elif target.suffix.lower() not in IMAGE_TYPES:
        report.add("E061", f"image '{path}' is not PNG, SVG or JPEG", where, "convert it to PNG, SVG or JPEG")
    elif not target.is_file():
        names = {p.name: p.relative_to(folder).as_posix() for p in folders.walk(folder) if p.suffix.lower() in IMAGE_TYPES}
        close = did_you_mean(Path(path).name, names)
        hint = f"did you mean '{names[close.split(chr(39))[1]]}'?" if close else ""
        report.add("E061", f"no image '{path}' in the game folder", where,
                   hint or "check the path: it is relative to the game folder")
    else:
        report_use(report, where, path, target)


def template_source(path: Path) -> str:
    """A template's text; none when it cannot be read (printing.check reports it, E024)."""
    try:
        return folders.read_text(path)
    except (OSError, UnicodeDecodeError):
        return ""


def _templates(game: Game) -> set[str]:
    names = set(BUILTIN_TEMPLATES)
    for folder in (game.folder / "templates", game.folder.parent.parent / "templates"):  # the game's, the project's
        own = folder / "counter.html.j2"
        if own.is_file():
            names |= set(re.findall(r"\{%-?\s*macro\s+([A-Za-z_][\w]*)\s*\(", template_source(own)))
    return names


def check_sides(game: Game, report: Report) -> None:
    sides = {s.id for s in game.manifest.sides}
    if not sides:
        return  # a game without a sides registry keeps free side names
    for section in ("units", "decks", "cards", "counters"):
        for record in game.section(section).values():
            origin = game.origin(record)
            for path in (("side",), ("back", "side")):
                value = getattr(record, path[0], None)
                if len(path) == 2:
                    value = getattr(value, "side", None) if value is not None else None
                if isinstance(value, str) and value not in sides:
                    _missing(report, origin.location(*path), "side", value, sides)


def check_counters(game: Game, report: Report) -> None:
    sheets = game.section("countersheets")
    templates = _templates(game)
    for sheet in sheets.values():
        if sheet.template not in templates:
            _missing(report, game.origin(sheet).location("template"), "counter template", sheet.template, templates)
    for counter in game.section("counters").values():
        origin = game.origin(counter)
        if counter.sheet not in sheets:
            _missing(report, origin.location("sheet"), "counter sheet", counter.sheet, sheets)
        for prefix, face in (((), counter), (("back",), counter.back)):
            if face is None:
                continue
            if face.template is not None and face.template not in templates:
                _missing(report, origin.location(*prefix, "template"), "counter template", face.template, templates)
            if face.image:
                check_image(game, report, origin.location(*prefix, "image"), face.image)


def _place(grid: Grid, report: Report, where, cell: str, what: str = "cell") -> tuple[int, int] | None:
    col, row = cell_xy(cell)
    if not grid.contains(col, row):
        report.add("E060", f"{what} '{cell}' is outside the {grid.columns}×{grid.rows} grid", where,
                   f"columns run 01–{grid.columns:02d} and rows 01–{grid.rows:02d}: a cell is written CCRR")
        return None
    return col, row


def check_map(game: Game, m, origin: Origin, report: Report) -> None:
    """A map names terrain, counters and a picture that exist, and every place it writes lies
    on its grid: its cells, features, labels and setup codes."""
    grid = Grid(m.grid, m.columns, m.rows, m.cell)
    _check_map_terrain(game, m, grid, origin, report)
    for i, feature in enumerate(m.features):
        _check_feature(grid, feature, i, origin, report)
    for i, label in enumerate(m.labels):
        _place(grid, report, origin.location("labels", i, "at"), label.at)
    _check_setup(game, m, grid, origin, report)
    if m.background:
        check_image(game, report, origin.location("background"), m.background)


def _check_map_terrain(game: Game, m, grid: Grid, origin: Origin, report: Report) -> None:
    """The map's default terrain and each cells: entry's exist; the entry's cells and range lie on the grid."""
    terrain = game.section("terrain")
    if m.terrain is not None and m.terrain not in terrain:
        _missing(report, origin.location("terrain"), "terrain", m.terrain, terrain)
    for i, entry in enumerate(m.cells):
        if entry.terrain not in terrain:
            _missing(report, origin.location("cells", i, "terrain"), "terrain", entry.terrain, terrain)
        for field, cells in (("cells", entry.cells), ("range", entry.range or ())):
            for j, cell in enumerate(cells):
                _place(grid, report, origin.location("cells", i, field, j), cell)


def _check_feature(grid: Grid, feature, i: int, origin: Origin, report: Report) -> None:
    """A river, road or wall: along cell sides only on a hex or square grid, then its sides
    and its path."""
    if feature.hexsides and not grid.kind.startswith(("hex", "square")):
        report.add("E060", f"a {feature.kind} along cell sides needs a grid", origin.location("features", i, "kind"),
                   "use path: from cell to cell, or give the map a grid")
        return
    _check_sides(grid, feature, i, origin, report)
    _check_path(grid, feature, i, origin, report)


def _check_sides(grid: Grid, feature, i: int, origin: Origin, report: Report) -> None:
    """Each hexside ("0106/0107") joins two neighbouring cells on the grid."""
    for j, side in enumerate(feature.hexsides):
        where = origin.location("features", i, "hexsides", j)
        a, b = (_place(grid, report, where, p.strip()) for p in side.split("/"))
        if a and b and not grid.share_side(a, b):
            report.add("E060", f"'{side}': cells {side.split('/')[0].strip()} and {side.split('/')[1].strip()} "
                       "share no side", where, "a hexside joins two neighbouring cells")


def _check_path(grid: Grid, feature, i: int, origin: Origin, report: Report) -> None:
    """A path's cells lie on the grid, each a neighbour of the one before."""
    previous = None
    for j, cell in enumerate(feature.path):
        where = origin.location("features", i, "path", j)
        here = _place(grid, report, where, cell)
        if here and previous and grid.distance(previous, here) != 1:
            report.add("E060", f"path steps from {feature.path[j - 1]} to {cell}, which are not neighbours", where,
                       "list every cell the path passes through, in order")
        previous = here


def _check_setup(game: Game, m, grid: Grid, origin: Origin, report: Report) -> None:
    """Each setup code lies on the grid and names a counter that exists."""
    counters = game.section("counters")
    for i, code in enumerate(m.setup):
        _place(grid, report, origin.location("setup", i, "at"), code.at)
        if code.counter is not None and code.counter not in counters:
            _missing(report, origin.location("setup", i, "counter"), "counter", code.counter, counters)


def _backs(game: Game) -> set[str]:
    from ..model.cards import BUILTIN_BACKS

    names = set(BUILTIN_BACKS)
    for folder in (game.folder / "templates" / "backs", game.project_root / "templates" / "backs"):
        if folder.is_dir():
            names |= {p.name[: -len(".svg.j2")] for p in folder.glob("*.svg.j2")}
    return names


def check_backs(game: Game, report: Report) -> None:
    backs = _backs(game)
    for section in ("decks", "cards"):
        for record in game.section(section).values():
            if isinstance(record.back, str) and record.back not in backs:
                _missing(report, game.origin(record).location("back"), "card back design", record.back, backs)
            elif getattr(record.back, "template", None) and record.back.template not in backs:
                _missing(report, game.origin(record).location("back", "template"), "card back design",
                         record.back.template, backs)


def check(game: Game, report: Report) -> None:
    check_sides(game, report)
    check_backs(game, report)
    for card in game.cards.values():
        if getattr(card, "image", None):
            check_image(game, report, game.origin(card).location("image"), card.image)
        if card.back_face is not None and card.back_face.image:
            check_image(game, report, game.origin(card).location("back", "image"), card.back_face.image)
    check_counters(game, report)
    for m in game.section("maps").values():
        check_map(game, m, game.origin(m), report)
    for terrain in game.terrain.values():
        colour = getattr(terrain, "colour", None)
        if colour is not None and not re.fullmatch(r"#[0-9a-fA-F]{6}", colour):
            report.add("E004", f"terrain colour '{colour}' is not #rrggbb", game.origin(terrain).location("colour"),
                       "write a colour as #rrggbb, e.g. #9cc08a")
