"""The game kernel: state, orders, flow, dice, records and scenarios, shared by every ruleset."""

from workbench.engine.decision import Decision
from workbench.engine.errors import IllegalOrder, RecordError, Refusal, ScenarioError
from workbench.engine.flow import Sequence, Step
from workbench.engine.game import Game, load_scenario
from workbench.engine.record import GameRecord, replay
from workbench.engine.ruleset import OrderKind, Ruleset, get_ruleset, register_ruleset
from workbench.engine.scenario import Scenario, scenario_ids
from workbench.engine.state import State
from workbench.engine.units import Unit

__all__ = [
    "Decision", "Game", "GameRecord", "IllegalOrder", "OrderKind", "RecordError", "Refusal", "Ruleset",
    "Scenario", "ScenarioError", "Sequence", "State", "Step", "Unit", "get_ruleset",
    "load_scenario", "register_ruleset", "replay", "scenario_ids",
]
