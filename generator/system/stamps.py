"""The same input makes the same bytes: fontTools stamps each font it writes (the PDFs'
embedded subsets, the site's WOFF2 pieces) with the time it writes it unless
SOURCE_DATE_EPOCH is set, so a fixed stamp is set for this process and those it forks
(a stamp the user set stays)."""

from __future__ import annotations

import os

EPOCH = 946684800  # 2000-01-01T00:00:00Z


def fixed() -> None:
    """Fonts written from here on, here and in the children forked after, carry EPOCH."""
    os.environ.setdefault("SOURCE_DATE_EPOCH", str(EPOCH))
