"""The structure tags of a PDF (PDF/UA-1) that WeasyPrint's tagger leaves out, and the honest
conformance claim.

WeasyPrint (pdf_variant "pdf/ua-1") writes the structure tree, the title, the language and
the XMP claim `pdfuaid:part=1`, but its tagger (weasyprint.pdf.tags, v62–70) gives no
structure element a language of its own (a Russian quotation in an English book is read in
an English voice), no header cell a Scope, and no text drawn for a `role="img"` element its
alternative text. `install()` wraps the tagger so that each element takes these from the HTML
element it was made from: `lang` → /Lang, `<th scope>` → /Scope (a header cell without one
heads its column), `role="img" aria-label` → /Alt; a decorative picture (`alt=""`) is drawn
as an artifact instead of an untitled figure. A PDF that still breaks a rule a machine can
check (a figure without alternative text, a data table without header cells, no language or
title) does not claim conformance: `honest()` takes the claim out of its XMP.
Once the tagger has made the tree, it is folded (tagfold.py).
"""

from __future__ import annotations

import re
from contextlib import contextmanager
from pathlib import Path

import pikepdf
import pydyf
import weasyprint.pdf as _pdf
from weasyprint.formatting_structure import boxes
from weasyprint.pdf import tags as _tags
from weasyprint.pdf.stream import Stream

from .pdfsave import save
from .tagfold import fold

# The tagging this module adds: part of the key of a kept chunk (sheets.py), so a chunk laid
# out before it changed is laid out again.
VERSION = "tags-2"

_SCOPES = {"col": "/Column", "row": "/Row", "colgroup": "/Column", "rowgroup": "/Row"}
_original = _tags._build_box_tree
_original_marked = Stream.marked
_original_add_tags = _pdf.add_tags


def decorative(box) -> bool:
    """A picture that says nothing (`<img alt="">`, an `<svg aria-hidden="true">` without a
    title): drawn as an artifact, left out of the structure tree."""
    element = getattr(box, "element", None)
    if element is None or not isinstance(box, boxes.ReplacedBox):
        return False
    if element.tag == "img":
        return element.get("alt") == ""
    return element.get("aria-hidden") == "true" and element.find("{http://www.w3.org/2000/svg}title") is None


def _tagged_box_tree(box, parent, pdf, page_number, nums, annotations, tags):
    """WeasyPrint's tagger, then the element made for `box` given its HTML element's language,
    header scope and image label; nothing for a decorative picture."""
    source = getattr(box, "_box", box)  # an absolutely placed box stands for the real one
    if decorative(source):
        return
    element = getattr(source, "element", None)
    own = element is not None and getattr(source, "element_tag", None) not in ("html", "body")
    for made in _original(box, parent, pdf, page_number, nums, annotations, tags):
        if own and made.get("S") != "/LI":  # a list item WeasyPrint wraps around the box
            _describe(made, element)
        yield made


def _describe(made, element) -> None:
    if lang := element.get("lang"):
        made["Lang"] = pydyf.String(lang)
    role = made.get("S")
    if role == "/TH":
        made["A"]["Scope"] = _SCOPES.get((element.get("scope") or "").lower(), "/Column")
    label = element.get("aria-label")
    if label and element.get("role") == "img" and "Alt" not in made:
        made["Alt"] = pydyf.String(label)


@contextmanager
def _marked(stream, box, tag):
    """WeasyPrint's marked content, but an artifact for a decorative picture."""
    if tag == "Figure" and decorative(box):
        with stream.artifact():
            yield
    else:
        with _original_marked(stream, box, tag):
            yield


def _add_tags(pdf, *args, **kwargs):
    """WeasyPrint's tagging, then its tree folded."""
    _original_add_tags(pdf, *args, **kwargs)
    fold(pdf.objects, pdf.catalog)


def install() -> None:
    """Let WeasyPrint's tagger describe elements as above and fold its tree (idempotent; the
    tagger calls itself through the module, so the nested elements pass through the wrapper
    too)."""
    _tags._build_box_tree = _tagged_box_tree
    Stream.marked = _marked
    _pdf.add_tags = _add_tags


def variant() -> dict:
    """The options of WeasyPrint's write_pdf for a tagged PDF/UA-1 document."""
    install()
    return {"pdf_variant": "pdf/ua-1"}


def problems(pdf: pikepdf.Pdf) -> list[str]:
    """The machine-checkable PDF/UA-1 rules the PDF breaks (the errors of the `pdfua` checker),
    each said in a few words; none for a conforming PDF."""
    found = []
    root = pdf.Root
    if "/StructTreeRoot" not in root:
        return ["no structure tree"]
    if not str(root.get("/Lang", "")).strip():
        found.append("no document language")
    if not str(pdf.docinfo.get("/Title", "")).strip():
        found.append("no title")
    for element in _elements(root.StructTreeRoot):
        role = element.get("/S")
        if role == "/Figure" and "/Alt" not in element and "/ActualText" not in element:
            found.append("a figure without alternative text")
        elif role == "/Table" and not _has_header(element):
            found.append("a table without header cells")
    return list(dict.fromkeys(found))


def _elements(node):
    """Every structure element under `node`, without recursion (a long book is deep)."""
    stack, seen = [node], set()
    while stack:
        item = stack.pop()
        if not isinstance(item, pikepdf.Dictionary) or item.objgen in seen and item.objgen != (0, 0):
            continue
        seen.add(item.objgen)
        if item.get("/Type") in (None, "/StructElem") and "/S" in item:
            yield item
        kids = item.get("/K")
        if isinstance(kids, pikepdf.Array):
            stack.extend(reversed(list(kids)))
        elif kids is not None:
            stack.append(kids)


def _has_header(table) -> bool:
    return any(e.get("/S") == "/TH" for e in _elements(table))


_CLAIM = re.compile(rb'\s*<pdfuaid:part>\s*\d+\s*</pdfuaid:part>|\s*pdfuaid:part="\d+"')


def disclaim(pdf: pikepdf.Pdf) -> list[str]:
    """Take the PDF/UA claim out of `pdf`'s XMP when it breaks a checkable rule; the rules it
    breaks (none: the claim stays)."""
    found = problems(pdf)
    if found and "/Metadata" in pdf.Root:
        pdf.Root.Metadata.write(_CLAIM.sub(b"", pdf.Root.Metadata.read_bytes()))
    return found


def honest(path: Path) -> list[str]:
    """`disclaim` for the PDF file at `path` (rewritten only when it loses its claim)."""
    with pikepdf.open(path, allow_overwriting_input=True) as pdf:
        found = disclaim(pdf)
        if found:
            save(pdf, path)
    return found


class JoinedTree:
    """The structure tree of a PDF joined from tagged parts (join.py): one /Document element
    holding each part's elements in order, the parent tree's keys moved past the earlier
    parts' (pages' /StructParents, annotations' /StructParent), the first part's XMP. A join
    with an untagged part is left untagged."""

    def __init__(self, pdf: pikepdf.Pdf):
        self.pdf = pdf
        # Python lists until the end: a pikepdf array grows by copying itself, which made the
        # join of a deck's parts quadratic (278 parts of 10,000 cards: most of the join's time)
        self.kids: list = []
        self.nums: list = []
        self.next_key = 0
        self.tagged = True
        self.metadata = None

    def add(self, source: pikepdf.Pdf, pages: list) -> None:
        """Copy the tree of `source`, whose pages are already copied: `pages`, in order."""
        tree = source.Root.get("/StructTreeRoot")
        if tree is None or not self.tagged:
            self.tagged = False
            return
        if self.metadata is None and "/Metadata" in source.Root:
            self.metadata = self.pdf.copy_foreign(source.Root.Metadata)
        offset = self.next_key
        for document in tree.K if isinstance(tree.K, pikepdf.Array) else [tree.K]:
            if "/P" in document:  # not up to the part's own tree root and parent tree
                del document.P
            self.kids.extend(self.pdf.copy_foreign(document).K)
        nums = tree.ParentTree.get("/Nums", pikepdf.Array())
        for i in range(0, len(nums), 2):
            self.nums.extend([int(nums[i]) + offset, self._copy(nums[i + 1])])
            self.next_key = max(self.next_key, int(nums[i]) + offset + 1)
        for page in pages:
            if "/StructParents" in page:
                page.StructParents = int(page.StructParents) + offset
            for annotation in page.get("/Annots", ()):
                if "/StructParent" in annotation:
                    annotation.StructParent = int(annotation.StructParent) + offset

    def _copy(self, obj):
        """`obj` of a part in the joined PDF (a direct array of references stays direct)."""
        if isinstance(obj, pikepdf.Array) and not obj.is_indirect:
            return pikepdf.Array([self._copy(item) for item in obj])
        return self.pdf.copy_foreign(obj)

    def finish(self) -> None:
        """Write the joined tree into the PDF (with its claim, when it conforms)."""
        if not self.tagged:
            return
        pdf = self.pdf
        document = pdf.make_indirect(pikepdf.Dictionary(Type=pikepdf.Name.StructElem, S=pikepdf.Name.Document,
                                                        K=pikepdf.Array(self.kids)))
        root = pdf.make_indirect(pikepdf.Dictionary(
            Type=pikepdf.Name.StructTreeRoot, K=pikepdf.Array([document]),
            ParentTree=pdf.make_indirect(pikepdf.Dictionary(Nums=pikepdf.Array(self.nums))),
            ParentTreeNextKey=self.next_key))
        document.P = root
        for kid in self.kids:
            kid.P = document
        pdf.Root.StructTreeRoot = root
        pdf.Root.MarkInfo = pikepdf.Dictionary(Marked=True)
        pdf.Root.ViewerPreferences = pikepdf.Dictionary(DisplayDocTitle=True)
        if self.metadata is not None:
            pdf.Root.Metadata = self.metadata
        disclaim(pdf)
