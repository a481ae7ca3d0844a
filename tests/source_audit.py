"""Which text fields of a shipped game are the source's words: the mechanical audit behind
tests/test_editor_text.py. The Russian source texts are kept in tests/fixtures/seeds/GAME.txt.

A text field is
- `source`: every sentence of it is found verbatim in the game's source text, up to
  typography (quotes, dashes, ё, spacing, case, a final full stop);
- `editor`: listed under its record's `editor:` (it prints marked as the editor's text);
- `label`: a short label by the rule of docs/content-format.md ("Editor's text"): a name,
  title or column heading of one or two words, each of which the source uses (its stem: the
  word less its last two letters), naming a thing the source names;
- `erratum`: an erratum's summary or reading, the edition's account of the source printed as
  such (the errata appendix and page, each labelled);
- `value`: no words at all (a number, a dash, 4+);
- `why`: the record says why the source lacks it (`incomplete`, an unstated value's reason):
  the edition's own word about the source, printed as such (DRAFT, ?‡);
- otherwise `unmarked`: the edition's wording printed as if it were the source's;
- `source-marked`: the source's words, yet marked as the editor's (a false mark).
"""

from __future__ import annotations

import re
from pathlib import Path

from generator.core.diagnostics import Report
from generator.project import Project
from generator.text.editorial import text_fields

SEEDS = Path(__file__).resolve().parent / "fixtures" / "seeds"
LABEL_FIELDS = ("name", "title", "abbr", "symbol")
WHY_FIELDS = ("incomplete", "reason")
_REF = re.compile(r"\{\{.*?\}\}")
_WORD = re.compile(r"[^\W\d_]+", re.UNICODE)


def normal(text: str) -> str:
    text = text.replace("\u00a0", " ").replace("\u00ad", "").replace("ё", "е").replace("Ё", "Е")
    text = re.sub(r"[«»“”„\"]", '"', text)
    text = re.sub(r"[’‘'`]", "'", text)
    text = re.sub(r"[—–−]", "-", text)
    text = re.sub(r"\.{2,}|…", "...", text)
    text = re.sub(r"\s*-\s*", " - ", text)  # "слово-слово" / "слово - слово" / "слово -слово"
    text = re.sub(r"\s+([.,:;!?)])", r"\1", text)
    text = re.sub(r"([(])\s+", r"\1", text)
    return re.sub(r"\s+", " ", text).strip().casefold()


def seed_text(game_id: str) -> str:
    return normal((SEEDS / f"{game_id}.txt").read_text(encoding="utf-8"))


def bare(text: str) -> str:
    """Without spaces: the source's extraction joins words ("Поврежденияи так") and breaks
    them ("движе ния"); the letters still follow each other."""
    return re.sub(r"\s+", "", text)


def pieces(text: str) -> list[str]:
    """The parts of a field to look for: its sentences, cut at references and line breaks,
    without the final full stop (a label's sentence ends where the source's goes on)."""
    out = []
    for part in _REF.split(text):
        for line in part.split("\n"):
            for sentence in re.split(r"(?<=[.!?])\s+(?=[«\"(]?[А-ЯЁA-Z0-9])", line):
                sentence = normal(sentence).strip(' .,;:"')
                if _WORD.search(sentence):
                    out.append(sentence)
    return out


def is_source(text: str, seed: str, seed_bare: str | None = None) -> bool:
    """Every piece of the text is in the source: a piece of one word as a whole word, a
    longer one with its letters in the same order, spaces aside."""
    seed_bare = bare(seed) if seed_bare is None else seed_bare
    found = pieces(text)
    return bool(found) and all(_in_seed(p, seed, seed_bare) for p in found)


def _in_seed(piece: str, seed: str, seed_bare: str) -> bool:
    if len(_WORD.findall(piece)) < 2:
        return re.search(r"(?<!\w)" + re.escape(piece) + r"(?!\w)", seed) is not None
    return bare(piece) in seed_bare


def is_label(path: str, text: str, seed: str) -> bool:
    """The short-label rule: a name-like field of one or two words the source uses."""
    last = [p for p in path.split(".") if not p.isdigit()][-1]
    words = _WORD.findall(normal(_REF.sub("", text)))
    if last not in LABEL_FIELDS or not 1 <= len(words) <= 2:
        return False
    return all(w[:max(3, len(w) - 2)] in seed for w in words)


def value_at(record, path: str):
    value = record
    for part in path.split("."):
        if isinstance(value, (list, tuple)):
            value = value[int(part)]
        elif isinstance(value, dict):
            value = value[part]
        else:
            value = getattr(value, part)
    return value


def audit(game_id: str, root: Path) -> dict[tuple[str, str, str], tuple[str, str]]:
    """(kind, id, field path) -> (verdict, text) for every text field of the game's records."""
    game = Project(root).load(game_id, Report(), catalogs=False)
    seed = seed_text(game_id)
    seed_bare = bare(seed)
    out = {}
    for record in game.all_records():
        for path in sorted(text_fields(record)):
            text = str(value_at(record, path))
            last = path.split(".")[-1]
            if record.kind == "erratum":
                verdict = "erratum"
            elif last in WHY_FIELDS and _WORD.search(_REF.sub("", text)):
                verdict = "why"
            else:
                verdict = _verdict(path, text, record.editor, seed, seed_bare)
            out[(record.kind, record.id, path)] = (verdict, text)
    summary = game.manifest.summary
    if summary:
        verdict = ("source" if "summary" not in game.manifest.editor else "source-marked") \
            if is_source(summary, seed, seed_bare) else "editor" if "summary" in game.manifest.editor else "unmarked"
        out[("game", game_id, "summary")] = (verdict, summary)
    manifest_items = [("parameter", p) for p in game.manifest.parameters] + \
        [("component", c) for c in game.manifest.components]
    for kind, param in manifest_items:  # the labels and notes of game.yaml's parameters and components
        for path in ("name", "note"):
            text = getattr(param, path)
            if text is not None:
                out[(kind, param.id, path)] = (_verdict(path, text, param.editor, seed, seed_bare), text)
    return out


def _verdict(path: str, text: str, editor, seed: str, seed_bare: str) -> str:
    """A field's verdict: value, source (or source-marked), editor, label or unmarked."""
    if not _WORD.search(_REF.sub("", text)):
        return "value"
    if is_source(text, seed, seed_bare):
        return "source" if path not in editor else "source-marked"
    if path in editor:
        return "editor"
    return "label" if is_label(path, text, seed) else "unmarked"


_HEADING = re.compile(r"^(?:\{\.editor\}\n)?#{1,6}[ \t]+(.*)$", re.M)
_EDITOR_HEADING = re.compile(r"^\{[^}\n]*\.editor\b[^}\n]*\}\n#{1,6}[ \t]+(.*)$", re.M)  # `{.editor .unnumbered}` too


def audit_headings(game_id: str, root: Path) -> dict[tuple[str, str], str]:
    """(chapter file, heading) -> verdict for every heading of the game's rules text: `source`,
    `editor` (marked `{.editor}` on the line before it), `value` (a section number or a
    reference alone: {{ unit:mai }}, 5.3.1), or `unmarked`."""
    seed = seed_text(game_id)
    seed_bare = bare(seed)
    out = {}
    for path in sorted((root / "content" / game_id / "rules").glob("*.md")):
        text = re.sub(r"```.*?```", "", path.read_text(encoding="utf-8"), flags=re.S)
        marked = set(_EDITOR_HEADING.findall(text))
        for heading in _HEADING.findall(text):
            if not _WORD.search(_REF.sub("", heading)):
                verdict = "value"
            elif is_source(heading, seed, seed_bare):
                verdict = "source" if heading not in marked else "source-marked"
            else:
                verdict = "editor" if heading in marked else "unmarked"
            out[(path.name, heading)] = verdict
    return out
