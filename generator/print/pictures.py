"""Designer pictures (PNG, SVG, JPEG in the game folder) embedded in the HTML itself, so the
same card or map shows on paper and on any site page, wherever that page sits."""

from __future__ import annotations

import base64
import mimetypes
from pathlib import Path

TYPES = {".png": "image/png", ".svg": "image/svg+xml", ".jpg": "image/jpeg", ".jpeg": "image/jpeg"}


def data_uri(game_folder: Path, path: str) -> str | None:
    """The picture as a data: URI; None if it is missing, of another type or outside the
    game folder (validation reports those)."""
    root = game_folder.resolve()
    target = (game_folder / path).resolve()
    kind = TYPES.get(target.suffix.lower()) or mimetypes.guess_type(target.name)[0]
    if root not in target.parents or not target.is_file() or target.suffix.lower() not in TYPES:
        return None
    return f"data:{kind};base64,{base64.b64encode(target.read_bytes()).decode('ascii')}"
