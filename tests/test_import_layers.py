"""The ETO rules modules form layers, not a circle (issue 19.6): no module imports, at the top
or inside a function, one that imports it back.  The combat results are flow data (results.py),
the HQ limits, drops, the front and the reaction trigger sit below what uses them."""

from __future__ import annotations

import ast
from graphlib import CycleError, TopologicalSorter
from pathlib import Path

ETO = Path(__file__).resolve().parents[1] / "workbench" / "rulesets" / "eto"
PKG = "workbench.rulesets.eto"


def imports_of(path: Path, modules: set[str]) -> set[str]:
    """The sibling modules a module imports anywhere in it (function-level imports count)."""
    out = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith(PKG):
            sub = node.module[len(PKG):].lstrip(".")
            names = [sub.split(".")[0]] if sub else [a.name for a in node.names]
            out |= {n for n in names if n in modules and n != path.stem}
    return out


def test_eto_rules_modules_have_no_import_cycle():
    modules = {p.stem for p in ETO.glob("*.py")}
    graph = {m: imports_of(ETO / f"{m}.py", modules) for m in modules}
    try:
        order = list(TopologicalSorter(graph).static_order())
    except CycleError as exc:
        raise AssertionError(f"an import cycle in rulesets/eto: {exc.args[1]}") from None
    assert order.index("values") < order.index("losses") < order.index("movement") < order.index("combat")
    assert order.index("hq_limits") < order.index("losses") and order.index("results") > order.index("combat")
