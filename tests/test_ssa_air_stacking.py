"""SS Amerika air stacking in the air (SSA-9.2b) on the test map: US fighters (range 6) based at
Port City (0306) and Mill Town (0806), industrial cities that base 4 air units each (SSA-6.3a)."""

from __future__ import annotations

import pytest
from test_ssa_movement import to_step

from workbench.engine import IllegalOrder


def test_ssa_9_2b_six_air_units_in_the_air_over_a_hex(ssa_game):
    units = [{"id": f"US-f{i}", "nation": "US", "type": "standard_fighter", "at": "0306" if i < 4 else "0806"}
             for i in range(7)]
    units.append({"id": "GE-inf", "nation": "GE", "type": "infantry_division", "at": "0604"})
    s = to_step(ssa_game(units).new_state(seed=1), "player/initial-movement", "allies")
    for i in range(6):
        s.apply({"kind": "fly", "unit": f"US-f{i}", "to": "0604", "mission": "interdict_ground"})
    assert sum(1 for u in s.units_by_id.values() if u.location == "0604" and u.side == "allies") == 6
    assert not any(o["unit"] == "US-f6" and o["to"] == "0604" for o in s.legal_orders_of("fly"))
    with pytest.raises(IllegalOrder) as exc:
        s.apply({"kind": "fly", "unit": "US-f6", "to": "0604", "mission": "interdict_ground"})
    assert exc.value.rule == "SSA-9.2b" and "at most 6 friendly air units" in exc.value.why
