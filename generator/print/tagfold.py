"""The structure tree WeasyPrint's tagger writes, folded to what it says.

The tagger writes an element for every run of text and for every box, most of which say
nothing: a card's face came to 15 elements, 6 of them a `Span` around one run of its
paragraph's text and 2 a `Div` around one other element, and its back to an empty `Div`.
`fold()` gives a run's marked content to the element it is part of, and takes out the groups
that hold nothing or one element and carry nothing of their own (no language, no attributes):
the same content in the same order under the same headings, paragraphs, lists and tables, in
about a third of the elements on a card sheet (805 to 229 on 8 pages of cards). A joined deck
holds its whole tree in memory: 10,000 cards peaked at 651 MB before, 408 MB with the fold.

A run of text marks its content `Span` in the page's stream; the element holding it may be a
paragraph. The marked-content tag is not the structure type (ISO 32000-1, 14.7.2: the tree's
element says what the content is), so the stream is left as it is.
"""

from __future__ import annotations

import pydyf

# An element whose dictionary holds only these says nothing of its own.
PLAIN = frozenset({"Type", "S", "K", "P", "Pg", "NS"})
GROUPS = frozenset({"/Div", "/NonStruct"})  # roles that only group what they hold
EMPTIABLE = GROUPS | {"/Span"}  # roles that say nothing when they hold nothing


def fold(objects: list, catalog: dict) -> None:
    """Fold the structure tree of a PDF being written (pydyf's objects, numbered by place, and
    its catalog): in every element, a plain `Span` holding only marked content of the
    element's page gives it to the element, a plain `Div`, `Span` or `NonStruct` holding
    nothing is left out, and a plain `Div` or `NonStruct` holding one element gives way to it.
    The parent tree names the element each run ends in. A left-out element stays in the file
    as an empty dictionary nothing points to (pydyf has numbered it)."""
    root = catalog.get("StructTreeRoot")
    top = objects[_number(root)] if isinstance(root, bytes) else None
    if not isinstance(top, dict) or not isinstance(top.get("K"), list) or not isinstance(top.get("ParentTree"), bytes):
        return  # not the tree this was written for: left as the tagger made it
    tree = _Tree(objects)
    for node in reversed(tree.elements(top["K"])):  # children before their parents
        node["K"] = tree.folded_kids(node)
    parents = objects[_number(top["ParentTree"])]["Nums"]
    for i in range(1, len(parents), 2):
        if isinstance(parents[i], pydyf.Array):
            parents[i] = pydyf.Array(tree.holder(ref) for ref in parents[i])


def _number(ref: bytes) -> int:
    return int(ref.split()[0])


class _Tree:
    def __init__(self, objects: list):
        self.objects = objects
        self.given: dict[bytes, bytes] = {}  # a folded run's element -> the element its content went to

    def element(self, ref):
        """The structure element `ref` points to; None for marked content or an annotation."""
        if not isinstance(ref, bytes):
            return None
        found = self.objects[_number(ref)]
        return found if (isinstance(found, dict) and found.get("Type") == "/StructElem"
                         and isinstance(found.get("K"), list)) else None

    def elements(self, top: list) -> list:
        """Every element under `top`, parents before their children (no recursion: a book's
        tree is deep)."""
        order, stack = [], [self.element(ref) for ref in top]
        while stack:
            node = stack.pop()
            if node is not None:
                order.append(node)
                stack.extend(self.element(kid) for kid in node["K"])
        return order

    def folded_kids(self, node) -> pydyf.Array:
        """`node`'s kids with those that say nothing folded into it (their own kids folded already)."""
        kids = pydyf.Array()
        for kid in node["K"]:
            child = self.element(kid)
            taken = self._take(node, kid, child) if child is not None and child.keys() <= PLAIN else None
            if taken is None:
                kids.append(kid)
            else:
                kids.extend(taken)
                child.clear()
        return kids

    def _take(self, node, ref: bytes, child) -> list | None:
        """What `node` holds instead of its plain kid `child`: nothing (it held nothing), its
        marked content (a run of the node's page), its one element; None to keep it."""
        role, held = child["S"], child["K"]
        if not held:
            return [] if role in EMPTIABLE else None
        if role == "/Span" and all(isinstance(k, int) for k in held) and "Pg" in node and child.get("Pg") == node["Pg"]:
            self.given[ref] = node.reference
            return list(held)
        if role in GROUPS and len(held) == 1 and (only := self.element(held[0])) is not None:
            only["P"] = node.reference
            return [held[0]]
        return None

    def holder(self, ref: bytes) -> bytes:
        """The element a run's content ended in (a Span in a Span in a paragraph: the paragraph)."""
        while ref in self.given:
            ref = self.given[ref]
        return ref
