"""The SS Amerika ruleset object: tables, sequence of play, order kinds, procedures."""

from __future__ import annotations

from pathlib import Path

from workbench.engine.flow import Step
from workbench.engine.ruleset import Procedure, Ruleset
from workbench.engine.state import State
from workbench.rulesets.ssa import (
    air_naval,
    airborne,
    assault,
    atomic,
    european_volunteers,
    force_categories,
    holding,
    italians,
    leaders,
    missiles,
    mobilization,
    morale,
    scenario_check,
    scorched_earth,
    special_weapons,
    supply,
    surprise,
    technology,
    victory,
    war_events,
    weather,
)
from workbench.rulesets.ssa.combat import AttackOrder
from workbench.rulesets.ssa.control import initial_control
from workbench.rulesets.ssa.deployment import DeployOrder, deploy_defaults, setup_breaches
from workbench.rulesets.ssa.face import SSAFace
from workbench.rulesets.ssa.losses import ELIMINATED, TakeLossesOrder
from workbench.rulesets.ssa.movement import MOVEMENT_MARK, RailOrder, SSAMovement, SSAMoveOrder
from workbench.rulesets.ssa.naval import DebarkOrder, EmbarkOrder, SailOrder
from workbench.rulesets.ssa.occupation import end_of_player_turn, initial_city_control
from workbench.rulesets.ssa.reinforcements import arrive_due
from workbench.rulesets.ssa.retreat import RetreatOrder
from workbench.rulesets.ssa.special import start_reduced
from workbench.rulesets.ssa.stacking import resolve_overstacks

MOVEMENT_STEPS = ("player/initial-movement", "player/mechanized-movement")


def _then(first: Procedure | None, second: Procedure) -> Procedure:
    """Run ``first`` (if any), then ``second``."""
    if first is None:
        return second

    def run(state: State, step: Step) -> None:
        first(state, step)
        second(state, step)

    return run


class SSARuleset(SSAFace, Ruleset):
    """SS Amerika (SSA-1.0): one turn a month; Mobilization stage then two player turns (SSA-4.G)."""

    name = "ssa"
    version = "0.1"
    sides = ("axis", "allies")
    #: The four off-map holding areas (SSA-3.1c) plus where unbuilt units wait.
    boxes = ("Europe", "Latin America", "Pacific", "Far East", "unplaced", "Force pool", ELIMINATED)
    scenario_keys = frozenset({"technologies", "control_notes", "occupation", "pools",
                               "control_regions", "bot_plan"})
    unit_keys = frozenset({"carrier_qualified", "pool", "carried_by", "underground", "note", "letter"})
    optional_rules = scenario_check.OPTIONAL_RULES

    def __init__(self) -> None:
        super().__init__(Path(__file__).parent / "tables")
        self.order_kinds = {"move": SSAMoveOrder(SSAMovement()), "rail": RailOrder(),
                            "attack": AttackOrder(), "retreat": RetreatOrder(),
                            "take_losses": TakeLossesOrder(), "deploy": DeployOrder(),
                            "sail": SailOrder(), "embark": EmbarkOrder(), "debark": DebarkOrder(),
                            "amphibious_assault": assault.AmphibiousAssaultOrder()}
        self.procedures["player/combat/land:exit"] = self._end_land_combat
        for key in MOVEMENT_STEPS:
            self.procedures[key + ":exit"] = self._end_movement_phase
        self.order_kinds.update(mobilization.ORDER_KINDS)
        self.procedures.update(mobilization.PROCEDURES)
        self.procedures.update(holding.PROCEDURES)
        self.order_kinds.update(holding.ORDER_KINDS)  # SSA-15.5e
        self.procedures["end"] = self._end_of_turn
        self.procedures["player/end"] = self._end_of_player_turn
        air_naval.register(self)  # air, interception, air/naval combat, overrun, recon (SSA-6, 12-14, 11.10, 19)
        war_events.register(self)  # optional SSA-25, 27; SSA-18.8-18.10, SC5 SR2
        for key in MOVEMENT_STEPS:  # SSA-10.G, after air supply that ran its turn has ended (SSA-10.1h)
            self.procedures[key] = _then(self.procedures.get(key), supply.judge_for_movement)
        # optional rules 21, 23, 24, 26, 29, 30 (morale.py, technology.py, scorched_earth.py, leaders.py, weather.py, surprise.py)
        self.order_kinds["declare_fanaticism"] = morale.DeclareFanaticismOrder()  # SSA-21.5
        self.order_kinds["declare_surprise_attack"] = surprise.DeclareSurpriseAttackOrder()  # SSA-30.1
        self.procedures["start/surprise-attack"] = surprise.offer
        self.order_kinds.update(technology.ORDER_KINDS)  # SSA-23.2
        self.order_kinds.update(scorched_earth.ORDER_KINDS)  # SSA-29.3
        self.order_kinds.update(force_categories.ORDER_KINDS)  # SSA-SC.3
        self.procedures["start/weather"] = weather.roll_weather
        self.order_kinds["airborne_drop"] = airborne.AirborneDropOrder()  # SSA-22.1
        self.order_kinds.update(missiles.ORDER_KINDS)  # SSA-22.13
        self.order_kinds.update(atomic.ORDER_KINDS)  # SSA-22.14
        self.procedures["player/initial-movement"] = _then(self.procedures.get("player/initial-movement"),
                                                           atomic.remember_start)  # SSA-22.14c
        self.procedures["player/interception:exit"] = _then(self.procedures.get("player/interception:exit"),
                                                            airborne.land_drops)  # SSA-22.1b, e
        # SSA-22.11, 22.12: free volunteers and Italians at High Axis morale; Italians leave at Poor
        for proc in (european_volunteers.reinforce, italians.reinforce, italians.withdraw_at_mobilization):
            self.procedures["mobilization/accrue"] = _then(self.procedures.get("mobilization/accrue"), proc)
        self.procedures["player/mechanized-movement"] = _then(self.procedures.get("player/mechanized-movement"),
                                                              leaders.mark_armor_stacks)  # SSA-24.8-A
        self.procedures["player/initial-movement:exit"] = _then(
            self.procedures.get("player/initial-movement:exit"), weather.cloud_check)  # SSA-26.3-P

    def validate_scenario(self, scenario) -> None:  # noqa: ANN001 - Scenario
        """Every SS Amerika section of a scenario, checked at load (rulesets/ssa/scenario_check.py)."""
        scenario_check.validate(self, scenario)

    def view(self, state: State, side: str | None):  # noqa: ANN201
        """SSA-19: what ``side`` may see (a read-only SideView; docs/rulings-ssa.md)."""
        return air_naval.view(state, side)

    def setup_breaches(self, state: State) -> list[tuple[str, str]]:
        """The map's checks plus SSA stacking, neutrals, deployment areas and control."""
        return super().setup_breaches(state) + setup_breaches(state)

    def condition(self, state: State, when: str) -> bool:
        """``special:X`` is on when the scenario has a special rule with effect X."""
        if when.startswith("special:"):
            effect = when.split(":", 1)[1]
            rules = state.game.scenario.raw.get("special_rules", [])
            return any(isinstance(r, dict) and r.get("effect") == effect for r in rules)
        return super().condition(state, when)

    def setup(self, state: State) -> None:
        """SSA-17.1 control, then the default set-up of every deployment group (SSA-SC.4)."""
        initial_control(state)
        initial_city_control(state)
        start_reduced(state, list(state.units_by_id.values()))
        deploy_defaults(state)
        morale.remember_home_cities(state)  # SSA-21 (authored): whose cities are lost / regained
        leaders.assign_letters(state)  # SSA-24.6-24.7
        special_weapons.stow(state)  # SSA-22.13a, 22.14a: missiles and bombs aboard their carriers

    def begin_turn(self, state: State) -> None:
        arrive_due(state)
        leaders.assign_letters(state)  # SSA-24.6: leaders that came into play get their counter

    def _end_of_player_turn(self, state: State, step: Step) -> None:
        """SSA-17.2-17.4 city control changes hands; SSA-21 (authored): cities lost and regained,
        and new atrocities, move morale."""
        before = morale.snapshot(state)
        end_of_player_turn(state, state.phasing)
        morale.city_changes(state, before)


    def _end_movement_phase(self, state: State, step: Step) -> None:
        """SSA-5.2: unused MF never carry over to the next phase; SSA-9.G stacking is settled;
        the SSA-10.G supply judgment of the phase lapses."""
        resolve_overstacks(state, state.phasing)
        state.markers.pop(MOVEMENT_MARK, None)  # SSA-10.G: judged anew at the next phase start
        for u in state.units_by_id.values():
            for k in ("mf_spent", "moved", "railed", "sailed", "sail_done"):
                u.props.pop(k, None)

    def _end_land_combat(self, state: State, step: Step) -> None:
        """SSA-11.2: the once-per-phase marks are cleared when the Combat phase ends; amphibious
        assaults that did not clear their hex fail (G-09, SSA-10.1g)."""
        assault.end_of_land_combat(state, state.phasing)
        state.markers.pop("attacked_units", None)
        state.markers.pop(missiles.ATOMIC_HEXES, None)  # SSA-22.14f: for one Combat phase
        state.markers.pop(missiles.AIR_ATTACKED, None)
        for u in state.units_by_id.values():
            u.props.pop("attacked", None)

    def _end_of_turn(self, state: State, step: Step) -> None:
        """SSA-4.4: the turn marker advances; per-turn limits (rail, SSA-5.7f-g) reset."""
        for side in self.sides:
            state.tracks.pop(f"{side}.rail_used", None)

    def exit(self, state: State, step: Step) -> None:
        """A step's exit procedure, then SSA-20.4: morale at 0 or less ends the game at once, so
        automatic victory is checked as every step closes (optional rule 21)."""
        super().exit(state, step)
        if state.result is None:
            morale.settle_losses(state)  # SSA-21 (authored): losses of the step cost morale
        if state.result is None:
            victory.automatic_victory(state)

    def end_turn(self, state: State) -> None:
        """SSA-20.4: automatic victory is checked as the turn ends (optional rule 21)."""
        if state.result is None:
            victory.automatic_victory(state)

    def final_result(self, state: State) -> dict:
        """SSA-20 at the end of the last turn, with the scenario's own conditions."""
        return victory.final_result(state)
