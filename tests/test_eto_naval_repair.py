"""ETO ship repair in the seasonal Construction step (37.4) and naval units entering from the turn
track (37.6)."""

from __future__ import annotations

import pytest
from eto_kit import FixedDice, events, new_state, step_to, unit

from workbench.engine.errors import IllegalOrder
from workbench.rulesets.eto import construction, naval_repair, naval_units
from workbench.rulesets.eto.naval_repair import RepairShipOrder

UK_PORT = "02436"  # a major British port
KIEL = "04641"
SEA = "North Sea"


def _state(tmp_path, *units):  # noqa: ANN001, ANN202
    """The autumn 1941 seasonal turn, Construction Step 3, the Allies to decide."""
    tmp_path.mkdir(parents=True, exist_ok=True)
    s = new_state(tmp_path, list(units), west=True, options={"naval": True, "air": True}, first="1941-09",
                  last="1941-10", tracks={"UK.eps": 50, "GE.eps": 50})
    step_to(s, "construction/build", limit=200)
    assert s.turn_label == "1941-autumn"
    if s.decision.side != "allies":
        s.apply({"kind": "end_step"})
    assert s.decision.side == "allies"
    return s


def _damaged(s, uid, *, port=True):  # noqa: ANN001, ANN202
    u = s.units_by_id[uid]
    u.reduced = True
    if port:
        u.props["in_port"] = True
    return u


def test_eto_37_4_a_squadron_is_repaired_at_once_for_two_eps(tmp_path):
    """37.4: "All naval units cost 2 EPs to repair"; a squadron (DD) "is flipped and returned to
    play immediately at full strength"; the order is offered only for the damaged one."""
    s = _state(tmp_path, unit("UK-DD1", "UK", "dd", UK_PORT), unit("UK-DD2", "UK", "dd", UK_PORT))
    _damaged(s, "UK-DD1")
    s.units_by_id["UK-DD2"].props["in_port"] = True
    assert RepairShipOrder().legal(s) == [{"kind": "repair_ship", "unit": "UK-DD1"}]
    eps = s.tracks["UK.eps"]
    s.apply({"kind": "repair_ship", "unit": "UK-DD1"})
    dd = s.units_by_id["UK-DD1"]
    assert not naval_units.damaged(dd) and dd.location == UK_PORT and s.tracks["UK.eps"] == eps - 2
    assert not [e for e in events(s, "roll") if e["rule"] == "ETO-37.4"]


@pytest.mark.parametrize(("die", "seasons", "back"), [(1, 1, "1942-winter"), (3, 3, "1942-summer"),
                                                      (4, 4, "1942-autumn"), (6, 4, "1942-autumn")])
def test_eto_37_4_a_named_ship_rolls_its_seasons_in_the_yard(tmp_path, die, seasons, back):
    """37.4: a named ship rolls a die: "the number of seasons before the ship is returned to
    service, with a maximum of four seasons delay.  A 4, 5 or 6 result indicates four seasons";
    it goes to the turn track (undamaged) and costs 2 EPs."""
    s = _state(tmp_path, unit("UK-BB", "UK", "bb", UK_PORT, name="Warspite"))
    _damaged(s, "UK-BB")
    s.dice = FixedDice(die)
    eps = s.tracks["UK.eps"]
    s.apply({"kind": "repair_ship", "unit": "UK-BB"})
    bb = s.units_by_id["UK-BB"]
    assert naval_repair.delay(s, die) == seasons
    assert bb.location == construction.TURN_TRACK and bb.props["arrives"] == back and not bb.reduced
    assert s.tracks["UK.eps"] == eps - 2
    (roll,) = [e for e in events(s, "roll") if e["rule"] == "ETO-37.4"]
    assert "seasons in the yard for UK-BB" in roll["purpose"]


def test_eto_37_4_a_uboat_costs_four_eps(tmp_path):
    """37.4: "(exception: U-boats cost 4 EPs to repair)"; a U-boat returns at once."""
    s = _state(tmp_path, unit("GE-U1", "GE", "uboat", KIEL))
    u = _damaged(s, "GE-U1")
    assert naval_repair.cost(s, u) == 4
    eps = s.tracks["GE.eps"]
    naval_repair.repair(s, u)
    assert not u.reduced and s.tracks["GE.eps"] == eps - 4


def test_eto_37_4_only_damaged_ships_in_a_friendly_port_with_the_eps(tmp_path):
    """37.4: "Damaged naval units in friendly ports"; 37.1: no deficit spending."""
    s = _state(tmp_path, unit("UK-DD1", "UK", "dd", SEA), unit("UK-DD2", "UK", "dd", UK_PORT),
               unit("UK-DD3", "UK", "dd", KIEL), unit("UK-DD4", "UK", "dd", UK_PORT))
    s.tracks["UK.eps"], s.tracks["UK.reserve"] = 1, 0
    _damaged(s, "UK-DD1", port=False)
    _damaged(s, "UK-DD2")
    _damaged(s, "UK-DD3")
    s.units_by_id["UK-DD4"].props["in_port"] = True
    for uid, why in (("UK-DD1", "not in a friendly port"), ("UK-DD3", "not in a friendly port"),
                     ("UK-DD4", "not damaged"), ("UK-DD2", "cannot pay 2 EPs")):
        with pytest.raises(IllegalOrder, match=why):
            s.apply({"kind": "repair_ship", "unit": uid})


def test_eto_37_4_37_6_a_repaired_named_ship_re_enters_in_its_port(tmp_path):
    """37.4: named ships "re-enter the game the same as new naval units" -- 37.6: in a home
    country port (the one it was repaired in, when it still qualifies), inside the port."""
    s = _state(tmp_path, unit("GE-BB", "GE", "bb", KIEL, name="Tirpitz"), unit("GE-CV", "GE", "cv", "Force pool"))
    bb = _damaged(s, "GE-BB")
    s.dice = FixedDice(1)
    naval_repair.repair(s, bb)
    assert bb.props["repair_port"] == KIEL
    bb.props["arrives"] = s.turn_label
    cv = s.units_by_id["GE-CV"]
    cv.location, cv.props["arrives"] = construction.TURN_TRACK, s.turn_label
    construction.delayed(s, None)
    assert bb.location == KIEL and naval_units.in_port(bb) and "repair_port" not in bb.props
    assert cv.location in construction.naval_entry_ports(s, cv) and naval_units.in_port(cv)
    assert cv.location != "Force pool"


def test_eto_10_0_an_stp_bought_in_construction_is_placed_at_once_in_a_home_port(tmp_path):
    """10.0: "Players can purchase STPs during the Construction phase (37.0) of a seasonal turn.
    STPs are placed on the map immediately" (the Construction Chart's "stp" row: no delay).  The
    new marker goes into a British port at once (37.6: a home country port with room), never on the
    turn track nor inland: London's hex inland of it is refused."""
    s = _state(tmp_path, unit("UK-stpN", "UK", "stp", "Force pool", props={"points": 2}))
    builds = [o for o in s.legal_orders() if o["kind"] == "build" and o.get("unit") == "UK-stpN"]
    assert builds and all(o["at"] in construction.naval_entry_ports(s, s.units_by_id["UK-stpN"]) for o in builds)
    assert UK_PORT in {o["at"] for o in builds}
    inland = "02947"   # a home hex with no port
    with pytest.raises(IllegalOrder) as exc:
        s.apply({"kind": "build", "unit": "UK-stpN", "depleted": False, "at": inland})
    assert exc.value.rule == "ETO-10.0"
    eps = s.tracks["UK.eps"]
    s.apply({"kind": "build", "unit": "UK-stpN", "depleted": False, "at": UK_PORT})
    stp = s.units_by_id["UK-stpN"]
    assert stp.location == UK_PORT and naval_units.in_port(stp)
    assert s.tracks["UK.eps"] == eps - construction.build_cost(s, stp) and construction.delay(s, stp) == 0
