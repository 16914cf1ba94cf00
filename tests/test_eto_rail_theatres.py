"""ETO rail in the outer theatres: the UK's Egyptian rail point (31.4) and the Middle East
restriction (31.5), on the europe map with Egypt, the Levant, Turkey and Persia made Allied."""

from __future__ import annotations

import pytest
from eto_kit import new_state, step_to, unit

from workbench.engine.errors import IllegalOrder
from workbench.rulesets.eto import rail
from workbench.rulesets.eto.control import SIDE_CODE, control
from workbench.rulesets.eto.terrain import terrain_arrays

LEVANT = ("Egypt", "Palestine", "Transjordan", "Lebanon-Syria", "Iraq", "Turkey", "Persia")


def _allied_game(tmp_path, uk: dict[str, str], su: dict[str, str] | None = None):
    """A game at the Allied movement step: ``uk`` units (id -> hex) are British infantry,
    ``su`` Soviet; Egypt, the Levant, Iraq, Turkey and Persia are Allied-controlled."""
    units = [unit("GE-a", "GE", "infantry", "06139")]
    units += [unit(uid, "SU", "infantry", at) for uid, at in {**uk, **(su or {})}.items()]
    s = new_state(tmp_path, units)
    for uid in uk:
        s.unit(uid).nation = "UK"
    ta = terrain_arrays(s)
    ctrl = control(s)
    for c in LEVANT:
        ctrl[(ta.country == c) & ta.land] = SIDE_CODE["allies"]
    s.forget()
    step_to(s, "movement/move")
    if s.decision.side != "allies":
        s.apply({"kind": "end_step"})
    assert (s.decision.kind, s.decision.side) == ("movement/move", "allies")
    return s


def _egypt_neighbour(s, label: str) -> str:
    hm, ta = s.map, terrain_arrays(s)
    i = hm.index(label)
    return next(hm.label(int(j)) for j in hm.neighbors[i] if j >= 0 and ta.land[j] and ta.country[j] == "Egypt")


def test_eto_31_4_egypt_gives_the_uk_one_rail_point(tmp_path):
    """31.4: "The UK player is allowed one rail point for Egypt": one British unit moves by rail
    in Egypt this turn, paid from the Egyptian point; a second is refused."""
    cairo = "09390"
    s = _allied_game(tmp_path, {"UK-a": cairo, "UK-b": cairo})
    assert s.map.hex_of("Cairo") == cairo
    assert rail.capacity(s, "UK_Egypt") == 1 and rail.pools(s, "UK") == ["UK", "UK_Egypt"]
    dest = s.map.hex_of("Alexandria")
    assert {"kind": "rail", "unit": "UK-a", "to": dest} in s.legal_orders()
    s.apply({"kind": "rail", "unit": "UK-a", "to": dest})
    assert s.unit("UK-a").location == dest
    assert (rail.used(s, "UK_Egypt"), rail.used(s, "UK")) == (1, 0)
    assert not [o for o in s.legal_orders() if o["kind"] == "rail" and o["unit"] == "UK-b"]
    with pytest.raises(IllegalOrder) as e:
        s.apply({"kind": "rail", "unit": "UK-b", "to": dest})
    assert e.value.rule == "ETO-31.4" and "already used" in str(e.value)
    assert s.unit("UK-b").location == cairo


def test_eto_31_4_the_unit_must_pass_through_egypt(tmp_path):
    """31.4: "The unit transported must pass through at least one hex of Egypt": Jerusalem to
    Beirut never touches Egypt and is refused; Jerusalem to Cairo ends in Egypt and is allowed."""
    jerusalem, beirut, cairo = "10083", "09979", "09390"
    s = _allied_game(tmp_path, {"UK-a": jerusalem})
    assert s.map.hex_of("Beirut") == beirut and s.map.hex_of("Jerusalem") == jerusalem
    assert not [o for o in s.legal_orders() if o["kind"] == "rail" and o["to"] == beirut]
    with pytest.raises(IllegalOrder) as e:
        s.apply({"kind": "rail", "unit": "UK-a", "to": beirut})
    assert e.value.rule == "ETO-31.4" and "Egypt" in str(e.value)
    assert rail.used(s, "UK_Egypt") == 0
    s.apply({"kind": "rail", "unit": "UK-a", "to": cairo})
    assert s.unit("UK-a").location == cairo and rail.used(s, "UK_Egypt") == 1


def test_eto_31_4_no_egyptian_point_while_the_axis_holds_cairo(tmp_path):
    """31.4: "... unless Cairo has been captured by the Axis": with Cairo Axis-controlled the
    point is 0 and an Egyptian rail move is refused; Cairo retaken, the point is back (ruling)."""
    alex = "08988"
    s = _allied_game(tmp_path, {"UK-a": alex})
    dest = _egypt_neighbour(s, alex)
    ctrl = control(s)
    cairo = s.map.index(s.map.hex_of("Cairo"))
    ctrl[cairo] = SIDE_CODE["axis"]
    s.forget()
    assert rail.capacity(s, "UK_Egypt") == 0
    assert not [o for o in s.legal_orders() if o["kind"] == "rail"]
    with pytest.raises(IllegalOrder) as e:
        s.apply({"kind": "rail", "unit": "UK-a", "to": dest})
    assert e.value.rule == "ETO-31.4" and "Cairo" in str(e.value)
    ctrl[cairo] = SIDE_CODE["allies"]
    s.forget()
    assert rail.capacity(s, "UK_Egypt") == 1
    s.apply({"kind": "rail", "unit": "UK-a", "to": dest})
    assert s.unit("UK-a").location == dest


def _caucasus(s) -> str:
    """A Soviet hex bordering Persia, off the rail network's edge cases (no enemy nearby)."""
    hm, ta = s.map, terrain_arrays(s)
    for i in sorted(int(k) for k in ((ta.country == "USSR") & ta.land).nonzero()[0]):
        if any(j >= 0 and ta.country[j] == "Persia" and ta.land[j] for j in hm.neighbors[i]):
            return hm.label(i)
    raise AssertionError("no Soviet hex next to Persia")


def test_eto_31_5_asiatic_turkey_and_persia_areas(tmp_path):
    """31.5 names "Asiatic Turkey and/or Persia": Ankara and Tabriz are in the restricted area,
    Istanbul's hex and Thrace (European Turkey), Baghdad and Moscow are not."""
    s = new_state(tmp_path, [unit("GE-a", "GE", "infantry", "06139")])
    (name, area), = rail.middle_east_areas(s)
    hm = s.map
    inside = {c: bool(area[hm.index(hm.hex_of(c))]) for c in ("Ankara", "Tabriz", "Adana", "Istanbul", "Baghdad",
                                                              "Moscow")}
    assert inside == {"Ankara": True, "Tabriz": True, "Adana": True, "Istanbul": False, "Baghdad": False,
                      "Moscow": False}
    assert not area[hm.index("07767")]  # Edirne's corner of Thrace
    assert "Persia" in name and "Asiatic Turkey" in name


def test_eto_31_5_one_point_per_country_into_out_of_or_through(tmp_path):
    """31.5: "No country can use more than one rail point per turn to move a unit into, out of,
    or through Asiatic Turkey and/or Persia."  The USSR rails one unit into Persia; a second into
    Asiatic Turkey, one out of Persia and one through to Iraq are refused, while a move elsewhere in
    the USSR still uses its capacity.  The UK, another country, still has its own one point."""
    tabriz, ankara, mosul = "11662", "09067", "11268"
    s0 = new_state(tmp_path, [unit("GE-a", "GE", "infantry", "06139")])
    start = _caucasus(s0)
    moscow = s0.map.hex_of("Moscow")
    s = _allied_game(tmp_path, {"UK-a": "09390"},
                     {"SU-a": start, "SU-b": start, "SU-p": tabriz, "SU-m": moscow})
    s.apply({"kind": "rail", "unit": "SU-a", "to": tabriz})
    assert s.unit("SU-a").location == tabriz and rail.used(s, "SU") == 1
    me = [k for k in s.tracks if ".middle_east." in k]
    assert len(me) == 1 and me[0].startswith("SU.") and me[0].endswith(".rail_used") and s.tracks[me[0]] == 1
    for uid, dest, what in (("SU-b", ankara, "into"), ("SU-p", start, "out of"), ("SU-b", mosul, "through")):
        with pytest.raises(IllegalOrder) as e:
            s.apply({"kind": "rail", "unit": uid, "to": dest})
        assert e.value.rule == "ETO-31.5", what
    legal = [o for o in s.legal_orders() if o["kind"] == "rail"]
    _, area = rail.middle_east_areas(s)[0]
    assert not [o for o in legal if o["unit"].startswith("SU") and area[s.map.index(o["to"])]]
    assert not [o for o in legal if o["unit"] == "SU-p"]
    assert rail.used(s, "SU") == 1
    other = next(o for o in legal if o["unit"] == "SU-m")
    s.apply(other)
    assert rail.used(s, "SU") == 2
    # the UK is another country: its Egyptian point takes a unit into Asiatic Turkey (Adana)
    adana = s.map.hex_of("Adana")
    s.apply({"kind": "rail", "unit": "UK-a", "to": adana})
    assert s.unit("UK-a").location == adana and rail.used(s, "UK_Egypt") == 1
