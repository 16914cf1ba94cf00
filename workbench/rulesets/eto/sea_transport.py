"""Sea transport: STP accounting, embarking and debarking, evacuation, DD/CL lift (ETO-10.0-10.5,
10.7-10.9).

An embarked unit's ``location`` is ``"aboard:<carrier id>"`` (it is nowhere on the map, so no
land rule sees it: no ZOC, control, stacking or supply tracing), with ``props``:

* ``aboard``: the carrier it is stacked under (an STP marker, or the DD of a DD/CL pair, 10.8);
* ``sea_mission``: ``transport``, ``assault`` or ``evacuation`` (10.2, 10.6, 10.7);
* ``sea_mp``: naval MP carried so far (the 6-MP assault threshold, the 12-MP evacuation limit);
  the naval movement code adds to it with :func:`note_voyage`.

The lift a stack needs is checked per space and side (10.1: markers are "like change"; several
markers may carry one unit and one marker several): every STP point of the side's markers in
the space, plus one per DD/CL pair (10.8), against the requirement of everything aboard them.
The numbers are ``tables/sea_transport.toml``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from workbench.engine.errors import IllegalOrder, Refusal, refuse
from workbench.engine.ruleset import OrderKind
from workbench.engine.state import State
from workbench.engine.units import Unit
from workbench.rulesets.eto import air_units, losses, naval_units, stacking, values
from workbench.rulesets.eto.control import SIDE_CODE, control
from workbench.rulesets.eto.zoc import zoc

RULE = "ETO-10.0"
ABOARD = "aboard:"
MISSIONS = ("transport", "assault", "evacuation")
LAND_CARRIED = ("infantry", "armor", "paratroop")


def table(state: State) -> dict[str, Any]:
    return state.ruleset.tables["sea_transport"]


# --- who is aboard what ----------------------------------------------------------------------

def is_aboard(u: Unit) -> bool:
    return u.location.startswith(ABOARD)


def carrier_of(state: State, u: Unit) -> Unit | None:
    cid = u.props.get("aboard")
    return state.units_by_id.get(cid) if cid else None


def space_of(state: State, u: Unit) -> str:
    """Where a unit is: its carrier's space when it is aboard."""
    c = carrier_of(state, u) if is_aboard(u) else None
    return c.location if c is not None else u.location


def carriers_at(state: State, side: str, space: str) -> list[Unit]:
    """The side's STP markers, DDs and CLs in ``space`` (the ships that can lift, 10.1, 10.8)."""
    return [u for u in naval_units.naval_units(state, side, space)
            if naval_units.is_stp(state, u) or naval_units.kind(state, u) in ("DD", "CL")]


def aboard_in(state: State, side: str, space: str) -> list[Unit]:
    """Every unit embarked on the side's ships in ``space``."""
    ids = {c.id for c in naval_units.naval_units(state, side, space)}
    return sorted((u for u in state.units_by_id.values() if is_aboard(u) and u.props.get("aboard") in ids),
                  key=lambda u: (int(u.props.get("embark_no", 0)), u.id))


# --- the Transport Table ---------------------------------------------------------------------

def cost_key(state: State, u: Unit) -> str | None:
    """10.1/10.2: the Transport Table row of a unit, or None if an STP cannot carry it."""
    cls = values.unit_class(state, u)
    if cls in ("infantry", "paratroop", "armor", "hq", "general"):
        return cls
    if air_units.is_air(state, u):
        return "air"
    return None


def may_carry_why_not(state: State, u: Unit, mission: str, *, dd_cl: bool = False) -> Refusal | None:
    """10.1, 10.7, 10.8: which units a mission may carry."""
    key = cost_key(state, u)
    lim = table(state)["limits"]
    if key is None:
        return Refusal("ETO-10.1", f"{u.id} cannot go by sea: STPs carry infantry, armor, paratroops, HQs, "
                                   "generals and air units")
    if key == "air" and air_units.air_range(state, u) > int(lim["air_range_max"]):
        return Refusal("ETO-10.1", f"{u.id} has range {air_units.air_range(state, u)}; STPs carry air units "
                                   f"with ranges of {lim['air_range_max']} or less")
    if mission == "evacuation" and key in ("armor", "air"):
        return Refusal("ETO-10.7", f"{u.id}: armor and air units can never be evacuated")
    if dd_cl and key in ("armor", "air"):
        return Refusal("ETO-10.8", f"{u.id}: DD/CL transports cannot carry armor or air units")
    return None


def multiplier(state: State, mission: str, *, mp: int = 0, port: bool = True, dd_cl_only: bool = False) -> int:
    """ETO-10.2: x2 to debark at a friendly non-port hex, x2 for evacuation, x2 for an assault
    carried 6 naval MP or less and x3 beyond (no x3 for DD/CL alone, 10.8)."""
    m = table(state)["multiplier"]
    if mission == "evacuation":
        return int(m["evacuation"])
    if mission == "assault":
        far = mp > int(m["assault_near_mp"]) and not dd_cl_only
        return int(m["assault_far"] if far else m["assault_near"])
    return int(m["transport"] if port else m["debark_non_port"])


def requirement(state: State, units: list[Unit], mission: str, *, mp: int = 0, port: bool = True,
                dd_cl_only: bool = False) -> int:
    """ETO-10.2: STPs needed to carry ``units`` on ``mission``.  HQs and generals ride free with a
    land unit; alone each needs 1.  Example: 2 infantry + 1 armor assaulting over 6 MP need
    (1 + 1 + 2) x 2 = 8."""
    cost = table(state)["cost"]
    keys = [cost_key(state, u) for u in units]
    with_land = any(k in LAND_CARRIED for k in keys)
    base = sum(int(cost[k]) for k in keys if k and not (with_land and k in ("hq", "general")))
    return base * multiplier(state, mission, mp=mp, port=port, dd_cl_only=dd_cl_only)


def dd_cl_pairs(state: State, ships: list[Unit]) -> int:
    """ETO-10.8: each DD stacked with a CL is one ad hoc STP."""
    kinds = [naval_units.kind(state, u) for u in ships]
    return min(kinds.count("DD"), kinds.count("CL"))


def lift(state: State, ships: list[Unit]) -> int:
    """STPs the ships give: every marker's points (10.1) plus the DD/CL pairs (10.8)."""
    return sum(naval_units.stp_points(u) for u in ships if naval_units.is_stp(state, u)) + dd_cl_pairs(state, ships)


def needed_in(state: State, side: str, space: str, *, mission_of: dict[str, str] | None = None) -> int:
    """STPs needed by everything aboard the side's ships in ``space``, mission by mission (10.9)."""
    by: dict[tuple[str, bool], list[Unit]] = {}
    for u in aboard_in(state, side, space):
        mission = (mission_of or {}).get(u.id, u.props.get("sea_mission", "transport"))
        by.setdefault((mission, _dd_cl_only(state, u)), []).append(u)
    total = sum(int(c.props.get("supply_aboard", 0)) * int(table(state)["cost"]["supply_marker"])
                for c in naval_units.naval_units(state, side, space))  # 32.5: one STP per marker
    for (mission, dd_cl), units in by.items():
        mp = max(int(u.props.get("sea_mp", 0)) for u in units)
        total += requirement(state, units, mission, mp=mp, dd_cl_only=dd_cl)
    return total


def _dd_cl_only(state: State, u: Unit) -> bool:
    c = carrier_of(state, u)
    return c is not None and not naval_units.is_stp(state, c)


# --- embarking (10.4, 10.7) ------------------------------------------------------------------

def _friendly(state: State, side: str, label: str) -> bool:
    return values.on_map_label(label) and control(state)[state.map.index(label)] == SIDE_CODE[side]


def is_port(state: State, label: str) -> bool:
    if not values.on_map_label(label):
        return False
    port = state.map.hexes["port"][state.map.index(label)]
    return bool(port) and str(port) not in ("None", "none", "")


def terrain_allows(state: State, label: str, what: str) -> bool:
    """The terrain table's ``evacuation`` / ``amphibious_assault`` flag for a hex (10.6, 10.7)."""
    name = str(state.map.hexes["terrain"][state.map.index(label)])
    rows = state.ruleset.tables["terrain"]["terrain"]
    row = rows.get(name) or next((r for r in rows.values() if name in r.get("aliases", [])), {})
    return bool(row.get(what, True))


def embark_why_not(state: State, side: str, carriers: list[Unit], units: list[Unit], mission: str) -> Refusal | None:
    """ETO-10.0, 10.1, 10.4, 10.7, 10.8: may ``units`` board ``carriers`` for ``mission`` now."""
    if mission not in MISSIONS:
        return Refusal(RULE, f"the mission is one of {', '.join(MISSIONS)}, not {mission!r}")
    if not carriers or not units:
        return Refusal(RULE, "name the carriers (STP markers, or DDs and CLs) and the units to embark")
    spaces = {c.location for c in carriers}
    if len(spaces) != 1:
        return Refusal("ETO-10.4", "the carriers must be together in one space")
    space = spaces.pop()
    for c in carriers:
        if c.side != side or not (naval_units.is_stp(state, c) or naval_units.kind(state, c) in ("DD", "CL")):
            return Refusal("ETO-10.0", f"{c.id} is not a friendly STP marker, DD or CL")
        if c.props.get("stp_task") == state.turn_label and naval_units.is_stp(state, c):
            return Refusal("ETO-10.0", f"{c.id} already did a task this monthly turn (one task per STP per turn)")
    dd_cl = not any(naval_units.is_stp(state, c) for c in carriers)
    for u in units:
        if u.side != side:
            return Refusal(RULE, f"{u.id} is not a friendly unit")
        if is_aboard(u):
            return Refusal(RULE, f"{u.id} is already aboard {u.props.get('aboard')}")
        if u.location != space:
            return Refusal("ETO-10.4", f"{u.id} is at {u.location}, not with the carriers at {space}")
        if mission != "evacuation" and not _began_phase_at(state, u, space):
            return Refusal("ETO-10.4", f"{u.id} was not at {space} at the start of the Naval and Air phase: units "
                                       "embark only in the port they occupied then")
        r = may_carry_why_not(state, u, mission, dd_cl=dd_cl)
        if r:
            return r
    if mission == "evacuation":
        if not values.on_map_label(space) or is_port(state, space) or not terrain_allows(state, space, "evacuation"):
            return Refusal("ETO-10.7", f"evacuation embarks only from a clear coastal hex without a port; "
                                       f"{space} is not one")
        if any(values.unit_class(state, u) not in ("infantry", "paratroop", "hq", "general") for u in units):
            return Refusal("ETO-10.7", "only generals, HQs, paratroops and infantry are evacuated")
    else:
        if not is_port(state, space) or not _friendly(state, side, space):
            return Refusal("ETO-10.4", f"units embark in a friendly port; {space} is not one (only an evacuation "
                                       "embarks elsewhere, 10.7)")
        if mission == "assault" and any(c.props.get("sailed") == state.turn_label for c in carriers):
            return Refusal("ETO-10.4", "for an amphibious assault the carriers must begin the phase in the "
                                       "units' port; these have sailed this turn")
    if mission == "assault" and dd_cl:
        pairs = dd_cl_pairs(state, carriers)
        need = int(table(state)["limits"]["dd_cl_assault_pairs"]) * sum(
            1 for u in units if values.unit_class(state, u) in LAND_CARRIED)
        if pairs < need:
            return Refusal("ETO-10.8", f"two DDs and two CLs carry each assaulting unit: {need} pairs needed, "
                                       f"{pairs} here")
        return None
    already = [u for u in aboard_in(state, side, space)]
    ships = carriers_at(state, side, space)
    need = needed_in(state, side, space) + requirement(state, units, mission, dd_cl_only=dd_cl)
    have = lift(state, ships)
    if need > have:
        return Refusal("ETO-10.2", f"{', '.join(u.id for u in units)} on a {mission} mission need "
                                   f"{requirement(state, units, mission, dd_cl_only=dd_cl)} STPs"
                                   f"{' besides those aboard' if already else ''}; the ships at {space} give {have}")
    return None


def embark(state: State, carriers: list[Unit], units: list[Unit], mission: str) -> None:
    """ETO-10.1: the units go "stacked under the STP marker" and move with it."""
    lead = carriers[0]
    n = int(state.markers.get("embark_no", 0))
    for u in units:
        n += 1
        u.props.update({"aboard": lead.id, "sea_mission": mission, "sea_mp": 0, "embark_no": n,
                        "embarked_from": u.location})
        u.location = ABOARD + lead.id
    state.markers["embark_no"] = n
    for c in carriers:
        if naval_units.is_stp(state, c):
            c.props["stp_task"] = state.turn_label
    state.emit("embarked", side=lead.side, rule="ETO-10.4" if mission != "evacuation" else "ETO-10.7",
               text=f"{', '.join(u.id for u in units)} embark on {', '.join(c.id for c in carriers)} "
                    f"({mission}) at {lead.location}", units=[u.id for u in units], at=lead.location)


def note_voyage(state: State, carrier: Unit, mp: int) -> None:
    """Naval movement reports the MP a carrier spent; its cargo counts them (10.2, 10.7)."""
    for u in state.units_by_id.values():
        if is_aboard(u) and u.props.get("aboard") == carrier.id:
            u.props["sea_mp"] = int(u.props.get("sea_mp", 0)) + int(mp)


# --- debarking (10.5) ------------------------------------------------------------------------

def debark_why_not(state: State, u: Unit, phase: str) -> Refusal | None:
    """ETO-10.5: into the carrier's hex, a friendly one; in the End phase a port only; air units
    into a friendly port with basing room, during an offensive only within range of the active
    HQ (they land at its conclusion)."""
    if not is_aboard(u):
        return Refusal("ETO-10.5", f"{u.id} is not aboard a ship")
    at = space_of(state, u)
    if not values.on_map_label(at) or not _friendly(state, u.side, at):
        if u.props.get("sea_mission") == "assault":
            return Refusal("ETO-10.6", f"{u.id} is embarked for an amphibious assault on {at}: it lands by attacking")
        return Refusal("ETO-10.5", f"transported units debark only into a friendly hex; {at} is not one")
    # 10.6: standby units of an assault fleet land on a beachhead once it is friendly
    port = is_port(state, at)
    if phase == "end" and not port:
        return Refusal("ETO-10.5", "units debarking in the End phase must debark in a port hex")
    if air_units.is_air(state, u):
        from workbench.rulesets.eto import airbases

        if not port:
            return Refusal("ETO-10.5", "air units debark only into a friendly port hex")
        if phase == "offensive":
            if u.props.get("debark_at_end"):
                return Refusal("ETO-10.5", f"{u.id} already debarks at the conclusion of this offensive")
            if not _active_hq_reaches(state, u.side, at):
                return Refusal("ETO-10.5", f"an air unit debarks during an offensive only within range of the active "
                                           f"HQ; {at} is not")
        return airbases.may_base_why_not(state, u, at)
    if phase == "offensive" and not u.props.get("in_offensive") and values.is_land_unit(state, u):
        return Refusal("ETO-10.5", f"{u.id} is not activated for this offensive")
    in_movement_phase = bool(state.step and state.step.key.startswith("movement"))
    if phase == "movement" and in_movement_phase and u.props.get("activated") and values.is_land_unit(state, u):
        return Refusal("ETO-30.5", f"{u.id} was activated for an offensive this turn: only units not activated "
                                   "debark in the Movement phase (10.5); it may debark in the End phase")
    if values.is_land_unit(state, u) and not stacking.fits(state, at, u.side, [u]):
        return Refusal("ETO-24.2", f"{at} cannot hold {u.id}")
    needs_port = u.props.get("sea_mission") == "transport" and not port
    if needs_port:
        # 10.2: debarking at a non-port hex needs twice the STPs
        side, space = u.side, at
        need = needed_in(state, side, space, mission_of={u.id: "transport"})
        need += requirement(state, [u], "transport", port=False) - requirement(state, [u], "transport")
        if need > lift(state, carriers_at(state, side, space)):
            return Refusal("ETO-10.2", f"debarking {u.id} at {at}, not a port, needs twice the STPs; the ships "
                                       "there are too few")
    return None


PHASE_START = "naval_air_start"  # state.markers: where the land and air units stood as the phase began


def note_phase_start(state: State, *_: Any) -> None:
    """ETO-10.4: "All units embarked by a single STP marker must occupy the same friendly port at
    the start of the Naval and Air phase": where every land and air unit stands as it begins."""
    state.markers[PHASE_START] = {"turn": state.turn_label, "at": {
        u.id: u.location for u in state.units_by_id.values()
        if values.is_land_unit(state, u) or air_units.is_air(state, u)}}


def _began_phase_at(state: State, u: Unit, space: str) -> bool:
    """ETO-10.4: ``u`` stood at ``space`` when this turn's Naval and Air phase began (True when
    no record of this turn's phase start exists)."""
    rec = state.markers.get(PHASE_START) or {}
    if rec.get("turn") != state.turn_label:
        return True
    return rec["at"].get(u.id) == space


# hq.py registers: is a hex within range of an HQ active in the side's offensive (22.1)?
HQ_REACH: list[Callable[[State, str, str], bool]] = []


def _active_hq_reaches(state: State, side: str, at: str) -> bool:
    """ETO-10.5: ``at`` is within range of an HQ active in ``side``'s current offensive."""
    return any(f(state, side, at) for f in HQ_REACH)


def debark(state: State, u: Unit, phase: str) -> None:
    """ETO-10.5: the unit lands in the carrier's hex.  In a friendly port free of enemy ZOC it may
    move one more hex this phase; elsewhere, in the End phase, or if it attacks, it stays.  An air
    unit debarked during an offensive lands at its conclusion (:func:`end_offensive_debarks`)."""
    at = space_of(state, u)
    if phase == "offensive" and air_units.is_air(state, u):
        u.props["debark_at_end"] = True
        state.emit("debark_declared", side=u.side, rule="ETO-10.5", unit=u.id, at=at,
                   text=f"{u.id} will debark at {at} at the conclusion of the offensive")
        return
    i = state.map.index(at)
    can_move = phase != "end" and is_port(state, at) and not zoc(state, values.other(u.side))[i]
    u.location = at
    for k in ("aboard", "sea_mission", "sea_mp", "embark_no", "embarked_from"):
        u.props.pop(k, None)
    u.props["debarked"] = state.turn_label
    u.props["debark_hexes"] = 1 if can_move else 0
    state.emit("debarked", side=u.side, rule="ETO-10.5",
               text=f"{u.id} debarks at {at}" + ("" if can_move else " and may not leave it this phase"),
               unit=u.id, at=at)


def end_offensive_debarks(state: State) -> list[str]:
    """ETO-10.5: "The air unit debarks at the conclusion of the offensive and is marked PC" (if
    its port is still friendly with room; else it stays aboard)."""
    from workbench.rulesets.eto import commitment

    landed = []
    for u in sorted(state.units_by_id.values(), key=lambda x: x.id):
        if not u.props.pop("debark_at_end", None) or not is_aboard(u):
            continue
        if debark_why_not(state, u, "movement") is not None:
            state.emit("debark_cancelled", side=u.side, rule="ETO-10.5", unit=u.id,
                       text=f"{u.id} cannot debark at {space_of(state, u)} after all: it stays aboard")
            continue
        debark(state, u, "end")
        u.props["commit"] = commitment.PC
        landed.append(u.id)
    return landed


def debarked_this_turn(state: State, u: Unit) -> bool:
    """ETO-10.5: ``u`` debarked from an STP this turn (in an Offensive phase: in this one)."""
    return u.props.get("debarked") == state.turn_label


def debark_limit(state: State, u: Unit) -> int | None:
    """ETO-10.5: hexes a unit that debarked this turn may still move (None: not debarked)."""
    if u.props.get("debarked") != state.turn_label:
        return None
    return int(u.props.get("debark_hexes", 0))


# --- losing lift (10.9) and evacuation's end (10.7) -------------------------------------------

def check_lift(state: State, side: str, space: str, rule: str = "ETO-10.9") -> list[str]:
    """ETO-10.9: if the STPs left fall below what the cargo needs, an assault downgrades to a
    transport where that is enough; then carried units are eliminated (the last embarked first)
    until the rest can be carried.  HQs and generals stay unless every naval unit in the stack is
    gone.  Returns the ids eliminated."""
    ships = carriers_at(state, side, space)
    have = lift(state, ships)
    if needed_in(state, side, space) <= have:
        return []
    for u in aboard_in(state, side, space):
        if u.props.get("sea_mission") == "assault":
            u.props["sea_mission"] = "transport"
    if needed_in(state, side, space) <= have:
        state.emit("assault_downgraded", side=side, rule=rule, at=space,
                   text=f"too few STPs left at {space} for the assault: the mission is now a transport")
        return []
    gone: list[str] = []
    fleet_left = bool(naval_units.naval_units(state, side, space))
    for u in reversed(aboard_in(state, side, space)):
        if needed_in(state, side, space) <= have:
            break
        if values.unit_class(state, u) in ("hq", "general") and fleet_left:
            continue
        lose_cargo(state, u, rule, f" aboard at {space}: too few STPs left")
        gone.append(u.id)
    return gone


def lose_cargo(state: State, u: Unit, rule: str, why: str) -> None:
    """A unit lost at sea goes to the force pool (it was not in its home country, 27.7)."""
    for k in ("aboard", "sea_mission", "sea_mp", "embark_no", "embarked_from"):
        u.props.pop(k, None)
    if air_units.is_air(state, u):
        air_units.eliminate(state, u, rule, why)
    else:
        losses.eliminate(state, u, rule, why, box=values.FORCE_POOL)


def on_sink(state: State, ship: Unit, space: str) -> None:
    """ETO-10.1, 10.9: the cargo of a sunk carrier stays with the stack (markers are "like
    change"): it moves to another ship of the side in the space, STP markers first, and the lift
    left is checked.  With no ship left, everything aboard is lost (HQs and generals too)."""
    cargo = [u for u in state.units_by_id.values() if is_aboard(u) and u.props.get("aboard") == ship.id]
    if not cargo:
        return
    fleet = naval_units.naval_units(state, ship.side, space)
    if not fleet:
        for u in sorted(cargo, key=lambda x: x.id):
            lose_cargo(state, u, "ETO-10.9", f": every ship carrying it at {space} was sunk")
        return
    heir = sorted(fleet, key=lambda c: (not naval_units.is_stp(state, c), c.id))[0]
    for u in cargo:
        u.props["aboard"] = heir.id
        u.location = ABOARD + heir.id
    check_lift(state, ship.side, space)


if on_sink not in naval_units.SINK_HOOKS:
    naval_units.SINK_HOOKS.append(on_sink)


def end_evacuations(state: State, *_: Any) -> list[str]:
    """ETO-10.7: at the end of the Naval and Air phase, evacuated units not in a friendly port, or
    carried more than 12 naval MP, are eliminated; the others are landed in the port."""
    gone = []
    limit = int(table(state)["limits"]["evacuation_mp"])
    for u in sorted(state.units_by_id.values(), key=lambda x: x.id):
        if not is_aboard(u) or u.props.get("sea_mission") != "evacuation":
            continue
        at = space_of(state, u)
        if is_port(state, at) and _friendly(state, u.side, at) and int(u.props.get("sea_mp", 0)) <= limit:
            u.props["sea_mission"] = "transport"
            continue
        lose_cargo(state, u, "ETO-10.7", " : the evacuation did not end in a friendly port within 12 naval MP")
        gone.append(u.id)
    return gone


# --- orders ------------------------------------------------------------------------------------

def _units(state: State, ids: Any, what: str) -> list[Unit]:
    if not isinstance(ids, list) or not ids or not all(isinstance(i, str) for i in ids):
        raise IllegalOrder(RULE, f"{what} is a list of unit ids")
    out = []
    for i in ids:
        if i not in state.units_by_id:
            raise IllegalOrder(RULE, f"there is no unit {i!r}")
        out.append(state.units_by_id[i])
    return out


class EmbarkOrder(OrderKind):
    """``{"kind": "embark", "carriers": [ids], "units": [ids], "mission": "transport"}`` in the
    friendly Naval Movement step (ETO-10.4; evacuation 10.7, DD/CL 10.8)."""

    kind = "embark"
    rule = "ETO-10.4"

    def in_game(self, game: Any) -> bool:
        return bool(game.options.get("naval"))

    def legal(self, state: State) -> list[dict[str, Any]]:
        d = state.decision
        if d is None or not naval_units.in_play(state):
            return []
        out = []
        for space in sorted({c.location for c in naval_units.naval_units(state, d.side)}):
            carriers = [c for c in carriers_at(state, d.side, space) if naval_units.is_stp(state, c)]
            if not carriers:
                continue
            for u in sorted(values.units_at(state, space, d.side), key=lambda x: x.id):
                for mission in ("transport", "evacuation"):
                    order = {"kind": self.kind, "carriers": [c.id for c in carriers], "units": [u.id],
                             "mission": mission}
                    if embark_why_not(state, d.side, carriers, [u], mission) is None:
                        out.append(order)
        return out

    def check(self, state: State, order: dict[str, Any]) -> None:
        d = state.decision
        carriers = _units(state, order.get("carriers"), "carriers")
        units = _units(state, order.get("units"), "units")
        refuse(embark_why_not(state, d.side if d else "", carriers, units, str(order.get("mission", "transport"))))

    def execute(self, state: State, order: dict[str, Any]) -> None:
        embark(state, _units(state, order["carriers"], "carriers"), _units(state, order["units"], "units"),
               str(order.get("mission", "transport")))


class DebarkOrder(OrderKind):
    """``{"kind": "debark", "units": [ids]}`` in a friendly Offensive (activated units) or the
    Movement phase (ETO-10.5)."""

    kind = "debark"
    rule = "ETO-10.5"

    def in_game(self, game: Any) -> bool:
        return bool(game.options.get("naval"))

    @staticmethod
    def phase(state: State) -> str:
        key = state.step.key if state.step else ""
        return "offensive" if key.startswith("offensive") else "end" if key.startswith("end") else "movement"

    def legal(self, state: State) -> list[dict[str, Any]]:
        d = state.decision
        if d is None or not naval_units.in_play(state):
            return []
        phase = self.phase(state)
        return [{"kind": self.kind, "units": [u.id]} for u in sorted(state.units_by_id.values(), key=lambda x: x.id)
                if u.side == d.side and is_aboard(u) and debark_why_not(state, u, phase) is None]

    def check(self, state: State, order: dict[str, Any]) -> None:
        d = state.decision
        phase = self.phase(state)
        for u in _units(state, order.get("units"), "units"):
            if d is None or u.side != d.side:
                raise IllegalOrder(self.rule, f"{u.id} is not a unit of the side deciding now")
            refuse(debark_why_not(state, u, phase))

    def execute(self, state: State, order: dict[str, Any]) -> None:
        phase = self.phase(state)
        for u in _units(state, order["units"], "units"):
            debark(state, u, phase)
