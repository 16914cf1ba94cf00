"""Optional historical restrictions on ships and aircraft (ETO-46.2, 46.5).

46.2: until the Axis controls the Suez Canal or Gibraltar, German STPs stay out of the
Mediterranean and Italian STPs inside it (Gibraltar counts as both); asked by the sail order.
46.5: the British home fighter flies only over the United Kingdom and is rebuilt first; asked
by the fly and intercept orders and by construction.
"""

from __future__ import annotations

from typing import Any

from workbench.engine.errors import IllegalOrder, Refusal, refuse
from workbench.engine.ruleset import OrderKind
from workbench.engine.state import State
from workbench.engine.units import Unit
from workbench.rulesets.eto import control as ctl
from workbench.rulesets.eto import naval_units, politics, sea_spaces, values

RULE = "ETO-46.2"


def _t(state: State) -> dict[str, Any]:
    return politics.table(state)["stp_restrictions"]


def _med(state: State) -> set[str]:
    return set(state.ruleset.tables["force_pools"]["suez_adds"]["regions"]["mediterranean_seas"])


def lifted(state: State) -> bool:
    """The Axis controls the Suez Canal (every entry hex, 37.7) or Gibraltar."""
    from workbench.rulesets.eto import suez

    hm = state.map
    if suez.closed(state):
        return True
    return any(ctl.control(state)[hm.index(hm.hex_of(p))] == ctl.AXIS for p in _t(state)["until_axis_holds"])


def stp_why_not(state: State, units: list[Unit], spaces: list[str]) -> Refusal | None:
    """ETO-46.2: may these ships' STPs pass through ``spaces``?"""
    if not state.game.optional_rule(RULE):
        return None
    t = _t(state)
    nations = {u.nation for u in units if naval_units.is_stp(state, u)}
    if not nations & {t["german"], t["italian"]} or lifted(state):
        return None
    med = _med(state)
    hm = state.map
    both = {hm.hex_of(p) for p in t["both_sides"]}
    for space in spaces:
        if space in both:
            continue
        inside = sea_spaces.home_area(state, space) in med
        if t["german"] in nations and inside:
            return Refusal(RULE, f"German STPs may not enter the Mediterranean ({space}) until the Axis controls "
                           "the Suez Canal or Gibraltar")
        if t["italian"] in nations and not inside:
            return Refusal(RULE, f"Italian STPs may not leave the Mediterranean ({space}) until the Axis controls "
                           "the Suez Canal or Gibraltar")
    return None


# --- 46.5: British Fighter Command --------------------------------------------------------------

FC_RULE = "ETO-46.5"


def _fc(state: State) -> dict[str, Any]:
    return politics.table(state)["fighter_command"]


def _in_home(state: State, label: str | None) -> bool:
    hm = state.map
    return bool(label) and hm.has_hex(label) and bool(ctl.home_mask(state, _fc(state)["nation"])[hm.index(label)])


def home_fighter(state: State) -> Unit | None:
    """46.5: the home fighter: a full-strength quality-3 British fighter based in the United
    Kingdom -- the one marked ``props.home_fighter`` if it still qualifies, else the first by id
    (the kernel designates for the player)."""
    from workbench.rulesets.eto import air_units

    t = _fc(state)
    ok = [u for u in sorted(state.units_by_id.values(), key=lambda u: u.id)
          if u.nation == t["nation"] and u.type == t["type"] and not u.reduced
          and air_units.quality(state, u) >= int(t["quality"]) and _in_home(state, u.location)]
    marked = [u for u in ok if u.props.get("home_fighter")]
    return (marked or ok or [None])[0]


def fc_mission_why_not(state: State, units: list[Unit], spaces: list[str]) -> Refusal | None:
    """46.5: the home fighter flies missions over home country hexes only (and so never leaves)."""
    if not state.game.optional_rule(FC_RULE):
        return None
    hf = home_fighter(state)
    if hf is None or hf not in units:
        return None
    away = [s for s in spaces if not _in_home(state, s)]
    if away:
        return Refusal(FC_RULE, f"{hf.id} is the home fighter: it flies only over the United Kingdom ({away[0]} is not)")
    return None


def fc_build_why_not(state: State, unit: Unit) -> Refusal | None:
    """46.5: while no full-strength home fighter stands in the UK, the only British air steps
    built or rebuilt are the one that restores it."""
    from workbench.rulesets.eto import air_units

    t = _fc(state)
    if not state.game.optional_rule(FC_RULE) or unit.nation != t["nation"] or not air_units.is_air(state, unit):
        return None
    if home_fighter(state) is not None:
        return None
    if unit.type == t["type"] and int(values.value(state, unit, "quality", 0) or 0) >= int(t["quality"]):
        return None  # a quality-3 fighter (its full side) restores the home fighter
    return Refusal(FC_RULE, "the home fighter is depleted or gone: it must be rebuilt or replaced before any other "
                   "British air steps")


def designate_why_not(state: State, side: str, uid: Any) -> Refusal | None:
    """46.5: "The UK player can redesignate a different fighter as the home fighter at any time, as
    long as it meets the requirements" (a full-strength quality-3 fighter based in the UK)."""
    from workbench.rulesets.eto import air_units

    if not state.game.optional_rule(FC_RULE):
        return Refusal(FC_RULE, "Fighter Command (optional ETO-46.5) is not played in this game")
    t = _fc(state)
    u = state.units_by_id.get(uid) if isinstance(uid, str) else None
    if u is None or u.nation != t["nation"] or u.side != side:
        return Refusal(FC_RULE, f"{uid!r} is no British unit of yours")
    if u.type != t["type"] or u.reduced or air_units.quality(state, u) < int(t["quality"]) \
            or not _in_home(state, u.location):
        return Refusal(FC_RULE, f"{u.id} cannot be the home fighter: it must be a full-strength quality-"
                                f"{t['quality']} fighter based in the United Kingdom")
    if home_fighter(state) is u:
        return Refusal(FC_RULE, f"{u.id} is already the home fighter")
    return None


class HomeFighterOrder(OrderKind):
    """``{"kind": "home_fighter", "unit": id}``: designate the home fighter (ETO-46.5)."""

    kind = "home_fighter"
    rule = FC_RULE

    def in_game(self, game: Any) -> bool:
        return game.optional_rule(FC_RULE)

    def legal(self, state: State) -> list[dict[str, Any]]:
        d = state.decision
        if d is None:
            return []
        t = _fc(state)
        return [{"kind": self.kind, "unit": u.id} for u in sorted(state.units_by_id.values(), key=lambda u: u.id)
                if u.nation == t["nation"] and u.type == t["type"] and designate_why_not(state, d.side, u.id) is None]

    def check(self, state: State, order: dict[str, Any]) -> None:
        d = state.decision
        if d is None:
            raise IllegalOrder(self.rule, "no decision is open")
        refuse(designate_why_not(state, d.side, order.get("unit")))

    def execute(self, state: State, order: dict[str, Any]) -> None:
        t = _fc(state)
        for u in state.units_by_id.values():
            if u.nation == t["nation"]:
                u.props.pop("home_fighter", None)
        state.unit(order["unit"]).props["home_fighter"] = True
        state.emit("home_fighter", side=state.decision.side, rule=FC_RULE, unit=order["unit"],
                   text=f"{order['unit']} is now the home fighter (46.5)")
