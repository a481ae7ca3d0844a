"""Card images: one PNG per card, and Tabletop Simulator deck sheets (at most 10×7 cards,
within 4096 px), rasterized from the same card faces as the printed sheets."""

from __future__ import annotations

import io
import math
from dataclasses import replace
from pathlib import Path

import pypdfium2 as pdfium
from markupsafe import Markup
from PIL import Image

from .. import outputs
from .cardfaces import CardFace
from .context import BuildContext
from . import memo
from .pdf import render_document
from .sources import in_project, made_from

DPI = 300
TTS_COLS, TTS_ROWS, TTS_MAX_PX = 10, 7, 4096


def faces_html(ctx: BuildContext, faces: list[CardFace], backs: bool = False) -> str:
    """One card face per page at its trimmed size (with backs: the cards' backs instead)."""
    from .cards import back_svg

    macros = ctx.env.get_template("card.html.j2").module
    rules = [f"@page face-{k} {{ size: {w}mm {h}mm; margin: 0 }}" for k, (w, h) in {f.size_key: f.mm for f in faces}.items()]
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
    not rendered again: its PNG is kept, and read back for the sheets."""
    if not faces:
        return []
    cards_dir, tts_dir = folder / "cards", folder / "tts"
    per_deck: dict[str, int] = {}
    for face in faces:
        per_deck[face.deck] = per_deck.get(face.deck, 0) + 1
    store = memo.store(ctx.project_root, "images.json")
    known = memo.load(store) if reuse else {}
    made: dict[str, str] = {}
    written: list[Path] = []
    sheets: dict[str, TtsSheets] = {}
    for start in range(0, len(faces), CHUNK):
        chunk = faces[start:start + CHUNK]
        paths = [cards_dir / f"{face.deck}-{face.id}.png" for face in chunk]
        keys = [in_project(path, ctx.project_root) for path in paths]
        states = [made_from(ctx.project_root, (), faces_html(ctx, [replace(face, index=0)]), DPI) for face in chunk]
        todo = [k for k, (path, key, state) in enumerate(zip(paths, keys, states))
                if known.get(key) != state or not path.is_file()]
        pdf = None
        if todo:
            document, _ = render_document(faces_html(ctx, [replace(chunk[k], index=n) for n, k in enumerate(todo)]),
                                          ctx.game.folder, ctx.roots)
            pdf = pdfium.PdfDocument(document.write_pdf())
            del document
        page = {k: n for n, k in enumerate(todo)}
        for k, (face, path) in enumerate(zip(chunk, paths)):
            if k in page:
                image = pdf[page[k]].render(scale=DPI / 72).to_pil().convert("RGB")
                outputs.write_with(path, lambda tmp, image=image: image.save(tmp, format="PNG", optimize=False))
                made[keys[k]] = states[k]
            else:
                with Image.open(path) as kept:
                    image = kept.convert("RGB")
            written.append(path)
            deck = sheets.setdefault(face.deck, TtsSheets(face.deck, per_deck[face.deck], image.size, tts_dir))
            written += deck.add(image)
        if pdf is not None:
            pdf.close()
    if made:
        memo.add(store, made)
    return written + write_back_images(ctx, faces, tts_dir)


def write_back_images(ctx: BuildContext, faces: list[CardFace], tts_dir: Path) -> list[Path]:
    """The deck's back (tts/DECK-back.png); a deck whose cards have backs of their own gets
    sheets of its backs in card order instead (tts/DECK-back-N.png)."""
    decks = list(dict.fromkeys(f.deck for f in faces))
    mixed = {d for d in decks if len({f.back for f in faces if f.deck == d}) > 1}
    backs = [f for f in faces if f.deck in mixed] + [next(f for f in faces if f.deck == d) for d in decks if d not in mixed]
    per_deck = {d: sum(1 for f in backs if f.deck == d) for d in decks}
    written: list[Path] = []
    sheets: dict[str, TtsSheets] = {}
    for start in range(0, len(backs), CHUNK):
        chunk = backs[start:start + CHUNK]
        document, _ = render_document(faces_html(ctx, chunk, backs=True), ctx.game.folder, ctx.roots)
        pdf = pdfium.PdfDocument(document.write_pdf())
        del document
        for index, face in enumerate(chunk):
            image = pdf[index].render(scale=DPI / 72).to_pil().convert("RGB")
            if face.deck in mixed:
                deck = sheets.setdefault(face.deck, TtsSheets(f"{face.deck}-back", per_deck[face.deck], image.size, tts_dir))
                written += deck.add(image)
            else:
                path = tts_dir / f"{face.deck}-back.png"
                outputs.write_if_changed(path, png(image))
                written.append(path)
        pdf.close()
    return written


CHUNK = 50  # card faces rendered at once


class TtsSheets:
    """A deck's Tabletop Simulator sheets, filled a card at a time and written when full."""

    def __init__(self, deck: str, total: int, card_px: tuple[int, int], folder: Path):
        self.deck, self.total, self.folder = deck, total, folder
        w0, h0 = card_px
        self.width = TTS_MAX_PX // TTS_COLS
        self.height = round(self.width * h0 / w0)
        if self.height * TTS_ROWS > TTS_MAX_PX:
            self.height = TTS_MAX_PX // TTS_ROWS
            self.width = round(self.height * w0 / h0)
        self.added, self.sheet, self.number = 0, None, 0

    def add(self, image: Image.Image) -> list[Path]:
        per_sheet = TTS_COLS * TTS_ROWS
        k = self.added % per_sheet
        if k == 0:
            count = min(per_sheet, self.total - self.added)
            cols, rows = min(TTS_COLS, count), math.ceil(count / TTS_COLS)
            self.sheet = Image.new("RGB", (cols * self.width, rows * self.height), "white")
            self.number += 1
        r, c = divmod(k, TTS_COLS)
        self.sheet.paste(image.resize((self.width, self.height), Image.LANCZOS), (c * self.width, r * self.height))
        self.added += 1
        if k + 1 == per_sheet or self.added == self.total:
            path = self.folder / f"{self.deck}-{self.number}.png"
            outputs.write_if_changed(path, png(self.sheet))  # a deck whose cards are the same keeps its sheets
            self.sheet = None
            return [path]
        return []


def png(image: Image.Image) -> bytes:
    buffer = io.BytesIO()
    image.save(buffer, format="PNG")
    return buffer.getvalue()


def tts_sheets(deck: str, images: list[Image.Image], folder: Path) -> list[Path]:
    sheets = TtsSheets(deck, len(images), images[0].size, folder)
    return [path for image in images for path in sheets.add(image)]
