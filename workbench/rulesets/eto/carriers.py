"""Naval air on carriers (ETO-13.1, 13.3, 13.4): what a carrier may hold, where its air takes
off, and what its loss or damage does.

A naval air unit is carrier-based while ``props["carrier"]`` names its CV or CVE; it stands
wherever its carrier is (:func:`sync`) and takes no land base (13.2's slots).  A CVE holds only
a naval air unit of 1 SP at full strength; a CV sunk with its air aboard takes it to the force
pool; a damaged CV's air may only change base (its missions: :mod:`air_missions`).  A flight
from a carrier takes off from the carrier's hex -- in a sea area with a hex grid, the area's hex
nearest where it flies (:func:`launch_hex`; ships are tracked by area, docs/rulings-eto.md); in
a sea area without one it flies no mission but a change of base to another carrier in the area
(13.1).  Air in flight when its carrier is sunk or damaged lands on a land base within twice its
range, even an occupied one, else on another friendly carrier in reach with no air aboard (13.4,
:func:`orphan_lands`).
"""

from __future__ import annotations

from workbench.engine.errors import Refusal
from workbench.engine.state import State
from workbench.engine.units import Unit
from workbench.rulesets.eto import air_units, airbases, naval_units, values
from workbench.rulesets.eto.naval_search import space_hexes

RULE = "ETO-13.3"


def carrier_of(state: State, air: Unit) -> Unit | None:
    cid = air.props.get("carrier")
    c = state.units_by_id.get(cid) if cid else None
    return c if c is not None and c.location not in (values.FORCE_POOL, values.PERMANENT) else None


def aboard(state: State, carrier: Unit) -> list[Unit]:
    return [u for u in air_units.air_units(state, carrier.side) if u.props.get("carrier") == carrier.id]


def sync(state: State, air: Unit) -> None:
    """ETO-13.3: a naval air unit on a carrier is wherever its carrier is."""
    c = carrier_of(state, air)
    if c is not None and air.location not in (values.FORCE_POOL, values.PERMANENT) \
            and not air_units.airborne(air):
        air.location = c.location


def may_base_why_not(state: State, air: Unit, carrier: Unit) -> Refusal | None:
    """ETO-13.3: naval air only; a CVE only a naval air unit of 1 SP at full strength; one unit a
    carrier (13.2's capacity table: a CV or CVE bases one naval air unit)."""
    if values.unit_class(state, air) != "naval_air":
        return Refusal(RULE, f"{air.id} is not naval air: only naval air bases on carriers")
    if not naval_units.is_carrier(state, carrier):
        return Refusal(RULE, f"{carrier.id} is not a CV or CVE")
    full = int(values.value(state, air, "strength", 0) or 0)
    if naval_units.kind(state, carrier) == "CVE" and full > 1:
        return Refusal(RULE, f"a CVE carries only naval air of 1 SP at full strength; {air.id} has {full}")
    if [u for u in aboard(state, carrier) if u.id != air.id]:
        return Refusal(RULE, f"{carrier.id} already carries a naval air unit")
    return None


def mission_why_not(state: State, air: Unit, mission: str) -> Refusal | None:
    """ETO-13.3: "CV damaged -> air may only change base"."""
    c = carrier_of(state, air)
    if c is not None and naval_units.damaged(c) and mission != "change_base":
        return Refusal(RULE, f"{air.id}'s carrier {c.id} is damaged: its air may only change base")
    return None


def on_sink(state: State, ship: Unit, space: str) -> None:
    """ETO-13.3: "CV sunk with air aboard -> air eliminated to force pool"; air in flight lands
    elsewhere when it returns (13.4, :func:`orphan_lands`)."""
    for air in aboard(state, ship):
        if air.location not in (values.FORCE_POOL, values.PERMANENT) and not air_units.airborne(air):
            air_units.eliminate(state, air, RULE, f" (its carrier {ship.id} was sunk)")


def carrier_based(air: Unit) -> bool:
    return bool(air.props.get("carrier"))


def gridless(state: State, space: str) -> bool:
    """ETO-13.1: a sea area without a hex grid."""
    area = state.map.sea_areas.get(space)
    return area is not None and not area.gridded


def launch_hex(state: State, air: Unit, toward: str | None = None) -> str | None:
    """ETO-13.1/13.3: the hex a carrier-based unit takes off from (None: its carrier is in a sea
    area without a hex grid, or gone): the carrier's hex, or in a gridded area the area's hex
    nearest ``toward`` (docs/rulings-eto.md: the carrier's hex inside an area is not tracked)."""
    c = carrier_of(state, air)
    if c is None:
        return None
    if values.on_map_label(c.location):
        return c.location
    if gridless(state, c.location):
        return None
    idx = space_hexes(state, c.location)
    if not len(idx):
        return None
    hm = state.map
    if toward is None or not hm.has_hex(toward):
        return hm.label(int(idx[0]))
    d = hm.dist_from(toward)
    return hm.label(int(idx[int(d[idx].argmin())]))


def landing_hex(state: State, carrier: Unit, frm: str) -> str | None:
    """Where a change of base onto ``carrier`` ends: its hex, or the hex of its gridded area
    nearest ``frm`` (None in an area without a hex grid: land-based flights cannot go there)."""
    if values.on_map_label(carrier.location):
        return carrier.location
    if gridless(state, carrier.location):
        return None
    idx = space_hexes(state, carrier.location)
    if not len(idx):
        return None
    d = state.map.dist_from(frm)
    return state.map.label(int(idx[int(d[idx].argmin())]))


def land_on(state: State, air: Unit, carrier: Unit) -> None:
    """ETO-13.3: ``air`` ends a change of base on ``carrier``."""
    air.props["carrier"] = carrier.id
    air.props["base"] = carrier.location
    air.location = carrier.location
    air.props.pop("overstacked", None)
    state.emit("air_on_carrier", side=air.side, rule=RULE, unit=air.id, carrier=carrier.id,
               text=f"{air.id} lands on {carrier.id} at {carrier.location}")


def leave(air: Unit) -> None:
    """The unit left its carrier for a land base."""
    air.props.pop("carrier", None)


def orphan_lands(state: State, air: Unit, at: str) -> str | None:
    """ETO-13.4: "When a CV is destroyed or damaged while its naval air unit is airborne, that
    naval air unit can rebase to a land base within twice the unit's range, even if that base
    already holds an air unit" (never beyond two air units a base); a vacant base first, then the
    nearest; with none in reach, another friendly carrier in reach with no air aboard ("could return
    to a different CV"); else it is eliminated.  Returns the base (or carrier id), or None."""
    hm = state.map
    leave(air)
    reach = int(airbases.table(state)["evacuation_multiplier"]) * air_units.air_range(state, air)
    near = [b for b in airbases.friendly_bases(state, air.side) if hm.has_hex(at) and hm.distance(at, b) <= reach
            and airbases.load(state, b, air.side) < airbases.max_units(state, b)]
    if not near:  # "the naval air unit could return to a different CV ... as long as it was the only air unit"
        for cv in sorted((c for c in naval_units.naval_units(state, air.side) if naval_units.is_carrier(state, c)
                          and not naval_units.damaged(c) and may_base_why_not(state, air, c) is None),
                         key=lambda c: c.id):
            spot = landing_hex(state, cv, at) if hm.has_hex(at) else None
            if spot is not None and hm.distance(at, spot) <= reach:
                land_on(state, air, cv)
                return cv.id
        air_units.eliminate(state, air, "ETO-13.4", f" (its carrier is lost and no friendly base is within {reach} "
                                                    f"hexes of {at})")
        return None
    dest = min(near, key=lambda b: (0 if airbases.has_room(state, air.side, b, air) else 1, hm.distance(at, b), b))
    airbases.land(state, air, dest)
    state.emit("air_evacuated", side=air.side, rule="ETO-13.4", unit=air.id, frm=at, to=dest,
               text=f"{air.id}'s carrier is lost: it lands at {dest}"
                    + (" (overstacked)" if air.props.get("overstacked") else ""))
    return dest


if on_sink not in naval_units.SINK_HOOKS:
    naval_units.SINK_HOOKS.append(on_sink)
