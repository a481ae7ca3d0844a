"""The PDFs a game-language folder of the site offers for download (downloads/KIND.pdf),
copied in from the documents the build made (output/GAME/LANG/KIND.pdf) once they are done.
The pages show which of them there are (the landing page's list); their bytes are the
downloads' own: a changed PDF is copied in again without making the pages again."""

from __future__ import annotations

from pathlib import Path

from .. import outputs
from ..project.manifest import digest, file_hash

DOWNLOADS = ("rulebook", "cards", "reference", "counters", "maps", "maps-large")


def sources(output: Path, game: str, lang: str) -> list[Path]:
    """The documents of a game in a language the site offers, made or not."""
    return [output / game / lang / f"{kind}.pdf" for kind in DOWNLOADS]


def offered(output: Path, game: str, lang: str) -> list[bool]:
    """Which of them there are: what the pages show."""
    return [path.is_file() for path in sources(output, game, lang)]


def made_again(output: Path, game: str, lang: str, kind: str) -> bool:
    """Whether a document of the kind made now leaves the site's pages as they are: it is one
    they offer, and its PDF is there from an earlier build (it is most likely written over,
    not added or taken away; SiteBuild checks that it was)."""
    return kind in DOWNLOADS and (output / game / lang / f"{kind}.pdf").is_file()


def state(output: Path, game: str, lang: str) -> str:
    """What the downloads are copied from: the documents' bytes."""
    return digest([file_hash(path) if path.is_file() else "-" for path in sources(output, game, lang)])


def copy_downloads(output: Path, game: str, lang: str, folder: Path) -> list[Path]:
    """Copy each document there is into `folder`/downloads, remove those of documents there are
    no more; the copies."""
    out = []
    for source in sources(output, game, lang):
        target = folder / "downloads" / source.name
        if source.is_file():
            outputs.write_if_changed(target, source.read_bytes())
            out.append(target)
        elif target.is_file() or target.is_symlink():
            target.unlink()
    return out


def is_download(folder: Path, path: Path) -> bool:
    """Whether `path` is one of the downloads of the language folder `folder`."""
    return path.parent == folder / "downloads" and path.suffix == ".pdf" and path.stem in DOWNLOADS


__all__ = ["DOWNLOADS", "copy_downloads", "is_download", "made_again", "offered", "sources", "state"]
