"""A reference reaches the record's declared fields, mapping keys and list items, and nothing else:
rules text comes from many hands, and must never read the build machine (its environment, its code)."""

from __future__ import annotations

import os

import pytest

from .conftest import Workspace, line_of

ESCAPES = [
    "unit:scouts.weapons.0.__class__.__init__.__globals__.sys.modules.os.environ",
    "unit:scouts.name.__class__",
    "unit:scouts.weapons.__len__",
    "unit:scouts.weapons.0.model_fields",
    "unit:scouts.weapons.0.weapon.upper",
    "unit:scouts.stats.__class__",
    "unit:scouts.weapons.7",
    "unit:scouts.weapons.0.nothing",
    "unit:scouts.weapons.0",
]


@pytest.mark.parametrize("target", ESCAPES)
def test_reference_outside_declared_fields_is_refused(ws: Workspace, target: str):
    path = ws.write("rules/01-intro.md", f"# Intro\n\nText.\n\nSee {{{{ {target} }}}} here.\n")
    report = ws.validate()
    found = [d for d in report.diagnostics if d.location.path == path]
    assert found and found[0].code in ("E007", "E019"), [d.format_text() for d in report.diagnostics]
    assert found[0].location.line == line_of(path, "See {{")


def test_declared_nested_fields_still_resolve(ws: Workspace):
    ws.write("rules/01-intro.md", "# Intro\n\nThe scouts carry {{ unit:scouts.weapons.0.count }} rifles.\n")
    assert [d for d in ws.validate().diagnostics if d.severity == "error"] == []


def test_no_environment_value_reaches_the_site(ws: Workspace, monkeypatch):
    monkeypatch.setenv("RULESMITH_CANARY", "canary-6b1f0e")
    ws.write("rules/01-intro.md",
             "# Intro\n\n{{ unit:scouts.weapons.0.__class__.__init__.__globals__.sys.modules.os.environ }}\n")
    result = ws.run("build", "--only", "site")
    assert result.returncode == 1, result.stdout + result.stderr
    assert "Traceback" not in result.stderr
    site = ws.root / "output" / "site"
    leaked = [p for p in site.rglob("*") if p.is_file() and b"canary-6b1f0e" in p.read_bytes()] if site.exists() else []
    assert leaked == []
    assert os.environ["RULESMITH_CANARY"]  # the canary was there to leak
