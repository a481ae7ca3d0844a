"""Python's cyclic garbage collector set for laying out documents.

Laying a document out makes objects by the hundred thousand (WeasyPrint's boxes, styles and
lines), most of them kept until the document is written. With the collector's default
thresholds (700, 10, 10) a worker ran a full collection over that whole heap again and again:
about an eighth of the card and rulebook jobs' CPU went to collections that found little. A
first generation of 1,500 objects makes them rarer, and the objects a worker is forked with
(the modules, the fonts, WeasyPrint itself) are frozen, so no collection walks them at all.
What the documents free in cycles is still collected, in somewhat larger batches: the six
games' peak memory is about the same. A build run in one process (--jobs 1, or a single
document) keeps the default collector: there, a 10,000-card deck peaked at 479 MB with these
thresholds instead of 417 MB (516 MB with a first generation of 5,000), the freed cycles
fragmenting the heap (bench/scale.py)."""

from __future__ import annotations

import gc

THRESHOLDS = (1500, 10, 10)


def for_layout() -> None:
    """In a worker forked to lay documents out, first thing: what it was forked with frozen,
    and fewer collections."""
    gc.freeze()
    gc.set_threshold(*THRESHOLDS)
