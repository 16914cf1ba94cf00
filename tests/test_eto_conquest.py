"""ETO-40.0-40.3: conquest, the disposal of a conquered navy, and liberation."""

from __future__ import annotations

from pathlib import Path

import numpy as np
from eto_kit import FixedDice, events, scenario_text, unit

from workbench.engine import load_scenario
from workbench.rulesets.eto import conquest, convoys, income, italy_surrender, politics
from workbench.rulesets.eto import control as ctl
from workbench.rulesets.eto.terrain import terrain_arrays

#: Germany and Italy against the Western Allies, France still fighting (a 1940 what-if).
WAR = '''
[politics]
members = { GE = "axis", IT = "axis", UK = "western", FR = "western", PL = "western", DK = "western", LU = "western" }
fronts = [["axis", "western"]]
'''


def new_state(tmp_path: Path, units: list, *, on: bool = True, air: bool = False):  # noqa: ANN201
    text = scenario_text(units, first="1940-06", last="1940-07", west=True,
                         options={"politics": on, "naval": True, "air": air}, extra=WAR,
                         allies=("UK", "FR", "DK", "LU"), control={"France": "allies"})
    path = tmp_path / "eto-conquest.toml"
    path.write_text(text)
    return load_scenario(path).new_state(seed=1)


def take_all_but_one(state, nation: str, side: str = "axis") -> int:  # noqa: ANN001
    """Give ``side`` every key hex of ``nation`` but the last; return the last one's index."""
    keys = np.flatnonzero(conquest.key_hexes(state, nation))
    ctl.control(state)[keys[:-1]] = ctl.SIDE_CODE[side]
    return int(keys[-1])


def test_eto_40_0_40_1_conquered_when_the_last_city_resource_hex_falls(tmp_path: Path) -> None:
    s = new_state(tmp_path, [unit("GE-1", "GE", "infantry", "03946"), unit("DK-1", "DK", "infantry", "04637"),
                             unit("DK-2", "DK", "infantry", "Force pool")])
    keys = np.flatnonzero(conquest.key_hexes(s, "DK"))
    assert len(keys) == 4  # Denmark's city resource hexes (home and colonies: Iceland, Greenland)
    last = take_all_but_one(s, "DK")
    assert not conquest.conquered_now(s, "DK")
    ctl.pass_through(s, s.unit("GE-1"), [last])
    assert politics.war_state(s)["conquered"] == {"DK": "GE"}
    assert "DK-1" not in s.units_by_id and "DK-2" not in s.units_by_id  # map units and force pool (40.1)
    terr = politics.territory(s, "DK")
    assert np.all(ctl.control(s)[terr] == ctl.AXIS)  # colonies too
    assert ctl.control(s)[s.map.index(s.map.hex_of("Reykjavik"))] == ctl.AXIS
    assert "Denmark is conquered by GE" in events(s, "conquered")[0]["text"]


def test_eto_40_0_a_country_without_cities_falls_as_an_invader_enters(tmp_path: Path) -> None:
    s = new_state(tmp_path, [unit("GE-1", "GE", "infantry", "03946")])
    lu = np.flatnonzero(politics.territory(s, "LU"))
    assert len(lu) == 1 and conquest.key_hexes(s, "LU").sum() == 1  # one hex: its city, or itself
    ctl.pass_through(s, s.unit("GE-1"), [int(lu[0])])
    assert politics.war_state(s)["conquered"] == {"LU": "GE"}


def _france(tmp_path: Path, *faces: int):  # noqa: ANN202
    s = new_state(tmp_path, [unit("GE-1", "GE", "infantry", "03946"), unit("UK-1", "UK", "infantry", "03946"),
                             unit("FR-BB1", "FR", "bb", "03866", name="Provence", props={"in_port": True}),
                             unit("FR-CA1", "FR", "ca", "03866", name="Algerie", props={"in_port": True}),
                             unit("FR-BB2", "FR", "bb", "02153", name="Richelieu", props={"in_port": True}),
                             unit("FR-DD1", "FR", "dd", "Turn track"),
                             unit("FR-1", "FR", "infantry", "03660")])
    s.dice = FixedDice(*faces)
    return s


def test_eto_40_2_disposal_stack_by_stack_and_the_mediterranean_exception(tmp_path: Path) -> None:
    # stacks in label order: Brest 02153, Toulon 03866, then the turn track
    s = _france(tmp_path, 2, 3, 5, 5, 4, 5)
    last = take_all_but_one(s, "FR")
    ctl.pass_through(s, s.unit("GE-1"), [last])
    assert politics.war_state(s)["conquered"]["FR"] == "GE"
    rb = s.unit("FR-BB2")  # Brest: 5 -> joins the fleet opposing the conqueror, leaves the port
    assert (rb.nation, rb.side, rb.props["in_port"], rb.props["captured_from"]) == ("UK", "allies", False, "FR")
    for uid in ("FR-BB1", "FR-CA1"):  # Toulon (Western Mediterranean): 10 -> Germany's prize goes to Italy
        assert (s.unit(uid).nation, s.unit(uid).side) == ("IT", "axis")
    assert "FR-DD1" not in s.units_by_id  # turn track: 9 -> eliminated (2-9)
    assert "FR-1" not in s.units_by_id
    rolls = [e for e in events(s, "roll") if e["rule"] == "ETO-40.2"]
    assert [r["dice"] for r in rolls] == [[2, 3], [5, 5], [4, 5]]
    assert [e["data"]["roll"] for e in events(s, "naval_disposal")] == [5, 10, 9]


def test_eto_40_2_six_to_nine_removed_ten_to_twelve_turn_track_survives(tmp_path: Path) -> None:
    s = _france(tmp_path, 3, 3, 4, 5, 6, 6)
    ctl.pass_through(s, s.unit("GE-1"), [take_all_but_one(s, "FR")])
    assert "FR-BB2" not in s.units_by_id  # 6: removed
    assert "FR-BB1" not in s.units_by_id  # 9: removed
    assert s.unit("FR-DD1").nation == "GE"  # turn track 12: the conqueror's


def test_eto_40_3_liberation_is_a_second_conquest(tmp_path: Path) -> None:
    s = _france(tmp_path, 1, 1, 5, 5, 1, 1, 6, 6)
    ctl.pass_through(s, s.unit("GE-1"), [take_all_but_one(s, "FR")])
    assert s.unit("FR-BB1").nation == "IT"
    home = np.flatnonzero(conquest.key_hexes(s, "FR", home_only=True))
    ctl.control(s)[home[:-1]] = ctl.ALLIES
    ctl.pass_through(s, s.unit("UK-1"), [int(home[-1])])
    ws = politics.war_state(s)
    assert "FR" not in ws["conquered"] and ws["liberated"] == {"FR": "UK"}
    assert np.all(ctl.control(s)[ctl.home_mask(s, "FR", original=True)] == ctl.ALLIES)
    # the Italian prizes from France are diced again: 12, the liberator's fleet
    assert s.unit("FR-BB1").nation == "UK" and s.unit("FR-BB1").side == "allies"
    assert "France is liberated by UK" in events(s, "liberated")[0]["text"]
    income.collection(s, None)  # "does not regain its force pool, seasonal income ..."
    assert "FR.income_pending" not in s.tracks and "UK.income_pending" in s.tracks


def test_eto_40_0_slice_scenarios_conquer_nothing(tmp_path: Path) -> None:
    s = new_state(tmp_path, [unit("GE-1", "GE", "infantry", "03946")], on=False)
    ctl.pass_through(s, s.unit("GE-1"), [take_all_but_one(s, "DK")])
    assert "conquered" not in politics.war_state(s) and not events(s, "conquered")


ITALY_1943 = '''
[politics]
members = { GE = "axis", IT = "axis", UK = "western", FR = "western", US = "western" }
fronts = [["axis", "western"]]
'''


def _italy(tmp_path: Path, units: list, *faces: int):  # noqa: ANN202
    text = scenario_text(units, first="1943-09", last="1943-10", west=True, options={"politics": True},
                         extra=ITALY_1943, allies=("UK", "FR", "US"), control={"Libya": "allies"})
    path = tmp_path / "eto-italy.toml"
    path.write_text(text)
    s = load_scenario(path).new_state(seed=1)
    s.dice = FixedDice(*faces)
    return s


TOE, NAPLES, PALERMO = "05876", "05471", "05277"


def test_eto_40_6_italy_surrenders_on_a_1_or_2(tmp_path: Path) -> None:
    s = _italy(tmp_path, [unit("UK-1", "UK", "infantry", "05677"), unit("IT-1", "IT", "infantry", NAPLES),
                          unit("GE-1", "GE", "infantry", "05069")], 2)
    assert italy_surrender.axis_outside(s) == [] and italy_surrender.mainland(s)[s.map.index(TOE)]
    s.unit("UK-1").location = TOE  # the unit lands on the toe of Italy
    ctl.pass_through(s, s.unit("UK-1"), [s.map.index(TOE)])
    assert politics.war_state(s)["conquered"] == {"IT": "UK"}
    assert "IT-1" not in s.units_by_id and "GE-1" in s.units_by_id  # Italian forces removed (40.1)
    c = ctl.control(s)
    assert c[s.map.index(TOE)] == ctl.ALLIES  # the Allied unit holds it
    assert c[s.map.index(NAPLES)] == ctl.AXIS  # "Italian hexes ... become friendly to the Axis"
    assert c[s.map.index(s.map.hex_of("Cagliari"))] == ctl.AXIS and c[s.map.index(s.map.hex_of("Tirana"))] == ctl.AXIS
    assert c[s.map.index(s.map.hex_of("Tripoli"))] == ctl.ALLIES  # Libya, a colony: the conqueror's
    roll = [e for e in events(s, "roll") if e["rule"] == "ETO-40.6"]
    assert [r["dice"] for r in roll] == [[2]] and roll[0]["side"] == "axis"


def test_eto_40_6_three_to_six_fights_on_one_roll_a_turn(tmp_path: Path) -> None:
    s = _italy(tmp_path, [unit("UK-1", "UK", "infantry", "05677"), unit("UK-2", "UK", "infantry", "05677")], 3, 1)
    ctl.pass_through(s, s.unit("UK-1"), [s.map.index(TOE)])
    assert "IT" not in politics.war_state(s).get("conquered", {})
    ctl.pass_through(s, s.unit("UK-2"), [s.map.index("05875")])  # a second capture this turn: no roll
    assert len([e for e in events(s, "roll") if e["rule"] == "ETO-40.6"]) == 1


def test_eto_40_6_axis_units_in_africa_or_sicily_or_a_sicilian_capture(tmp_path: Path) -> None:
    s = _italy(tmp_path, [unit("UK-1", "UK", "infantry", "05677"), unit("GE-A", "GE", "infantry", "05277")], 1)
    assert italy_surrender.axis_outside(s) == ["Sicily"]
    ctl.pass_through(s, s.unit("UK-1"), [s.map.index(TOE)])
    assert not [e for e in events(s, "roll") if e["rule"] == "ETO-40.6"]
    s2 = _italy(tmp_path, [unit("UK-1", "UK", "infantry", "05677")], 1)
    ctl.pass_through(s2, s2.unit("UK-1"), [s2.map.index(PALERMO)])  # Sicily is not the mainland
    assert not [e for e in events(s2, "roll") if e["rule"] == "ETO-40.6"]


def test_eto_40_8_a_major_holding_colonial_city_resource_hexes_is_not_conquered(tmp_path: Path) -> None:
    s = new_state(tmp_path, [unit("GE-1", "GE", "infantry", "03946")])
    home = np.flatnonzero(conquest.key_hexes(s, "FR", home_only=True))
    ctl.control(s)[home[:-1]] = ctl.AXIS
    ctl.pass_through(s, s.unit("GE-1"), [int(home[-1])])
    assert "FR" not in politics.war_state(s).get("conquered", {})  # Algiers and Beirut hold out
    assert conquest.key_hexes(s, "FR").sum() > len(home)


def _fall_of_france(tmp_path: Path, others: list | None = None):  # noqa: ANN202
    """GE-1 takes Paris with Lyons and Bordeaux Axis-held: 40.4's choice opens (``others``: the
    units beside GE-1, French ones by default)."""
    s = new_state(tmp_path, [unit("GE-1", "GE", "infantry", "03946"), *(others if others is not None else [
        unit("FR-1", "FR", "infantry", "03660"), unit("FR-BB1", "FR", "bb", "03866", name="Provence",
                                                      props={"in_port": True})])])
    hm = s.map
    for p in ("Lyons", "Bordeaux"):
        ctl.control(s)[hm.index(hm.hex_of(p))] = ctl.AXIS
    s.dice = FixedDice(6, 6)
    paris = hm.index(hm.hex_of("Paris"))
    s.unit("GE-1").location = hm.label(paris)
    ctl.pass_through(s, s.unit("GE-1"), [paris])
    return s


def test_eto_40_4_paris_and_two_cities_the_german_player_decides_at_once(tmp_path: Path) -> None:
    s = _fall_of_france(tmp_path)
    d = s.decision
    assert d.side == "axis" and set(d.kinds) >= {"create_vichy", "pass"} and d.rule == "ETO-40.4"
    s.apply({"kind": "create_vichy"})
    ws = politics.war_state(s)
    assert ws["conquered"]["FR"] == "GE" and ws["vichy"] and ws["vichy_inviolate_until"] == "1941-winter"
    assert "FR-1" not in s.units_by_id and s.unit("FR-BB1").nation == "IT"  # 12 at Toulon: Italy's (40.2)
    hm, c = s.map, ctl.control(s)
    for place, want in (("Paris", ctl.AXIS), ("Bordeaux", ctl.AXIS), ("Marseilles", ctl.NEUTRAL),
                        ("Lyons", ctl.NEUTRAL), ("Algiers", ctl.NEUTRAL), ("Beirut", ctl.NEUTRAL)):
        assert c[hm.index(hm.hex_of(place))] == want, place
    assert politics.neutral(s, "VF") and politics.territory(s, "VF")[hm.index(hm.hex_of("Algiers"))]
    from workbench.rulesets.eto import invasion

    why = invasion.declare_why_not(s, "allies", "UK", "VF")  # the Naval and Air phase: invasions are open
    assert (why.rule, why.why) == ("ETO-40.4", "Vichy France's neutrality is inviolate until the 1941-winter "
                                               "seasonal turn")


def test_eto_40_4_declined_is_forgone_for_good(tmp_path: Path) -> None:
    s = _fall_of_france(tmp_path)
    s.apply({"kind": "pass"})
    assert politics.war_state(s)["vichy_declined"] and "FR" not in politics.war_state(s).get("conquered", {})
    hm = s.map
    marseilles = hm.index(hm.hex_of("Marseilles"))
    ctl.pass_through(s, s.unit("GE-1"), [marseilles])
    assert "create_vichy" not in s.decision.kinds


def test_eto_40_4_france_liberated_while_vichy_is_neutral(tmp_path: Path) -> None:
    s = _fall_of_france(tmp_path)
    s.apply({"kind": "create_vichy"})
    s.units_by_id["UK-9"] = type(s.unit("GE-1"))("UK-9", "allies", "UK", "infantry", None, "03946", False, {})
    home = np.flatnonzero(conquest.key_hexes(s, "FR", home_only=True) & (ctl.control(s) == ctl.AXIS))
    ctl.control(s)[home[:-1]] = ctl.ALLIES
    s.unit("UK-9").location = s.map.label(int(home[-1]))
    s.dice = FixedDice(6, 6)  # the Italian prize from Toulon is diced again (40.3): 12, the liberator's
    ctl.pass_through(s, s.unit("UK-9"), [int(home[-1])])
    assert politics.war_state(s)["liberated"] == {"FR": "UK"} and s.unit("FR-BB1").nation == "UK"
    zone = politics.territory(s, "VF")
    assert politics.partnership(s, "VF") == "western" and np.all(ctl.control(s)[zone] == ctl.ALLIES)


def test_eto_40_7_the_conquest_of_the_united_kingdom(tmp_path: Path) -> None:
    london = "02948"
    s = new_state(tmp_path, [
        unit("GE-1", "GE", "infantry", "03946"),
        unit("UK-BB", "UK", "bb", "02153", name="Hood"),
        unit("UK-HQ", "UK", "hq", london, name="8 E.F."), unit("UK-HQ2", "UK", "hq", london, name="Home Forces"),
        unit("UK-CAN", "UK", "infantry", "Canada box"), unit("UK-1", "UK", "infantry", london),
        unit("UK-B", "UK", "bomber", london), unit("UK-B2", "UK", "bomber", london),
        unit("UK-F", "UK", "fighter", london),
        unit("UK-p1", "UK", "infantry", "Force pool"), unit("UK-p2", "UK", "infantry", "Force pool"),
        unit("UK-p3", "UK", "armor", "Force pool"), unit("UK-p4", "UK", "armor", "Force pool"),
    ], air=True)
    s.dice = FixedDice(4, 3)  # UK-B: 4, to Canada; UK-B2: 3, eliminated
    conquest.conquer(s, "UK", "GE")
    for uid in ("UK-BB", "UK-HQ", "UK-CAN"):
        assert s.unit(uid).nation == "US", uid  # "become US property"
    assert s.unit("UK-B").location == "Canada box" and s.unit("UK-B").nation == "UK"
    for uid in ("UK-B2", "UK-F", "UK-1", "UK-HQ2", "UK-p2", "UK-p4"):
        assert uid not in s.units_by_id, uid
    assert {s.unit("UK-p1").type, s.unit("UK-p3").type} == {"infantry", "armor"}  # the Canadians stay
    assert convoys.closed(s, "north_atlantic") and convoys.closed(s, "arctic")
    assert not convoys.closed(s, "us_coast")  # "the US coast automatically opens" (1940)
    assert politics.war_state(s)["us_entry_at"] == "1940-summer"  # "during the following seasonal turn"
    income.collection(s, None)
    assert s.tracks["UK.income_pending"] == 15
    roll = [e for e in events(s, "roll") if e["rule"] == "ETO-40.7"]
    assert [r["dice"] for r in roll] == [[4], [3]]


def test_eto_46_6_liberated_forces_return_one_now_one_each_winter(tmp_path: Path) -> None:
    from workbench.rulesets.eto import liberated_forces

    units = [unit("GE-1", "GE", "infantry", "03946"), unit("UK-9", "UK", "infantry", "03946"),
             unit("FR-1", "FR", "infantry", "03660"), unit("FR-2", "FR", "armor", "03253"),
             unit("FR-3", "FR", "infantry", "Force pool")]
    text = scenario_text(units, first="1940-12", last="1941-01", west=True,
                         options={"politics": True, "naval": True, "optional_rules": ["ETO-46.6"]}, extra=WAR,
                         allies=("UK", "FR", "DK", "LU"), control={"France": "allies"})
    path = tmp_path / "eto-46-6.toml"
    path.write_text(text)
    s = load_scenario(path).new_state(seed=1)
    s.dice = FixedDice(*[6] * 10)
    conquest.conquer(s, "FR", "GE")
    assert [u.id for u in liberated_forces.waiting(s, "FR")] == ["FR-2", "FR-1", "FR-3"]  # strongest first
    assert all(s.unit(u).location == "Unplaced" for u in ("FR-1", "FR-2", "FR-3"))
    home = np.flatnonzero(conquest.key_hexes(s, "FR", home_only=True))
    ctl.control(s)[home[:-1]] = ctl.ALLIES
    s.unit("UK-9").location = s.map.label(int(home[-1]))
    ctl.pass_through(s, s.unit("UK-9"), [int(home[-1])])
    placed = s.unit("FR-2")
    assert placed.side == "allies" and conquest.key_hexes(s, "FR", home_only=True)[s.map.index(placed.location)]
    assert [u.id for u in liberated_forces.waiting(s, "FR")] == ["FR-1", "FR-3"]
    s.turn = s.calendar.index("1941-winter")
    liberated_forces.winter(s)  # "During each winter seasonal turn thereafter, one more"
    assert [u.id for u in liberated_forces.waiting(s, "FR")] == ["FR-3"] and s.unit("FR-1").side == "allies"


def test_eto_40_7_hexes_abroad_become_american_and_the_canadians_come_each_winter(tmp_path: Path) -> None:
    """40.7: "Any friendly hexes and installations outside of the United Kingdom and its colonies
    (Egypt, Palestine, Transjordan, and Iraq) become US territory (including Malta and Gibraltar)";
    "During each subsequent winter seasonal turn, the UK player can add one armor and one infantry
    unit to the force pool"."""
    from workbench.rulesets.eto import holders, uk_conquest

    text = scenario_text([unit("GE-1", "GE", "infantry", "03946"), unit("UK-1", "UK", "infantry", "02948")],
                         first="1940-06", last="1940-07", west=True, options={"politics": True, "naval": True},
                         extra=WAR.replace('LU = "western" }', 'LU = "western", US = "western" }'),
                         allies=("UK", "FR", "DK", "LU", "US"),
                         control={"France": "allies", "Egypt": "allies", "Libya": "allies"})
    path = tmp_path / "eto-40-7.toml"
    path.write_text(text)
    s = load_scenario(path).new_state(seed=1)
    malta, cairo, tobruk = (s.map.index(s.map.hex_of(p)) for p in ("Malta", "Cairo", "Tobruk"))
    assert holders.holder_at(s, malta) == "UK"
    conquest.conquer(s, "UK", "GE")
    assert holders.holder_at(s, malta) == "US"        # "including Malta"
    assert holders.holder_at(s, cairo) == "GE"        # Egypt, a colony 40.7 names, goes to the conqueror (40.1)
    assert holders.holder_at(s, tobruk) == "US"       # Libya: a friendly hex outside them
    mine = [n for n, side in income.majors(s) if side == "allies"]
    owner, _ = income.resource_owner(s, "allies")
    assert owner[tobruk] == mine.index("US")
    adds = uk_conquest.winter_additions(s, {"UK": {"infantry": 6, "armor": 2}, "US": {"infantry": 4}})
    assert adds == {"UK": {"armor": 1, "infantry": 1}, "US": {"infantry": 4}}


def test_eto_40_0_a_colony_falls_when_all_its_cities_and_resource_hexes_are_taken(tmp_path: Path) -> None:
    """40.0: "a colony of a major power is conquered when all cities and resource hexes in it have
    been captured by the invader" -- Libya's four (Tripoli, Benghazi, Derna, Tobruk); then all of it
    is the conqueror's (40.1), while Italy itself fights on."""
    text = scenario_text([unit("GE-1", "GE", "infantry", "03946"), unit("UK-1", "UK", "infantry", "07688")],
                         first="1941-04", last="1941-05", west=True, options={"politics": True}, extra=WAR,
                         allies=("UK", "FR", "DK", "LU"), control={"France": "allies", "Libya": "axis"})
    path = tmp_path / "eto-40-0-colony.toml"
    path.write_text(text)
    s = load_scenario(path).new_state(seed=1)
    uk = s.unit("UK-1")
    libya = (terrain_arrays(s).country == "Libya") & terrain_arrays(s).land
    for place in ("Tobruk", "Derna", "Benghazi"):
        h = s.map.hex_of(place)
        uk.location = h
        ctl.pass_through(s, uk, [s.map.index(h)])
    assert not politics.war_state(s).get("colonies_conquered")
    assert (ctl.control(s)[libya] == ctl.SIDE_CODE["axis"]).sum() > 100
    tripoli = s.map.hex_of("Tripoli")
    uk.location = tripoli
    ctl.pass_through(s, uk, [s.map.index(tripoli)])
    assert politics.war_state(s)["colonies_conquered"] == {"Libya": "UK"}
    assert (ctl.control(s)[libya] == ctl.SIDE_CODE["allies"]).all()
    assert "IT" not in politics.war_state(s).get("conquered", {})


def test_eto_40_4_units_leave_vichy_territory_before_its_neutral_year_begins(tmp_path: Path) -> None:
    """40.4: "Allied and Axis units must leave Vichy territory as soon as possible. All units can trace
    supply freely through Vichy territory (even through enemy units) until they depart. No units can
    be activated for offensives in Vichy territory during this period. After all units have left ...
    neutrality remains inviolate until the next winter seasonal turn"."""
    from workbench.rulesets.eto import command, supply, vichy

    s = _fall_of_france(tmp_path, [unit("GE-2", "GE", "infantry", "03660"), unit("UK-1", "UK", "infantry", "03866")])
    hm = s.map
    s.apply({"kind": "create_vichy"})
    z = vichy.zone(s)
    assert z[hm.index("03660")] and z[hm.index("03866")]
    assert sorted(u.id for u in vichy.departing(s)) == ["GE-2", "UK-1"]
    assert politics.war_state(s)["vichy_departure"]
    assert not command.can_activate(s, s.unit("GE-2"), "axis")            # no activation in Vichy territory
    assert supply.passable(s, "allies")[hm.index("03660")]                 # through the German unit's hex
    outside = int(np.flatnonzero(~z & ta_land(s))[0])
    why = vichy.move_why_not(s, s.unit("GE-2"), ["03661"], lambda: {outside: [outside]})
    assert why is not None and why.rule == "ETO-40.4"
    assert vichy.move_why_not(s, s.unit("GE-2"), ["03661"], lambda: {hm.index("03661"): []}) is None
    for uid in ("GE-2", "UK-1"):
        s.unit(uid).location = hm.label(outside)
    vichy.after_entry(s, s.unit("GE-2"), [hm.label(outside)])
    ws = politics.war_state(s)
    assert "vichy_departure" not in ws and ws["vichy_inviolate_until"] == vichy.next_winter(s.turn_label)


def ta_land(s):  # noqa: ANN001, ANN201
    return terrain_arrays(s).land


def test_eto_40_7_an_early_us_entry_brings_the_1942_forces_at_once(tmp_path: Path, monkeypatch) -> None:  # noqa: ANN001
    """40.7: "If the US is not already at war, it enters during the following seasonal turn. The 1942
    forces are placed in the force pool (exception - BB Massachusetts does not enter until 1942 in any
    event)" -- the US 1942 additions (force_pools.toml) go to the pool at the entry, battleships
    excepted, and the winter 1942 additions do not add them twice."""
    from workbench.rulesets.eto import construction, invasion

    text = scenario_text([unit("GE-1", "GE", "infantry", "03946"), unit("UK-1", "UK", "infantry", "02948")],
                         first="1940-06", last="1942-02", west=True, options={"politics": True, "naval": True},
                         extra=WAR, allies=("UK", "FR", "DK", "LU", "US"), control={"France": "allies"})
    path = tmp_path / "eto-40-7b.toml"
    path.write_text(text)
    s = load_scenario(path).new_state(seed=1)
    conquest.conquer(s, "UK", "GE")
    row = s.ruleset.tables["force_pools"]["additions"]["1942"]["US"]
    monkeypatch.setitem(s.ruleset.tables["force_pools"]["additions"]["1942"], "US", {**row, "bb": 1})  # a battleship
    politics.writable(s)["us_entry_at"] = s.turn_label
    invasion.us_entry(s)
    us = [u for u in s.units_by_id.values() if u.nation == "US" and u.location == "Force pool"]
    want = sum(v for k, v in row.items() if isinstance(v, int) and not isinstance(v, bool))
    assert politics.partnership(s, "US") == "western" and len(us) == want
    assert not any(u.type == "bb" for u in us)                                   # Massachusetts waits for 1942
    before = len(s.units_by_id)
    construction.add_to_pool(s, "US", "allies", "1942", "infantry", int(row["infantry"]))
    assert len(s.units_by_id) == before                                          # never added twice
