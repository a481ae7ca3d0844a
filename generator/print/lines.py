"""The lines of a laid-out paragraph as a reader sees them: how much of its measure each line
fills, and where a word was hyphenated although it would have fitted whole on the next line.

A line's natural width is the width of its words and inline pieces without the space that
justification adds between them (a justified line of two words spans its measure with a gap
a reader sees as a hole). A line is short when it fills less than SHORT of its measure in
the middle of a paragraph: not the paragraph's last line, not a line ended by a forced break
(<br>), and not in a measure narrower than MIN_MEASURE_MM (a narrow table cell, a counter),
where a long word leaves the line before it short by necessity."""

from __future__ import annotations

from dataclasses import dataclass

from weasyprint.formatting_structure import boxes

PX_PER_MM = 96 / 25.4
SHORT = 0.5           # of the measure
MIN_MEASURE_MM = 40.0
_PRE = {"pre", "pre-wrap", "pre-line", "nowrap", "break-spaces"}
_RAGGED = {"left", "start", "right", "end", "center"}


@dataclass
class Line:
    """One line box: its text as laid out, its natural width, and whether a forced break ends it."""

    box: object
    text: str
    natural: float
    forced: bool
    first: object = None  # its first and last text boxes (None when it holds none)
    last: object = None


def lines_of(block) -> list[Line]:
    """The lines of a block that holds inline content (none for a block of blocks)."""
    return [_line(child) for child in block.children if isinstance(child, boxes.LineBox)]


def measure(block) -> float:
    """The width a block's lines are set in, px."""
    return block.width


def short_lines(block) -> list[Line]:
    """Lines far shorter than their measure inside the paragraph `block` (see the module)."""
    width = measure(block)
    if width < MIN_MEASURE_MM * PX_PER_MM or block.style["white_space"] in _PRE:
        return []
    lines = lines_of(block)
    return [line for line in lines[:-1]
            if not line.forced and line.text.strip() and line.natural < SHORT * width]


def needless_hyphens(block) -> list[tuple[str, Line]]:
    """(the whole word, the line it was broken at) for each word hyphenated at the end of a
    line of ragged text (not justified) although the next line has room for it whole: in
    ragged text a hyphen is only needed where the word does not fit below. A break the text
    asks for (a soft hyphen, a hyphen written in the word) is not one."""
    if block.style["text_align_all"] not in _RAGGED or block.style["white_space"] in _PRE:
        return []
    found = []
    lines = lines_of(block)
    width = measure(block)
    for line, below in zip(lines, lines[1:]):
        word = _hyphenated_word(line, below, _source_text(block))
        if word is None:
            continue
        head, tail = word
        style = line.last.style
        if below.natural - _width(tail, style) + _width(head + tail, style) <= width:
            found.append((head + tail, line))
    return found


# -- one line -------------------------------------------------------------------------------
def _line(box) -> Line:
    leaves: list = []
    forced = _leaves(box, leaves)
    texts = [leaf for leaf in leaves if isinstance(leaf, boxes.TextBox)]
    natural = 0.0
    for i, leaf in enumerate(leaves):
        if isinstance(leaf, boxes.TextBox):
            spaces = leaf.text.count(" ") + leaf.text.count("\u00a0")
            width = leaf.width - (getattr(leaf, "justification_spacing", 0) or 0) * spaces
            if i == len(leaves) - 1 and leaf.text and leaf.text != leaf.text.rstrip():
                width *= len(leaf.text.rstrip()) / len(leaf.text)  # trailing spaces draw nothing
            natural += width
        else:
            natural += leaf.margin_width()
    return Line(box, "".join(leaf.text for leaf in texts), natural, forced,
                texts[0] if texts else None, texts[-1] if texts else None)


def _leaves(box, out: list) -> bool:
    """Collect the text boxes and atomic inline boxes of a line in order; True when a forced
    break (<br>) ends it."""
    forced = False
    for child in box.children:
        if not child.is_in_normal_flow():
            continue
        if getattr(child, "element_tag", None) == "br":
            forced = True
        elif isinstance(child, boxes.TextBox):
            out.append(child)
            forced = forced and not child.text.strip()
        elif isinstance(child, boxes.InlineBox):
            forced = _leaves(child, out) or (forced and not _has_text(child))
        elif isinstance(child, boxes.AtomicInlineLevelBox):
            out.append(child)
            forced = False
    return forced


def _has_text(box) -> bool:
    return any(isinstance(c, boxes.TextBox) and c.text.strip() or isinstance(c, boxes.InlineBox) and _has_text(c)
               for c in box.children)


# -- hyphenated words -----------------------------------------------------------------------
def _source_text(block) -> str:
    element = block.element
    return "".join(element.itertext()) if element is not None else ""


def _hyphenated_word(line: Line, below: Line, source: str) -> tuple[str, str] | None:
    """(the part before the hyphen, the part after) when `line` ends in a word hyphenated
    by the layout, continued at the start of `below`; None otherwise."""
    if line.last is None or below.first is None or line.last.element is not below.first.element:
        return None
    mark = line.last.style["hyphenate_character"] or "-"
    text = line.last.text.rstrip()
    if not text.endswith(mark) or not below.first.text[:1].isalpha():
        return None
    head = text[:-len(mark)].split()[-1] if text[:-len(mark)].split() else ""
    tail = below.first.text.split()[0]
    if not head or not head[-1:].isalpha():
        return None
    if head + mark + tail in source or head + "\u00ad" + tail in source:
        return None  # written so
    return (head, tail) if head + tail in source else None


def _width(text: str, style) -> float:
    """Width of `text` set in `style`, px."""
    from weasyprint.text.line_break import create_layout, line_size

    layout = create_layout(text, style, None, None, 0)
    try:
        line, _ = layout.get_first_line()
        return line_size(line, style)[0]
    finally:
        layout.deactivate()
