"""What every kind of document is: a Document (its name, the inputs it reads, `render`) and
the Rendered files it wrote. The kinds (one module each) and their registry (__init__) sit above."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from ...core.diagnostics import Report
from ..sources import Source, made_from, reads


@dataclass
class Rendered:
    files: list[Path] = field(default_factory=list)
    pages: int = 0
    cards: int = 0
    source: str = ""       # hash of what the files were made from (the HTML, see sources.py)
    reads: tuple[str, ...] = ()  # the files their layout read
    unchanged: bool = False  # the source hashed as last time: nothing was written


class Document:
    name = ""
    weight = 9  # lower starts first: the longest documents go first on the workers
    templates: tuple[str, ...] = ()  # template files it reads, inside the template folders
    reads_tables = False  # the checker's probability tables
    reads_examples = False  # the checker's verified examples
    after = ""  # the kind of document of the same game and language a build makes first (jobs.py)

    def options(self, job) -> dict:
        """The build options that change this document."""
        return {}

    def variants(self, job) -> set[str]:
        """The outputs (output_layout.variant) a job with these options makes: of the files
        earlier builds made, only those of these outputs are removed when not made again."""
        return {""}

    def template_files(self, dirs: list[Path]) -> list[Path]:
        files = []
        for folder in dirs:
            for name in self.templates:
                files += sorted(folder.glob(name)) if "*" in name else [folder / name]
        return files

    def render(self, ctx, job, report: Report, previous: Source) -> Rendered:
        """Write the document's files under ctx.output_dir(); when its source hashes as
        `previous` (and the files are intact), write nothing and say so."""
        raise NotImplementedError

    def single_pdf(self, ctx, html: str, report: Report, previous: Source, finish=None, name: str = "",
                   marks=None) -> Rendered:
        """Render a document that is one PDF, `NAME.pdf` (or `name`), from its HTML; skipped
        when the HTML and the files its last layout read hash as `previous`. `finish(path)`
        edits the written PDF, after `marks(document)` (see write_pdf)."""
        from ..pdf import write_pdf

        source = made_from(ctx.project_root, previous.reads, html)
        if source == previous.state:
            return Rendered(source=source, reads=previous.reads, unchanged=True)
        res = write_pdf(html, ctx.output_dir() / (name or f"{self.name}.pdf"), ctx.game.folder, ctx.roots, finish=finish,
                        marks=marks)
        report.diagnostics += res.diagnostics
        read = reads(res.read, ctx.project_root)
        # with layout findings the source is not remembered: the next build checks it again
        return Rendered([res.path], pages=res.pages, reads=read,
                        source="" if res.diagnostics else made_from(ctx.project_root, read, html))


def made_variants(job) -> set[str]:
    """The outputs of the card and counter sheets a job asks for: the sheets, --bleed's file,
    each --print-shop preset's files, and (unless --no-images) the images."""
    return {"", f"paper:{job.paper}", *(["bleed"] if job.bleed else []), *(f"print-shop:{name}" for name in job.print_shops),
            *(["images"] if job.images else [])}
