"""Counter sheets: counters.pdf (fronts, each page followed by its backs) and counters.json
(where each counter sits; on Letter counters-letter.pdf and counters-letter.json), one PNG per counter side and Tabletop Simulator sheets; with
--bleed counters-bleed.pdf, with --print-shop the printer's counter files (counterbleed.py)."""

from __future__ import annotations

from ...safety.pictures import picture_bytes
from ..cards import write_placements
from ..counterbleed import bleed_html, counter_faces, write_bleed_pdf
from ..counters import counter_document, write_counter_images
from ..pdf import write_pdf
from ..printshop import preset_state, write_counter_shop
from ..sheetparts import sheets_config
from ..sources import made_from
from ...outputs.layout import sized
from ..living import changed_counters
from .base import Document, Rendered, made_variants
from .rulebook import since_options


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
        return {"paper": job.paper, "images": job.images, "bleed": job.bleed, "print_shops": list(job.print_shops),
                **since_options(job)}

    def variants(self, job) -> set[str]:
        return made_variants(job)

    def render(self, ctx, job, report, previous):
        made = counter_document(ctx, report, paper=job.paper, changed=changed_counters(ctx, job.changes_since))
        if made is None:
            return Rendered(source=made_from(ctx.project_root, (), ""),
                            unchanged=previous.state == made_from(ctx.project_root, (), ""))
        html, placements, document, pieces = made
        bleed = sheets_config(ctx)["bleed"]
        bleed_pages = bleed_html(ctx, counter_faces(pieces), bleed) if job.bleed else ""
        source = made_from(ctx.project_root, (), html, placements, job.images, bleed_pages,
                           *[preset_state(ctx, name) for name in job.print_shops], *pictures(ctx))
        if source == previous.state:
            return Rendered(source=source, unchanged=True, cards=len(placements))
        out = ctx.output_dir()
        placed = out / sized("counters", job.paper, ".json")
        res = write_pdf(html, out / sized("counters", job.paper), ctx.game.folder, ctx.roots, document=document)
        write_placements(placed, placements)
        rendered = Rendered([res.path, placed], pages=res.pages, cards=len(placements), source=source)
        if job.bleed:
            rendered.files.append(write_bleed_pdf(ctx, counter_faces(pieces), out / "counters-bleed.pdf", bleed, report))
        for name in job.print_shops:
            rendered.files += write_counter_shop(ctx, pieces, name, out, report)
        if job.images:
            rendered.files += write_counter_images(ctx, pieces, out)
        return rendered
