"""SS Amerika zones of control (SSA-8.1, 8.6), land stacking exemptions (SSA-9.6-9.8) and the
Allied rail limit (SSA-5.7f), on the test map (tests/ssa_kit.py: sea in columns 01-02, coast in
column 03, mountains at 1002-1003 and 1006, the transportation line along row 06)."""

from __future__ import annotations

import pytest
from test_ssa_movement import moved, to_step

from workbench.engine import IllegalOrder
from workbench.rulesets.ssa.stacking import overstacked
from workbench.rulesets.ssa.zoc import land_zoc, naval_zoc


def state_of(ssa_game, units, **kw):
    return ssa_game(units, **kw).new_state(seed=1)


# ------------------------------------------------------------------ SSA-8.6
def test_ssa_8_6_zoc_not_into_hexes_the_unit_could_not_enter(ssa_game):
    pz = {"id": "GE-pz", "nation": "GE", "type": "armor_division", "at": "0902"}
    s = state_of(ssa_game, [pz])
    zoc = land_zoc(s, "axis")
    hm = s.map
    # a mechanized unit may not enter mountains off a transportation line (TEC), so its ZOC stops there
    assert not zoc[hm.index("1002")] and zoc[hm.index("1001")] and zoc[hm.index("0903")]
    inf = {"id": "GE-inf", "nation": "GE", "type": "infantry_division", "at": "0902"}
    assert land_zoc(state_of(ssa_game, [inf]), "axis")[hm.index("1002")]  # foot units may enter (4 MF)
    # along the line the armour may enter the mountain hex 1006, so its ZOC reaches it
    s = state_of(ssa_game, [{**pz, "at": "0906"}])
    assert land_zoc(s, "axis")[hm.index("1006")]
    # no land ZOC into all-sea hexes
    s = state_of(ssa_game, [{**inf, "at": "0305"}])
    zoc = land_zoc(s, "axis")
    assert not zoc[hm.index("0205")] and not zoc[hm.index("0204")] and zoc[hm.index("0405")]


# ------------------------------------------------------------------ SSA-8.1
def test_ssa_8_1_land_units_ignore_naval_zoc(ssa_game):
    us_bb = {"id": "US-bb", "nation": "US", "type": "battle_fleet", "at": "0205"}
    inf = {"id": "GE-inf", "nation": "GE", "type": "infantry_division", "at": "0405"}
    state = ssa_game([us_bb, inf]).new_state(seed=1)
    assert naval_zoc(state, "allies")[state.map.index("0305")]
    assert not land_zoc(state, "allies").any()  # fleets exert no land ZOC
    s = to_step(state, "player/initial-movement", "axis")
    assert moved(s, "GE-inf", ["0305"]) == 1  # clear, no ZOC surcharge


def test_ssa_8_1_naval_units_ignore_land_zoc(ssa_game):
    us = [{"id": f"US-inf{r}", "nation": "US", "type": "infantry_division", "at": f"03{r:02d}"} for r in (2, 4, 8)]
    bb = {"id": "GE-bb", "nation": "GE", "type": "battle_fleet", "at": "0201"}
    s = to_step(ssa_game([*us, bb]).new_state(seed=1), "player/initial-movement", "axis")
    assert not land_zoc(s, "allies")[s.map.index("0203")]  # land ZOC never enters the sea
    s.apply({"kind": "sail", "unit": "GE-bb", "to": "0212"})  # past the coast-watching divisions
    assert s.unit("GE-bb").location == "0212"


# ------------------------------------------------------------------ SSA-9.6-9.8
def test_ssa_9_6_units_aboard_a_convoy_do_not_count(ssa_game):
    units = [{"id": f"GE-inf{i}", "nation": "GE", "type": "infantry_division", "at": "0306"} for i in range(5)]
    units.append({"id": "GE-tp", "nation": "GE", "type": "transport", "at": "0306"})
    s = state_of(ssa_game, units)
    assert overstacked(s, "axis") == ["0306 holds 5 land division-equivalents (limit 3)"]
    s.unit("GE-inf3").flag("carried", "GE-tp")
    s.unit("GE-inf4").flag("carried", "GE-tp")
    assert overstacked(s, "axis") == []


def test_ssa_9_7_leaders_do_not_count(ssa_game):
    units = [{"id": f"GE-inf{i}", "nation": "GE", "type": "infantry_division", "at": "0601"} for i in range(3)]
    units.append({"id": "GE-ldr", "nation": "GE", "type": "leader", "at": "0602"})
    s = to_step(ssa_game(units).new_state(seed=1), "player/initial-movement", "axis")
    s.apply({"kind": "move", "unit": "GE-ldr", "path": ["0601"]})  # into a full stack of 3 divisions
    assert s.unit("GE-ldr").location == "0601" and overstacked(s, "axis") == []


def test_ssa_9_8_three_underground_partisans_beyond_the_land_limit(ssa_game):
    units = [{"id": f"US-inf{i}", "nation": "US", "type": "infantry_division", "at": "0601"} for i in range(3)]
    units += [{"id": f"ALP-{i}", "nation": "ALP", "type": "partisan", "at": "0601", "underground": True}
              for i in range(3)]
    s = state_of(ssa_game, units, allied_nations=("US", "BC", "ALP"))
    assert overstacked(s, "allies") == []  # 3 divisions + 3 underground partisans
    from workbench.engine.units import Unit

    s.units_by_id["ALP-3"] = Unit("ALP-3", "allies", "ALP", "partisan", "brigade", "0601",
                                  props={"underground": True})
    assert overstacked(s, "allies") == ["0601 holds 4 underground partisans (limit 3)"]


# ------------------------------------------------------------------ SSA-5.7f
def test_ssa_5_7f_allies_rail_at_most_ten_divisions_a_turn(ssa_game):
    units = [{"id": f"US-inf{i}", "nation": "US", "type": "infantry_division", "at": f"0{4 + i // 3}06"}
             for i in range(9)]  # three each at 0406, 0506, 0606
    units += [{"id": f"US-mg{i}", "nation": "US", "type": "military_government", "at": "0706"} for i in range(3)]
    units.append({"id": "US-inf9", "nation": "US", "type": "infantry_division", "at": "0706"})
    s = to_step(ssa_game(units).new_state(seed=1), "player/initial-movement", "allies")
    # nine divisions and three regiments (1/3 each, SSA-9.1b) = ten divisions by rail
    for uid in [f"US-inf{i}" for i in range(9)] + [f"US-mg{i}" for i in range(3)]:
        order = next(o for o in s.legal_orders_of("rail") if o["unit"] == uid)
        s.apply(order)
    assert s.tracks["allies.rail_used"] == "10"
    assert not s.legal_orders_of("rail")
    with pytest.raises(IllegalOrder) as exc:
        s.apply({"kind": "rail", "unit": "US-inf9", "path": ["0806"]})
    assert exc.value.rule == "SSA-5.7f" and "10 divisions" in exc.value.why
    s.advance()
    s = to_step(s, "player/initial-movement", "allies", limit=80)  # next turn the limit is fresh
    assert s.legal_orders_of("rail")
