"""ETO-37.7 The Suez Adds box (force_pools.toml [suez_adds])."""

from __future__ import annotations

import pytest
from eto_kit import step_to, unit

from workbench.engine.errors import IllegalOrder
from workbench.rulesets.eto import losses, suez
from workbench.rulesets.eto.construction import build_cost
from workbench.rulesets.eto.control import SIDE_CODE, control
from workbench.rulesets.eto.losses import FORCE_POOL, REPLENISHMENT
from workbench.rulesets.eto.suez import ELIGIBLE as SUEZ_ELIGIBLE

BOX = "Suez Adds box"
UK = 'nations = ["SU", "UK"]'


def _uk_scenario(tmp_path, units, first="1941-09", last="1941-10", **kw):
    import eto_kit

    text = eto_kit.scenario_text(units, first=first, last=last, tracks={"UK.eps": 30},
                                 **kw)
    text = text.replace('nations = ["SU"]', UK)
    text = text.replace('"Estonia" = "allies"', '"Estonia" = "allies"\n"Egypt" = "allies"\n"Iraq" = "allies"\n'
                        '"United Kingdom" = "allies"')
    path = tmp_path / "suez.toml"
    path.write_text(text)
    from workbench.engine import load_scenario

    return load_scenario(path).new_state(seed=1)


def _build_step(s):
    step_to(s, "construction/build", limit=100)
    if s.decision.side == "axis":
        s.apply({"kind": "end_step"})
    assert s.decision.side == "allies" and s.decision.kind == "construction/build"
    return s


BASE = [unit("GE-a", "GE", "infantry", "08640")]


def test_eto_37_7_eliminated_in_africa_asia_island_or_three_hexes_of_med_port(tmp_path):
    """37.7: "British infantry units that are eliminated in Africa, Asia, a Mediterranean island,
    or within three hexes of a port on the Mediterranean Sea ... can be placed in the Suez Adds
    box instead of the Western Allies force pool"; "No other types"."""
    s = _uk_scenario(tmp_path, BASE + [unit("UK-x", "UK", "infantry", "02948")])
    hm = s.map
    cases = {"Cairo": True, "Tobruk": True, "Mosul": True, "Ankara": True, "Palermo": True,
             "03464": True,  # three hexes from Marseilles
             "03463": False,  # four hexes from Marseilles
             "Paris": False, "London": False}
    for place, ok in cases.items():
        label = place if place.isdigit() else hm.hex_of(place)
        u = s.unit("UK-x")
        u.location = label
        losses.eliminate(s, u, "ETO-27.1")
        # 27.7: eliminated inside its home country, British infantry goes to the Replenishment box
        assert u.location == (REPLENISHMENT if place == "London" else FORCE_POOL), place
        assert bool(u.props.get(SUEZ_ELIGIBLE)) is ok, place
        u.props.pop(SUEZ_ELIGIBLE, None)
    assert hm.grid.distance(hm.index("03464"), hm.index(hm.hex_of("Marseilles"))) == 3
    # Not British, or not infantry: never.
    ge = s.unit("GE-a")
    ge.location = hm.hex_of("Tobruk")
    losses.eliminate(s, ge, "ETO-27.1")
    assert not ge.props.get(SUEZ_ELIGIBLE)
    s.units_by_id["UK-arm"] = type(ge)("UK-arm", "allies", "UK", "armor", None, hm.hex_of("Cairo"), False, {})
    losses.eliminate(s, s.unit("UK-arm"), "ETO-27.1")
    assert not s.unit("UK-arm").props.get(SUEZ_ELIGIBLE)


def test_eto_37_7_owner_moves_eligible_unit_to_box_and_builds_at_cairo_or_mosul(tmp_path):
    """37.7: "When a unit from the Suez Adds box is built, it enters play at either Cairo or Mosul
    ... Enemy ZOC does not affect this placement"; the choice is the British player's."""
    s = _uk_scenario(tmp_path, BASE + [unit("UK-a", "UK", "infantry", "02948"),
                                       unit("UK-b", "UK", "infantry", "02948")])
    hm = s.map
    cairo, mosul = hm.hex_of("Cairo"), hm.hex_of("Mosul")
    for uid in ("UK-a", "UK-b"):
        s.unit(uid).location = cairo
        losses.eliminate(s, s.unit(uid), "ETO-27.1")
    # a German unit next to Cairo: its ZOC does not matter
    s.unit("GE-a").location = str(hm.label(int(hm.neighbors[hm.index(cairo)][0])))
    _build_step(s)
    legal = s.ruleset.order_kinds["build"].legal(s)
    assert {"kind": "build", "suez": "box", "unit": "UK-a"} in legal
    s.apply({"kind": "build", "suez": "box", "unit": "UK-a"})
    assert s.unit("UK-a").location == BOX
    with pytest.raises(IllegalOrder, match="ETO-37.7"):
        s.apply({"kind": "build", "unit": "UK-a", "at": hm.hex_of("London")})
    eps = s.tracks["UK.eps"]
    cost = build_cost(s, s.unit("UK-a"))
    s.apply({"kind": "build", "unit": "UK-a", "at": cairo})
    assert s.unit("UK-a").location == cairo and s.tracks["UK.eps"] == eps - cost
    # moving box -> pool outside winter is refused
    s.apply({"kind": "build", "suez": "box", "unit": "UK-b"})
    with pytest.raises(IllegalOrder, match="ETO-37.7: .*only in winter"):
        s.apply({"kind": "build", "suez": "pool", "unit": "UK-b"})
    legal = s.ruleset.order_kinds["build"].legal(s)
    assert {"kind": "build", "unit": "UK-b", "depleted": False, "at": mosul} in legal or \
        any(o.get("unit") == "UK-b" and o.get("at") == mosul for o in legal)


def test_eto_37_7_choice_lapses_and_ineligible_refused(tmp_path):
    """37.7: only units eliminated in the listed places may go to the box (London: no)."""
    s = _uk_scenario(tmp_path, BASE + [unit("UK-a", "UK", "infantry", "02948")])
    losses.eliminate(s, s.unit("UK-a"), "ETO-27.1")
    _build_step(s)
    with pytest.raises(IllegalOrder, match="ETO-37.7: UK-a was not eliminated in Africa"):
        s.apply({"kind": "build", "suez": "box", "unit": "UK-a"})


def test_eto_37_7_both_cities_axis_box_goes_to_force_pool(tmp_path):
    """37.7: "If both of these cities are friendly to the Axis, units in the Suez Adds box must
    be moved to the Western Allies force pool"."""
    s = _uk_scenario(tmp_path, BASE + [unit("UK-a", "UK", "infantry", BOX)])
    hm = s.map
    ctrl = control(s)
    ctrl[hm.index(hm.hex_of("Cairo"))] = SIDE_CODE["axis"]
    assert not suez.closed(s)  # Mosul still British: the box stays
    ctrl[hm.index(hm.hex_of("Mosul"))] = SIDE_CODE["axis"]
    assert suez.closed(s)
    step_to(s, "construction/build", limit=100)
    assert s.unit("UK-a").location == FORCE_POOL


def test_eto_37_7_winter_half_of_british_infantry_additions(tmp_path, monkeypatch):
    """37.7: "During winter seasonal turns, up to one half of the British infantry units being added
    to the force pool can be placed in the Suez Adds box instead.  Also during winter seasonal turns,
    the British player can move units from the Suez Adds box to his force pool"."""
    s = _uk_scenario(tmp_path, BASE + [unit("UK-old", "UK", "infantry", BOX)], first="1941-12", last="1942-02")
    monkeypatch.setitem(s.ruleset.tables["force_pools"]["additions"]["1942"], "UK", {"infantry": 3})
    _build_step(s)
    assert s.turn_label == "1942-winter"
    added = sorted(u.id for u in s.units_by_id.values() if u.nation == "UK" and u.id.startswith("UK-1942"))
    assert len(added) == 3
    s.apply({"kind": "build", "suez": "box", "unit": added[0]})  # 1 of 3 = up to one half
    assert s.unit(added[0]).location == BOX
    with pytest.raises(IllegalOrder, match="ETO-37.7: no more than one half"):
        s.apply({"kind": "build", "suez": "box", "unit": added[1]})
    s.apply({"kind": "build", "suez": "pool", "unit": "UK-old"})
    assert s.unit("UK-old").location == FORCE_POOL
