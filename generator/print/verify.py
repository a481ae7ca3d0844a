"""Layout verification: after WeasyPrint lays a document out, look at what it laid out and
report what a reader would see as broken, with the source record's file:line.

Elements carry `data-src="relative/path:line"` (relative to the game folder); a finding is
reported at the nearest such ancestor. `data-card` marks a card (its safe area is checked),
`data-overlay` marks decoration drawn over content on purpose (the DRAFT stamp)."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field, replace
from functools import lru_cache
from pathlib import Path

from weasyprint.formatting_structure import boxes
from weasyprint.layout.absolute import AbsolutePlaceholder

from ..core.diagnostics import Diagnostic, Location, Report
from ..reading.loader import read_settings
from ..model.printing import PrintConfig
from ..values.colours import contrast, required_ratio
from .fonts import shipped_font_files
from .lines import measure, needless_hyphens, short_lines

PX_PER_MM = 96 / 25.4
PX_PER_PT = 96 / 72
TOLERANCE = 1.0  # px (0.26 mm): rounding in WeasyPrint's layout
HEADINGS = {"h1", "h2", "h3", "h4", "h5", "h6", "caption", "dt"}
PAPER = (1.0, 1.0, 1.0)  # what is behind a page's content: the sheet it prints on


@dataclass(frozen=True)
class LayoutRules:
    """Limits every printed page must keep (templates/print.yaml; a game may override them in
    its own content/GAME/print.yaml)."""

    min_text_pt: float = 6.0
    card_safe_mm: float = 3.2
    counter_safe_mm: float = 1.0

    @classmethod
    def load(cls, folders: list[Path]) -> "LayoutRules":
        values: dict = {}
        for folder in reversed(folders):  # the first folder wins
            path = folder / "print.yaml"
            if path.is_file():
                data = read_settings(path, PrintConfig)
                values.update({k: float(v) for k, v in data.items() if k in cls.__dataclass_fields__ and v is not None})
        return cls(**values)


@dataclass
class _Where:
    """What surrounds a box while walking down the tree."""

    src: str | None = None
    area: object = None  # innermost box that must hold its content (cell, card, column, page)
    area_kind: str = "page"
    card: object = None
    heading: bool = False
    column: object = None
    section: str | None = None  # id of the nearest <section> around it
    background: tuple | None = PAPER  # the colour behind it (sRGB 0-1); None over a picture


@dataclass
class _Text:
    box: object
    page: int
    src: str | None
    rect: tuple[float, float, float, float]
    heading: bool
    column: object
    order: int
    section: str | None = None


@dataclass
class LayoutCheck:
    """The findings of one laid-out document."""

    source_root: Path
    fallback: Location
    rules: LayoutRules = field(default_factory=LayoutRules)
    label: str = ""  # which document, e.g. 'en/rulebook.pdf'
    first_page: int = 1  # number of the document's first page (a chunk of a larger one)
    report: Report = field(default_factory=Report)
    _seen: set = field(default_factory=set)
    _texts: list[_Text] = field(default_factory=list)
    _fonts: dict = field(default_factory=dict)
    _drawn: dict = field(default_factory=dict)  # per font style and language: characters drawn with shipped fonts

    def run(self, document) -> list[Diagnostic]:
        for number, page in enumerate(document.pages, start=self.first_page):
            box = page._page_box
            self._page = number
            self._page_size = (box.margin_width(), box.margin_height())
            area = _Where(area=box, area_kind="page")
            for child in box.children:
                if isinstance(child, boxes.MarginBox):
                    self._walk(child, _Where(area=None, area_kind="margin"), overflow=False)
                else:
                    self._walk(child, area, overflow=True)
        self._overlaps()
        self._lonely_headings()
        return self.report.diagnostics

    # -- the walk ---------------------------------------------------------------------------
    def _walk(self, box, where: _Where, overflow: bool) -> None:
        """Check `box` and everything laid out inside it; `where` is what surrounds it, and
        `overflow` whether leaving its area is a finding (not in a page's margin boxes)."""
        placed = isinstance(box, AbsolutePlaceholder)  # positioned on purpose: a card's body, or a
        box = _laid_out(box)  # back's art that runs into the bleed; only what it holds is checked
        element = _own_element(box)
        if element is not None and element.get("data-overlay") is not None:
            self._glyphs_only(box, where)
            return
        where = _marked(box, element, where)
        where = _backed(box, where)
        if isinstance(box, boxes.TextBox):
            self._text(box, where, overflow)
            return
        if isinstance(box, (boxes.LineBox, boxes.InlineBox)):
            self._vanished(box, where)
        if isinstance(box, boxes.ReplacedBox) and overflow and not placed:
            self._inside(box, _border_rect(box), where)
            return
        if not hasattr(box, "children"):
            return
        if isinstance(box, boxes.BlockContainerBox):
            if not placed:
                self._block(box, where, overflow)
            if not where.heading and where.area_kind != "margin":
                self._lines(box, where)
            where = _holding(box, where)
        self._walk_children(box, where, overflow)

    def _block(self, box, where: _Where, overflow: bool) -> None:
        """A block or table cell stays inside its area. A block split across pages may reach
        into the page's bottom margin with no ink there: against the page, blocks are
        checked sideways only."""
        if overflow and where.area is not None and isinstance(box, (boxes.TableCellBox, boxes.BlockBox)) \
                and _clips(box, where):
            self._inside(box, _border_rect(box), where, sideways=where.area_kind == "page")

    def _walk_children(self, box, inner: _Where, overflow: bool) -> None:
        """Walk the boxes inside `box`; in a multi-column box each column is the area of its content."""
        columns = box.style["column_count"] != "auto" or box.style["column_width"] != "auto"
        for child in box.children:
            child_where = inner
            if columns and isinstance(child, boxes.BlockBox):
                child_where = replace(inner, area=child, area_kind="column", column=child)
            self._walk(child, child_where, overflow)

    def _glyphs_only(self, box, where: _Where) -> None:
        if isinstance(box, boxes.TextBox):
            self._glyphs(box, where)
        for child in getattr(box, "children", ()) or ():
            self._glyphs_only(child, where)

    def _text(self, box, where: _Where, overflow: bool) -> None:
        if not box.text.strip() or box.style["visibility"] != "visible":
            return
        size = box.style["font_size"]
        if size < (self.rules.min_text_pt - 0.05) * PX_PER_PT:
            self._add("W041", where, f"text set at {size / PX_PER_PT:.1f} pt, below the minimum "
                      f"{self.rules.min_text_pt:g} pt on page {self._page} (“{_snippet(box.text)}”)",
                      "enlarge it in the stylesheet, or lower min_text_pt in print.yaml", key=round(size, 2))
        rect = _text_rect(box)
        width, height = self._page_size
        if rect[0] < -TOLERANCE or rect[1] < -TOLERANCE or rect[2] > width + TOLERANCE or rect[3] > height + TOLERANCE:
            self._add("W040", where, f"text outside page {self._page} (“{_snippet(box.text)}”)", "move it inside the page")
        elif where.card is not None:
            piece, margin = self._safe_margin(where.card)
            safe = margin * PX_PER_MM
            card = _padding_rect(where.card)  # the trim (on a bleed page the border is the bleed)
            if rect[0] < card[0] + safe - TOLERANCE or rect[2] > card[2] - safe + TOLERANCE or \
                    rect[1] < card[1] + safe - TOLERANCE or rect[3] > card[3] - safe + TOLERANCE:
                self._add("W040", where, f"text outside the {piece}'s safe area ({margin:g} mm "
                          f"inside the cut) on page {self._page} (“{_snippet(box.text)}”)",
                          f"keep text away from the {piece} edge")
        if overflow:
            self._inside(box, rect, where, text=box.text)
        self._contrast(box, where)
        self._glyphs(box, where)
        if where.area_kind != "margin":
            self._texts.append(_Text(box, self._page, where.src, rect, where.heading, where.column, len(self._texts),
                                     where.section))

    def _contrast(self, box, where: _Where) -> None:
        """Text a reader can tell from what is behind it: WCAG 2.2's 4.5:1, 3:1 for large text.
        Text over a picture (a card's art, a map) is not measured."""
        if where.background is None:
            return
        ink = _over(box.style["color"], where.background)
        ratio = _contrast_of(ink, where.background)
        size = box.style["font_size"] / PX_PER_PT
        need = required_ratio(size, box.style["font_weight"] >= 700)
        if ratio < need - 0.005:
            self._add("W044", where, f"text of contrast {ratio:.1f}:1 on its background, below the {need:g}:1 "
                      f"a reader needs, on page {self._page} (“{_snippet(box.text)}”)",
                      "darken the text or lighten what is behind it (a side whose text_colour is left out "
                      "gets black or white, whichever reads better)", key=(round(ratio, 1), _hex(ink)))

    def _lines(self, box, where: _Where) -> None:
        """A paragraph's lines as a reader sees them (lines.py): a line far shorter than its
        measure in the middle of the paragraph, and in ragged text a word hyphenated although
        it fits whole on the next line."""
        if not any(isinstance(child, boxes.LineBox) for child in box.children):
            return
        for line in short_lines(box):
            self._add("W046", where, f"line filled only to {line.natural / measure(box):.0%} of its measure inside a "
                      f"paragraph on page {self._page} (“{_snippet(line.text)}”)",
                      "let the words around it break: an unbreakable piece (a bound number, a no-break "
                      "space, a nowrap span) too wide for the rest of the line pushes it down",
                      key=(self._page, _snippet(line.text)))
        for word, line in needless_hyphens(box):
            self._add("W047", where, f"“{word}” hyphenated on page {self._page} although it fits whole on the "
                      "next line", "set the text with hyphens: manual, or fit it by its size", key=word)

    def _safe_margin(self, card) -> tuple[str, float]:
        """What the piece is (a card, or a counter: `data-counter`) and its safe margin, mm."""
        if card.element.get("data-counter") is not None:
            return "counter", self.rules.counter_safe_mm
        return "card", self.rules.card_safe_mm

    def _vanished(self, box, where: _Where) -> None:
        """Text set at a size of 0 is laid out as no text at all (WeasyPrint makes no text box
        for it): the line or inline box of an element holding text, with no text inside."""
        text = getattr(box.element, "text", None) if box.element is not None else None
        size = box.style["font_size"]
        if not text or not text.strip() or box.style["visibility"] != "visible" or \
                size >= (self.rules.min_text_pt - 0.05) * PX_PER_PT or \
                any(isinstance(child, boxes.TextBox) for child in box.children):
            return
        self._add("W041", where, f"text set at {size / PX_PER_PT:.1f} pt prints nothing on page {self._page} "
                  f"(“{_snippet(text)}”)", "enlarge it in the stylesheet, or lower min_text_pt in print.yaml",
                  key=round(size, 2))

    def _inside(self, box, rect, where: _Where, text: str = "", sideways: bool = False) -> None:
        """Report when `rect` leaves the padding box of the area that must hold it."""
        area = where.area
        if area is None:
            return
        outer = _page_area(area) if isinstance(area, boxes.PageBox) else _padding_rect(area)
        sides = [("left", outer[0] - rect[0]), ("top", outer[1] - rect[1]),
                 ("right", rect[2] - outer[2]), ("bottom", rect[3] - outer[3])]
        over = [(side, amount) for side, amount in sides
                if amount > TOLERANCE and not (sideways and side in ("top", "bottom"))]
        if not over:
            return
        if id(area) in self._seen:
            return
        self._seen.add(id(area))
        what = ", ".join(f"{amount / PX_PER_MM:.1f} mm past the {side}" for side, amount in over)
        example = f" (“{_snippet(text)}”)" if text else ""
        self._add("E040", where, f"content overflows its {where.area_kind} on page {self._page}: {what}{example}",
                  _overflow_hint(where.area_kind), key=id(area))

    def _glyphs(self, box, where: _Where) -> None:
        """Characters drawn with a font Rulesmith does not ship (a fallback of the system's).
        Pango picks a character's font from the style's fonts and the language, so text whose
        every character this style and language already drew with shipped fonts is not
        shaped again."""
        from weasyprint.text.ffi import ffi
        from weasyprint.text.fonts import get_pango_font_key

        style = box.style
        drawn = self._drawn.setdefault((tuple(style["font_family"]), style["font_style"], style["font_weight"],
                                        style["font_stretch"], style["lang"]), set())
        seen = set(box.text)
        if seen <= drawn:
            return
        shipped_only = True
        box.pango_layout.reactivate(box.style)
        try:
            line, _ = box.pango_layout.get_first_line()
            run = line.runs[0]
            text = box.pango_layout.text.encode("utf-8")
            while run != ffi.NULL:
                item = run.data.item
                run = run.next
                key, description, _size = get_pango_font_key(item.analysis.font)
                if key not in self._fonts:
                    self._fonts[key] = _font_is_shipped(item.analysis.font, description)
                shipped, family = self._fonts[key]
                if not shipped:
                    shipped_only = False
                    chars = text[item.offset:item.offset + item.length].decode("utf-8", "replace")
                    codes = " ".join(f"U+{ord(c):04X} {c}" for c in dict.fromkeys(chars) if not c.isspace())
                    self._add("W043", where, f"{codes} drawn with '{family}', a font Rulesmith does not ship (page {self._page})",
                              "use a character the shipped fonts have (PT Sans, PT Serif)", key=(family, codes))
        finally:
            box.pango_layout.deactivate()
        if shipped_only:
            drawn |= seen

    # -- whole-page findings ----------------------------------------------------------------
    def _overlaps(self) -> None:
        by_page: dict[int, list[_Text]] = {}
        for text in self._texts:
            by_page.setdefault(text.page, []).append(text)
        for texts in by_page.values():
            texts.sort(key=lambda t: t.rect[1])
            rects = [t.rect for t in texts]
            for i, a in enumerate(texts):
                left, top, right, bottom = rects[i]
                for j in range(i + 1, len(texts)):  # those starting above a's bottom, by their top
                    b_left, b_top, b_right, b_bottom = rects[j]
                    if b_top >= bottom - TOLERANCE:
                        break
                    if (right if right < b_right else b_right) - (left if left > b_left else b_left) > TOLERANCE and \
                            (bottom if bottom < b_bottom else b_bottom) - (top if top > b_top else b_top) > TOLERANCE:
                        b = texts[j]
                        where = _Where(src=b.src or a.src)
                        self._add("E041", where, f"text drawn over other text on page {a.page} "
                                  f"(“{_snippet(a.box.text)}” and “{_snippet(b.box.text)}”)",
                                  "give the block room, or keep positioned elements apart", key=(a.page, a.src, b.src))

    def _lonely_headings(self) -> None:
        """A heading or caption that is the last text of its page or column while more follows."""
        for text, column in self.lonely():
            self._page = text.page
            self._add("W042", _Where(src=text.src), f"heading “{_snippet(text.box.text)}” left alone at the "
                      f"bottom of page {text.page}" + (" (in a column)" if column else ""),
                      "keep it with what follows (break-after: avoid) or move the break")

    def lonely(self) -> list[tuple["_Text", bool]]:
        """(text, in a column) of every heading left alone at the bottom of a page or column."""
        found = []
        last: dict[tuple, _Text] = {}
        for text in self._texts:
            areas = [(text.page, None)] + ([(text.page, id(text.column))] if text.column is not None else [])
            for area in areas:
                if area not in last or text.rect[3] >= last[area].rect[3]:
                    last[area] = text
        final = len(self._texts) - 1
        for (page, column), text in last.items():
            if text.heading and text.order < final and not self._texts[text.order + 1].heading:
                found.append((text, column is not None))
        return found

    # -- reporting --------------------------------------------------------------------------
    def _add(self, code: str, where: _Where, message: str, hint: str, key=None) -> None:
        location = self._location(where.src)
        dedup = (code, location, key if key is not None else message)
        if dedup in self._seen:
            return
        self._seen.add(dedup)
        self.report.add(code, f"{self.label}: {message}" if self.label else message, location, hint)

    def _location(self, src: str | None) -> Location:
        if not src:
            return self.fallback
        path, _, line = src.rpartition(":")
        if not path:
            return self.fallback
        return Location(self.source_root / path, int(line) if line.isdigit() else 0)


def lonely_sections(document) -> set[str]:
    """Ids of the <section>s whose heading or caption is left alone at a page or column bottom."""
    check = LayoutCheck(Path("."), Location(Path(".")))
    for number, page in enumerate(document.pages, start=1):
        check._page, box = number, page._page_box
        check._page_size = (box.margin_width(), box.margin_height())
        for child in box.children:
            if not isinstance(child, boxes.MarginBox):
                check._walk(child, _Where(area=box, area_kind="page"), overflow=False)
    return {text.section for text, _column in check.lonely() if text.section}


def verify_layout(document, source_root: Path, rules: LayoutRules | None = None,
                  fallback: Location | None = None, label: str = "", first_page: int = 1) -> list[Diagnostic]:
    """Every layout finding of a rendered document (see CODES E040–E041, W040–W047); pages
    are numbered from `first_page` (a chunk of a larger document)."""
    check = LayoutCheck(source_root, fallback or Location(source_root / "game.yaml"), rules or LayoutRules(), label,
                        first_page=first_page)
    return check.run(document)


# -- what surrounds a box -------------------------------------------------------------------
def _own_element(box):
    """The element `box` lays out; None for text and line boxes, which carry their parent's."""
    element = getattr(box, "element", None)
    if isinstance(box, (boxes.TextBox, boxes.LineBox)):
        return None
    return element


def _marked(box, element, where: _Where) -> _Where:
    """`where`, with what the box's own element marks: its source record (data-src), its
    section (<section id>), and whether it is a heading or caption."""
    tag = getattr(box, "element_tag", None)
    if element is not None:
        src = element.get("data-src")
        if src:
            where = replace(where, src=src)
        if tag == "section" and element.get("id"):
            where = replace(where, section=element.get("id"))
    if tag in HEADINGS and not where.heading and isinstance(box, boxes.BlockBox):
        where = replace(where, heading=True)
    return where


def _backed(box, where: _Where) -> _Where:
    """`where`, with the colour behind what the box holds: its own background colour laid over
    what is behind it, or None once a background picture is under it."""
    style = getattr(box, "style", None)
    if style is None or isinstance(box, (boxes.TextBox, boxes.LineBox)):
        return where
    images = style["background_image"]
    if any(kind != "none" for kind, _value in images):
        return replace(where, background=None)
    colour = style["background_color"]
    if colour.alpha == 0 or where.background is None:
        return where
    return replace(where, background=_over(colour, where.background))


def _over(colour, behind: tuple) -> tuple:
    """A CSS colour (with its alpha) laid over an opaque sRGB colour. A page's text comes in a
    few colours on a few backgrounds: each pair is worked out once per process (`_OVER`)."""
    key = (colour.space, colour.coordinates, colour.alpha, behind)
    found = _OVER.get(key)
    if found is None:
        red, green, blue = colour.to("srgb").coordinates
        alpha = colour.alpha
        found = tuple(alpha * c + (1 - alpha) * b for c, b in zip((red, green, blue), behind))
        if len(_OVER) < _PAIRS:
            _OVER[key] = found
    return found


_PAIRS = 4096  # colours on backgrounds remembered; past it (a map of many colours) they are worked out each time
_OVER: dict[tuple, tuple] = {}
_contrast_of = lru_cache(maxsize=_PAIRS)(contrast)


def _hex(channels: tuple) -> str:
    return "#" + "".join(f"{round(c * 255):02x}" for c in channels)


def _laid_out(box):
    """The box WeasyPrint laid out where it left a placeholder for an absolutely positioned
    one (a card's body): its text is checked against it like any block's, so a body that
    clips its overflow is the area its text must stay inside."""
    return box._box if isinstance(box, AbsolutePlaceholder) else box


def _holding(box, where: _Where) -> _Where:
    """What surrounds the content of a block: a table cell, a card (data-card) and a box that
    clips its overflow are each the area their content must stay inside."""
    if isinstance(box, boxes.TableCellBox):
        return replace(where, area=box, area_kind="cell")
    element = box.element
    if element is not None and element.get("data-card") is not None:
        return replace(where, area=box, area_kind="card", card=box)
    if box.style["overflow"] != "visible" and element is not None:
        return replace(where, area=box, area_kind="card" if where.area_kind == "card" else "box")
    return where


# -- geometry -------------------------------------------------------------------------------
def _border_rect(box) -> tuple[float, float, float, float]:
    x, y = box.border_box_x(), box.border_box_y()
    return x, y, x + box.border_width(), y + box.border_height()


def _padding_rect(box) -> tuple[float, float, float, float]:
    x, y = box.padding_box_x(), box.padding_box_y()
    return x, y, x + box.padding_width(), y + box.padding_height()


def _page_area(page) -> tuple[float, float, float, float]:
    """The page's content box, and its bleed (where a bleed page's faces paint on purpose)."""
    x, y = page.content_box_x(), page.content_box_y()
    bleed = getattr(page, "bleed", None) or {}
    return (x - bleed.get("left", 0), y - bleed.get("top", 0),
            x + page.width + bleed.get("right", 0), y + page.height + bleed.get("bottom", 0))


def _text_rect(box) -> tuple[float, float, float, float]:
    """The ink-ish area of a text box: its advance width, and one em around the baseline."""
    size = box.style["font_size"]
    baseline = box.position_y + (box.baseline if box.baseline is not None else box.height * 0.8)
    text = box.text.rstrip()
    width = box.width
    if text != box.text and len(box.text):  # trailing spaces take room but draw nothing
        width *= len(text) / len(box.text)
    return box.position_x, baseline - 0.75 * size, box.position_x + width, baseline + 0.2 * size


def _clips(box, where: _Where) -> bool:
    """Whether a block is checked against its area: in-flow blocks are; positioned ones
    only when they sit inside a card or a clipping box."""
    if box.style["position"] in ("absolute", "fixed"):
        return where.area_kind in ("card", "box")
    return True


def _overflow_hint(kind: str) -> str:
    return {"card": "shorten the text, use fewer columns, or choose a larger card size",
            "cell": "allow the word to break, or give the table fewer columns",
            "column": "give the table fewer columns or let it span the sheet",
            "page": "make the table narrower, or choose a wider paper",
            }.get(kind, "give the content room, or shorten it")


def _snippet(text: str, n: int = 30) -> str:
    text = " ".join(text.split())
    return text if len(text) <= n else text[:n - 1] + "…"


@lru_cache(maxsize=1)
def _shipped_hashes() -> frozenset[str]:
    return frozenset(hashlib.sha256(p.read_bytes()).hexdigest() for p in shipped_font_files())


def _font_is_shipped(pango_font, description) -> tuple[bool, str]:
    from weasyprint.text.ffi import ffi, pango
    from weasyprint.text.fonts import get_hb_object_data, get_pango_font_hb_face

    family = ffi.string(pango.pango_font_description_get_family(description)).decode("utf-8", "replace")
    data = get_hb_object_data(get_pango_font_hb_face(pango_font))
    return hashlib.sha256(data).hexdigest() in _shipped_hashes(), family
