"""A correction to WeasyPrint's line breaking, applied before any document is laid out.

A text that ends in a space before an inline element (a parameter's or keyword's span) and
overflows its line by less than that space is broken by WeasyPrint's split_first_line at its
*first* break, not its last: "… и так до тех пор, пока выпавший результат будет отличен от
<span>8</span>." set "пор," alone on a line and the rest on the next (the layout check's W046).
The same text without its trailing space breaks where it should, so the correction asks for
that split too and keeps the longer first line; where the text fits but for its trailing
space, it is kept whole (a space at a line's end hangs, CSS Text 3).

A first line Pango returns a fraction of a pixel wider than its room (a rounding) made
WeasyPrint move the whole element to the next line ("Прочтение:" alone above the reading of
frames' erratum); it is split again a pixel narrower, which breaks it one word earlier.

An element that starts inside a line hyphenated its first word when the word did not fit the
rest of the line, whatever its hyphenate-limit-zone says: in ragged text (a zone of 100%) a
keyword "Взрыв-ное" broke in a card's cell although it fits on the next line (W047). Where
the rest of the line is within the zone, the word is kept whole, and the element goes down."""

from __future__ import annotations

import inspect

_COLLAPSING = ("normal", "nowrap", "pre-line")
OVER = 1.0  # px: how much wider than its room Pango's rounding may make a first line


def _corrected(original):
    def split_first_line(text, style, context, max_width, justification_spacing, is_line_start=True,
                         minimum=False):
        found = original(text, style, context, max_width, justification_spacing, is_line_start, minimum)
        if found[2] is None or max_width is None or minimum or style["white_space"] not in _COLLAPSING:
            return found
        if not is_line_start and _broke_first_word(text, found[1]) and max_width <= _zone(style, max_width):
            manual = style.copy()
            manual["hyphens"] = "manual"
            whole = original(text, manual, context, max_width, justification_spacing, is_line_start, minimum)
            if whole[1] > found[1]:
                return whole  # wider than its room: the caller breaks before the element
        if 0 < found[3] - max_width < OVER:  # a first line wider than its room by a rounding
            tighter = original(text, style, context, max_width - OVER, justification_spacing, is_line_start, minimum)
            if 0 < tighter[1] < found[1] and tighter[3] <= max_width:
                return tighter
        bare = text.rstrip(" ")
        if not bare or bare == text or found[1] >= len(bare.encode()):
            return found
        retry = original(bare, style, context, max_width, justification_spacing, is_line_start, minimum)
        if retry[2] is None:  # it fits but for its trailing space
            return original(text, style, context, None, justification_spacing, is_line_start, minimum)
        return retry if retry[1] > found[1] else found

    split_first_line.corrected = True
    return split_first_line


def _broke_first_word(text: str, length: int) -> bool:
    """Whether a split `length` bytes into `text` falls inside its first word (a hyphen)."""
    head = text.encode()[:length].decode(errors="ignore")
    words = text.split()
    return bool(words) and " " not in head.strip() and len(head.strip()) < len(words[0])


def _zone(style, room: float) -> float:
    """The hyphenation limit zone in px, of `room` where it is a percentage."""
    from weasyprint.layout.percent import percentage

    return percentage(style["hyphenate_limit_zone"], style, room)


# split_first_line's parameters as the correction calls it (WeasyPrint 62 to 70); it is an
# internal function, so a WeasyPrint whose function differs is left uncorrected.
PARAMETERS = ("text", "style", "context", "max_width", "justification_spacing", "is_line_start", "minimum")


def fits(function) -> bool:
    """Whether `function` takes the parameters the correction passes, in that order."""
    try:
        return tuple(inspect.signature(function).parameters) == PARAMETERS
    except (TypeError, ValueError):
        return False


def apply() -> bool:
    """Put the correction where WeasyPrint's inline layout calls split_first_line (once);
    whether it is in place."""
    from weasyprint.layout import inline

    if getattr(inline.split_first_line, "corrected", False):
        return True
    if not fits(inline.split_first_line):
        return False  # another WeasyPrint: its own line breaking, the layout check still reports
    inline.split_first_line = _corrected(inline.split_first_line)
    return True
