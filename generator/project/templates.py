"""Where Rulesmith's own templates are: inside the installed package (generator/templates), or
the checkout's templates/. A game's templates/ and the project's come before them
(print/context.py, `template_dirs`); the build hashes them as an input of every output."""

from __future__ import annotations

from pathlib import Path


def _default_templates() -> Path:
    installed = Path(__file__).resolve().parents[1] / "templates"
    return installed if installed.is_dir() else Path(__file__).resolve().parents[2] / "templates"


PACKAGE_TEMPLATES = _default_templates()
