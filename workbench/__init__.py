"""Wargame Workbench: a game kernel and JupyterLab workbench for WWII hex wargames.

Start with::

    import workbench as wb
    wb.scenarios()                       # ['eto/barbarossa-1941', 'ssa/1941', ...]
    game = wb.load_scenario("ssa/1941")
    state = game.new_state(seed=0)
    state.decision, state.legal_orders()
"""

from workbench.engine import (
    Decision,
    Game,
    GameRecord,
    IllegalOrder,
    RecordError,
    Refusal,
    ScenarioError,
    State,
    load_scenario,
    replay,
)
from workbench.engine.scenario import scenario_ids as scenarios
from workbench.map import HexMap, load_map

__version__ = "0.1.0"


def __getattr__(name: str):  # noqa: ANN202 - PEP 562 lazy submodule
    """``wb.ui`` imports the JupyterLab workbench (bokeh, ipywidgets) only when first used."""
    if name == "ui":
        import importlib

        return importlib.import_module("workbench.ui")
    raise AttributeError(f"module 'workbench' has no attribute {name!r}")

__all__ = [
    "Decision", "Game", "GameRecord", "HexMap", "IllegalOrder", "RecordError", "Refusal", "ScenarioError",
    "State", "load_map", "load_scenario", "replay", "scenarios",
]
