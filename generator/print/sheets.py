"""Large documents laid out in chunks: WeasyPrint holds a whole document's layout in memory,
so a deck of thousands of cards is laid out a few dozen sheets at a time. Each chunk is
checked (overflow, overlap, text size, fonts), written to its own small PDF beside the
output, and forgotten; the chunk files are then joined into one PDF (join.py). Laying out
follows the chunk size, not the deck size.
Small documents are rendered whole, as before."""

from __future__ import annotations

import gc
import hashlib
import os
import re
import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterator

from .. import outputs
from ..core.diagnostics import Severity
from ..system.memory import give_back
from .chunkstore import Chunk, ChunkStore
from .join import join
from .pdf import PdfResult, finishing, identifier, render_document, write_pdf, write_tagged
from .tagging import VERSION as TAGS
from .verify import LayoutRules, verify_layout

# Pages of card sheets laid out at once: a sheet of fronts and its backs, so that an edited card
# lays out its own sheet again, not its neighbours' (each chunk embeds its own subsets of the
# fonts: a deck's PDF grows by some 10 kB a sheet, its layout takes no longer).
SHEETS_PER_CHUNK = 2
# A deck of more than MAX_PARTS such chunks takes more pages a chunk, up to MOST_SHEETS_PER_CHUNK:
# the join holds every part's fonts until it writes (10,000 cards in 1,112 parts peaked 55 MB
# higher than in 278, at 8 pages a chunk).
MAX_PARTS = 128
MOST_SHEETS_PER_CHUNK = 8
# Pages of one face each (bleed, print shops): four cards, their fonts embedded once for the four.
FACE_PAGES_PER_CHUNK = 8
CHUNK_SETTING = "RULESMITH_SHEETS_PER_CHUNK"  # another chunk size for every document, e.g. to try the seams
PAGE = re.compile(r'(?=<div class="sheet[ "])')


def chunk_pages(per_chunk: int | None = None, pages: int = 0) -> int:
    """Pages per chunk of a document of `pages` pages: the setting's, else `per_chunk`, else
    SHEETS_PER_CHUNK, or more for a document of more than MAX_PARTS such chunks (up to
    MOST_SHEETS_PER_CHUNK). An even number, so that a sheet of fronts and its backs stay together."""
    needed = -(-pages // MAX_PARTS)
    n = int(os.environ.get(CHUNK_SETTING) or per_chunk
            or min(MOST_SHEETS_PER_CHUNK, max(SHEETS_PER_CHUNK, needed + needed % 2)))
    return max(2, n - n % 2)


@dataclass
class SheetsHtml:
    """A document of sheet pages kept in pieces, never as one string: every page is a tuple of
    strings, and a piece many pages show (a deck's back art) is one string they all share.
    A deck of 10,000 cards then holds its backs once, not 10,000 times."""

    head: str
    pages: list[tuple[str, ...]]
    tail: str

    def __str__(self) -> str:
        return self.head + "".join("".join(page) for page in self.pages) + self.tail

    def digest(self) -> str:
        """The hash of str(self), made without putting the document together."""
        h = hashlib.sha256(self.head.encode("utf-8"))
        for page in self.pages:
            for piece in page:
                h.update(piece.encode("utf-8"))
        h.update(self.tail.encode("utf-8"))
        return h.hexdigest()


def split_pages(html: str) -> tuple[str, list[str], str]:
    """(head, page divs, tail) of a document whose body is a run of `<div class="sheet ...">`."""
    head, starts, tail = _page_starts(html)
    return html[:head], [html[a:b] for a, b in zip(starts, [*starts[1:], tail])], html[tail:]


def _page_starts(html: str) -> tuple[int, list[int], int]:
    """Where the body starts, where each page starts, where the body ends: positions only,
    so that a large document is not copied to be cut up."""
    start = html.index("<body>") + len("<body>")
    end = html.rindex("</body>")
    starts = [m.start() for m in PAGE.finditer(html, start, end)]
    if start < (starts[0] if starts else end):  # anything before the first page goes with it
        starts.insert(0, start)
    return start, starts, end


def parts(html: str | SheetsHtml, per_chunk: int | None = None) -> Iterator[tuple[int, str]]:
    """(number of its first page, HTML) of each chunk of the document, made one at a time;
    a document that fits in one chunk is its own only part."""
    n = chunk_pages(per_chunk, _page_count(html))
    if isinstance(html, SheetsHtml):
        if len(html.pages) <= n:
            yield 1, str(html)
            return
        for k in range(0, len(html.pages), n):
            yield k + 1, html.head + "".join("".join(page) for page in html.pages[k:k + n]) + html.tail
        return
    body, starts, end = _page_starts(html)
    if len(starts) <= n:
        yield 1, html
        return
    head, tail = html[:body], html[end:]
    for k in range(0, len(starts), n):
        stop = starts[k + n] if k + n < len(starts) else end
        yield k + 1, head + html[starts[k]:stop] + tail


def chunk_count(html: str | SheetsHtml, per_chunk: int | None = None) -> int:
    pages = _page_count(html)
    n = chunk_pages(per_chunk, pages)
    return 1 if pages <= n else -(-pages // n)


def _page_count(html: str | SheetsHtml) -> int:
    return len(html.pages) if isinstance(html, SheetsHtml) else len(_page_starts(html)[1])


# Chunks already laid out (by the card sheets' overflow check) and written, by the hash of
# their HTML: writing the document then joins them instead of laying them out again.
_ready: dict[str, Chunk] = {}


def scratch_folder(out: Path) -> Path:
    """Where the chunks of `out` wait to be joined (beside it, hidden, removed after)."""
    return out.with_name(f".{out.stem}.chunks")


def chunk_key(part: str, base_url: Path) -> str:
    return hashlib.sha256(part.encode("utf-8") + str(base_url).encode("utf-8") + TAGS.encode()).hexdigest()


def lay_out_chunk(part: str, first_page: int, out: Path, base_url: Path, roots: list[Path],
                  document=None, fetcher=None, found: list | None = None) -> Chunk:
    """Lay out (unless `document` is its layout already), check and write one chunk of `out`;
    the layout is dropped when this returns."""
    if document is None:
        document, fetcher = render_document(part, base_url, roots)
    findings = verify_layout(document, base_url, LayoutRules.load(roots), label=f"{out.parent.name}/{out.name}",
                             first_page=first_page)
    path = scratch_folder(out) / f"{first_page:06d}-{chunk_key(part, base_url)[:16]}.pdf"
    outputs.write_with(path, lambda tmp: write_tagged(document, tmp, identifier(part)))
    return Chunk(path, len(document.pages), list(fetcher.refused), findings, set(fetcher.read), found or [], out)


def keep_chunk(part: str, first_page: int, out: Path, base_url: Path, roots: list[Path], document, fetcher,
               found: list | None = None, store: ChunkStore | None = None) -> None:
    """Write a chunk laid out for another reason now, for `write_sheets` to join later (and
    keep it in `store` for later builds)."""
    key = chunk_key(part, base_url)
    _ready[key] = lay_out_chunk(part, first_page, out, base_url, roots, document, fetcher, found)
    if store is not None:
        store.put(key, part, _ready[key])


def kept_chunk(part: str, out: Path, base_url: Path, store: ChunkStore) -> Chunk | None:
    """The chunk as an earlier build laid it out, now ready for `write_sheets` to join; None
    if it has to be laid out."""
    key = chunk_key(part, base_url)
    chunk = store.get(key, part)
    if chunk is not None:
        chunk.owner = out
        _ready[key] = chunk
    return chunk


def discard_chunks(out: Path) -> None:
    """Forget the chunks kept for `out` (its document was not written after all)."""
    folder = scratch_folder(out)
    for key in [k for k, c in _ready.items() if c.owner == out]:
        del _ready[key]
    if folder.exists():
        outputs.check_inside(folder)
        shutil.rmtree(folder, ignore_errors=True)


def write_sheets(html: str | SheetsHtml, out: Path, base_url: Path, roots: list[Path], per_chunk: int | None = None,
                 store: ChunkStore | None = None, finish: Callable[[Path], None] | None = None,
                 broken: bool = False) -> PdfResult:
    """Write `html` to `out`: whole when small, else chunk by chunk, joined. Every chunk is
    checked; with an overflow or overlap anywhere the PDF goes to NAME.layout-errors.pdf.
    With `store`, a chunk laid out by an earlier build is joined as it was, and each chunk
    laid out now is kept for the next. `finish` edits the written file, `broken` says it is
    broken before it is laid out (see write_pdf)."""
    if chunk_count(html, per_chunk) == 1:
        return write_pdf(str(html), out, base_url, roots, finish=finish, broken=broken)
    keys: set[str] = set()
    try:
        chunks = []
        for first, part in parts(html, per_chunk):
            key = chunk_key(part, base_url)
            keys.add(key)
            chunk = _ready.pop(key, None) or (store.get(key, part) if store is not None else None)
            if chunk is None:
                chunk = lay_out_chunk(part, first, out, base_url, roots)
                if store is not None:
                    store.put(key, part, chunk)
            chunks.append(chunk)
        findings = [d for c in chunks for d in c.findings]
        broken = broken or any(d.severity is Severity.ERROR for d in findings)
        target = out.with_name(out.stem + ".layout-errors.pdf") if broken else out
        stale = out if broken else out.with_name(out.stem + ".layout-errors.pdf")
        gc.collect()  # what the chunks' layouts freed, given back before the join adds its share
        give_back()
        outputs.write_with(target, lambda tmp: finishing(join([c.pdf for c in chunks], tmp), tmp, finish))
        outputs.check_inside(stale)
        stale.unlink(missing_ok=True)
        if store is not None:
            store.keep_only(keys)
    finally:
        discard_chunks(out)
    return PdfResult(target, sum(c.pages for c in chunks), [r for c in chunks for r in c.refused], findings,
                     set().union(*(c.read for c in chunks)))
