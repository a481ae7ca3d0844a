"""Counter sheets: counters.pdf (fronts, each page followed by its backs) and counters.json
(where each counter sits), one PNG per counter side and Tabletop Simulator sheets; with
--bleed counters-bleed.pdf, with --print-shop the printer's counter files (counterbleed.py)."""

from __future__ import annotations

from ...pictures import picture_bytes
from ..cards import write_placements
from ..counterbleed import bleed_html, counter_faces, write_bleed_pdf
from ..counters import counter_document, write_counter_images
from ..pdf import write_pdf
from ..printshop import preset_state, write_counter_shop
from ..sheetparts import sheets_config
from ..sources import made_from
from .base import Document, Rendered


def pictures(ctx) -> list[bytes]:
    """The designer's pictures the counters show: a changed picture changes the sheets."""
    names = sorted({f for c in ctx.game.section("counters").values()
                    for f in (c.image, c.back.image if c.back else None) if f})
    return [picture_bytes(ctx.game.folder / name) for name in names if (ctx.game.folder / name).is_file()]


class CounterSheets(Document):
    name = "counters"
    weight = 1
    templates = ("counter.html.j2", "counters.css", "sheets.yaml", "print.yaml", "print-shops.yaml")

    def options(self, job) -> dict:
        return {"paper": job.paper, "images": job.images, "bleed": job.bleed, "print_shop": job.print_shop}

    def render(self, ctx, job, report, previous):
        made = counter_document(ctx, report, paper=job.paper)
        if made is None:
            return Rendered(source=made_from(ctx.project_root, (), ""),
                            unchanged=previous.state == made_from(ctx.project_root, (), ""))
        html, placements, document, pieces = made
        bleed = sheets_config(ctx)["bleed"]
        bleed_pages = bleed_html(ctx, counter_faces(pieces), bleed) if job.bleed else ""
        source = made_from(ctx.project_root, (), html, placements, job.images, bleed_pages,
                           preset_state(ctx, job.print_shop), *pictures(ctx))
        if source == previous.state:
            return Rendered(source=source, unchanged=True, cards=len(placements))
        out = ctx.output_dir()
        res = write_pdf(html, out / "counters.pdf", ctx.game.folder, ctx.roots, document=document)
        write_placements(out / "counters.json", placements)
        rendered = Rendered([res.path, out / "counters.json"], pages=res.pages, cards=len(placements), source=source)
        if job.bleed:
            rendered.files.append(write_bleed_pdf(ctx, counter_faces(pieces), out / "counters-bleed.pdf", bleed, report))
        if job.print_shop:
            rendered.files += write_counter_shop(ctx, pieces, job.print_shop, out, report)
        if job.images:
            rendered.files += write_counter_images(ctx, pieces, out)
        return rendered
