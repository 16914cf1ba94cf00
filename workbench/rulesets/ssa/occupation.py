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
    """Dense indices of city hexes (``kind`` = ``"industrial"`` / ``"non-industrial"``), once per map."""
    hm = state.map

    def compute() -> list[int]:
        if "city_kind" not in hm.hexes.columns:
            return []
        kinds = hm.hexes["city_kind"].to_list()
        return [i for i, k in enumerate(kinds) if k and (kind is None or k == kind)]

    return hm.cached(("ssa.cities", kind), compute)


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
    country = None
    for key, policy in state.game.scenario.raw.get("occupation", {}).items():
        if not isinstance(policy, str):
            continue
        if key in owners:
            labels = [key]
        else:  # a country code: every Axis-held city of that country (SC2 [occupation] CU, CO, ...)
            if country is None:
                from workbench.rulesets.ssa.deployment import geography

                country = geography(state).country
            mask = country.get(key)
            labels = [lab for lab in owners if mask is not None and mask[state.map.index(lab)]
                      and owners[lab] == "axis"]
        for label in labels:
            state.markers.setdefault("policy", {})[label] = policy
            if policy == "coup":  # SSA-17.4c: pro-Axis by a coup
                state.markers.setdefault("coup_origin", []).append(label)
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
    coup = set(state.markers.get("coup_origin", []))
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
            if label in coup and not allied_mg:
                continue  # SSA-17.4c: a city of a coup country is taken only with an Allied MG
            if label in atrocity and not allied_mg:
                if owners.get(label) is not None:
                    owners[label] = None  # reoccupied without an MG: nobody (17.5)
                    state.emit("city_control", rule="SSA-17.5",
                               text=f"{label} reoccupied without an MG: nobody controls it", hex=label)
                continue
            atrocity.discard(label)
            owners[label] = "allies"
            policy.pop(label, None)
            state.emit("city_control", side="allies", rule="SSA-17.4c" if label in coup else
                       "SSA-17.4b" if allied_mg else "SSA-17.4a", text=f"{label} is Allied again", hex=label)
        elif side == "allies" and label in coup and owners.get(label) == "allies" and not any(
                values.value(state, u, "military_government", False) for u in allies_here):
            owners[label], policy[label] = "axis", "coup"  # SSA-17.4c: the MG must stay (ruling)
            state.emit("city_control", side="axis", rule="SSA-17.4c",
                       text=f"{label}: no Allied MG kept there, the pro-Axis coup government returns", hex=label)
    state.markers["atrocity"] = sorted(atrocity)


def coup(state: State, country: str, side: str) -> list[str]:
    """SSA-17.2: a coup in Latin America (war event, SSA-25) makes ``country`` pro-``side``.

    Pro-Axis: every city of the country the Allies or nobody hold becomes Axis-controlled under
    the coup government (policy ``"coup"``), which the Allies retake and hold only with a Military
    Government (SSA-17.4c).  Pro-Allied: the coup government's cities return to the Allies and the
    country loses its coup mark.  Cities held by occupying units of the other side stay theirs.
    Returns the city labels that changed hands.
    """
    from workbench.rulesets.ssa.deployment import geography

    mask = geography(state).country.get(country)
    if mask is None or side not in ("axis", "allies"):
        raise ValueError(f"coup: unknown country {country!r} or side {side!r}")
    owners = state.markers.setdefault("city_control", {})
    policy = state.markers.setdefault("policy", {})
    coup_marks = state.markers.setdefault("coup_origin", [])
    changed = []
    for i in city_hexes(state):
        label = state.map.label(i)
        if not mask[i]:
            continue
        if side == "axis":
            if label not in coup_marks:
                coup_marks.append(label)
            if owners.get(label) != "axis":
                owners[label], policy[label] = "axis", "coup"
                changed.append(label)
        else:
            if label in coup_marks:
                coup_marks.remove(label)
            if owners.get(label) == "axis" and policy.get(label) == "coup":
                owners[label] = "allies"
                policy.pop(label, None)
                changed.append(label)
    state.emit("coup", side=side, rule="SSA-17.2", text=f"coup: {country} is now pro-{side}; "
               f"cities changing hands: {', '.join(changed) or 'none'}", country=country)
    return changed


def controlled_city_counts(state: State, side: str) -> dict[str, int]:
    """Controlled industrial and non-industrial cities (SSA-16.1, 16.PS)."""
    kinds = state.map.hexes["city_kind"].to_list() if "city_kind" in state.map.hexes.columns else []
    out = {"industrial": 0, "non-industrial": 0}
    for i in city_hexes(state):
        if controls_city(state, side, i):
            out[kinds[i]] = out.get(kinds[i], 0) + 1
    return out


__all__ = ["city_hexes", "city_owner", "controls_city", "coup", "end_of_player_turn", "initial_city_control",
           "controlled_city_counts"]
