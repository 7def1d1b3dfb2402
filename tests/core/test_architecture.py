"""The engine's house: no import cycles anywhere in ``core/`` (imports inside functions count too), and at
most six loose modules at its root (the rest lives in packages by pipeline stage).  The import graph is
grimp's, the one import-linter checks the layers contract on."""
from __future__ import annotations

from pathlib import Path

import grimp

CORE = Path(__file__).resolve().parents[2] / "core"


def modules_on_cycles(graph: grimp.ImportGraph) -> set[str]:
    """Every module that imports something which, directly or not, imports it back."""
    return {importer for importer in graph.modules for imported in graph.find_modules_directly_imported_by(importer)
            if graph.chain_exists(importer=imported, imported=importer)}


def test_cycle_finder_sees_a_cycle():
    graph = grimp.ImportGraph()
    for importer, imported in (("a", "b"), ("b", "c"), ("c", "a"), ("d", "a")):
        graph.add_import(importer=importer, imported=imported)
    assert modules_on_cycles(graph) == {"a", "b", "c"}
    acyclic = grimp.ImportGraph()
    acyclic.add_import(importer="a", imported="b")
    assert modules_on_cycles(acyclic) == set()


def test_core_has_no_import_cycles():
    graph = grimp.build_graph("core")
    assert "core.study.cards" in graph.find_modules_directly_imported_by("core.study.lesson")
    assert modules_on_cycles(graph) == set()


def test_core_root_holds_at_most_six_loose_modules():
    loose = [p.stem for p in CORE.glob("*.py") if p.name != "__init__.py"]
    assert 0 < len(loose) <= 6, loose
