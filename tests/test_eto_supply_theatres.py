"""ETO supply sources outside the home countries (32.1, 32.2): colony city resource hexes,
the Capetown, India, Canada and US boxes, and American units using British sources.

The land core's units table has no UK, US or French nation rows (units.toml fields only
GE, IT, FI, RO, HU and SU), so these tests add them for the test only (monkeypatch) and
declare the three as Allied nations in their own scenario text."""

from __future__ import annotations

import numpy as np
import pytest
from eto_kit import scenario_text, unit

from workbench.engine import load_scenario
from workbench.map import Box
from workbench.rulesets.eto import supply
from workbench.rulesets.eto.control import SIDE_CODE, control

ALEXANDRIA = "08988"  # Egypt, two hexes' overland line from Cairo
REYKJAVIK = "01113"   # Iceland: no city resource hex, cut off from Britain by sea
WESTERN = {
    "UK": {"name": "United Kingdom", "kind": "major", "partnership": "western", "countries": ["United Kingdom"]},
    "US": {"name": "United States", "kind": "major", "partnership": "western", "countries": []},
    "FR": {"name": "France", "kind": "major", "partnership": "western", "countries": ["France"]},
}


@pytest.fixture
def theatre(tmp_path, monkeypatch):
    """``theatre(units, control=..., allies=..., tracks=...)``: a state with UK/US/FR as Allied nations."""
    def make(units, *, control_=None, allies=("SU", "UK", "US", "FR"), tracks=None):
        ctrl = {"Egypt": "allies", "United Kingdom": "allies", **(control_ or {})}
        text = scenario_text([unit("GE-x", "GE", "infantry", "08640"), *units], tracks=tracks)
        text = text.replace('[sides.allies]\nnations = ["SU"]',
                            "[sides.allies]\nnations = [" + ", ".join(f'"{n}"' for n in allies) + "]")
        text = text.replace("[control]\n", "[control]\n" + "".join(f'"{k}" = "{v}"\n' for k, v in ctrl.items()))
        path = tmp_path / "theatre.toml"
        path.write_text(text)
        state = load_scenario(path).new_state(seed=1)
        nations = state.ruleset.tables["units"]["nations"]
        for code, row in WESTERN.items():
            monkeypatch.setitem(nations, code, row)
        return state
    return make


def _traces(state, uid: str) -> bool:
    return supply.traces(state, state.unit(uid))


def _near(state, place: str) -> str:
    """A land hex next to ``place`` in the same country (so the line is not of length 0)."""
    hm = state.map
    i = hm.index(hm.hex_of(place))
    country = hm.column("country")
    for j in hm.neighbors[i]:
        if j >= 0 and country[j] == country[i] and not hm.is_water[j]:
            return hm.label(int(j))
    raise AssertionError(place)


# -- 32.1 colonies --------------------------------------------------------------------------------
def test_eto_32_1_the_table_lists_the_rulebooks_five_colony_sources(theatre):
    """32.1: "City resource hexes in colonies (Beirut, Algiers, Cairo, Mosul, and Durazzo) are supply
    sources for all units of the colonial major country" - exactly these five, each a city resource
    hex of a colony of its major on the map."""
    s = theatre([])
    rows = s.ruleset.tables["supply_sources"]["colonies"]
    assert {r["place"]: r["nation"] for r in rows} == {
        "Beirut": "FR", "Algiers": "FR", "Cairo": "UK", "Mosul": "UK", "Durazzo": "IT"}
    hm = s.map
    owner = {"FR": "France", "UK": "United Kingdom", "IT": "Italy"}
    for r in rows:
        i = hm.index(hm.hex_of(r["place"]))
        assert hm.flag("city_resource")[i] and hm.column("colony_of")[i] == owner[r["nation"]]
        assert r["source"] == "rulebook" and r["rationale"]


@pytest.mark.parametrize("place,country,nation,side,other", [
    ("Beirut", "Lebanon-Syria", "FR", "allies", "SU"),
    ("Algiers", "Algeria", "FR", "allies", "SU"),
    ("Cairo", "Egypt", "UK", "allies", "SU"),
    ("Mosul", "Iraq", "UK", "allies", "SU"),
    ("Durazzo", "Albania", "IT", "axis", "GE"),
])
def test_eto_32_1_colony_city_resource_hexes_supply_the_colonial_major(theatre, place, country, nation, side,
                                                                      other):
    """32.1: a colony city resource hex is a supply source "for all units of the colonial major
    country" - a unit of that major next to it traces supply; a unit of another nation of the same
    side in the same hex (whose own sources are out of reach) does not."""
    probe = theatre([])
    at = _near(probe, place)
    s = theatre([unit("major", nation, "infantry", at), unit("other", other, "infantry", at)],
                control_={country: side})
    assert s.map.index(s.map.hex_of(place)) in supply.sources(s, nation, side)
    assert _traces(s, "major")
    assert not _traces(s, "other")


def test_eto_32_1_a_captured_colony_source_serves_again_when_recaptured(theatre):
    """32.1: "City resource hexes that have been captured by the enemy cannot be used as supply
    sources. However, if they are subsequently recaptured by the original country or its partners,
    they again serve as supply sources." - Cairo, the only British source in reach of Alexandria."""
    s = theatre([unit("UK-1", "UK", "infantry", ALEXANDRIA)])
    cairo = s.map.index(s.map.hex_of("Cairo"))
    assert _traces(s, "UK-1")
    control(s)[cairo] = SIDE_CODE["axis"]
    s.forget()
    assert not _traces(s, "UK-1")
    control(s)[cairo] = SIDE_CODE["allies"]
    s.forget()
    assert _traces(s, "UK-1")


def test_eto_32_1_colony_supplied_units_are_not_marked_in_the_supply_step(theatre):
    """32.1 with 33.3: in the Supply step a British unit tracing to Cairo stays in supply; a Soviet
    unit in Egypt (no Soviet source in reach) is marked out of supply."""
    s = theatre([unit("UK-1", "UK", "infantry", ALEXANDRIA), unit("SU-1", "SU", "infantry", "09390")])
    supply.supply_step(s, None)
    assert not s.unit("UK-1").props.get("oos")
    assert s.unit("SU-1").props.get("oos")


# -- 32.1 boxes -----------------------------------------------------------------------------------
@pytest.mark.parametrize("box", ["Capetown box", "India box", "Canada box"])
def test_eto_32_1_capetown_india_and_canada_boxes_supply_uk_units(theatre, box):
    """32.1: "The Capetown, India, and Canada boxes are supply sources for the UK player." - a UK
    unit in the box is in supply; a Soviet unit in the same box is not."""
    s = theatre([unit("UK-1", "UK", "infantry", box), unit("SU-1", "SU", "infantry", box)])
    assert _traces(s, "UK-1")
    assert not _traces(s, "SU-1")


def test_eto_32_1_us_box_supplies_uk_units_only_after_the_us_enters_the_war(theatre):
    """32.1: "The US box is a supply source for US and UK units after the US enters the war."
    The scenario's US.at_war track decides; without it, a US fielded on a side is at war."""
    units = [unit("UK-1", "UK", "infantry", "US box")]
    assert not _traces(theatre(units, tracks={"US.at_war": 0}), "UK-1")
    assert _traces(theatre(units, tracks={"US.at_war": 1}), "UK-1")
    assert _traces(theatre(units), "UK-1")                              # US fielded, no track
    assert not _traces(theatre(units, allies=("SU", "UK")), "UK-1")     # no US in the game


def test_eto_32_1_box_supply_reaches_the_map_only_through_its_map_links(theatre, monkeypatch):
    """32.1 with 32.3 and 32.5 (ruling): a box supplies units in the box; an overland line (32.3)
    can reach it only through a map hex the box links to.  The Canada box links only to sea areas,
    so a UK unit in Iceland is out of supply; were the box linked to a friendly Icelandic hex,
    that hex would be a UK source."""
    s = theatre([unit("UK-1", "UK", "infantry", "01112")], control_={"Iceland": "allies"})
    assert all(not link.isdigit() for link in s.map.boxes["Canada box"].links)
    assert not _traces(s, "UK-1")
    canada = s.map.boxes["Canada box"]
    monkeypatch.setitem(s.map.boxes, "Canada box",
                        Box(canada.name, canada.kind, (*canada.links, REYKJAVIK), canada.attrs))
    s.forget()
    assert s.map.index(REYKJAVIK) in supply.sources(s, "UK", "allies")
    assert _traces(s, "UK-1")
    assert s.map.index(REYKJAVIK) not in supply.sources(s, "SU", "allies")


# -- 32.2 US units --------------------------------------------------------------------------------
def test_eto_32_2_us_units_trace_to_any_british_supply_source_or_the_us_box(theatre):
    """32.2: "American units can trace supply to any British supply source or to the US box." -
    a British home city (Birmingham's neighbour), a British colony source (Cairo) and a British box
    (India); a Soviet unit in the same places cannot."""
    near_bham = "02745"
    s = theatre([unit("US-eng", "US", "infantry", near_bham), unit("US-egy", "US", "infantry", ALEXANDRIA),
                 unit("US-ind", "US", "infantry", "India box"), unit("US-box", "US", "infantry", "US box"),
                 unit("SU-eng", "SU", "infantry", near_bham), unit("SU-egy", "SU", "infantry", "09390"),
                 unit("SU-ind", "SU", "infantry", "India box")])
    assert s.map.column("country")[s.map.index(near_bham)] == "United Kingdom"
    assert supply.source_nations(s, "US") == ["US", "UK"]
    for uid in ("US-eng", "US-egy", "US-ind", "US-box"):
        assert _traces(s, uid), uid
    for uid in ("SU-eng", "SU-egy", "SU-ind"):
        assert not _traces(s, uid), uid


def test_eto_32_2_sharing_is_one_way(theatre):
    """32.2 gives American units British sources, not the reverse: before the US enters the war a
    UK unit in the US box is out of supply while a US unit's British sources still serve it."""
    s = theatre([unit("UK-1", "UK", "infantry", "US box"), unit("US-1", "US", "infantry", ALEXANDRIA)],
                tracks={"US.at_war": 0})
    assert supply.source_nations(s, "UK") == ["UK"]
    assert not _traces(s, "UK-1")
    assert _traces(s, "US-1")
    reach_us, reach_uk = supply.reach(s, "US", "allies"), supply.reach(s, "UK", "allies")
    assert np.array_equal(reach_us >= 0, reach_uk >= 0)


# -- 32.1 permanent fortifications ------------------------------------------------------------------
WEST_WALL = "03950"  # Germany
MAGINOT = "04155"    # France


def _cut_off(state, hex_: str, side: str = "allies") -> None:
    """Give the enemy the ring around ``hex_`` so no overland line reaches it (32.3)."""
    hm = state.map
    ring = hm.neighbors[hm.index(hex_)]
    control(state)[ring[ring >= 0]] = SIDE_CODE[side]
    state.forget()


def test_eto_32_1_a_permanent_fort_supplies_one_friendly_unit_in_the_hex(theatre):
    """32.1: "A permanent fortification provides supply for one Friendly unit in the hex." - two
    German units cut off in a West Wall hex: one is supplied (first by id), the other is marked
    out of supply in the Supply step (33.3)."""
    s = theatre([unit("GE-1", "GE", "infantry", WEST_WALL), unit("GE-2", "GE", "infantry", WEST_WALL)])
    assert _traces(s, "GE-1") and _traces(s, "GE-2")  # a line home to the German sources
    _cut_off(s, WEST_WALL)
    assert supply.reach(s, "GE", "axis")[s.map.index(WEST_WALL)] < 0
    assert _traces(s, "GE-1")
    assert not _traces(s, "GE-2")
    supply.supply_step(s, None)
    assert not s.unit("GE-1").props.get("oos")
    assert s.unit("GE-2").props.get("oos")


def test_eto_32_1_a_captured_permanent_fort_supplies_no_more(theatre):
    """32.1: "This capability is lost once the permanent fort is captured." - a West Wall hex once
    held by the Allies at a Supply step never supplies again, even back in German hands; and a
    French Maginot fort held by the Axis never supplies German units."""
    s = theatre([unit("GE-1", "GE", "infantry", WEST_WALL), unit("GE-m", "GE", "infantry", MAGINOT)],
                control_={"France": "axis"}, allies=("SU", "UK", "US"))
    _cut_off(s, WEST_WALL)
    _cut_off(s, MAGINOT)
    assert _traces(s, "GE-1")
    assert not _traces(s, "GE-m")
    wall = s.map.index(WEST_WALL)
    control(s)[wall] = SIDE_CODE["allies"]
    supply.note_captured_forts(s)
    assert WEST_WALL in s.markers["captured_forts"]
    control(s)[wall] = SIDE_CODE["axis"]
    s.forget()
    assert not _traces(s, "GE-1")
