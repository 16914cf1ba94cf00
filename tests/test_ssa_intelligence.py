"""SS Amerika intelligence (SSA-19): the per-side view hides enemy stacks except in combat (19.1),
beside friendly special operations or underground partisans (19.2), after air reconnaissance
within 10 hexes (19.3), and under the ULTRA/ENIGMA war events (19.X)."""

from __future__ import annotations

import pytest
from test_ssa_air import refused, tb
from test_ssa_combat import FixedDice
from test_ssa_movement import to_step

CONVOY = {"id": "GE-tp", "nation": "GE", "type": "transport", "at": "0306"}
GE_F = {"id": "GE-f", "nation": "GE", "type": "standard_fighter", "at": "0405"}  # supplied field base
US = [{"id": f"US-{i}", "nation": "US", "type": "infantry_division", "at": "0805"} for i in (1, 2)]
FAR = {"id": "US-far", "nation": "US", "type": "infantry_division", "at": "1411"}  # 11 hexes from 0405


@pytest.fixture
def axis(ssa_game):
    def make(units, step="player/initial-movement"):
        return to_step(ssa_game(units).new_state(seed=1), step, "axis")

    return make


def test_ssa_19_G_enemy_stacks_are_hidden(axis):
    s = axis([CONVOY, GE_F, *US])
    v = s.ruleset.view(s, "axis")
    assert "GE-f" in v.units_by_id and not v.can_see("US-1")
    assert v.hidden_hexes == ["0805"]
    row = v.units().filter(location="0805").row(0, named=True)
    assert (row["type"], row["hidden"], row["nation"]) == ("stack of 2", 2, None)
    assert s.ruleset.view(s, None) is s  # the umpire sees everything


def test_ssa_19_3_air_recon_one_stack_within_10_hexes_per_source(axis):
    s = axis([CONVOY, GE_F, *US, FAR, {"id": "US-3", "nation": "US", "type": "infantry_division", "at": "0905"}])
    assert {o["hex"] for o in s.legal_orders_of("recon")} == {"0805", "0905"}
    refused(s, {"kind": "recon", "hex": "1411"}, "SSA-19.3")  # 11 hexes
    s.apply({"kind": "recon", "hex": "0805"})
    v = s.ruleset.view(s, "axis")
    assert v.can_see("US-1") and v.can_see("US-2") and "0805" not in v.hidden_hexes and not v.can_see("US-3")
    e = refused(s, {"kind": "recon", "hex": "0905"}, "SSA-19.3")  # the one source is used
    assert "no unused" in e.why


def test_ssa_19_3_recon_only_at_the_start_of_the_phase(axis):
    s = axis([CONVOY, GE_F, *US, {"id": "GE-i", "nation": "GE", "type": "infantry_division", "at": "0402"}])
    s.apply({"kind": "move", "unit": "GE-i", "path": ["0403"]})
    e = refused(s, {"kind": "recon", "hex": "0805"}, "SSA-19.3")
    assert "before any unit moves" in e.why


def test_ssa_19_3_recon_again_at_the_start_of_the_mechanized_phase(axis):
    """SSA-19.3: "At the beginning of each friendly initial movement or mechanized phase" -- an air
    transfer in the Initial Movement phase does not count as a move of the Mechanized phase."""
    s = axis([CONVOY, GE_F, {**GE_F, "id": "GE-f2"}, *US])
    s.apply({"kind": "fly", "unit": "GE-f2", "to": "0306", "mission": "transfer"})
    s = to_step(s, "player/mechanized-movement", "axis")
    assert "0805" in {o["hex"] for o in s.legal_orders_of("recon")}
    s.apply({"kind": "recon", "hex": "0805"})
    assert s.ruleset.view(s, "axis").can_see("US-1")


def test_ssa_19_2_special_operations_in_the_hex_reveal_it(axis):
    so = {"id": "GE-so", "nation": "GE", "type": "special_operations", "at": "0805"}
    s = axis([so, *US])
    v = s.ruleset.view(s, "axis")
    assert v.can_see("US-1") and v.hidden_hexes == []


def test_ssa_19_1_units_in_combat_are_revealed(ssa_game):
    ge = [{"id": f"GE-{x}", "nation": "GE", "type": "infantry_division", "at": "0505"} for x in "ab"]
    s = to_step(ssa_game([*ge, *(tb(f"US-t{i}", "0806") for i in range(1, 5))]).new_state(seed=1),
                "player/initial-movement", "allies")
    assert not s.ruleset.view(s, "allies").can_see("GE-a")
    for i in range(1, 5):
        s.apply({"kind": "fly", "unit": f"US-t{i}", "to": "0505", "mission": "interdict_ground"})
    s = to_step(s, "player/combat/air", "allies")
    s.dice = FixedDice(1)
    s.apply({"kind": "interdict", "units": [f"US-t{i}" for i in range(1, 5)], "target": "0505"})
    v = s.ruleset.view(s, "allies")  # DE: the Allies choose which German unit is reduced
    assert v.can_see("GE-a") and v.can_see("GE-b")


def test_ssa_19_X_ultra_reveals_every_stack_this_turn(axis):
    s = axis([CONVOY, GE_F, *US, FAR])
    s.markers["reveal_all"] = {"axis": s.turn_label}  # the ENIGMA war event's hook
    v = s.ruleset.view(s, "axis")
    assert v.can_see("US-far") and v.hidden_hexes == []
