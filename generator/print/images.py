"""Card images: one PNG per card, and Tabletop Simulator deck sheets (at most 10×7 cards,
within 4096 px), rasterized from the same card faces as the printed sheets."""

from __future__ import annotations

import math
from pathlib import Path

import pypdfium2 as pdfium
from markupsafe import Markup
from PIL import Image

from .cardfaces import CardFace
from .context import BuildContext
from .pdf import render_document

DPI = 300
TTS_COLS, TTS_ROWS, TTS_MAX_PX = 10, 7, 4096


def faces_html(ctx: BuildContext, faces: list[CardFace], backs: list[CardFace] = ()) -> str:
    """One card face per page at its trimmed size; then one page per back in `backs`."""
    from .cards import back_svg

    macros = ctx.env.get_template("card.html.j2").module
    every = [*faces, *backs]
    rules = [f"@page face-{k} {{ size: {w}mm {h}mm; margin: 0 }}" for k, (w, h) in {f.size_key: f.mm for f in every}.items()]
    pages = [Markup('<div class="sheet" style="width:{}mm;height:{}mm;page:face-{}">{}</div>').format(
        f.mm[0], f.mm[1], f.size_key, macros.front(f, ctx.title)) for f in faces]
    pages += [Markup('<div class="sheet" style="width:{}mm;height:{}mm;page:face-{}">{}</div>').format(
        f.mm[0], f.mm[1], f.size_key, macros.back(f, ctx.title, back_svg(ctx, f))) for f in backs]
    return (f'<!DOCTYPE html><html lang="{ctx.lang}"><head><meta charset="utf-8"><style>'
            f'{ctx.env.globals["fonts_css"]}\n' + "\n".join(rules) + "\n" + ctx.css("cards.css")
            + "</style></head><body>" + "".join(str(p) for p in pages) + "</body></html>")


def write_card_images(ctx: BuildContext, faces: list[CardFace], folder: Path) -> list[Path]:
    """PNG per card (cards/DECK-CARD.png), TTS sheets (tts/DECK-N.png) and the deck's back
    (tts/DECK-back.png); a deck whose cards have backs of their own also gets sheets of its
    backs in the same order (tts/DECK-back-N.png)."""
    if not faces:
        return []
    decks = list(dict.fromkeys(f.deck for f in faces))
    mixed = {d for d in decks if len({f.back for f in faces if f.deck == d}) > 1}
    backs = [f for f in faces if f.deck in mixed]
    first_backs = [next(f for f in faces if f.deck == d) for d in decks if d not in mixed]
    document, _ = render_document(faces_html(ctx, faces, backs + first_backs), ctx.game.folder, ctx.roots)
    pdf = pdfium.PdfDocument(document.write_pdf())
    cards_dir, tts_dir = folder / "cards", folder / "tts"
    cards_dir.mkdir(parents=True, exist_ok=True)
    tts_dir.mkdir(parents=True, exist_ok=True)
    written, by_deck = [], {}
    for index, face in enumerate(faces):
        image = pdf[index].render(scale=DPI / 72).to_pil().convert("RGB")
        path = cards_dir / f"{face.deck}-{face.id}.png"
        image.save(path, optimize=False)
        written.append(path)
        by_deck.setdefault(face.deck, []).append(image)
    for deck, images in by_deck.items():
        written.extend(tts_sheets(deck, images, tts_dir))
    back_images: dict[str, list] = {}
    for k, face in enumerate(backs + first_backs):
        back_images.setdefault(face.deck, []).append(pdf[len(faces) + k].render(scale=DPI / 72).to_pil().convert("RGB"))
    for deck, images in back_images.items():
        if deck in mixed:
            written.extend(tts_sheets(f"{deck}-back", images, tts_dir))
        else:
            path = tts_dir / f"{deck}-back.png"
            images[0].save(path)
            written.append(path)
    return written


def tts_sheets(deck: str, images: list[Image.Image], folder: Path) -> list[Path]:
    per_sheet = TTS_COLS * TTS_ROWS
    w0, h0 = images[0].size
    width = TTS_MAX_PX // TTS_COLS
    height = round(width * h0 / w0)
    if height * TTS_ROWS > TTS_MAX_PX:
        height = TTS_MAX_PX // TTS_ROWS
        width = round(height * w0 / h0)
    out = []
    for n, start in enumerate(range(0, len(images), per_sheet), start=1):
        chunk = images[start:start + per_sheet]
        cols = min(TTS_COLS, len(chunk))
        rows = math.ceil(len(chunk) / TTS_COLS)
        sheet = Image.new("RGB", (cols * width, rows * height), "white")
        for k, image in enumerate(chunk):
            r, c = divmod(k, TTS_COLS)
            sheet.paste(image.resize((width, height), Image.LANCZOS), (c * width, r * height))
        path = folder / f"{deck}-{n}.png"
        sheet.save(path)
        out.append(path)
    return out
