"""What in content would make a reader's browser (or the printer) fetch something or run
script: CSS that loads a URL, a link that leaves the document. The site and the printed
documents publish only what the project holds, so content checks refuse these, and the
renderers leave them out whatever validation said (a build of content already validated)."""

from __future__ import annotations

import os
import re
from urllib.parse import unquote, urlparse

# CSS that loads another resource: url(), image-set(), image(), cross-fade(), element(),
# src(), @import; `\` escapes are refused too (`u\72l(` spells url( to a browser).
_CSS_FETCH = re.compile(r"(url|image-set|image|cross-fade|element|src)\s*\(|@import|\\", re.I)
_FRAGMENT_URL = re.compile(r"""url\(\s*(["']?)#[^"'()\s]*\1\s*\)""", re.I)
_BLANKS = re.compile(r"[\x00-\x20]+")


def css_fetch(css: str) -> re.Match | None:
    """The first place in a style value or stylesheet that loads another resource, or None.
    `url(#id)` (a gradient or marker of the same SVG) loads nothing and is allowed."""
    return _CSS_FETCH.search(_FRAGMENT_URL.sub(lambda m: " " * len(m.group()), css))


def local_reference(value: str) -> bool:
    """A link that stays in the same document: `#id`, or a PNG/JPEG/GIF drawn from data: (a
    data: SVG or HTML could carry script of its own)."""
    plain = _BLANKS.sub("", value).lower()
    return plain.startswith("#") or plain.startswith(("data:image/png", "data:image/jpeg", "data:image/gif"))


def runs_script(value: str) -> bool:
    """A value a browser would run as script when followed (`javascript:`, `vbscript:`, an HTML
    data: URL), however it is spaced or cased."""
    plain = _BLANKS.sub("", value).lower()
    return plain.startswith(("javascript:", "vbscript:", "data:text/html", "data:application/xhtml",
                             "data:image/svg"))


def foreign_image(src: str, game_folder: str) -> bool:
    """A Markdown image the build neither prints nor publishes: a URL, an absolute path, a
    path leading out of the game folder (image paths are relative to it, as the printer and
    the site's pages read them), or a data: picture other than PNG, JPEG or GIF."""
    parsed = urlparse(src)
    if parsed.scheme == "data":
        return not local_reference(src)
    if parsed.scheme or parsed.netloc or src.startswith(("/", "\\")):
        return True
    root = os.path.abspath(game_folder)
    target = os.path.abspath(os.path.join(root, unquote(parsed.path)))
    return not target.startswith(root + os.sep)
