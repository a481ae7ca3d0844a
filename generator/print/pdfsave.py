"""A PDF opened with pikepdf, written back to its file.

qpdf, under pikepdf, cannot report a failed write to a file it writes itself: on a full disk
its error crosses a C++ boundary and ends the whole process ("terminate called after throwing
an instance of 'QPDFSystemError'"), which a build sees only as a worker that vanished. So
the document is serialized in memory and the bytes written by outputs.write_bytes (confined to
output/, renamed in whole), whose failed write is an OSError like any other (one line, exit 1;
system/faults.py) and leaves the file as it was."""

from __future__ import annotations

import io
from pathlib import Path

from .. import outputs


def save(pdf, path: Path) -> None:
    """Write `pdf` (a pikepdf.Pdf, possibly opened from `path`) to `path`, with a fixed identifier."""
    buffer = io.BytesIO()
    pdf.save(buffer, deterministic_id=True)
    outputs.write_bytes(Path(path), buffer.getvalue())
