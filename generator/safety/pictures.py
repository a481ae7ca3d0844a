"""A designer's picture (PNG, SVG, JPEG in the game folder) is published only when it is safe
and readable: an SVG may hold no script, event attribute, embedded HTML, entity declaration or
reference to another file or the network; a PNG or JPEG must be intact and no larger than
MAX_PIXELS. Validation reports a refused picture (E063, E064); the site does not copy it and
the printer does not fetch it, so both outputs agree whatever validation said.

An SVG is read with expat, entity declarations refused before any is expanded (an entity bomb,
an external entity naming a file of the machine); a PNG or JPEG is opened by Pillow, which
reads only its header, and its size is checked before any pixel is decoded."""

from __future__ import annotations

import base64
import binascii
import io
import os
import warnings
from stat import S_ISREG
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from urllib.parse import unquote, urlparse
from xml.parsers import expat

from PIL import Image

from ..system import folders
from .fetching import css_fetch, foreign_image, local_reference, runs_script

TYPES = {".png": "image/png", ".svg": "image/svg+xml", ".jpg": "image/jpeg", ".jpeg": "image/jpeg"}
MAX_PIXELS = 50_000_000            # a picture of more pixels is refused (an A2 map at 300 dpi has 35 million)
MAX_SVG_BYTES = 10 * 1024 * 1024   # a drawing larger than this is refused unread
MAX_BYTES = 512 * 1024 * 1024      # a PNG or JPEG file larger than this is refused unread
# Elements that run script, embed another document or let HTML into the drawing.
_REFUSED_ELEMENTS = {"script", "foreignobject", "iframe", "object", "embed", "handler", "listener"}
_LINKS = {"href", "src"}           # attribute names (any namespace) that link to something
_ANIMATED = {"animate", "set", "animatetransform", "animatemotion"}


@dataclass(frozen=True)
class Refusal:
    """Why a picture is refused: E063 (it could run script or fetch) or E064 (it cannot be read)."""

    code: str
    message: str
    line: int = 0
    col: int = 0

    def where(self, name: str) -> str:
        """'images/x.svg:3:5' for a message that names the picture from elsewhere."""
        return name + (f":{self.line}:{self.col}" if self.line else "")


class _Refused(Exception):
    def __init__(self, code: str, message: str, line: int, col: int):
        super().__init__(message)
        self.code, self.line, self.col = code, line, col


def refusal(path: Path) -> Refusal | None:
    """Why the picture at `path` may not be published, or None if it may. Read once while the
    file stays the same (validation, the site and the printer all ask)."""
    try:
        stat = os.stat(path)
    except OSError as exc:
        return Refusal("E064", f"cannot read the picture: {exc.strerror or exc}")
    if not S_ISREG(stat.st_mode):  # a FIFO would make Pillow or expat wait forever
        return Refusal("E064", f"cannot read the picture: it is {folders.kind_of(stat.st_mode)}, not a regular file")
    if stat.st_size > MAX_BYTES:
        return Refusal("E064", f"the picture is {stat.st_size >> 20} MB, more than {MAX_BYTES >> 20} MB")
    return _refusal(str(path), stat.st_mtime_ns, stat.st_size)


def picture_bytes(path: Path) -> bytes:
    """The bytes of a picture file (the build copies, embeds or hashes them), read the one way
    files are read; empty when it cannot be read (validation reports it)."""
    try:
        return folders.read_bytes(path, limit=MAX_BYTES)
    except OSError:
        return b""


@lru_cache(maxsize=512)
def _refusal(path: str, _mtime: int, size: int) -> Refusal | None:
    suffix = os.path.splitext(path)[1].lower()
    if suffix == ".svg":
        if size > MAX_SVG_BYTES:
            return Refusal("E064", f"the drawing is {size // 2 ** 20} MB, more than {MAX_SVG_BYTES // 2 ** 20} MB")
        return _svg_refusal(path)
    return _raster_refusal(path, suffix)


def data_refusal(uri: str) -> str | None:
    """Why a picture given inline as a data: URI (in rules text, in an SVG) may not be
    published, or None: its size is read from its header like a file's."""
    head, _, body = uri.partition(",")
    if not head.lower().replace(" ", "").startswith(("data:image/png", "data:image/jpeg", "data:image/gif")):
        return None  # not a raster picture: pictures.py and fetching.py judge those
    if not head.lower().endswith(";base64"):
        return None
    try:
        data = base64.b64decode(body, validate=False)
    except (ValueError, binascii.Error):
        return "the inline picture is not valid base64"
    refused = _raster_refusal(io.BytesIO(data), "." + head.split("/", 1)[1].split(";", 1)[0].lower())
    return refused.message if refused else None


def _raster_refusal(path, suffix: str) -> Refusal | None:
    expected = {".png": "PNG", ".gif": "GIF"}.get(suffix, "JPEG")
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", Image.DecompressionBombWarning)
            with _opened(path) as source, Image.open(source) as image:
                width, height = image.size
                kind = image.format
                if width * height <= MAX_PIXELS and kind == expected:
                    image.verify()
    except (Image.DecompressionBombError, Image.DecompressionBombWarning):
        return Refusal("E064", f"the picture has more than {MAX_PIXELS:,} pixels")
    except (OSError, ValueError, SyntaxError, EOFError):
        return Refusal("E064", f"the picture is damaged or not a {expected} file")
    if width * height > MAX_PIXELS:
        return Refusal("E064", f"the picture is {width}×{height} pixels, more than {MAX_PIXELS:,}")
    if kind != expected:
        return Refusal("E064", f"the file is a {kind or 'unknown'} picture named .{suffix[1:]}")
    return None


def _opened(path):
    """A picture file opened the one way files are read (folders.open_file), or the bytes given."""
    return path if isinstance(path, io.BytesIO) else folders.open_file(path)


def _svg_refusal(path: str) -> Refusal | None:
    parser = expat.ParserCreate(namespace_separator=" ")
    parser.SetParamEntityParsing(expat.XML_PARAM_ENTITY_PARSING_NEVER)
    style: list[bool] = []  # open elements: is it a <style>?

    def refuse(code: str, message: str):
        raise _Refused(code, message, parser.CurrentLineNumber, parser.CurrentColumnNumber + 1)

    def entity(name, *_args):
        refuse("E063", f"the drawing declares the entity '{name}' "
                       "(entities can read other files or expand without end)")

    def start(name, attrs):
        local = name.rsplit(" ", 1)[-1]
        style.append(local.lower() == "style")
        if local.lower() in _REFUSED_ELEMENTS:
            refuse("E063", f"the drawing holds a <{local}> element")
        for key, value in attrs.items():
            attr = key.rsplit(" ", 1)[-1].lower()
            if attr.startswith("on"):
                refuse("E063", f"the drawing holds an event attribute '{attr}' (script run by the reader's browser)")
            if runs_script(value):
                refuse("E063", f"the attribute '{attr}' holds a script link")
            if attr in _LINKS and not local_reference(value):
                refuse("E063", f"the {attr} '{value[:60]}' refers to another file or the network")
            if attr in _LINKS and data_refusal(value):
                refuse("E064", data_refusal(value))
            if local.lower() in _ANIMATED and attr == "attributename" and value.rsplit(":", 1)[-1].lower() in _LINKS:
                refuse("E063", f"the <{local}> element changes a link")
            if css_fetch(value) and (attr == "style" or "url" in value.lower()):
                refuse("E063", f"the attribute '{attr}' loads another resource ('{value[:60]}')")

    def text(data):
        if style and style[-1] and css_fetch(data):
            refuse("E063", "the drawing's <style> loads another resource (url(), @import)")

    def instruction(target, _data):
        if target.lower() == "xml-stylesheet":
            refuse("E063", "the drawing links a stylesheet (<?xml-stylesheet?>)")

    parser.EntityDeclHandler = entity
    parser.UnparsedEntityDeclHandler = entity
    parser.ExternalEntityRefHandler = lambda *args: refuse("E063", "the drawing refers to an external entity")
    parser.StartElementHandler = start
    parser.EndElementHandler = lambda name: style.pop()
    parser.CharacterDataHandler = text
    parser.ProcessingInstructionHandler = instruction
    try:
        with folders.open_file(path) as source:
            parser.ParseFile(source)
    except _Refused as exc:
        return Refusal(exc.code, str(exc), exc.line, exc.col)
    except expat.ExpatError as exc:
        return Refusal("E064", f"the drawing is not well-formed XML ({expat.errors.messages[exc.code]})",
                       exc.lineno, exc.offset + 1)
    except OSError as exc:
        return Refusal("E064", f"cannot read the drawing: {exc.strerror or exc}")
    return None


def inside(folder: Path, path: Path) -> bool:
    """`path`, symbolic links followed, lies inside `folder` (the game's)."""
    try:
        return folder.resolve() in path.resolve().parents
    except (OSError, RuntimeError):
        return False


def publishable(folder: Path, path: Path) -> bool:
    """A picture the site may copy and the printer may draw: a PNG, SVG or JPEG file inside
    the game folder that is not refused."""
    return (path.suffix.lower() in TYPES and inside(folder, path) and path.is_file()
            and refusal(path) is None)


def shown(src: str, game_folder: Path) -> bool:
    """Whether an image of the rules text (`![..](src)`) is shown, on the site and in print
    alike: a publishable picture of the game folder (its path relative to the folder), or a
    PNG, JPEG or GIF given inline that is not refused. Anything else shows its alt text."""
    if foreign_image(src, str(game_folder)):
        return False
    if urlparse(src).scheme == "data":
        return data_refusal(src) is None
    return publishable(game_folder, game_folder / unquote(urlparse(src).path))
