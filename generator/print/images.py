"""Card images: one PNG per card, and Tabletop Simulator deck sheets (at most 10×7 cards,
within 4096 px), rasterized from the same card faces as the printed sheets. A sheet's cell is
drawn from the card's page at the cell's own size (not shrunk from the card's PNG, which
costs several times as much); a card not laid out by this build takes its cell from the
sheet that showed it when last made, or is laid out again."""

from __future__ import annotations

import math
from dataclasses import replace
from pathlib import Path
from typing import Callable

import pypdfium2 as pdfium
from markupsafe import Markup
from PIL import Image

from ..system import folders
from .. import outputs
from .cardfaces import CardFace
from .context import BuildContext
from .facepages import PT_PER_MM, face_key, raster, raster_to
from .fonts import fit_text
from . import memo, pngfile
from .pdf import render_document
from .sources import in_project, made_from

DPI = 300
MEASURE_PAGES = 4  # a measured card's page holds four times its text: enough to tell how much too long
TTS_COLS, TTS_ROWS, TTS_MAX_PX = 10, 7, 4096


def back_svg(ctx: BuildContext, face: CardFace) -> Markup:
    """The art of the card's back design; nothing for a back written as content with no design."""
    if not face.back:
        return Markup("")
    template = ctx.env.get_template(f"backs/{face.back}.svg.j2")
    w, h = face.mm
    return Markup(template.render(title=ctx.title, deck=face.deck_name, w=w, h=h, fit=fit_text, card=face))


def faces_html(ctx: BuildContext, faces: list[CardFace], backs: bool = False, measure: bool = False) -> str:
    """One card face per page at its trimmed size (with backs: the cards' backs instead).
    `measure`: pages far taller than the card, so that a card's text running past its body is
    laid out whole and measured, not cut off at the page's end (fitting.py)."""
    macros = ctx.env.get_template("card.html.j2").module
    tall = MEASURE_PAGES if measure else 1
    rules = [f"@page face-{k} {{ size: {w}mm {h * tall}mm; margin: 0 }}"
             for k, (w, h) in {f.size_key: f.mm for f in faces}.items()]
    pages = [Markup('<div class="sheet" style="width:{}mm;height:{}mm;page:face-{}">{}</div>').format(
        f.mm[0], f.mm[1], f.size_key, macros.back(f, ctx.title, back_svg(ctx, f)) if backs else macros.front(f, ctx.title))
        for f in faces]
    return (f'<!DOCTYPE html><html lang="{Markup.escape(ctx.lang)}"><head><meta charset="utf-8"><style>'
            f'{ctx.env.globals["fonts_css"]}\n' + "\n".join(rules) + "\n" + ctx.css("cards.css")
            + "</style></head><body>" + "".join(str(p) for p in pages) + "</body></html>")


def write_card_images(ctx: BuildContext, faces: list[CardFace], folder: Path, reuse: bool = True) -> list[Path]:
    """PNG per card (cards/DECK-CARD.png) and TTS sheets (tts/DECK-N.png), rendered a chunk
    of cards at a time so that memory stays flat however large the deck. With `reuse` (the
    last build's files are intact), a card whose face is the same as when its PNG was made is
    not rendered again, and a TTS sheet whose cards are all the same is kept: only a changed
    card's sheet reads the other cards' PNGs back."""
    if not faces:
        return []
    root = ctx.project_root
    store = memo.store(root, "images.json")
    plan = _ImagePlan(ctx, faces, folder, memo.load(store, _state) if reuse else {})
    written: list[Path] = []
    sheets: dict[str, TtsSheets] = {}
    for start in range(0, len(faces), CHUNK):
        indices = range(start, min(start + CHUNK, len(faces)))
        todo = [i for i in indices if i in plan.changed]
        pages = {i: page for i in todo if (page := plan.laid_out(i)) is not None}  # the fitting's layout
        rest = [i for i in todo if i not in pages]
        pdf = _faces_pdf(ctx, [replace(faces[i], index=n) for n, i in enumerate(rest)]) if rest else None
        pages.update((i, pdf[n]) for n, i in enumerate(rest))
        for i in indices:
            plan.image(i, pages.get(i))
            written.append(plan.paths[i])
            deck = sheets.setdefault(faces[i].deck, TtsSheets(faces[i].deck, plan.per_deck[faces[i].deck],
                                                              folder / "tts"))
            done = deck.add(plan.cell(i, pages.get(i)), plan.base(i))
            plan.written.update(path for path in done if path in plan.remade)
            written += done
        if pdf is not None:
            pdf.close()
    if plan.made:
        memo.add(store, plan.made, _state)
    return written + write_back_images(ctx, faces, folder / "tts")


class _ImagePlan:
    """Which card PNGs and TTS sheets a build makes again: each card's path and the state its
    face is made from, the cards whose state changed, the TTS sheet of each card, the sheets
    with a changed card (`remade`), and the states of what is made (`made`, for images.json)."""

    def __init__(self, ctx: BuildContext, faces: list[CardFace], folder: Path, known: dict):
        root = self.root = ctx.project_root
        self.ctx, self.faces = ctx, faces
        self.paths = [folder / "cards" / f"{face.deck}-{face.id}.png" for face in faces]
        alone = [faces_html(ctx, [replace(face, index=0)]) for face in faces]
        self.states = [made_from(root, (), html, DPI) for html in alone]
        self.heights = [face.mm[1] for face in faces]
        self.laid = ctx.face_pages
        self.keys = [face_key(html) for html in alone] if self.laid is not None else []
        self.changed = {i for i, (path, state) in enumerate(zip(self.paths, self.states))
                        if known.get(in_project(path, root)) != state or not path.is_file()}
        self.sheet_of, self.per_deck = _tts_sheet_of(faces, folder / "tts")
        sheet_states = _sheet_states(root, faces, self.sheet_of, self.per_deck, self.states)
        self.remade = {sheet for sheet, state in sheet_states.items()
                       if known.get(in_project(sheet, root)) != state or not sheet.is_file()}
        self.made = {in_project(sheet, root): sheet_states[sheet] for sheet in self.remade}
        cells = _cells(self.sheet_of, self.states)
        self.made.update({_cells_key(sheet, root): cells[sheet] for sheet in self.remade})
        # the cards each remade sheet showed when last made, where its file is still there
        self.before = {sheet: old for sheet in self.remade
                       if isinstance(old := known.get(_cells_key(sheet, root)), list) and len(old) == len(cells[sheet])
                       and sheet.is_file()}
        self.position = _positions(self.sheet_of)
        self.cell_px = [cell_size(card_px(face)) for face in faces]
        self.shown = _shown(known, root)
        self.written: set[Path] = set()  # the sheets written so far by this build: no cell is taken from them
        self._old: dict[Path, Image.Image | None] = {}  # sheets as last made, read (the last two)

    def laid_out(self, i: int):
        """The page the fitting laid card i out on, as it is now (facepages.py), or None."""
        return self.laid.page(self.keys[i]) if self.laid is not None else None

    def image(self, i: int, page) -> None:
        """Card i's image rendered from its `page` and written, when it changed (a page)."""
        if page is None:
            return
        outputs.write_bytes(self.paths[i], pngfile.rendered(raster(page, DPI / 72, self.heights[i])))
        self.made[in_project(self.paths[i], self.root)] = self.states[i]

    def cell(self, i: int, page):
        """What card i's TTS sheet takes of it: nothing when the sheet is kept; else its cell
        drawn from its `page` (laid out now), or `Kept` when it is the card the same cell of the
        sheet showed when last made, or its cell as last made (`kept_cell`)."""
        sheet = self.sheet_of[i]
        if sheet not in self.remade:
            return None
        if page is not None:
            return raster_to(page, self.cell_px[i], self.heights[i])
        before = self.before.get(sheet)
        if before is not None and before[self.position[i]] == self.states[i]:
            return Kept(lambda: self.kept_cell(i))
        return self.kept_cell(i)

    def kept_cell(self, i: int) -> Image.Image:
        """Card i's cell (the card not laid out by this build): cut from the sheet that showed
        its face when last made, while this build has not written that sheet yet and it holds
        the cell; else the face laid out again, on a page as the fitting's (fitting.py), so
        that its cell is the one a clean build draws."""
        found = self.shown.get(self.states[i])
        if found is not None and found[0] not in self.written:
            sheet, n = found
            old = self._old_sheet(sheet)
            w, h = self.cell_px[i]
            row, col = divmod(n, TTS_COLS)
            box = (col * w, row * h, (col + 1) * w, (row + 1) * h)
            if old is not None and box[2] <= old.width and box[3] <= old.height:
                return old.crop(box)
        pdf = _faces_pdf(self.ctx, [replace(self.faces[i], index=0)], measure=True)
        try:
            return raster_to(pdf[0], self.cell_px[i], self.heights[i])
        finally:
            pdf.close()

    def _old_sheet(self, sheet: Path) -> Image.Image | None:
        """A sheet as last made (None: not there or not readable); the last two read are kept."""
        if sheet not in self._old:
            try:
                self._old[sheet] = _read_png(sheet)
            except (OSError, ValueError):
                self._old[sheet] = None
            while len(self._old) > 2:
                del self._old[next(iter(self._old))]
        return self._old[sheet]

    def base(self, i: int):
        """At the first card of a remade sheet whose cells are known: the sheet as last made
        (read when needed), whose cells of `Kept` cards stay as they are; else None."""
        sheet = self.sheet_of[i]
        if self.position[i] != 0 or sheet not in self.before:
            return None
        return lambda: _read_png(sheet)


class Kept:
    """A card of a remade TTS sheet that the same cell of the sheet showed when last made:
    the cell stays as it is, unless the sheet is made anew (`load` gives the cell)."""

    def __init__(self, load: Callable[[], Image.Image]):
        self.load = load


def card_px(face: CardFace) -> tuple[int, int]:
    """The size in pixels of a card's image (its page rasterized at DPI)."""
    w, h = face.mm
    return math.ceil(w * PT_PER_MM * DPI / 72), math.ceil(h * PT_PER_MM * DPI / 72)


def cell_size(card: tuple[int, int]) -> tuple[int, int]:
    """The size of a TTS sheet's cell for a card of `card` pixels: ten across within 4096 px,
    seven down within 4096 px, the card's proportions kept."""
    w0, h0 = card
    width = TTS_MAX_PX // TTS_COLS
    height = round(width * h0 / w0)
    if height * TTS_ROWS > TTS_MAX_PX:
        height = TTS_MAX_PX // TTS_ROWS
        width = round(height * w0 / h0)
    return width, height


def _read_png(path: Path) -> Image.Image:
    with folders.open_file(path) as source, Image.open(source) as kept:
        return kept.convert("RGB")


def _cells(sheet_of: list[Path], states: list[str]) -> dict[Path, list[str]]:
    """The states of the cards each TTS sheet shows, in its cells' order."""
    cells: dict[Path, list[str]] = {}
    for sheet, state in zip(sheet_of, states):
        cells.setdefault(sheet, []).append(state)
    return cells


def _positions(sheet_of: list[Path]) -> list[int]:
    """Each card's cell on its sheet."""
    position: list[int] = []
    count: dict[Path, int] = {}
    for sheet in sheet_of:
        position.append(count.get(sheet, 0))
        count[sheet] = position[-1] + 1
    return position


def _shown(known: dict, root: Path) -> dict[str, tuple[Path, int]]:
    """Where each face was shown when last made, by its state: (the sheet, its cell), as
    images.json's cells of each sheet say."""
    return {state: (root / key.removesuffix("#cells"), n) for key, states in known.items()
            if key.endswith("#cells") and isinstance(states, list) for n, state in enumerate(states)}


def _cells_key(sheet: Path, root: Path) -> str:
    """images.json's key for the cards a TTS sheet shows."""
    return in_project(sheet, root) + "#cells"


def _tts_sheet_of(faces: list[CardFace], tts_dir: Path) -> tuple[list[Path], dict[str, int]]:
    """The TTS sheet each card goes on (tts/DECK-N.png), and the number of cards per deck."""
    per_deck: dict[str, int] = {}
    sheet_of: list[Path] = []
    for face in faces:
        sheet_of.append(tts_dir / f"{face.deck}-{per_deck.get(face.deck, 0) // PER_SHEET + 1}.png")
        per_deck[face.deck] = per_deck.get(face.deck, 0) + 1
    return sheet_of, per_deck


def _sheet_states(root: Path, faces: list[CardFace], sheet_of: list[Path], per_deck: dict[str, int],
                  states: list[str]) -> dict[Path, str]:
    """The state each TTS sheet is made from: its deck's size and its cards' states."""
    parts: dict[Path, list] = {}
    for i, sheet in enumerate(sheet_of):
        parts.setdefault(sheet, [per_deck[faces[i].deck]]).append(states[i])
    return {sheet: made_from(root, (), *values) for sheet, values in parts.items()}


def _faces_pdf(ctx: BuildContext, faces: list[CardFace], backs: bool = False, measure: bool = False):
    """The faces (or their backs) laid out one per page, as a PDF to rasterize; with `measure`
    on the fitting's taller pages (faces_html)."""
    document, _ = render_document(faces_html(ctx, faces, backs=backs, measure=measure), ctx.game.folder, ctx.roots)
    return pdfium.PdfDocument(document.write_pdf())


def _state(entry: object) -> bool:
    """An images.json entry: the state an image was made from, or the states of the cards a
    TTS sheet shows."""
    return isinstance(entry, str) or (isinstance(entry, list) and all(isinstance(item, str) for item in entry))


def write_back_images(ctx: BuildContext, faces: list[CardFace], tts_dir: Path) -> list[Path]:
    """The deck's back (tts/DECK-back.png); a deck whose cards have backs of their own (another
    design, or a back written as content) gets sheets of its backs in card order instead
    (tts/DECK-back-N.png), and each back written as content its own PNG (cards/DECK-CARD-back.png)."""
    decks = list(dict.fromkeys(f.deck for f in faces))
    mixed = _mixed_backs(faces, decks)
    backs = [f for f in faces if f.deck in mixed] + [next(f for f in faces if f.deck == d) for d in decks if d not in mixed]
    per_deck = {d: sum(1 for f in backs if f.deck == d) for d in decks}
    written: list[Path] = []
    sheets: dict[str, TtsSheets] = {}
    for start in range(0, len(backs), CHUNK):
        chunk = backs[start:start + CHUNK]
        pdf = _faces_pdf(ctx, chunk, backs=True)
        for index, face in enumerate(chunk):
            image = lambda: pngfile.rendered(pdf[index].render(scale=DPI / 72, rev_byteorder=True))  # noqa: E731
            if face.reverse is not None:
                written.append(_write_png(tts_dir.parent / "cards" / f"{face.deck}-{face.id}-back.png", image()))
            if face.deck in mixed:
                deck = sheets.setdefault(face.deck, TtsSheets(f"{face.deck}-back", per_deck[face.deck], tts_dir))
                written += deck.add(raster_to(pdf[index], cell_size(card_px(face)), face.mm[1]))
            else:
                written.append(_write_png(tts_dir / f"{face.deck}-back.png", image()))
        pdf.close()
    return written


def _mixed_backs(faces: list[CardFace], decks: list[str]) -> set[str]:
    """The decks whose cards do not all share one back: another design, or a back written as content."""
    return {d for d in decks if len({f.back for f in faces if f.deck == d}) > 1
            or any(f.reverse is not None for f in faces if f.deck == d)}


def _write_png(path: Path, png: bytes) -> Path:
    outputs.write_if_changed(path, png)
    return path


CHUNK = 50  # card faces rendered at once
PER_SHEET = TTS_COLS * TTS_ROWS


class TtsSheets:
    """A deck's Tabletop Simulator sheets, filled a card at a time and written when full. A
    sheet whose cards all come as None is not made again (its file is kept). A sheet given
    its `base` (the sheet as last made) keeps the cells of its `Kept` cards and pastes the
    others; without one, or when the base is not of the sheet's size, it is made anew."""

    def __init__(self, deck: str, total: int, folder: Path):
        self.deck, self.total, self.folder = deck, total, folder
        self.width = self.height = 0
        self.added, self.number = 0, 0
        self.cells: list = []  # of the sheet being filled: a cell-sized image, Kept or None
        self.start: Callable[[], Image.Image] | None = None

    def _size(self, card: tuple[int, int]) -> None:
        self.width, self.height = cell_size(card)

    def add(self, image, base: Callable[[], Image.Image] | None = None) -> list[Path]:
        """The next card: its image, Kept, or None (its sheet is kept); `base` at a sheet's
        first card."""
        if not self.cells:
            self.start = base
        self.cells.append(self._cell(image) if isinstance(image, Image.Image) else image)
        self.added += 1
        if len(self.cells) < PER_SHEET and self.added < self.total:
            return []
        self.number += 1
        path = self.folder / f"{self.deck}-{self.number}.png"
        sheet = self._sheet()
        if sheet is not None:
            outputs.write_if_changed(path, pngfile.encoded(sheet))
        self.cells, self.start = [], None
        return [path]

    def _cell(self, image: Image.Image) -> Image.Image:
        """`image` as a cell: a card's image shrunk to the cell's size, or a cell as it is."""
        if not self.width:
            self._size(image.size)
        if image.size == (self.width, self.height):
            return image
        return image.resize((self.width, self.height), Image.LANCZOS)

    def _sheet(self) -> Image.Image | None:
        """The sheet of the cards added: None when it is kept."""
        if all(cell is None for cell in self.cells):
            return None
        count = len(self.cells)
        cols, rows = min(TTS_COLS, count), math.ceil(count / TTS_COLS)
        sheet = self.start() if self.start is not None and self.width else None
        if sheet is None or sheet.size != (cols * self.width, rows * self.height):
            self.cells = [self._cell(cell.load()) if isinstance(cell, Kept) else cell for cell in self.cells]
            sheet = Image.new("RGB", (cols * self.width, rows * self.height), "white")
        for k, cell in enumerate(self.cells):
            if isinstance(cell, Image.Image):
                r, c = divmod(k, TTS_COLS)
                sheet.paste(cell, (c * self.width, r * self.height))
        return sheet


def tts_sheets(deck: str, images: list[Image.Image], folder: Path) -> list[Path]:
    sheets = TtsSheets(deck, len(images), folder)
    return [path for image in images for path in sheets.add(image)]
