"""A Game binds a ruleset, a map, a scenario and options; it makes fresh states."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from workbench.engine.errors import ScenarioError
from workbench.engine.ruleset import Ruleset, get_ruleset
from workbench.engine.scenario import Scenario, check_options, read_scenario
from workbench.engine.state import State
from workbench.engine.units import Unit
from workbench.map import HexMap, load_map
from workbench.static_cache import StaticCache


@dataclass
class Game(StaticCache):
    """Immutable during play: everything a state needs that does not change."""

    ruleset: Ruleset
    map: HexMap
    scenario: Scenario
    options: dict[str, Any] = field(default_factory=dict)
    overrides: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.calendar = self.ruleset.calendar(self.scenario.first_turn, self.ruleset.last_turn(self))
        self.scenario_units = {u["id"]: u for u in self.scenario.units}
        # cached(): static data that needs the rule tables (a game may override them) or the
        # scenario besides the map -- terrain cost arrays, weather per letter, control regions,
        # counter values; neither changes during play, so a value holds for every state
        self._cache: dict[Any, Any] = {}

    @property
    def scenario_id(self) -> str:
        return self.scenario.id

    def optional_rule(self, rule: str) -> bool:
        """Whether optional rule ``rule`` is in play: named itself in ``options.optional_rules``
        or through a whole it is part of (``ETO-46`` switches on ``ETO-46.3``, and so does the
        whole's own section ``ETO-46.0``)."""
        on = self.options.get("optional_rules", ())
        parts = rule.split(".")
        return any(".".join(parts[:i]) in on or f"{'.'.join(parts[:i])}.0" in on for i in range(1, len(parts) + 1))

    def new_state(self, seed: int = 0) -> State:
        """The scenario's starting position, with dice seeded by ``seed``."""
        state = State(self, int(seed))
        for u in self.scenario.units:
            state.units_by_id[u["id"]] = Unit(u["id"], u["side"], u["nation"], u["type"],
                                              u["size"], u["location"], u["reduced"],
                                              dict(u["props"]))
        state.tracks = dict(self.scenario.tracks)
        self.ruleset.setup(state)
        state.start()
        return state


def load_scenario(id_or_path: str | Path, *, options: dict[str, Any] | None = None,
                  overrides: dict[str, Any] | None = None) -> Game:
    """Load a scenario by id (``"ssa/1941"``) or path into a :class:`Game`.

    ``options`` are merged over the scenario's own options (e.g. optional rules);
    ``overrides`` replace rule-table entries for this game only
    (``{"crt.rows.2": [...]}``), which is how designers sweep a table.

    The starting position must break no set-up rule (``Ruleset.setup_breaches``: stacking,
    deployment areas, control ...) unless the scenario says ``designer_mode = true``.
    """
    scenario = read_scenario(id_or_path)
    ruleset = get_ruleset(scenario.ruleset)
    saved = scenario.raw.get("overrides", {})
    if not isinstance(saved, dict):
        raise ScenarioError(scenario.file, "overrides", "must be a table of \"table.key\" = value")
    if options is not None:
        check_options(options, scenario.file, ruleset, "options (given to load_scenario)")
    if overrides is not None and not isinstance(overrides, dict):
        raise ScenarioError(scenario.file, "overrides (given to load_scenario)", "must be a table")
    overrides = {**saved, **(overrides or {})}
    if overrides:
        try:
            ruleset = ruleset.with_overrides(overrides)
        except (KeyError, IndexError, ValueError, TypeError, AttributeError) as exc:
            raise ScenarioError(scenario.file, "overrides", f"cannot apply a rule-table override: {exc}") from None
    opts = {**scenario.options, **(options or {})}
    game = Game(ruleset, load_map(scenario.map), scenario, opts, dict(overrides or {}))
    if not scenario.raw.get("designer_mode", False):
        check_setup(game)
    return game


def check_setup(game: Game) -> None:
    """Refuse a starting position that breaks a set-up rule (``Ruleset.setup_breaches``), as a
    ScenarioError naming the unit entry it can tell from the words (else ``units``)."""
    try:
        state = game.new_state(0)
        breaches = game.ruleset.setup_breaches(state)
    except (KeyError, TypeError, ValueError, IndexError, AttributeError) as exc:  # data no check caught
        raise ScenarioError(game.scenario.file, "units", f"the starting position cannot be set up: "
                            f"{type(exc).__name__}: {exc}") from None
    if not breaches:
        return
    rule, why = breaches[0]
    more = f" (and {len(breaches) - 1} more)" if len(breaches) > 1 else ""
    raise ScenarioError(game.scenario.file, _breach_key(game.scenario, why),
                        f"the starting position breaks {rule}: {why}{more}; a what-if that means it "
                        "says designer_mode = true")


def _breach_key(scenario: Scenario, why: str) -> str:
    """The ``[[units]]`` entry a breach's words name: a unit id, else the first unit placed on a
    hex the words name."""
    words = why.replace(",", " ").replace(":", " ").split()
    index = scenario.unit_index
    for w in words:
        if w in index:
            return f"units[{index[w]}] ({w}).at"
    hexes = {w for w in words if w.isdigit()}
    for u in scenario.units:
        if u["location"] in hexes and u["id"] in index:
            return f"units[{index[u['id']]}] ({u['id']}).at"
    return "units"
