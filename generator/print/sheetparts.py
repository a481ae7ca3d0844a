"""What every kind of sheet (card, counter and map sheets, the print shop's files) is made of:
the sheet layouts of the template folders (`sheets_config`), a slot on a sheet (`slot`) and
cut marks (`marks`, `draw_marks`)."""

from __future__ import annotations

from markupsafe import Markup

from .context import BuildContext
from .layout import SheetSpec, load_sheets


def sheets_config(ctx: BuildContext) -> dict:
    """The sheet layouts (templates/sheets.yaml) of the first template folder that has them."""
    for folder in ctx.templates:
        if (folder / "sheets.yaml").exists():
            return load_sheets(folder / "sheets.yaml")
    raise FileNotFoundError("no sheets.yaml in the template folders")


def slot(x: float, y: float, w: float, h: float, inner: Markup) -> Markup:
    """A card or counter at (x, y) mm on its sheet, `w` × `h` mm, holding `inner`."""
    return Markup('<div class="slot" style="left:{}mm;top:{}mm;width:{}mm;height:{}mm">{}</div>').format(
        round(x, 3), round(y, 3), w, h, inner)


def marks(spec: SheetSpec, count: int | None = None, mirrored: bool = False) -> Markup:
    """The cut marks of a sheet of `count` slots (all: None), mirrored for the backs."""
    return draw_marks(spec.cut_marks(count, mirrored))


def draw_marks(lines) -> Markup:
    """Cut mark lines (x1, y1, x2, y2 in mm, each horizontal or vertical) as 0.2 mm rules."""
    out = []
    for x1, y1, x2, y2 in lines:
        if x1 == x2:
            out.append(f'<div class="cut" style="left:{x1 - 0.1:.3f}mm;top:{y1:.3f}mm;width:0.2mm;height:{y2 - y1:.3f}mm"></div>')
        else:
            out.append(f'<div class="cut" style="left:{x1:.3f}mm;top:{y1 - 0.1:.3f}mm;width:{x2 - x1:.3f}mm;height:0.2mm"></div>')
    return Markup("".join(out))
