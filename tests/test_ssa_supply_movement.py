"""SS Amerika supply for movement (SSA-10.G) on tests/ssa_kit.py's test map.

Supply for movement is judged once, at the start of the friendly Initial and Mechanized
Movement phases.  The rulebook gives no penalty (gap G-24); the authored one is data in
movement.toml [supply_effects]: MF x 0.5, fractions dropped, the one-hex minimum move
(SSA-5.4) still allowed, no rail movement (docs/rulings-ssa.md).
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from test_ssa_movement import to_step

from workbench.engine import IllegalOrder
from workbench.rulesets.ssa.supply import supply_status

US_FAR = {"id": "US-far", "nation": "US", "type": "infantry_division", "at": "0811"}  # lake cuts its line
US_NEAR = {"id": "US-near", "nation": "US", "type": "infantry_division", "at": "0801"}  # 5 hexes from 0806


def effects(s) -> dict:
    return s.ruleset.tables["movement"]["supply_effects"]


def allowance(s, uid: str) -> float:
    return s.ruleset.order_kinds["move"].rules.allowance(s, s.unit(uid))


def destinations(s, uid: str) -> set[str]:
    return {o["to"] for o in s.legal_orders_of("move") if o["unit"] == uid}


def test_ssa_10_g_out_of_supply_units_move_at_half_mf(ssa_game):
    eff = effects(ssa_game([]))
    assert (eff["movement_mf_factor"], eff["movement_round"], eff["movement_source"]) == (0.5, "down", "authored")
    gun = {"id": "US-gun", "nation": "US", "type": "railroad_gun", "at": "1012"}  # MF 1, out of supply
    s = to_step(ssa_game([US_FAR, US_NEAR, gun]).new_state(seed=1), "player/initial-movement", "allies")
    assert s.markers["unsupplied_for_movement"] == {"side": "allies", "units": ["US-far", "US-gun"]}
    judged = s.events().filter(kind="supply_judged", side="allies")
    assert judged["rule"].to_list() == ["SSA-10.G"] and "US-far, US-gun" in judged["text"].item()
    assert allowance(s, "US-near") == 5  # in supply: the printed MF
    assert allowance(s, "US-far") == math.floor(5 * 0.5) == 2  # 2.5, fraction dropped
    assert allowance(s, "US-gun") == 0  # 1 x 0.5 = 0.5 -> 0
    assert "0806" in destinations(s, "US-near")  # 5 MF away
    assert {"0812", "0911", "1011"} <= destinations(s, "US-far") and "1111" not in destinations(s, "US-far")
    with pytest.raises(IllegalOrder) as exc:  # 3 MF away: within 5, not within 2
        s.apply({"kind": "move", "unit": "US-far", "to": "1111"})
    assert exc.value.rule == "SSA-10.G" and "cut to 2" in exc.value.why
    s.apply({"kind": "move", "unit": "US-far", "path": ["0911", "1011"]})
    assert s.unit("US-far").props["mf_spent"] == 2
    # SSA-5.4: the one-hex minimum move still applies, even at 0 MF
    assert destinations(s, "US-gun") == {"1011", "1112", "0912"}
    s.apply({"kind": "move", "unit": "US-gun", "to": "1112"})
    assert s.unit("US-gun").location == "1112" and "US-gun" not in destinations(s, "US-gun")


def test_ssa_10_g_out_of_supply_units_may_not_move_by_rail(ssa_game):
    assert effects(ssa_game([]))["movement_rail"] is False
    ge = {"id": "GE-inf", "nation": "GE", "type": "infantry_division", "at": "0306"}
    convoy = {"id": "GE-tp", "nation": "GE", "type": "transport", "at": "0306"}  # a port: SSA-10.1f source

    def phase(units):
        s = ssa_game(units).new_state(seed=1)
        s.arrays["control"] = np.full(s.map.size, 1, dtype=np.int8)  # all Axis-controlled line
        return to_step(s, "player/initial-movement", "axis")

    s = phase([ge])  # no convoy: the Axis has no supply source (SSA-10.1e)
    assert s.markers["unsupplied_for_movement"]["units"] == ["GE-inf"]
    assert s.legal_orders_of("rail") == []
    with pytest.raises(IllegalOrder) as exc:
        s.apply({"kind": "rail", "unit": "GE-inf", "to": "1406"})
    assert exc.value.rule == "SSA-10.G" and "out of supply" in exc.value.why
    s = phase([ge, convoy])
    assert s.markers["unsupplied_for_movement"]["units"] == []
    assert {"kind": "rail", "unit": "GE-inf", "to": "1406"} in s.legal_orders_of("rail")
    s.apply({"kind": "rail", "unit": "GE-inf", "to": "1406"})
    assert s.unit("GE-inf").location == "1406"


def test_ssa_10_g_supply_for_movement_is_judged_at_the_start_of_the_phase(ssa_game):
    # US-far (MF 5) at 1012 is out of supply; the logistic corps (MF 8, mech) in Mill Town (0806)
    # drives to 1011 and puts it back in supply (SSA-10.1b) -- too late for this phase.
    far = {**US_FAR, "at": "1012"}
    log = {"id": "US-log", "nation": "US", "type": "motorized_logistic_corps", "at": "0806"}
    s = to_step(ssa_game([far, log]).new_state(seed=1), "player/initial-movement", "allies")
    assert s.markers["unsupplied_for_movement"]["units"] == ["US-far"]
    s.apply({"kind": "move", "unit": "US-log", "to": "1011"})
    assert supply_status(s, "allies")["US-far"] is True  # in supply now ...
    assert allowance(s, "US-far") == 2  # ... but still moves at half its 5 MF this phase
    s = to_step(s, "player/mechanized-movement", "allies")  # judged again (SSA-10.G)
    assert s.markers["unsupplied_for_movement"] == {"side": "allies", "units": []}
