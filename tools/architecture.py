"""Draw generator/'s layers from its import graph into docs/architecture.md.

    python3 tools/architecture.py           # rewrite the drawn block of docs/architecture.md
    python3 tools/architecture.py --check   # exit 1 when the block differs from the code

The layers are the contract in pyproject.toml ([tool.importlinter]); grimp reads the imports
(it runs nothing). The block holds a Mermaid flowchart of the layers and of which layer
imports which (an import up the pipeline drawn dashed), and a table of the modules beside the
layers with the layers each imports and is imported by. tests/test_architecture_doc.py fails
when the block is stale. A tool for developers: nothing in generator/ imports it."""

from __future__ import annotations

import argparse
import sys
import tomllib
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
DOC = Path("docs") / "architecture.md"
BEGIN = "<!-- architecture:begin (python3 tools/architecture.py writes this block from the code) -->"
END = "<!-- architecture:end -->"
COMMAND = "python3 tools/architecture.py"

Arrows = list[tuple[str, str]]  # (importer, imported) pairs of layers


@dataclass(frozen=True)
class Layers:
    """The contract's layers, top first; siblings (`a : b`) share a level."""

    root: str
    levels: tuple[tuple[str, ...], ...]

    @property
    def names(self) -> list[str]:
        """Every layer, top first."""
        return [name for level in self.levels for name in level]

    def level(self, name: str) -> int:
        """How far down the layer `name` is: 0 at the top; siblings alike."""
        return next(i for i, level in enumerate(self.levels) if name in level)


def read_layers(root: Path) -> Layers:
    """The layers contract of pyproject.toml, with the package prefix dropped (`print`)."""
    config = tomllib.loads((root / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["importlinter"]
    package = config["root_package"]
    contract = next(c for c in config["contracts"] if c["type"] == "layers")
    levels = tuple(tuple(part.strip().removeprefix(package + ".") for part in level.replace("|", ":").split(":"))
                   for level in contract["layers"])
    return Layers(package, levels)


def package_imports(root: Path, package: str) -> tuple[dict[str, set[str]], dict[str, int]]:
    """Which top-level part of `package` (a subpackage or a module: `print`, `loader`) imports
    which other part directly, and how many modules each part holds."""
    sys.path.insert(0, str(root))
    import grimp

    graph = grimp.build_graph(package, cache_dir=None)
    edges: dict[str, set[str]] = {}
    sizes: dict[str, int] = {}
    for module in graph.modules:
        part = _part(module, package)
        if part is None:
            continue
        sizes[part] = sizes.get(part, 0) + 1
        for imported in graph.find_modules_directly_imported_by(module):
            other = _part(imported, package)
            if other is not None and other != part:
                edges.setdefault(part, set()).add(other)
    return edges, sizes


def _part(module: str, package: str) -> str | None:
    """`generator.print.cards` -> `print`; the package's own __init__ is no part."""
    names = module.split(".")
    if names[0] != package or len(names) < 2:
        return None
    return names[1]


def flowchart(layers: Layers, edges: dict[str, set[str]], sizes: dict[str, int]) -> list[str]:
    """The Mermaid flowchart: one node per layer, top to bottom in the contract's order (kept
    by invisible links), siblings side by side; an arrow down where no longer path of arrows
    down already leads, and every import up the pipeline dashed."""
    lines = ["```mermaid", "flowchart TD"]
    for level in layers.levels:
        nodes = [f'{name}["{name}<br/>{_count(sizes.get(name, 0))}"]' for name in level]
        if len(level) == 1:
            lines.append(f"    {nodes[0]}")
        else:
            lines += [f'    subgraph {"_".join(level)}["{" and ".join(level)}: one layer"]',
                      *(f"        {node}" for node in nodes), "    end"]
    for upper, lower in zip(layers.levels, layers.levels[1:]):
        lines += [f"    {a} ~~~ {b}" for a in upper for b in lower]
    down, beside, up = _split(layers, edges)
    lines += [f"    {a} --> {b}" for a, b in _reduced(down) + beside]
    lines += [f"    {a} -. up .-> {b}" for a, b in up]
    lines.append("```")
    return lines


def _count(n: int) -> str:
    """'1 module', '12 modules'."""
    return f"{n} module" if n == 1 else f"{n} modules"



def _split(layers: Layers, edges: dict[str, set[str]]) -> tuple[Arrows, Arrows, Arrows]:
    """The imports between layers in the contract's order: down, between siblings, up."""
    down: Arrows = []
    beside: Arrows = []
    up: Arrows = []
    for source in layers.names:
        for target in sorted(edges.get(source, set()) & set(layers.names), key=_order(layers)):
            step = layers.level(target) - layers.level(source)
            (down if step > 0 else beside if step == 0 else up).append((source, target))
    return down, beside, up


def _reduced(arrows: Arrows) -> Arrows:
    """The arrows left when each one that another path of arrows already makes is dropped
    (in order, so what reaches what stays the same)."""
    kept = list(arrows)
    for arrow in arrows:
        rest = [a for a in kept if a != arrow]
        if _reaches(rest, *arrow):
            kept = rest
    return kept


def _reaches(arrows: Arrows, start: str, goal: str) -> bool:
    """Whether a path of `arrows` leads from `start` to `goal`."""
    seen, todo = {start}, [start]
    while todo:
        node = todo.pop()
        for a, b in arrows:
            if a == node and b not in seen:
                if b == goal:
                    return True
                seen.add(b)
                todo.append(b)
    return False


def imports_table(layers: Layers, edges: dict[str, set[str]]) -> list[str]:
    """Every layer and the layers it imports directly, the drawn arrows and the implied ones."""
    lines = ["| layer | imports directly |", "|---|---|"]
    for name in layers.names:
        targets = sorted(edges.get(name, set()) & set(layers.names), key=_order(layers))
        marked = [f"{t} (up)" if layers.level(t) < layers.level(name) else t for t in targets]
        lines.append(f"| `{name}` | {', '.join(marked) or '—'} |")
    return lines


def _order(layers: Layers):
    """A sort key: layers top first, then anything else by name."""
    names = layers.names
    return lambda name: (names.index(name) if name in names else len(names), name)


def beside(layers: Layers, edges: dict[str, set[str]], sizes: dict[str, int]) -> list[str]:
    """The table of the modules and packages that are no layer: the layers each imports
    directly and the layers that import it directly."""
    order = _order(layers)
    lines = ["| beside the layers | imports (layers) | imported by (layers) |", "|---|---|---|"]
    for part in sorted(set(sizes) - set(layers.names)):
        imports = sorted((n for n in edges.get(part, ()) if n in layers.names), key=order)
        importers = sorted((n for n in layers.names if part in edges.get(n, ())), key=order)
        name = f"`{part}/`" if sizes[part] > 1 else f"`{part}.py`"
        lines.append(f"| {name} | {', '.join(imports) or '—'} | {', '.join(importers) or '—'} |")
    return lines


def block(root: Path) -> str:
    """The drawn block, markers included, as the code is now."""
    layers = read_layers(root)
    edges, sizes = package_imports(root, layers.root)
    body = [BEGIN, *flowchart(layers, edges, sizes), "", *imports_table(layers, edges), "",
            *beside(layers, edges, sizes), END]
    return "\n".join(body)


def drawn(text: str) -> str:
    """The block as the document holds it; ValueError when its markers are missing."""
    start, end = text.find(BEGIN), text.find(END)
    if start < 0 or end < start:
        raise ValueError(f"{DOC} has no block between '{BEGIN}' and '{END}'")
    return text[start:end + len(END)]


def main(argv: list[str] | None = None) -> int:
    """Redraw the block, or with --check only compare it (1 when it differs); 1 too when the
    document or its markers are missing."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="exit 1 when the block differs from the code")
    parser.add_argument("--root", type=Path, default=REPO, help="the repository (default: this one)")
    args = parser.parse_args(argv)
    path = args.root / DOC
    try:
        text = path.read_text(encoding="utf-8")
        old = drawn(text)
    except (OSError, ValueError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    new = block(args.root)
    if args.check:
        if old != new:
            print(f"error: {DOC}: the diagram differs from the import graph\n  hint: run '{COMMAND}' and commit "
                  f"the result", file=sys.stderr)
            return 1
        return 0
    if old != new:
        path.write_text(text.replace(old, new), encoding="utf-8")
        print(f"{DOC}: diagram redrawn")
    return 0


if __name__ == "__main__":
    sys.exit(main())
