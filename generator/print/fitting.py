"""Card text shrunk to fit, remembered per card: the text size a card needs depends only on
that card's own face (its HTML, the card stylesheet, the fonts), so it is worked out once,
kept in output/.rulesmith/fit.json under the hash of those inputs, and the sheets, the card
images and the site reuse it. A card whose face changed is laid out again; no other is."""

from __future__ import annotations

import math
from dataclasses import replace
from pathlib import Path

from ..core.diagnostics import Location, Report
from ..project.manifest import digest, fonts_hash, rulesmith_version
from . import memo
from .cardfaces import CardFace, body_of
from .context import BuildContext

CHUNK = 100  # faces laid out per WeasyPrint document: bounds memory on large decks
ROUNDS = 6


def cache_path(ctx: BuildContext) -> Path:
    return memo.store(ctx.project_root, "fit.json")


def _key(ctx: BuildContext, face: CardFace, low: float) -> str:
    from weasyprint import __version__ as weasyprint_version

    from .images import faces_html

    return digest(faces_html(ctx, [replace(face, index=0)]), low, fonts_hash(), weasyprint_version, rulesmith_version())


def fitted_faces(ctx: BuildContext, faces: list[CardFace], report: Report, cache: bool = True,
                 split_long: bool = False, unfit_code: str = "W003") -> list[CardFace]:
    """The faces with the text size each needs (and the stat list instead of a stats row too
    wide for the card); with `split_long`, a card still too long at the minimum size continues
    on as many cards as it needs, its parts (a table's rows) shared between them in order
    (card sheets; the site keeps one page per card). A card that does not fit even so is
    reported as `unfit_code` (the card sheets: E040, and see `unfit`), also when the size came
    from the cache. A back written as content is fitted the same way, on its own."""
    fronts = _fitted_fronts(ctx, faces, report, cache, split_long, unfit_code)
    return _fitted_backs(ctx, fronts, report, cache, unfit_code)


def fitted_both(ctx: BuildContext, faces: list[CardFace], report: Report,
                unfit_code: str = "W003") -> tuple[list[CardFace], list[CardFace]]:
    """`fitted_faces(faces)` and `fitted_faces(faces, split_long=True)` from one measuring of
    the faces (their keys worked out once): a face per card (the site's pages), and the
    faces as the sheets print them. Only the second reports a card that does not fit."""
    base, low = _text_sizes(ctx)
    measured = _measured(ctx, faces, base, low, True)
    whole = _fitted_fronts(ctx, faces, Report(), True, False, unfit_code, measured)
    printed = _fitted_fronts(ctx, faces, report, True, True, unfit_code, measured)
    return _fitted_backs(ctx, whole, Report(), True, unfit_code), _fitted_backs(ctx, printed, report, True, unfit_code)


def unfit(faces: list[CardFace]) -> list[CardFace]:
    """The faces too long for their card, front or back, even at the minimum text size (and,
    with `split_long`, on as many cards as their parts allow): their text is cut off."""
    return [face for face in faces if face.extra.get("over")]


def _fitted_backs(ctx: BuildContext, faces: list[CardFace], report: Report, cache: bool,
                  unfit_code: str) -> list[CardFace]:
    """Each back written as content shrunk to fit like a front: laid out as a face of its own
    (its title, its body, no label), down to the minimum size. One that does not fit even so
    is reported as `unfit_code`, and its card is unfit (see `unfit`)."""
    backs = [i for i, face in enumerate(faces) if face.reverse is not None]
    if not backs:
        return faces
    as_fronts = [replace(faces[i], id=f"{faces[i].id}.back", label="", title=faces[i].reverse.title,
                         title_mark=faces[i].reverse.title_mark, body=faces[i].reverse.body, parts=(), narrow=None,
                         draft=None, reverse=None, font_pt=0.0) for i in backs]
    fitted = _fitted_fronts(ctx, as_fronts, report, cache, split_long=False, unfit_code=unfit_code)
    out = list(faces)
    for i, back in zip(backs, fitted):
        over = {"over": back.extra["over"]} if "over" in back.extra else {}
        out[i] = replace(out[i], reverse=replace(out[i].reverse, font_pt=back.font_pt), extra={**out[i].extra, **over})
    return out


def _fitted_fronts(ctx: BuildContext, faces: list[CardFace], report: Report, cache: bool,
                   split_long: bool, unfit_code: str = "W003",
                   measured: list[CardFace] | None = None) -> list[CardFace]:
    """The fronts fitted (see fitted_faces), each too long one reported as `unfit_code`.
    `measured`: the faces at the sizes `_measured` gives them, when worked out already."""
    base, low = _text_sizes(ctx)
    out: list[CardFace] = []
    for face in measured if measured is not None else _measured(ctx, faces, base, low, cache):
        out += _continued(ctx, face, base, low, cache) if split_long and face.extra.get("over") else [face]
    for face in unfit(out):
        needed, available = face.extra["over"]
        report.add(unfit_code, f"card '{face.id}' ({ctx.lang}) does not fit at the minimum text size {low} pt: "
                   f"needs {needed:.0f} mm of {available:.0f} mm",
                   face.location or Location(ctx.game.folder), "shorten the text or use a larger card size")
    return out


def _text_sizes(ctx: BuildContext) -> tuple[float, float]:
    """The card text's size before fitting and the smallest it may shrink to (sheets.yaml)."""
    from .sheetparts import sheets_config

    card = sheets_config(ctx)["card"]
    return card["base_font_pt"], card["min_font_pt"]


def _measured(ctx: BuildContext, faces: list[CardFace], base: float, low: float, cache: bool) -> list[CardFace]:
    """The faces at the text size each needs, taken from fit.json or laid out now; a face
    still too long at the minimum size carries its overflow (needed, available mm) as
    extra['over']."""
    faces = [replace(f, index=i, font_pt=f.font_pt or base) for i, f in enumerate(faces)]
    keys = [_key(ctx, f, low) for f in faces]
    known = _known_sizes(ctx, faces, keys, low, cache)
    return [_sized(face, known[key]) for face, key in zip(faces, keys)]


def _known_sizes(ctx: BuildContext, faces: list[CardFace], keys: list[str], low: float,
                 cache: bool) -> dict[str, dict]:
    """The fit.json entry of every face, by key: remembered, or laid out now (and remembered)."""
    path = cache_path(ctx)
    known = memo.load(path, _valid) if cache else {}
    unfit_sizes = {i for i, k in enumerate(keys)
                   if k in known and not min(low, faces[i].font_pt) <= known[k]["pt"] <= faces[i].font_pt}
    if unfit_sizes:  # a size the card could not have been fitted to: nothing is printed at it
        first = faces[min(unfit_sizes)]
        memo.damaged(path, f"text size {known[keys[first.index]]['pt']} pt outside {low}-{first.font_pt} pt",
                     "those cards are fitted again")
    missing = [faces[i] for i, k in enumerate(keys) if k not in known or i in unfit_sizes]
    found = _laid_out(ctx, missing, keys, low)
    if found and cache:
        memo.add(path, found, _valid)
    return {**known, **found}


def _laid_out(ctx: BuildContext, faces: list[CardFace], keys: list[str], low: float) -> dict[str, dict]:
    """The fit.json entries of faces laid out now, a chunk of them per document."""
    found: dict[str, dict] = {}
    for start in range(0, len(faces), CHUNK):
        chunk = faces[start:start + CHUNK]
        for face, (over, narrow) in zip(chunk, _fit(ctx, chunk, low)):
            found[keys[face.index]] = {"pt": face.font_pt, "over": over, "narrow": narrow}
    return found


def _sized(face: CardFace, entry: dict) -> CardFace:
    """A face as its fit.json entry sets it: its text size, its stat list where the stats row
    is too wide, its overflow left at the minimum size (extra['over'])."""
    extra = {k: v for k, v in face.extra.items() if k != "over"}
    if entry["over"]:
        extra["over"] = tuple(entry["over"])
    face = replace(face, font_pt=entry["pt"], extra=extra)
    if entry.get("narrow") and face.narrow is not None:
        face = replace(face, body=face.narrow, narrow=None)
    return face


def _continued(ctx: BuildContext, face: CardFace, base: float, low: float, cache: bool) -> list[CardFace]:
    """A card too long even at the minimum text size, on as many cards as it needs: first as
    many as its overflow asks for, then one more while one of them is still too long, at most
    one part on each. A card of one part stays as it is."""
    if len(face.parts) < 2:
        return [face]
    needed, available = face.extra["over"]
    count = max(2, math.ceil(needed / available))
    while True:
        count = min(count, len(face.parts))
        cards = _measured(ctx, split_face(ctx, face, base, count), base, low, cache)
        if count == len(face.parts) or not unfit(cards):
            return cards
        count += 1


def _valid(entry) -> bool:
    """A fit.json entry: a text size, the overflow left (needed, available mm) or None, and
    whether the card takes its stat list."""
    over = entry.get("over") if isinstance(entry, dict) else None
    return (isinstance(entry, dict) and memo.number(entry.get("pt"), 0.1, 1000)
            and (over is None or (isinstance(over, list) and len(over) == 2 and all(memo.number(v) for v in over)))
            and isinstance(entry.get("narrow", False), bool))


def _fit(ctx: BuildContext, faces: list[CardFace], low: float) -> list[list[float] | None]:
    """Lay the faces out, one per page; shrink the text of those that overflow and lay them
    out again, down to the minimum size. Sets each face's font_pt; returns, per face, the
    overflow (needed, available mm) left at the minimum size, or None, and whether the face
    takes its narrow body (the stat list)."""
    todo = [replace(f, index=k) for k, f in enumerate(faces)]
    over: dict[int, tuple[float, float]] = {}
    active = list(range(len(todo)))  # only cards still shrinking are laid out again
    for _round in range(ROUNDS):
        overflowing, too_wide = _measured_round(ctx, [replace(todo[i], index=n) for n, i in enumerate(active)], low)
        found = {active[n]: v for n, v in overflowing.items()}
        wide = [active[n] for n in too_wide if todo[active[n]].narrow is not None]
        for i in wide:  # a stats row too wide for the card: the stats as a list instead
            todo[i] = replace(todo[i], body=todo[i].narrow, narrow=None)
        for i in active:
            over.pop(i, None)
        over.update(found)
        shrink = {i: v for i, v in found.items() if todo[i].font_pt > low and i not in wide}
        if not shrink and not wide:
            break
        for i, (needed, available) in shrink.items():
            pt = todo[i].font_pt
            guess = math.floor(pt * math.sqrt(available / needed) * 0.98 * 4) / 4
            todo[i] = replace(todo[i], font_pt=max(low, min(pt - 0.25, guess)))
        active = sorted(set(shrink) | set(wide))
    for k, face in enumerate(todo):
        faces[k].font_pt = face.font_pt
    return [([round(over[k][0], 3), round(over[k][1], 3)] if k in over else None,
             todo[k].narrow is None and faces[k].narrow is not None) for k in range(len(todo))]


def _measured_round(ctx: BuildContext, batch: list[CardFace], low: float
                    ) -> tuple[dict[int, tuple[float, float]], set[int]]:
    """Lay the faces out, one per measuring page: (the overflow of each face whose text runs
    past its body, the faces with content wider than their body), by place in `batch`. Where
    the card images are wanted, the pages of the faces this round leaves as they are (not
    shrunk, no stat list instead of their stats row) are kept for them (facepages.py)."""
    from .facepages import face_key
    from .images import faces_html
    from .overflow import overflows, too_wide
    from .pdf import render_document

    document, _ = render_document(faces_html(ctx, batch, measure=True), ctx.game.folder, ctx.roots)
    over, wide = overflows(document), too_wide(document)
    if ctx.face_pages is not None:
        again = {n for n in over if batch[n].font_pt > low} | {n for n in wide if batch[n].narrow is not None}
        ctx.face_pages.keep(document, [None if n in again else face_key(faces_html(ctx, [replace(f, index=0)]))
                                       for n, f in enumerate(batch)])
    return over, wide


def split_face(ctx: BuildContext, face: CardFace, font_pt: float, count: int = 2) -> list[CardFace]:
    """A card too long even at the smallest text as `count` cards that continue each other, its
    parts shared between them in order, as evenly as their number allows; each is titled with
    its number (the interface word 'card-continued'), a table continued under its head."""
    base_id = face.extra.get("base_id", face.id)
    card = face.extra.get("card", face.id)  # the card the parts continue, for the site's preview
    title = ctx.tr.ui("card-continued")
    bounds = [-(-len(face.parts) * k // count) for k in range(count + 1)]
    out = []
    for n in range(1, count + 1):
        parts = face.parts[bounds[n - 1]:bounds[n]]
        out.append(replace(face, id=f"{base_id}-{n}", title=title.format(title=face.title, n=n),
                           body=body_of(parts), parts=parts, font_pt=font_pt,
                           extra={**face.extra, "base_id": f"{base_id}-{n}", "card": card}))
    return out


def printed_parts(faces: list[CardFace]) -> dict[str, list[CardFace]]:
    """Each card's faces as the sheets print them: one, or the cards it continues on."""
    out: dict[str, list[CardFace]] = {}
    for face in faces:
        out.setdefault(face.extra.get("card", face.id), []).append(face)
    return out
