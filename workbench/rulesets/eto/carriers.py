"""Naval air on carriers (ETO-13.3): what a carrier may hold, and what its loss or damage does.

A naval air unit is carrier-based while ``props["carrier"]`` names its CV or CVE.  A CVE holds
only a naval air unit of 1 SP at full strength; a CV sunk with its air aboard takes it to the
force pool; a damaged CV's air may only change base (its missions: :mod:`air_missions`).
"""

from __future__ import annotations

from workbench.engine.errors import Refusal
from workbench.engine.state import State
from workbench.engine.units import Unit
from workbench.rulesets.eto import air_units, naval_units, values

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
    """ETO-13.3: "CV sunk with air aboard -> air eliminated to force pool"."""
    for air in aboard(state, ship):
        if air.location not in (values.FORCE_POOL, values.PERMANENT):
            air_units.eliminate(state, air, RULE, f" (its carrier {ship.id} was sunk)")


if on_sink not in naval_units.SINK_HOOKS:
    naval_units.SINK_HOOKS.append(on_sink)
