"""Two corrections that take repeated work off WeasyPrint's layout without changing what it
lays out, applied before any document is laid out.

**Page references.** A `target-counter(attr(href), page)` (the contents' page numbers, "see
page N") is resolved after its page is laid out, so a page holding one is laid out again. In
WeasyPrint 70 such a reference was filed under no anchor (its `attr()` left unresolved) and
under the page's own counters (a variable reused for the target's list), so it was refreshed
only when *its own page's* counters changed: every referring page was laid out three times, the
third only because the total number of pages, unknown in the first pass, had changed in
between (rock-n-roll's English rulebook: 36 page layouts for 24 pages). Here a reference is
filed under the anchor it names and needs no counter of its own page, and a referring page is
laid out again when a counter it prints changed: a contents page twice, a page of "see page"
references to earlier pages twice, the others once (30 layouts for those 24 pages).
WeasyPrint's own comment at the spot asks "Is the item at all interested in the new
page_counter_values?".

**A column that cannot take its first box.** WeasyPrint balances a chapter's last columns by
laying them out at a height that grows until the content fits; while the first column cannot
hold even its first box (a table row, a heading kept with its paragraph), nothing measures how
far to grow, and the height grows by one pixel per layout: 795 layouts that place nothing in
that rulebook, a quarter of its layout time. The first time the column places nothing, the
height at which it first places something is found by doubling the step and then halving it
(about twelve layouts for a hundred pixels), and the layouts below that height answer
"nothing" at once. Layout is monotone here: a column that holds its first box at a height
holds it at any greater height; the answer at each height WeasyPrint asks for is the one its
own layout gives.

Both replace or wrap internal WeasyPrint functions, so each is applied only when the function
is the one it was written against (its source's hash); another WeasyPrint is left as it is,
and lays out the same pages, only more slowly."""

from __future__ import annotations

import copy
import hashlib
import inspect
from contextlib import contextmanager
from math import inf
from typing import Iterator

# sha256 of each function's source (first 16 hex digits) in the WeasyPrint the corrections
# were written against (70.0)
KNOWN = {
    "cache_target_page_counters": "545eb30bb50f0e49",
    "collect_missing_counters": "24ea43be86560c9d",
    "compute_content_list": "3a5674cabd84f48a",
    "make_page": "656f183328e8b1b5",
    "columns_layout": "7a05cce3272fc581",
    "block_box_layout": "a6279066e3d9ff7d",
}


def source_hash(function) -> str:
    try:
        return hashlib.sha256(inspect.getsource(function).encode()).hexdigest()[:16]
    except (OSError, TypeError):
        return ""


def known(name: str, function) -> bool:
    return source_hash(function) == KNOWN[name]


def cache_target_page_counters(self, anchor_name, page_counter_values, page_maker_index, page_maker):
    """WeasyPrint 70's TargetCollector.cache_target_page_counters, but a page referring to
    `anchor_name` is marked for another layout only when a counter it prints changed."""
    if self.collecting:
        return
    item = self.target_lookup_items.get(anchor_name)
    if not item or item.state != "up-to-date":
        return
    item.page_maker_index = page_maker_index
    before = item.cached_page_counter_values
    if before == page_counter_values:
        return
    item.cached_page_counter_values = copy.deepcopy(page_counter_values)
    for (_, css_token), lookup in self.counter_lookup_items.items():
        if css_token != "content":
            continue
        missing_counters = lookup.missing_target_counters.get(anchor_name)
        if missing_counters is None:
            continue
        if lookup.page_maker_index is None or lookup.page_maker_index >= len(page_maker):
            lookup.pending = True
            continue
        for counter_name in missing_counters:
            value = page_counter_values.get(counter_name)
            if value is not None and value != before.get(counter_name):
                page_maker[lookup.page_maker_index][-1]["content_changed"] = True
                lookup.parse_again(lookup.cached_page_counter_values)
                break


def _filed(original):
    def collect_missing_counters(self, parent_box, css_token, parse_again_function, missing_counters,
                                 missing_target_counters):
        if self.collecting and css_token == "content" and None in missing_target_counters:
            missing_counters, missing_target_counters = _named(parent_box, missing_counters,
                                                               missing_target_counters)
        return original(self, parent_box, css_token, parse_again_function, missing_counters,
                        missing_target_counters)

    collect_missing_counters.filed = True
    return collect_missing_counters


def _named(parent_box, missing_counters: list, by_anchor: dict) -> tuple[list, dict]:
    """The counters a `content` value misses, read again from the value: its own counters
    (where compute_content_list's list was replaced by a target's) and each target's under the
    anchor its `attr()` names (where it was filed under None)."""
    content = parent_box.style["content"]
    if not isinstance(content, (list, tuple)):
        return missing_counters, by_anchor
    unnamed = by_anchor[None]
    targets = {anchor: names for anchor, names in by_anchor.items() if anchor is not None}
    own = []
    known_counters = parent_box.cached_counter_values or {}
    for kind, value in content:
        if kind in ("counter()", "counters()"):
            if value[-1] != "none" and value[0] not in known_counters and value[0] not in own:
                own.append(value[0])
        elif kind in ("target-counter()", "target-counters()"):
            (token, counter), style = value[:2], value[-1]
            if style == "none" or counter not in unnamed:
                continue
            names = targets.setdefault(_anchor(token, parent_box), [])
            if counter not in names:
                names.append(counter)
    replaced = any(missing_counters is names for names in by_anchor.values())
    return (own if replaced else missing_counters), targets


def _anchor(token, box):
    """The anchor a target's token names, its `attr()` read from the box's element (as
    TargetCollector.lookup_target reads it)."""
    from weasyprint.css import targets

    if token[0] == "attr()":
        name, kind, fallback = token[1]
        value = box.element.get(name, fallback) if box.element is not None else fallback
        if kind == "string":
            token = ("string", value)
        elif kind == "url":
            token = ("url", targets.get_url_tuple(value, box.style.base_url))
    return targets.anchor_name_from_token(token)


def _balancing(box, bottom_space, page_is_empty, absolute_boxes, adjoining_margins) -> bool:
    """Whether a call of block_box_layout is columns_layout laying out a column while it
    balances: a column box, a finite room, the page not empty, fresh empty lists (its first
    pass says the page is empty; its final layout passes no adjoining margins; the next box's
    measure has an infinite room)."""
    return (getattr(box, "is_column", False) and bottom_space != inf and page_is_empty is False
            and adjoining_margins == [] and adjoining_margins is not None and absolute_boxes == [])


def _first_box(original):
    from weasyprint.layout.block import remove_placeholders

    def block_box_layout(context, box, bottom_space, skip_stack, containing_block, page_is_empty,
                         absolute_boxes, fixed_boxes, adjoining_margins, *rest, **named):
        def lay_out(room):
            return original(context, box, room, skip_stack, containing_block, page_is_empty,
                            absolute_boxes, fixed_boxes, adjoining_margins, *rest, **named)

        if not _balancing(box, bottom_space, page_is_empty, absolute_boxes, adjoining_margins):
            return lay_out(bottom_space)
        rooms = box.__dict__.setdefault("_nothing_from", {})
        key = (repr(skip_stack), len(context.excluded_shapes), context.page_bottom)
        least, nothing, last = rooms.get(key, (inf, None, None))
        if bottom_space >= least:
            return (None, None, dict(nothing[2]), [], False, nothing[5])
        result = lay_out(bottom_space)
        if result[0] is None:
            # a pixel more than last time and still nothing: WeasyPrint is growing the column a
            # pixel at a time, so find where it ends
            growing = last is not None and abs(last - bottom_space - 1) < 1e-6
            least = _least_room(lay_out, bottom_space, context, remove_placeholders) if growing else inf
            rooms[key] = (least, result, bottom_space)
        return result

    block_box_layout.lighter = True
    return block_box_layout


def _least_room(lay_out, room: float, context, remove_placeholders) -> float:
    """The least room, `room` minus a whole number of pixels, at which a column laid out with
    `room` and nothing placed still places nothing: one pixel above the largest height in that
    series at which it places something. A step that doubles, then halves."""
    shapes = len(context.excluded_shapes)

    def places(step: int) -> bool:
        new_box = lay_out(room - step)[0]
        del context.excluded_shapes[shapes:]
        if new_box is None:
            return False
        remove_placeholders(context, [new_box], [], [])
        return True

    nothing, step = 0, 1
    while not places(step):
        nothing = step
        if room - step < -1:  # taller than the page: leave the rest to WeasyPrint
            return room - nothing
        step *= 2
    something = step
    while something - nothing > 1:
        middle = (something + nothing) // 2
        if places(middle):
            something = middle
        else:
            nothing = middle
    return room - nothing


_STOCK: dict = {}  # WeasyPrint's own functions, where a correction replaced them
_HELD = [False]


def apply() -> tuple[bool, bool]:
    """Put both corrections in place (once) where WeasyPrint is the one they were written
    against; whether each is in place."""
    from weasyprint.css.targets import TargetCollector
    from weasyprint.formatting_structure import build
    from weasyprint.layout import block, column, page

    if _HELD[0]:
        return False, False
    references = "collect_missing_counters" in _STOCK
    if not references and known("cache_target_page_counters", TargetCollector.cache_target_page_counters) \
            and known("collect_missing_counters", TargetCollector.collect_missing_counters) \
            and known("compute_content_list", build.compute_content_list) and known("make_page", page.make_page):
        _STOCK["cache_target_page_counters"] = TargetCollector.cache_target_page_counters
        _STOCK["collect_missing_counters"] = TargetCollector.collect_missing_counters
        TargetCollector.cache_target_page_counters = cache_target_page_counters
        TargetCollector.collect_missing_counters = _filed(TargetCollector.collect_missing_counters)
        references = True
    columns = "block_box_layout" in _STOCK
    if not columns and known("columns_layout", column.columns_layout) \
            and known("block_box_layout", block.block_box_layout):
        _STOCK["block_box_layout"] = block.block_box_layout
        block.block_box_layout = _first_box(block.block_box_layout)
        columns = True
    return references, columns


@contextmanager
def stock() -> Iterator[None]:
    """WeasyPrint's own layout, without the corrections, until the block ends (a benchmark's
    baseline, a test's reference; process pools started inside inherit it)."""
    from weasyprint.css.targets import TargetCollector
    from weasyprint.layout import block

    _HELD[0] = True
    put_back = dict(_STOCK)
    for name, function in put_back.items():
        setattr(block if name == "block_box_layout" else TargetCollector, name, function)
    _STOCK.clear()
    try:
        yield
    finally:
        _HELD[0] = False
        if put_back:
            apply()
