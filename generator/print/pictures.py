"""Designer pictures (PNG, SVG, JPEG in the game folder) embedded in the HTML itself, so the
same card or map shows on paper and on any site page, wherever that page sits."""

from __future__ import annotations

import base64
from pathlib import Path

from ..safety.pictures import TYPES, picture_bytes, publishable


def data_uri(game_folder: Path, path: str) -> str | None:
    """The picture as a data: URI; None if it is missing, of another type, outside the game
    folder or refused (pictures.py; validation reports those)."""
    target = (game_folder / path).resolve()
    if not publishable(game_folder, target):
        return None
    return f"data:{TYPES[target.suffix.lower()]};base64,{base64.b64encode(picture_bytes(target)).decode('ascii')}"
