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
    identifier is a hash of the content, so the same parts give the same bytes. Joining
    2,240 pages: 6 s and 25 MB (300 MB with the parts kept open and their repeated forms;
    pypdf 44 s and 450 MB)."""
    with pikepdf.Pdf.new() as pdf:
        bookmarks: list = []
        destinations: dict[str, list] = {}  # the first part's of a name, as in a document laid out whole
        tree = JoinedTree(pdf)  # the parts' structure tags (PDF/UA), joined
        for n, part in enumerate(parts):
            copied = len(pdf.objects)
            with pikepdf.Pdf.open(part) as source:
                fold_forms(source)
                bookmarks += _bookmarks(source, len(pdf.pages))
                first_page = len(pdf.pages)
                with warnings.catch_warnings():  # its bookmarks and destinations are carried here
                    warnings.filterwarnings("ignore", "Copying pages from another Pdf")
                    pdf.pages.extend(source.pages)
                for name, (page, place) in _destinations(source).items():
                    destinations.setdefault(name, [first_page + page, place])
                tree.add(source, first_page)
                for number in range(copied + 1, len(pdf.objects) + 1):
                    _keep_stream(pdf.get_object(number, 0))
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
                names[name] = pikepdf.Array([pdf.pages[page].obj, *place])
            pdf.Root.Names = pikepdf.Dictionary(Dests=names.obj)
        unique_subset_names(pdf)
        save(pdf, path)


SUBSET = re.compile(r"^/?([A-Z]{6})\+(.+)$")


def unique_subset_names(pdf) -> None:
    """Give every embedded font subset its own name: each part names the subsets of a font
    alike (WeasyPrint's tag, e.g. FGABLA+PT-Sans, depends on the font, not on the glyphs it
    keeps), so the joined file would hold different subsets under one name, and a print RIP
    that takes one for another drops glyphs. The first keeps its name; each further one gets
    a tag made from a hash of its name and number, the same for the same parts."""
    used: set[str] = set()
    for font in [o for o in pdf.objects if isinstance(o, pikepdf.Dictionary) and o.get("/Subtype") == "/Type0"]:
        match = SUBSET.match(str(font.get("/BaseFont", "")))
        if match is None:
            continue
        name, n = match.group(0).lstrip("/"), 0
        while name in used:
            n += 1
            digest = hashlib.sha256(f"{match.group(0)}#{n}".encode()).digest()
            name = "".join(chr(65 + b % 26) for b in digest[:6]) + "+" + match.group(2)
        used.add(name)
        _rename(font, pikepdf.Name("/" + name))


def _rename(font, name) -> None:
    """Name a Type0 font, its descendant and their descriptor alike."""
    font.BaseFont = name
    for descendant in font.get("/DescendantFonts") or ():
        descendant.BaseFont = name
        if "/FontDescriptor" in descendant:
            descendant.FontDescriptor.FontName = name


def _bookmarks(source, first_page: int) -> list:
    """The part's bookmarks (a card's title), pointing at the same spot of the same page
    in the joined document, whose pages of this part start at `first_page`."""
    pages = {page.objgen: i for i, page in enumerate(source.pages)}

    def moved(item):
        dest = item.destination
        if not isinstance(dest, pikepdf.Array) or len(dest) < 1 or dest[0].objgen not in pages:
            return None  # a bookmark to no page of this part (none WeasyPrint writes)
        page = first_page + pages[dest[0].objgen]
        if len(dest) == 5 and dest[1] == "/XYZ":
            copy = pikepdf.OutlineItem(item.title, page, pikepdf.PageLocation.XYZ,
                                       left=dest[2], top=dest[3], zoom=dest[4])
        else:
            copy = pikepdf.OutlineItem(item.title, page)
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


def _keep_stream(obj) -> None:
    """Give a stream copied from another PDF its own copy of the stored bytes, so that the
    other PDF can be closed before this one is written."""
    if isinstance(obj, pikepdf.Stream):
        obj.write(obj.read_raw_bytes(), filter=obj.get("/Filter"), decode_parms=obj.get("/DecodeParms"))
