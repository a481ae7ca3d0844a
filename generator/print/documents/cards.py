"""Card sheets: cards.pdf and cards.json (where each card sits; on Letter cards-letter.pdf and
cards-letter.json), optionally cards-bleed.pdf, the print shops' files, one PNG per card and
Tabletop Simulator sheets."""

from __future__ import annotations

from ..bleed import set_bleed_box
from ..cards import card_sheets, sheets_config, sheets_document, write_placements
from ..facepages import kept_faces
from ..fitting import unfit
from ..images import faces_html, write_card_images
from ..preflight import preflight_pages
from ..printshop import preset_state, write_print_shop
from ..chunkstore import ChunkStore
from ..sheets import FACE_PAGES_PER_CHUNK, discard_chunks, write_sheets
from ..sources import made_from, reads
from ...outputs.layout import sized
from ..living import changed_cards
from .base import Document, Rendered, made_variants
from .rulebook import since_options


class CardSheets(Document):
    name = "cards"
    weight = 1
    templates = ("card.html.j2", "cards.css", "sheets.yaml", "print-shops.yaml", "backs/*")

    def options(self, job) -> dict:
        return {"paper": job.paper, "bleed": job.bleed, "print_shops": list(job.print_shops), "images": job.images,
                "drafts": job.drafts, **since_options(job)}

    def variants(self, job) -> set[str]:
        return made_variants(job)

    def render(self, ctx, job, report, previous):
        out, root = ctx.output_dir(), ctx.project_root
        sheets, placed = out / sized("cards", job.paper), out / sized("cards", job.paper, ".json")
        with kept_faces(ctx, job.images):  # the card images are rasterized from the fitting's layout
            faces, html, placements, _ = card_sheets(ctx, report, paper=job.paper, drafts=job.drafts,
                                                     out=sheets, changed=changed_cards(ctx, job.changes_since))
            if not faces:
                return Rendered(source=made_from(root, (), ""), unchanged=previous.state == made_from(root, (), ""))
            bleed_html = sheets_document(ctx, faces, bleed=True)[0] if job.bleed else None
            images_html = _images_source(ctx, faces) if job.images else ""
            # a large deck's sheets are hashed piece by piece, never put together in one string
            made = (html.digest(), bleed_html.digest() if bleed_html else "", images_html, placements,
                    *[preset_state(ctx, name) for name in job.print_shops])
            source = made_from(root, previous.reads, *made)
            if source == previous.state:
                discard_chunks(sheets)
                return Rendered(source=source, reads=previous.reads, unchanged=True, cards=len(placements))
            # a card too long even on cards that continue it (E040) prints cut off: not as cards.pdf
            broken = bool(unfit(faces))
            res = write_sheets(html, sheets, ctx.game.folder, ctx.roots, store=ChunkStore(root, sheets),
                               broken=broken)
            report.diagnostics += res.diagnostics
            write_placements(placed, placements)
            rendered = Rendered([res.path, placed], pages=res.pages, cards=len(placements))
            read = set(res.read)
            if job.bleed:
                margin = sheets_config(ctx)["bleed"]
                bleed = write_sheets(bleed_html, out / "cards-bleed.pdf", ctx.game.folder, ctx.roots,
                                     per_chunk=FACE_PAGES_PER_CHUNK, store=ChunkStore(root, out / "cards-bleed.pdf"),
                                     finish=lambda path: set_bleed_box(path, margin), broken=broken)
                report.diagnostics += bleed.diagnostics
                rendered.files.append(bleed.path)
                read |= bleed.read
                preflight_pages(bleed.path, margin, _pages_of(faces), ctx, report)
            for name in job.print_shops:
                rendered.files += write_print_shop(ctx, faces, name, out, report, broken)
            rendered.reads = reads(read, root)
            # with layout findings the source is not remembered: the next build lays it out again
            rendered.source = "" if res.diagnostics or broken else made_from(root, rendered.reads, *made)
            if job.images:
                rendered.files += write_card_images(ctx, faces, out, reuse=bool(previous.state))
            return rendered


def _pages_of(faces) -> list:
    """The record of each bleed page: every face's front, then its back."""
    return [face.location for face in faces for _side in (0, 1)]


def _images_source(ctx, faces) -> str:
    """The hash of what the card images are made from, a chunk of cards at a time."""
    import hashlib

    from ..images import CHUNK

    h = hashlib.sha256()
    for start in range(0, len(faces), CHUNK):
        h.update(faces_html(ctx, faces[start:start + CHUNK]).encode("utf-8"))
    return h.hexdigest()

