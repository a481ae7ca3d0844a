"""Memory a finished job freed, given back to the system. A worker makes one document after
another; the C library keeps what a document's layout freed for the process, so the next
document's peak would come on top of it (a 200-page rulebook then a deck of 1,000 cards: 501
MB instead of 451). glibc's malloc_trim returns it, in about 10 ms; where the C library has no
malloc_trim (macOS, musl) nothing is done."""

from __future__ import annotations

import ctypes
import ctypes.util
from functools import cache


@cache
def _trim():
    """glibc's malloc_trim, or None."""
    name = ctypes.util.find_library("c")
    try:
        return ctypes.CDLL(name).malloc_trim if name else None
    except (OSError, AttributeError):
        return None


def give_back() -> bool:
    """Return the freed memory the C library holds to the system; False where it cannot."""
    trim = _trim()
    if trim is None:
        return False
    trim(0)
    return True
