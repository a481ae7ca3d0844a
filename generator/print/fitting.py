"""Card text shrunk to fit, remembered per card: the text size a card needs depends only on
that card's own face (its HTML, the card stylesheet, the fonts), so it is worked out once,
kept in output/.rulesmith/fit.json under the hash of those inputs, and the sheets, the card
images and the site reuse it. A card whose face changed is laid out again; no other is."""

from __future__ import annotations

import math
from dataclasses import replace
from pathlib import Path

from markupsafe import Markup

from ..diagnostics import Location, Report
from ..manifest import digest, fonts_hash, rulesmith_version
from . import memo
from .cardfaces import CardFace
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
                 split_long: bool = False) -> list[CardFace]:
    """The faces with the text size each needs (and the stat list instead of a stats row too
    wide for the card); with `split_long`, a card still too long at the minimum size goes on
    two cards that continue each other (card sheets; the site keeps one page per card). W003
    for a card that does not fit even so (also when the size came from the cache). A back
    written as content is fitted the same way, on its own."""
    return _fitted_backs(ctx, _fitted_fronts(ctx, faces, report, cache, split_long), cache)


def _fitted_backs(ctx: BuildContext, faces: list[CardFace], cache: bool) -> list[CardFace]:
    """Each back written as content shrunk to fit like a front: laid out as a face of its own
    (its title, its body, no label), down to the minimum size. One that does not fit even so
    overflows its card on the sheet, which the layout check reports (E040)."""
    backs = [i for i, face in enumerate(faces) if face.reverse is not None]
    if not backs:
        return faces
    as_fronts = [replace(faces[i], id=f"{faces[i].id}.back", label="", title=faces[i].reverse.title,
                         title_mark=faces[i].reverse.title_mark, body=faces[i].reverse.body, parts=(), narrow=None,
                         draft=None, reverse=None, font_pt=0.0) for i in backs]
    fitted = _fitted_fronts(ctx, as_fronts, Report(), cache, split_long=False)
    out = list(faces)
    for i, back in zip(backs, fitted):
        out[i] = replace(out[i], reverse=replace(out[i].reverse, font_pt=back.font_pt))
    return out


def _fitted_fronts(ctx: BuildContext, faces: list[CardFace], report: Report, cache: bool,
                   split_long: bool) -> list[CardFace]:
    from .sheetparts import sheets_config

    config = sheets_config(ctx)
    base, low = config["card"]["base_font_pt"], config["card"]["min_font_pt"]
    faces = [replace(f, index=i, font_pt=f.font_pt or base) for i, f in enumerate(faces)]
    keys = [_key(ctx, f, low) for f in faces]
    path = cache_path(ctx)
    known = memo.load(path, _valid) if cache else {}
    unfit = {i for i, k in enumerate(keys)
             if k in known and not min(low, faces[i].font_pt) <= known[k]["pt"] <= faces[i].font_pt}
    if unfit:  # a size the card could not have been fitted to: nothing is printed at it
        first = faces[min(unfit)]
        memo.damaged(path, f"text size {known[keys[first.index]]['pt']} pt outside {low}-{first.font_pt} pt",
                     "those cards are fitted again")
    missing = [i for i, k in enumerate(keys) if k not in known or i in unfit]
    found: dict[str, dict] = {}
    for start in range(0, len(missing), CHUNK):
        chunk = [faces[i] for i in missing[start:start + CHUNK]]
        for face, (over, narrow) in zip(chunk, _fit(ctx, chunk, low)):
            found[keys[face.index]] = {"pt": face.font_pt, "over": over, "narrow": narrow}
    if found and cache:
        memo.add(path, found, _valid)
    known.update(found)
    out = []
    for face, key in zip(faces, keys):
        entry = known[key]
        face = replace(face, font_pt=entry["pt"])
        if entry.get("narrow") and face.narrow is not None:
            face = replace(face, body=face.narrow, narrow=None)
        if entry["over"] and split_long and len(face.parts) > 1:
            out += _fitted_fronts(ctx, split_face(face, base), report, cache, split_long)
            continue
        if entry["over"]:
            needed, available = entry["over"]
            report.add("W003", f"card '{face.id}' ({ctx.lang}) does not fit at the minimum text size "
                       f"{low} pt: needs {needed:.0f} mm of {available:.0f} mm",
                       face.location or Location(ctx.game.folder), "shorten the text or use a larger card size")
        out.append(face)
    return out


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
    from .overflow import overflows
    from .images import faces_html
    from .pdf import render_document

    from .overflow import too_wide

    todo = [replace(f, index=k) for k, f in enumerate(faces)]
    over: dict[int, tuple[float, float]] = {}
    active = list(range(len(todo)))  # only cards still shrinking are laid out again
    for _round in range(ROUNDS):
        batch = [replace(todo[i], index=n) for n, i in enumerate(active)]
        document, _ = render_document(faces_html(ctx, batch, measure=True), ctx.game.folder, ctx.roots)
        found = {active[n]: v for n, v in overflows(document).items()}
        wide = [active[n] for n in too_wide(document) if todo[active[n]].narrow is not None]
        del document
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


def split_face(face: CardFace, font_pt: float) -> list[CardFace]:
    """A card too long even at the smallest text, as two cards that continue each other."""
    half = (len(face.parts) + 1) // 2
    first, second = face.parts[:half], face.parts[half:]
    base_id = face.extra.get("base_id", face.id)
    card = face.extra.get("card", face.id)  # the card the parts continue, for the site's preview
    return [replace(face, id=f"{base_id}-1", title=f"{face.title} (1)", body=Markup("").join(first), parts=first,
                    font_pt=font_pt, extra={**face.extra, "base_id": f"{base_id}-1", "card": card}),
            replace(face, id=f"{base_id}-2", title=f"{face.title} (2)", body=Markup("").join(second), parts=second,
                    font_pt=font_pt, extra={**face.extra, "base_id": f"{base_id}-2", "card": card})]


def printed_parts(faces: list[CardFace]) -> dict[str, list[CardFace]]:
    """Each card's faces as the sheets print them: one, or the cards it continues on."""
    out: dict[str, list[CardFace]] = {}
    for face in faces:
        out.setdefault(face.extra.get("card", face.id), []).append(face)
    return out
