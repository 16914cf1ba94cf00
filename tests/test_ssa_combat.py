"""SS Amerika land combat (SSA-11) with scripted dice, on the test map.

Set-up: a US infantry division (7-5, reduced 4) at 0505, clear terrain, in supply
from Port City.  German infantry (8-5) attack from 0404, 0405 and 0506, supplied
by a transport convoy in the port of Port City (0306).
"""

from __future__ import annotations

import pytest
from kit import FixedDice
from test_ssa_movement import to_step

from workbench.engine import IllegalOrder
from workbench.rulesets.ssa.combat import assess

GE = [{"id": f"GE-{h}", "nation": "GE", "type": "infantry_division", "at": h} for h in ("0404", "0405", "0506")]
CONVOY = {"id": "GE-tp", "nation": "GE", "type": "transport", "at": "0306"}
US = {"id": "US-inf", "nation": "US", "type": "infantry_division", "at": "0505"}
ALL_IN = {"kind": "attack", "attackers": ["GE-0404", "GE-0405", "GE-0506"], "targets": ["0505"]}


@pytest.fixture
def combat(ssa_game):
    def make(units, *faces):
        state = ssa_game(units).new_state(seed=1)
        state = to_step(state, "player/combat/land", "axis")
        state.dice = FixedDice(*faces)
        return state

    return make


def last_combat(state):
    import json

    return json.loads(state.events().filter(kind="combat")["data"].to_list()[-1])


def test_ssa_11_G_strength_odds_and_die(combat):
    s = combat([*GE, CONVOY, US], 1)
    a = assess(s, "axis", ALL_IN["attackers"], ["0505"])
    assert (a.attack, a.defense, a.base_column, a.column) == (24, 7, "3-1", "3-1")
    s.apply(ALL_IN)
    c = last_combat(s)
    assert (c["column"], c["die"], c["result"]) == ("3-1", 1, "DE")
    roll = s.events().filter(kind="roll").row(-1, named=True)
    assert roll["rule"] == "SSA-11.G" and "land combat 24 vs 7 at 0505 (3-1)" in roll["purpose"]


def test_ssa_11_9b_DE_reduces_all_then_survivors_retreat(combat):
    s = combat([*GE, CONVOY, US], 1)
    s.apply(ALL_IN)
    assert s.unit("US-inf").reduced
    d = s.decision
    assert (d.side, d.kind, d.rule) == ("allies", "retreat", "SSA-11.9b")
    options = {o["to"] for o in s.legal_orders()}
    assert options and "0404" not in options  # never into enemy units
    s.apply(s.legal_orders()[0])
    assert s.unit("US-inf").location in options
    assert s.decision.side == "axis" and s.decision.kind == "player/combat/land"


def test_ssa_11_9c_DR_all_defenders_retreat_one_hex(combat):
    s = combat([*GE, CONVOY, US], 4)  # 3-1, row 4: DR
    s.apply(ALL_IN)
    assert not s.unit("US-inf").reduced and s.decision.kind == "retreat"


def test_ssa_11_9e_AR_attackers_retreat(combat):
    s = combat([*GE, CONVOY, US], 6)  # 3-1, row 6: AR
    s.apply(ALL_IN)
    assert s.decision.side == "axis" and s.decision.kind == "retreat"
    assert set(s.frames[-1]["data"]["pending"]) == set(ALL_IN["attackers"])


def test_ssa_11_9a_DZ_defender_annihilated(combat):
    us = {**US, "reduced": True}  # 24 vs 4: 6-1, row 1 DZ
    s = combat([*GE, CONVOY, us], 1)
    s.apply(ALL_IN)
    assert s.unit("US-inf").location == "Eliminated"


def test_ssa_11_9d_EX_lower_side_reduces_all_other_side_chooses(combat):
    s = combat([*GE, CONVOY, US], 5)  # 3-1, row 5: EX
    s.apply(ALL_IN)
    assert s.unit("US-inf").reduced  # the lower side (7) reduces all
    d = s.decision
    assert (d.side, d.kind) == ("axis", "exchange_losses")
    # the Axis must lose at least 7 full-strength factors: any one 8-5 division does
    assert sorted(o["units"] for o in s.legal_orders()) == [["GE-0404"], ["GE-0405"], ["GE-0506"]]
    with pytest.raises(IllegalOrder, match="choose losses among"):
        s.apply({"kind": "take_losses", "units": ["US-inf"]})
    s.apply({"kind": "take_losses", "units": ["GE-0405"]})
    assert s.unit("GE-0405").reduced and not s.unit("GE-0404").reduced


def test_ssa_11_9f_AE_and_g_AZ(combat):
    ge = [{"id": "GE-1", "nation": "GE", "type": "infantry_division", "at": "0404", "reduced": True}]  # 5
    us = [{"id": f"US-{i}", "nation": "US", "type": "infantry_division", "at": "0505"} for i in range(3)]  # 21
    s = combat([*ge, CONVOY, *us], 4)  # 5 vs 21: 1-4, row 4: AZ
    s.apply({"kind": "attack", "attackers": ["GE-1"], "targets": ["0505"]})
    assert last_combat(s)["column"] == "1-4" and s.unit("GE-1").location == "Eliminated"
    ge2 = [{"id": "GE-1", "nation": "GE", "type": "infantry_division", "at": "0404"}]  # 8 vs 21: 1-2
    s = combat([*ge2, CONVOY, *us], 5)  # 1-2 row 5: AE
    s.apply({"kind": "attack", "attackers": ["GE-1"], "targets": ["0505"]})
    assert s.unit("GE-1").reduced and s.decision.kind == "retreat"


def test_ssa_11_5_out_of_supply_attackers_halved(combat):
    s = combat([*GE, US], 1)  # no convoy: the Germans are out of supply
    a = assess(s, "axis", ALL_IN["attackers"], ["0505"])
    assert a.attack == 12 and a.base_column == "1-1"


def test_ssa_11_8_rough_defender_shifts_two_left(combat):
    us = {**US, "at": "0904"}  # rough
    ge = [{"id": "GE-a", "nation": "GE", "type": "infantry_division", "at": "0903", "reduced": True},
          {"id": "GE-b", "nation": "GE", "type": "infantry_division", "at": "1004"}]
    s = combat([*ge, us], 1)
    a = assess(s, "axis", ["GE-a", "GE-b"], ["0904"])
    assert a.shifts[0][0] == -2 and a.column == adj_shift(a.base_column, -2)


def test_ssa_11_8_one_hex_most_favorable_not_the_best_of_each(combat):
    """SSA-11.8: "If defending units are on multiple hexes, use the terrain type that is most
    favorable to the defense" -- 0806 (clear, industrial city: 1 column) and 1006 (mountains: 3)
    attacked together shift 3 columns, not 3 + 1."""
    units = [{"id": f"GE-{i}", "nation": "SS", "type": "armor_division", "at": "0906"} for i in range(3)] + [
        {"id": "US-a", "nation": "US", "type": "armored_cavalry_regiment", "at": "0806", "reduced": True},
        {"id": "US-b", "nation": "US", "type": "armored_cavalry_regiment", "at": "1006", "reduced": True}]
    s = combat(units, 1)
    one = [sum(n for n, _, _ in assess(s, "axis", ["GE-0", "GE-1", "GE-2"], [t]).shifts) for t in ("0806", "1006")]
    assert one == [-1, -3]
    both = assess(s, "axis", ["GE-0", "GE-1", "GE-2"], ["0806", "1006"])
    assert sum(n for n, _, _ in both.shifts) == -3 and both.column == adj_shift(both.base_column, -3)


def test_ssa_11_2_a_unit_is_attacked_once_a_phase_even_after_retreating(combat):
    """SSA-11.2: "No unit may attack, or be attacked, more than once per friendly combat phase."
    US-inf, attacked at 0505 (DE), retreats into 0604 beside US-inf2: 0604 may not be attacked
    again this phase, while 0505, now empty of the attacked unit, could be."""
    ge = [{"id": f"GE-{x}", "nation": "GE", "type": "infantry_division", "at": x} for x in ("0404", "0405", "0506")]
    units = ge + [CONVOY, {"id": "US-inf", "nation": "US", "type": "infantry_division", "at": "0505"},
                  {"id": "US-inf2", "nation": "US", "type": "infantry_division", "at": "0604"},
                  {"id": "GE-extra", "nation": "GE", "type": "infantry_division", "at": "0704"}]
    s = combat(units, 4, 1)
    s.apply({"kind": "attack", "attackers": ["GE-0404", "GE-0405", "GE-0506"], "targets": ["0505"]})
    assert last_combat(s)["result"] == "DE"
    s.apply({"kind": "retreat", "unit": "US-inf", "to": "0604"})
    with pytest.raises(IllegalOrder) as exc:
        s.apply({"kind": "attack", "attackers": ["GE-extra"], "targets": ["0604"]})
    assert exc.value.rule == "SSA-11.2"
    assert not any(o["kind"] == "attack" and o["targets"] == ["0604"] for o in s.legal_orders())


def test_ssa_11_9_retreat_priorities_g10(combat):
    """Ruling G-10 (tables/retreat.toml): among the hexes a unit may retreat into, one that keeps
    stacking first, then the farthest from the attackers, then one that can trace supply.  After
    a DE at 0505, 0506 (next to the attacker in 0405) is refused while 0604 and 0605 (two hexes
    away) are open."""
    units = [{"id": "GE-a", "nation": "GE", "type": "infantry_division", "at": "0405"},
             {"id": "GE-b", "nation": "GE", "type": "infantry_division", "at": "0404"}, CONVOY,
             {"id": "US-inf", "nation": "US", "type": "infantry_division", "at": "0505"},
             {"id": "US-2", "nation": "US", "type": "infantry_division", "at": "0506"}]
    s = combat(units, 1)
    s.apply({"kind": "attack", "attackers": ["GE-a", "GE-b"], "targets": ["0505"]})
    assert last_combat(s)["result"] == "DE"
    assert sorted(o["to"] for o in s.legal_orders()) == ["0604", "0605"]
    with pytest.raises(IllegalOrder) as exc:
        s.apply({"kind": "retreat", "unit": "US-inf", "to": "0506"})
    assert exc.value.rule == "SSA-11.9" and "G-10" in exc.value.why
    s.apply({"kind": "retreat", "unit": "US-inf", "to": "0604"})
    assert s.unit("US-inf").location == "0604"


def adj_shift(col, n):
    from workbench.rulesets.ssa import adjudicate

    return adjudicate.shift(col, n)


def test_ssa_tec_river_shift_only_if_all_attack_across(combat):
    us = {**US, "at": "0804"}  # east of the river on column 07
    across = {"id": "GE-w", "nation": "GE", "type": "infantry_division", "at": "0704"}
    same_bank = {"id": "GE-e", "nation": "GE", "type": "infantry_division", "at": "0904"}
    s = combat([across, same_bank, us], 1)
    assert assess(s, "axis", ["GE-w"], ["0804"]).shifts[0][0] == -2
    assert assess(s, "axis", ["GE-w", "GE-e"], ["0804"]).shifts == []


def test_ssa_11_1_attackers_must_be_adjacent(combat):
    s = combat([*GE, CONVOY, US, {"id": "GE-far", "nation": "GE", "type": "infantry_division", "at": "0410"}], 1)
    before = s.digest()
    with pytest.raises(IllegalOrder) as exc:
        s.apply({"kind": "attack", "attackers": ["GE-far"], "targets": ["0505"]})
    assert exc.value.rule == "SSA-11.1" and s.digest() == before


def test_ssa_11_2_no_unit_attacks_or_is_attacked_twice(combat):
    s = combat([*GE, CONVOY, US, {**US, "id": "US-2", "at": "0603"}], 4, 4)
    s.apply({"kind": "attack", "attackers": ["GE-0404", "GE-0405"], "targets": ["0505"]})
    s.apply(s.legal_orders()[0])  # the US unit retreats
    with pytest.raises(IllegalOrder) as exc:
        s.apply({"kind": "attack", "attackers": ["GE-0404"], "targets": [s.unit("US-inf").location]})
    assert exc.value.rule == "SSA-11.2"


def test_ssa_11_legal_attacks_listed_and_combat_is_voluntary(combat):
    s = combat([*GE, CONVOY, US], 1)
    attacks = [o for o in s.legal_orders() if o["kind"] == "attack"]
    assert len(attacks) == 7  # every non-empty subset of the three adjacent divisions
    assert {"kind": "end_step"} in s.legal_orders()


def test_ssa_3_3_parenthesized_units_never_attack(combat):
    mg = {"id": "GE-mg", "nation": "GE", "type": "military_government", "at": "0404"}
    s = combat([mg, US], 1)  # the Military Government's CF is parenthesized (units.toml)
    with pytest.raises(IllegalOrder, match="cannot attack"):
        s.apply({"kind": "attack", "attackers": ["GE-mg"], "targets": ["0505"]})
    assert not [o for o in s.legal_orders() if o["kind"] == "attack"]


def test_ssa_11_7_fleets_in_the_defenders_coastal_hex_add_their_strength(combat):
    from workbench.rulesets.ssa import values

    us = {**US, "at": "0305"}  # a coastal hex
    fleet = {"id": "US-bb", "nation": "US", "type": "battle_fleet", "at": "0305"}
    ge = [{"id": "GE-a", "nation": "GE", "type": "infantry_division", "at": "0304"}]  # 0306 stays out of its ZOC
    s = combat([*ge, us, fleet], 1)  # the US unit traces supply to Port City next door
    bb = float(values.value(s, s.unit("US-bb"), "strength"))
    assert bb > 0
    a = assess(s, "axis", ["GE-a"], ["0305"])
    assert a.defense == 7 + bb
    assert ("naval gunfire (defender)", bb, "SSA-11.7") in a.contributions
