"""WeasyPrint may read only the game's content, the templates and the fonts: content can
neither fetch from the network nor read other files of the machine, and a picture that
pictures.py refuses (script, entities, too many pixels) is not drawn, as the site does not
publish it."""

from __future__ import annotations

from pathlib import Path
from urllib.parse import unquote, urlparse

from weasyprint.urls import URLFetcher

from ..safety.pictures import TYPES, data_refusal, refusal


class ConfinedFetcher(URLFetcher):
    def __init__(self, roots: list[Path]):
        super().__init__(allowed_protocols={"file", "data"}, allow_redirects=False)
        self.roots = [root.resolve() for root in roots]
        self.refused: list[str] = []
        self.read: set[Path] = set()  # the local files it fetched: what the layout depends on

    def allows(self, url: str) -> bool:
        parsed = urlparse(url)
        if parsed.scheme == "data":
            return data_refusal(url) is None
        if parsed.scheme != "file":
            return False
        path = Path(unquote(parsed.path)).resolve()
        if path.suffix.lower() in TYPES and path.is_file() and refusal(path) is not None:
            return False
        return any(path == root or root in path.parents for root in self.roots)

    def fetch(self, url, headers=None):
        if not self.allows(url):
            self.refused.append(url)
            raise ValueError(f"refused to fetch {url}: outside the content, template and font folders, "
                             "or a picture that cannot be published")
        parsed = urlparse(url)
        if parsed.scheme == "file":
            self.read.add(Path(unquote(parsed.path)).resolve())
        return super().fetch(url, headers)
