"""Italian restrictions (optional historical rule ETO-46.1; on with 46.0, the recommended set).

Until eight supplied German land units stand in France, or the British and French battleships
in the Mediterranean (Gibraltar included) are no more than Italy's, or France leaves Tunisia or
Algeria without a land unit, Italy "can purchase offensives, but cannot use an offensive, attack
with naval or air units, or invade a country".  Once one of them holds the restriction is over
for good (latched at the end of each monthly turn, ruling).  Apart from that, Italian ships may
not leave the Mediterranean by Gibraltar or Suez while any Western Allied naval unit is in it.

Asked by every order path that spends an offensive (command, air offensive), attacks with air
or naval units (fly, raid, naval interception and search, shore bombardment, air interception
of ships), invades
(invasion's restrictions, so 47.1's limited war too) or sails (naval movement).
"""

from __future__ import annotations

from typing import Any

from workbench.engine.errors import Refusal
from workbench.engine.state import State
from workbench.engine.units import Unit
from workbench.rulesets.eto import naval_units, politics, sea_spaces, supply, values
from workbench.rulesets.eto.terrain import terrain_arrays

RULE = "ETO-46.1"
LIFTED = "italy_unrestricted"  # war-state key: the turn the restriction ended


def _t(state: State) -> dict[str, Any]:
    return politics.table(state)["italian_restrictions"]


def _med(state: State) -> set[str]:
    return set(state.ruleset.tables["force_pools"]["suez_adds"]["regions"]["mediterranean_seas"])


def _gibraltar(state: State) -> str | None:
    try:
        return state.map.hex_of(_t(state)["gibraltar"])
    except KeyError:
        return None


def in_mediterranean(state: State, space: str | None) -> bool:
    """A space (sea area or coastal hex) in the Mediterranean, Gibraltar included (46.1)."""
    if not space:
        return False
    return space == _gibraltar(state) or sea_spaces.home_area(state, space) in _med(state)


def _ships_in_med(state: State, nations: set[str], kind: str | None = None) -> list[Unit]:
    return [u for u in state.units_by_id.values() if u.nation in nations and naval_units.is_naval(state, u)
            and (kind is None or naval_units.kind(state, u) == kind) and in_mediterranean(state, u.location)]


def lift_reason(state: State) -> str | None:
    """Which of 46.1's three conditions holds now, in words (None while none does)."""
    t = _t(state)
    hm = state.map
    ta = terrain_arrays(state)
    n = sum(1 for u in state.units_by_id.values() if u.nation == t["german"] and values.on_map(u)
            and values.is_land_unit(state, u) and ta.country[hm.index(u.location)] == t["german_land_in"]
            and supply.traces(state, u))
    if n >= int(t["german_land_units"]):
        return f"{n} supplied German land units are in {t['german_land_in']}"
    if naval_units.in_play(state):  # without the war at sea there are no battleships to weigh (ruling)
        bb = t["battleship"]
        theirs = len(_ships_in_med(state, set(t["mediterranean_powers"]), bb))
        ours = sum(1 for u in state.units_by_id.values() if u.nation == t["nation"] and naval_units.is_naval(state, u)
                   and naval_units.kind(state, u) == bb and u.location not in (values.FORCE_POOL, "Eliminated", None))
        if theirs <= ours:
            return f"British and French battleships in the Mediterranean ({theirs}) are no more than Italy's ({ours})"
    for colony in t["garrison_colonies"]:  # a conquered France garrisons nothing
        if not any(u.nation == t["garrison_nation"] and values.on_map(u) and values.is_land_unit(state, u)
                   and ta.country[hm.index(u.location)] == colony for u in state.units_by_id.values()):
            return f"France has no land unit in {colony}"
    return None


def restricted(state: State) -> bool:
    """46.1 binds Italy now: the rule is played, no condition has held yet and none holds now."""
    if not state.game.optional_rule(RULE) or not politics.on(state.game):
        return False
    if politics.war_state(state).get(LIFTED):
        return False
    return lift_reason(state) is None


def latch(state: State) -> None:
    """End of a monthly turn: a condition that held ends the restriction for good (ruling)."""
    if not state.game.optional_rule(RULE) or not politics.on(state.game) or politics.war_state(state).get(LIFTED):
        return
    why = lift_reason(state)
    if why:
        politics.writable(state)[LIFTED] = state.turn_label
        state.emit("italy_unrestricted", side="axis", rule=RULE,
                   text=f"Italy's restrictions end (46.1): {why}")


def _italian(state: State, nation: str) -> bool:
    return nation == _t(state)["nation"]


def offensive_why_not(state: State, nation: str) -> Refusal | None:
    """46.1: Italy may buy offensives but not use one."""
    if _italian(state, nation) and restricted(state):
        return Refusal(RULE, "Italy may buy offensives but not use one until eight supplied German land units "
                       "are in France, the Mediterranean battleships are even, or France leaves Tunisia or "
                       "Algeria ungarrisoned")
    return None


def attack_why_not(state: State, u: Unit, what: str) -> Refusal | None:
    """46.1: no attack by Italian naval or air units (``what`` says which attack)."""
    if _italian(state, u.nation) and restricted(state):
        return Refusal(RULE, f"Italian units may not attack yet ({u.id}: {what}): Italy waits for France to be "
                       "beaten, the Mediterranean balance, or an ungarrisoned Tunisia or Algeria")
    return None


def air_mission_why_not(state: State, u: Unit, mission: str) -> Refusal | None:
    """46.1 for a flight: changing base and defending a friendly hex are no attacks (ruling)."""
    t = _t(state)
    key = state.step.key if state.step else ""
    if mission in t["air_not_attacks"] or any(key.endswith(s) for s in t["defensive_steps"]):
        return None
    return attack_why_not(state, u, f"a {mission} mission")


def invade_why_not(state: State, invader: str) -> Refusal | None:
    """46.1: Italy may not invade a country while restricted."""
    if _italian(state, invader) and restricted(state):
        return Refusal(RULE, "Italy may not invade a country until eight supplied German land units are in "
                       "France, the Mediterranean battleships are even, or France leaves Tunisia or Algeria "
                       "ungarrisoned")
    return None


def sail_why_not(state: State, units: list[Unit], path: list[str]) -> Refusal | None:
    """46.1: Italian ships do not leave the Mediterranean (by Gibraltar or Suez) while any Western
    Allied naval unit is in it."""
    t = _t(state)
    if not state.game.optional_rule(RULE) or not politics.on(state.game):
        return None
    mine = [u for u in units if _italian(state, u.nation) and in_mediterranean(state, u.location)]
    if not mine:
        return None
    out = next((s for s in path if not in_mediterranean(state, s)), None)
    if out is None:
        return None
    western = {n for n in politics.nations(state) if politics.partnership(state, n) == t["western"]}
    wa = _ships_in_med(state, western)
    if wa:
        return Refusal(RULE, f"Italian ships may not leave the Mediterranean ({out}) while Western Allied naval "
                       f"units are in it ({wa[0].id} at {wa[0].location})")
    return None
