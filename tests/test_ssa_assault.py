"""Amphibious assault (gap G-09, authored in tables/assault.toml; SSA-7.7g, 10.1g, 22.2) on the test map.

Set-up: a German convoy with two infantry divisions (8-5) at sea next to the coast; a U.S.
infantry division (7-5) holds the clear coastal hex 0305.  No German supply source is on the
map (the convoy is not in a port), so Germans ashore are out of supply unless SSA-10.1g says
otherwise.  At 16 vs 7 the odds are 2-1; the landing's column shift makes it 1-1, where the
die reads 1 DR, 2 DR, 3 EX, 4 AR, 5 AR, 6 AE (crt.toml).
"""

from __future__ import annotations

import pytest
from kit import FixedDice
from test_ssa_movement import to_step

from workbench.engine import IllegalOrder
from workbench.rulesets.ssa.combat import assess
from workbench.rulesets.ssa.supply import supply_status

TP = {"id": "GE-tp", "nation": "GE", "type": "transport", "at": "0302"}
GE = [{"id": f"GE-i{k}", "nation": "GE", "type": "infantry_division", "at": "0302"} for k in range(2)]
US = {"id": "US-inf", "nation": "US", "type": "infantry_division", "at": "0305"}
LANDED = ["GE-i0", "GE-i1"]


@pytest.fixture
def landing(ssa_game):
    """The position after the two divisions stormed ashore at 0305."""

    def make(units=(), *, embark=LANDED, convoy=TP):
        s = ssa_game([convoy, *GE, US, *units]).new_state(seed=1)
        s = to_step(s, "player/initial-movement", "axis")
        s.apply({"kind": "embark", "convoy": convoy["id"], "units": list(embark)})
        s.apply({"kind": "sail", "unit": convoy["id"], "to": "0305"})
        return s

    return make


def test_ssa_7_7g_amphibious_assault_is_the_one_way_to_land_among_enemy_land_units(landing):
    s = landing()
    with pytest.raises(IllegalOrder) as exc:
        s.apply({"kind": "debark", "convoy": "GE-tp", "units": LANDED})
    assert exc.value.rule == "SSA-7.7g"
    order = {"kind": "amphibious_assault", "convoy": "GE-tp", "units": ["GE-i0"]}
    assert order in s.legal_orders_of("amphibious_assault")
    s.apply({"kind": "amphibious_assault", "convoy": "GE-tp", "units": LANDED})
    assert [s.unit(u).location for u in LANDED] == ["0305", "0305"]
    assert s.events().filter(kind="amphibious_assault").height == 1


def test_ssa_7_7g_no_assault_into_empty_hexes_or_among_enemy_fleets(ssa_game):
    sub = {"id": "US-ss", "nation": "US", "type": "submarine", "at": "0308"}
    for where, words in (("0312", "holds no enemy land units"), ("0308", "enemy naval units")):
        s = to_step(ssa_game([TP, *GE, US, sub, {**US, "id": "US-inf2", "at": "0308"}]).new_state(seed=1),
                    "player/initial-movement", "axis")
        s.apply({"kind": "embark", "convoy": "GE-tp", "units": LANDED})
        s.apply({"kind": "sail", "unit": "GE-tp", "to": where})
        with pytest.raises(IllegalOrder) as exc:
            s.apply({"kind": "amphibious_assault", "convoy": "GE-tp", "units": LANDED})
        assert exc.value.rule == "SSA-7.7g" and words in exc.value.why
        assert s.unit("GE-i0").props.get("carried") == "GE-tp"  # nothing lost


def test_ssa_10_1g_assaulting_units_are_in_supply_during_that_combat_phase(landing):
    s = landing([{**TP, "id": "GE-tp2"}], embark=["GE-i0"])
    s.apply({"kind": "amphibious_assault", "convoy": "GE-tp", "units": ["GE-i0"]})
    s.apply({"kind": "embark", "convoy": "GE-tp2", "units": ["GE-i1"]})
    s.apply({"kind": "sail", "unit": "GE-tp2", "to": "0312"})
    s.apply({"kind": "debark", "convoy": "GE-tp2", "units": ["GE-i1"]})  # an ordinary landing on an empty beach
    from workbench.rulesets.ssa.losses import eliminate

    for convoy in ("GE-tp", "GE-tp2"):  # sunk: no naval supply extension (SSA-10.1f) for anyone
        eliminate(s, s.unit(convoy), "SSA-13")
    status = supply_status(s, "axis")
    assert status["GE-i0"] is True and status["GE-i1"] is False
    s = to_step(s, "player/combat/land", "axis")
    a = assess(s, "axis", ["GE-i0"], ["0305"])
    assert a.land_attack == 8  # full strength: not halved for supply (SSA-11.5)


def test_ssa_22_2_landing_costs_a_column_unless_marines_attack(landing, ssa_game):
    s = landing()
    s.apply({"kind": "amphibious_assault", "convoy": "GE-tp", "units": LANDED})
    s = to_step(s, "player/combat/land", "axis")
    a = assess(s, "axis", LANDED, ["0305"])
    assert (a.attack, a.defense, a.base_column, a.column) == (16, 7, "2-1", "1-1")
    assert (-1, "amphibious assault (no marines)", "SSA-22.2") in a.shifts
    jtp = {"id": "JA-tp", "nation": "JA", "type": "transport", "at": "0302"}
    marines = {"id": "JA-m", "nation": "JA", "type": "marine_division", "at": "0302"}
    s2 = to_step(ssa_game([jtp, marines, US], extra='[options]\noptional_rules = ["SSA-22.2"]\n').new_state(seed=1),
                 "player/initial-movement", "axis")  # marines are special units (22.G)
    s2.apply({"kind": "embark", "convoy": "JA-tp", "units": ["JA-m"]})
    s2.apply({"kind": "sail", "unit": "JA-tp", "to": "0305"})
    s2.apply({"kind": "amphibious_assault", "convoy": "JA-tp", "units": ["JA-m"]})
    s2 = to_step(s2, "player/combat/land", "axis")
    m = assess(s2, "axis", ["JA-m"], ["0305"])
    assert m.column == m.base_column and not [x for x in m.shifts if x[2] == "SSA-22.2"]


def test_g09_landed_units_attack_only_their_own_hex(landing):
    s = landing([{**US, "id": "US-inf2", "at": "0405"}])
    s.apply({"kind": "amphibious_assault", "convoy": "GE-tp", "units": LANDED})
    s = to_step(s, "player/combat/land", "axis")
    with pytest.raises(IllegalOrder) as exc:
        s.apply({"kind": "attack", "attackers": ["GE-i0"], "targets": ["0405"]})
    assert exc.value.rule == "SSA-7.7g" and "only the defenders there" in exc.value.why
    assert {"kind": "attack", "attackers": LANDED, "targets": ["0305"]} in s.legal_orders_of("attack")


def test_g09_cleared_hex_holds_and_takes_line_control(landing):
    s = landing()
    s.apply({"kind": "amphibious_assault", "convoy": "GE-tp", "units": LANDED})
    s = to_step(s, "player/combat/land", "axis")
    s.dice = FixedDice(1)  # 1-1, die 1: DR
    s.apply({"kind": "attack", "attackers": LANDED, "targets": ["0305"]})
    assert s.decision.kind == "retreat"
    s.apply(s.legal_orders()[0])
    s = to_step(s, "player/mechanized-movement", "axis")
    assert [s.unit(u).location for u in LANDED] == ["0305", "0305"]
    assert not s.unit("GE-i0").props.get("assault_hex")
    from workbench.rulesets.ssa.control import SIDE_CODE, control_array

    assert control_array(s)[s.map.index("0305")] == SIDE_CODE["axis"]


@pytest.mark.parametrize("die", [4, None])
def test_g09_a_repulsed_or_idle_landing_is_eliminated(landing, die):
    s = landing()
    s.apply({"kind": "amphibious_assault", "convoy": "GE-tp", "units": LANDED})
    s = to_step(s, "player/combat/land", "axis")
    if die is not None:
        s.dice = FixedDice(die)  # 1-1, die 4: AR, and the sea is behind them
        s.apply({"kind": "attack", "attackers": LANDED, "targets": ["0305"]})
    s = to_step(s, "player/mechanized-movement", "axis")
    assert [s.unit(u).location for u in LANDED] == [s.unit("GE-i0").location] * 2
    assert s.unit("GE-i0").location not in ("0305",) and not s.unit("GE-i0").location.isdigit()
    assert s.unit("US-inf").location == "0305"
