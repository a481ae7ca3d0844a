"""Parts of one document, each its own PDF, joined into one (card sheets laid out a chunk at
a time: sheets.py). qpdf (pikepdf) does the copying; this module keeps what the join holds
small: a part is closed once its pages are copied, a form the part repeats is kept once, and
the parts' bookmarks point into the joined pages."""

from __future__ import annotations

import hashlib
import re
import warnings
from pathlib import Path

import pikepdf

from .pdfsave import save
from .tagging import JoinedTree


def join(parts: list[Path], path: Path) -> None:
    """One PDF of the part files, in order, with the first part's title, author and language.
    qpdf (pikepdf) copies each part's pages across, then takes the copied streams' bytes as
    they are stored (still compressed) and closes the part: qpdf would otherwise keep every
    part open and parsed until the end, to read the streams when it writes. The file
    identifier is a hash of the content, so the same parts give the same bytes. Joining the
    2,224 pages of 10,000 cards in 278 parts: 5 s of CPU (10 s while each part listed every
    object of the joined file) and 220 MB, most of it qpdf's copy of the structure tree's
    63,000 elements."""
    with pikepdf.Pdf.new() as pdf:
        bookmarks: list = []
        destinations: dict[str, list] = {}  # the first part's of a name, as in a document laid out whole
        tree = JoinedTree(pdf)  # the parts' structure tags (PDF/UA), joined
        joined: list = []  # the joined pages, kept at hand: `pdf.pages[i]` lists every page each time
        subsets = SubsetNames()
        for n, part in enumerate(parts):
            copied = _last_number(pdf)
            with pikepdf.Pdf.open(part) as source:
                fold_forms(source)
                first_page = len(joined)
                with warnings.catch_warnings():  # its bookmarks and destinations are carried here
                    warnings.filterwarnings("ignore", "Copying pages from another Pdf")
                    pdf.pages.extend(source.pages)
                joined += _new_pages(pdf, first_page)
                bookmarks += _bookmarks(source, joined[first_page:])
                for name, (page, place) in _destinations(source).items():
                    destinations.setdefault(name, [first_page + page, place])
                tree.add(source, joined[first_page:])
                for number in range(copied + 1, _last_number(pdf)):
                    obj = pdf.get_object(number, 0)
                    _keep_stream(obj)
                    subsets.name(obj)
                if n == 0:
                    pdf.docinfo = pdf.copy_foreign(source.docinfo)
                    if "/Lang" in source.Root:
                        pdf.Root.Lang = source.Root.Lang
        tree.finish()
        if bookmarks:
            with pdf.open_outline() as outline:
                outline.root.extend(bookmarks)
        if destinations:
            names = pikepdf.NameTree.new(pdf)
            for name, (page, place) in sorted(destinations.items()):
                names[name] = pikepdf.Array([joined[page], *place])
            pdf.Root.Names = pikepdf.Dictionary(Dests=names.obj)
        save(pdf, path)


SUBSET = re.compile(r"^/?([A-Z]{6})\+(.+)$")


class SubsetNames:
    """Every embedded font subset given its own name: each part names the subsets of a font
    alike (WeasyPrint's tag, e.g. FGABLA+PT-Sans, depends on the font, not on the glyphs it
    keeps), so the joined file would hold different subsets under one name, and a print RIP
    that takes one for another drops glyphs. The first keeps its name; each further one gets
    a tag made from a hash of its name and number, the same for the same parts. Fonts are
    named as they are copied, in order (a pass over `pdf.objects` afterwards held a handle
    to every object of the joined file at once)."""

    def __init__(self):
        self.used: set[str] = set()

    def name(self, obj) -> None:
        """Rename `obj` if it is a Type0 font whose subset name is taken."""
        if not isinstance(obj, pikepdf.Dictionary) or obj.get("/Subtype") != "/Type0":
            return
        match = SUBSET.match(str(obj.get("/BaseFont", "")))
        if match is None:
            return
        name, n = match.group(0).lstrip("/"), 0
        while name in self.used:
            n += 1
            digest = hashlib.sha256(f"{match.group(0)}#{n}".encode()).digest()
            name = "".join(chr(65 + b % 26) for b in digest[:6]) + "+" + match.group(2)
        self.used.add(name)
        _rename(obj, pikepdf.Name("/" + name))


def _rename(font, name) -> None:
    """Name a Type0 font, its descendant and their descriptor alike."""
    font.BaseFont = name
    for descendant in font.get("/DescendantFonts") or ():
        descendant.BaseFont = name
        if "/FontDescriptor" in descendant:
            descendant.FontDescriptor.FontName = name


def _new_pages(pdf, first: int) -> list:
    """The pages of `pdf` from number `first` on, read from its page tree's kids: qpdf makes
    the tree one level deep before it adds a page (QPDF::insertPage flattens it), so they are
    the pages in order. (`pdf.pages[first:]` makes a helper for every page of the file.)"""
    kids = pdf.Root.Pages.Kids
    return [kids[i] for i in range(first, len(kids))]


def _bookmarks(source, joined: list) -> list:
    """The part's bookmarks (a card's title), pointing at the same spot of the same page in
    the joined document: `joined`, the part's pages there, in order."""
    pages = {page.objgen: i for i, page in enumerate(source.pages)}

    def moved(item):
        dest = item.destination
        if not isinstance(dest, pikepdf.Array) or len(dest) < 1 or dest[0].objgen not in pages:
            return None  # a bookmark to no page of this part (none WeasyPrint writes)
        page = joined[pages[dest[0].objgen]]
        if len(dest) == 5 and dest[1] == "/XYZ":  # left, top, zoom; an unset one as 0
            place = [pikepdf.Name.XYZ, *(0 if value is None else value for value in list(dest)[2:])]
        else:
            place = [pikepdf.Name.Fit]
        copy = pikepdf.OutlineItem(item.title, pikepdf.Array([page, *place]))
        copy.children.extend(c for c in (moved(child) for child in item.children) if c is not None)
        return copy

    with source.open_outline() as outline:
        return [c for c in (moved(item) for item in outline.root) if c is not None]


def _destinations(source) -> dict[str, tuple[int, list]]:
    """The part's named destinations (an element's id: a document's `#name` leads there): the
    number of the page each leads to in the part, and where on it."""
    names = source.Root.get("/Names")
    if names is None or "/Dests" not in names:
        return {}
    pages = {page.objgen: i for i, page in enumerate(source.pages)}
    found = {}
    for name, dest in pikepdf.NameTree(names.Dests).items():
        if isinstance(dest, pikepdf.Dictionary):  # a destination may be given as {/D [...]}
            dest = dest.get("/D")
        if isinstance(dest, pikepdf.Array) and len(dest) >= 1 and dest[0].objgen in pages:
            found[str(name)] = (pages[dest[0].objgen], list(dest[1:]))
    return found


def fold_forms(pdf) -> None:
    """Let the pages draw one copy of each distinct form: WeasyPrint writes a form (a
    transparency group with its own resources) for every centred SVG text, so a deck's
    identical back art repeats the same forms on every card: 18 a sheet, hundreds of
    thousands of objects in a large deck. Two forms with the same dictionary, resources and
    content draw the same thing; the pages' names are pointed at the first, and the others,
    no longer used, are not copied. 2,240 pages of backs: 45,000 objects to 5,400, 15.7 MB
    to 5.4 MB, the pages pixel for pixel the same. A form several pages name (or one page
    under several names) is read once."""
    first: dict[tuple[bytes, bytes], object] = {}
    taken: dict[tuple[int, int], object] = {}  # each form read so far -> the form drawn for it
    for page in pdf.pages:
        forms = page.resources.get("/XObject") if "/Resources" in page.obj else None
        for name in list(forms.keys()) if forms is not None else ():
            form = forms[name]
            if isinstance(form, pikepdf.Stream) and form.get("/Subtype") == "/Form":
                same = taken.get(form.objgen)
                if same is None:
                    same = taken[form.objgen] = first.setdefault(_form_key(form), form)
                if same.objgen != form.objgen:
                    forms[name] = same


def _form_key(form) -> tuple[bytes, bytes]:
    """What a form draws: its dictionary with the resources it names written out (their own
    references as they are), and its stored content."""
    entries = form.stream_dict
    written = [(name, entries[name]) for name in sorted(entries.keys())]
    return (repr([(name, value.unparse(resolved=True) if isinstance(value, pikepdf.Object) else repr(value))
                  for name, value in written]).encode(), form.read_raw_bytes())


def _last_number(pdf) -> int:
    """The number of the PDF's newest object, found by making one more: an object no other
    refers to, which is not written. (`len(pdf.objects)` lists every object each time: a
    join of 278 parts spent 4 of its 10 s there.)"""
    return pdf.make_indirect(pikepdf.Dictionary()).objgen[0]


def _keep_stream(obj) -> None:
    """Give a stream copied from another PDF its own copy of the stored bytes, so that the
    other PDF can be closed before this one is written."""
    if isinstance(obj, pikepdf.Stream):
        obj.write(obj.read_raw_bytes(), filter=obj.get("/Filter"), decode_parms=obj.get("/DecodeParms"))
