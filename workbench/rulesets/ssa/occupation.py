"""Control of cities and occupation policy (SSA-17.0).

A side must *control* a city to draw MP from it and score VP for it.  The
Allies hold their cities until they lose them and retake a city by walking
in (with a Military Government if an atrocity marker is there).  The Axis
needs an occupation government: a Military Government (MG) unit for
collaboration, or an SS unit with an unbracketed combat strength plus an MG for
atrocity, and the city changes hands at the end of the Axis player turn.

State: ``markers["city_control"]`` maps a city hex label to ``"axis"``,
``"allies"`` or ``None`` (nobody, SSA-17.5); ``markers["policy"]`` maps Axis
cities to ``"collaboration"`` or ``"atrocity"``; ``markers["atrocity"]`` lists
hexes with an atrocity marker.
"""

from __future__ import annotations

from workbench.engine.state import State
from workbench.rulesets.ssa import values
from workbench.rulesets.ssa.control import ALLIES, AXIS, control_array


def city_hexes(state: State, kind: str | None = None) -> list[int]:
    """Dense indices of city hexes (``kind`` = ``"industrial"`` / ``"non-industrial"``)."""
    hm = state.map
    cache = state.game.__dict__.setdefault("_ssa_cities", {})
    if kind not in cache:
        if "city_kind" not in hm.hexes.columns:
            cache[kind] = []
        else:
            kinds = hm.hexes["city_kind"].to_list()
            cache[kind] = [i for i, k in enumerate(kinds) if k and (kind is None or k == kind)]
    return cache[kind]


def controls_city(state: State, side: str, idx: int) -> bool:
    return city_owner(state, idx) == side


def city_owner(state: State, idx: int) -> str | None:
    label = state.map.label(idx)
    owners = state.markers.get("city_control", {})
    if label in owners:
        return owners[label]
    code = int(control_array(state)[idx])
    return {AXIS: "axis", ALLIES: "allies"}.get(code)


def initial_city_control(state: State) -> None:
    """SSA-17.1: at the start each city belongs to the side controlling its country."""
    ctrl = control_array(state)
    owners = {}
    for i in city_hexes(state):
        owners[state.map.label(i)] = {AXIS: "axis", ALLIES: "allies"}.get(int(ctrl[i]))
    for label, policy in state.game.scenario.raw.get("occupation", {}).items():
        if isinstance(policy, str) and label in owners:
            state.markers.setdefault("policy", {})[label] = policy
    state.markers["city_control"] = owners
    state.markers.setdefault("atrocity", [])


def _units_in(state: State, label: str):  # noqa: ANN202
    return [u for u in state.units_by_id.values() if u.location == label and values.is_land(state, u)]


def end_of_player_turn(state: State, side: str) -> None:
    """SSA-17.3-17.5: cities change hands at the end of the capturing side's player turn.

    With scenario special rule ``control_last_passed`` (SC0 SR8) rule 17 is
    ignored: a city belongs to the side whose land unit last passed through it.
    """
    hm = state.map
    owners = state.markers.setdefault("city_control", {})
    policy = state.markers.setdefault("policy", {})
    atrocity = set(state.markers.setdefault("atrocity", []))
    by_passage = any(isinstance(r, dict) and r.get("effect") == "control_last_passed"
                     for r in state.game.scenario.raw.get("special_rules", []))
    ctrl = control_array(state)
    for i in city_hexes(state):
        label = hm.label(i)
        if by_passage:
            new = {AXIS: "axis", ALLIES: "allies"}.get(int(ctrl[i]), owners.get(label))
            if new != owners.get(label):
                owners[label] = new
                state.emit("city_control", side=new, rule="SSA-SC0", text=f"{label} now {new}", hex=label)
            continue
        here = _units_in(state, label)
        axis_here = [u for u in here if u.side == "axis"]
        allies_here = [u for u in here if u.side == "allies"]
        mg = any(values.value(state, u, "military_government", False) for u in axis_here)
        if side == "axis" and axis_here and not allies_here and owners.get(label) != "axis":
            ss = any(u.nation == "SS" and not values.value(state, u, "defend_only", False)
                     and not values.value(state, u, "security_only", False) for u in axis_here)
            if mg and ss:
                atrocity.add(label)
                owners[label], policy[label] = "axis", "atrocity"
                state.emit("atrocity", side="axis", rule="SSA-17.3b",
                           text=f"atrocity at {label}: the city is Axis-controlled", hex=label)
            elif mg:
                owners[label], policy[label] = "axis", "collaboration"
                # SSA-16.10b: who set up the government (German- or Japanese-controlled city)
                state.markers.setdefault("occupier", {})[label] = next(
                    u.nation for u in axis_here if values.value(state, u, "military_government", False))
                state.emit("collaboration", side="axis", rule="SSA-17.3a",
                           text=f"collaboration government at {label}", hex=label)
        elif side == "axis" and owners.get(label) == "axis" and policy.get(label) == "atrocity" and not mg:
            owners[label] = None  # SSA-17.3b / 17.5: the MG must stay
            state.emit("city_control", rule="SSA-17.5", text=f"{label}: no Axis MG, nobody controls it", hex=label)
        elif side == "allies" and allies_here and not axis_here and owners.get(label) != "allies":
            allied_mg = any(values.value(state, u, "military_government", False) for u in allies_here)
            if label in atrocity and not allied_mg:
                if owners.get(label) is not None:
                    owners[label] = None  # reoccupied without an MG: nobody (17.5)
                    state.emit("city_control", rule="SSA-17.5",
                               text=f"{label} reoccupied without an MG: nobody controls it", hex=label)
                continue
            atrocity.discard(label)
            owners[label] = "allies"
            policy.pop(label, None)
            state.emit("city_control", side="allies", rule="SSA-17.4b" if allied_mg else "SSA-17.4a",
                       text=f"{label} is Allied again", hex=label)
    state.markers["atrocity"] = sorted(atrocity)


def controlled_city_counts(state: State, side: str) -> dict[str, int]:
    """Controlled industrial and non-industrial cities (SSA-16.1, 16.PS)."""
    kinds = state.map.hexes["city_kind"].to_list() if "city_kind" in state.map.hexes.columns else []
    out = {"industrial": 0, "non-industrial": 0}
    for i in city_hexes(state):
        if controls_city(state, side, i):
            out[kinds[i]] = out.get(kinds[i], 0) + 1
    return out


__all__ = ["city_hexes", "city_owner", "controls_city", "end_of_player_turn", "initial_city_control",
           "controlled_city_counts"]
