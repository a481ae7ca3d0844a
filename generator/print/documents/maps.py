"""Maps: maps.pdf (each map tiled on paper; on Letter maps-letter.pdf), maps.json (the tiles'
windows; maps-letter.json), maps-large.pdf
(one page per map) and a PNG board per map."""

from __future__ import annotations

from ...safety.pictures import picture_bytes
from ..maps import large_html, tiled_html, write_maps
from ..sources import made_from
from .base import Document, Rendered


class MapSheets(Document):
    name = "maps"
    weight = 3
    templates = ("map.css", "sheets.yaml")

    def options(self, job) -> dict:
        return {"paper": job.paper, "images": job.images, "preflight": bool(job.bleed or job.print_shops)}

    def variants(self, job) -> set[str]:
        return {"", f"paper:{job.paper}", *(["images"] if job.images else [])}

    def render(self, ctx, job, report, previous):
        maps = ctx.game.section("maps")
        if not maps:
            return Rendered(source=made_from(ctx.project_root, (), ""),
                            unchanged=previous.state == made_from(ctx.project_root, (), ""))
        pictures = [picture_bytes(ctx.game.folder / m.background) for m in maps.values()
                    if m.background and (ctx.game.folder / m.background).is_file()]
        tiled, tiles = tiled_html(ctx, job.paper)
        source = made_from(ctx.project_root, (), tiled, tiles, large_html(ctx), job.images, *pictures,
                           bool(job.bleed or job.print_shops))
        if source == previous.state:
            return Rendered(source=source, unchanged=True)
        files, pages = write_maps(ctx, report, paper=job.paper, images=job.images,
                                  preflight=bool(job.bleed or job.print_shops))
        return Rendered(files, pages=pages, source=source)
