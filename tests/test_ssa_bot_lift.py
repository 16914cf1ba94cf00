"""The Axis sea lift of the SS Amerika heuristic (issue 25 item 2): transports bought first,
empty convoys called at the island cargo first (SSA-7.7: cargo boards where it starts the phase),
the military government in the first wave (SSA-17.3), and every wave landed beside one U.S.
industrial city (SSA-9.1: at most three divisions a convoy, one hex each)."""

from __future__ import annotations

import numpy as np
import pytest

from workbench.bots.heuristic import Context, make_policy
from workbench.engine import load_scenario
from workbench.rulesets.ssa import values
from workbench.rulesets.ssa.naval import carried_by
from workbench.rulesets.ssa.occupation import city_hexes

SEED = 2026


def _drive(state, pols, until) -> list[dict]:  # noqa: ANN001
    """Let the bots play until ``until(state)``; the orders given on the way."""
    orders = []
    for _ in range(20000):
        if until(state):
            return orders
        side = state.decision.side
        o = pols[side].choose_in(state, side)
        state.apply(o)
        orders.append({**o, "_side": side})
    raise AssertionError("did not get there")


def _at(step: str, side: str = "axis"):
    return lambda s: s.decision.side == side and (s.decision.step or "").endswith(step)


@pytest.fixture()
def first_turn():
    """ssa/1941 at the Axis Initial Movement phase of September 1941, and the orders that led
    there (set-up and mobilization by the heuristic bots)."""
    s = load_scenario("ssa/1941").new_state(seed=SEED)
    pols = {side: make_policy("heuristic", "ssa", side, SEED + k) for k, side in enumerate(s.ruleset.sides)}
    for p in pols.values():
        p.raise_errors = True
    before = _drive(s, pols, _at("initial-movement"))
    return s, pols, before


def test_axis_buys_transports_first(first_turn):
    """SSA-16.G, 7.7a: the Axis's industrial points go to transports first (4 MP a convoy)."""
    _, _, before = first_turn
    axis_builds = [o for o in before if o["kind"] == "mobilize" and o["_side"] == "axis"]
    assert axis_builds and axis_builds[0]["type"] == "transport" and axis_builds[0]["nation"] == "GE"


def test_axis_lift_stages_then_lands_at_one_target(first_turn):
    """The convoys call at the island first and take the government first; then every wave lands
    within four hexes of one U.S. industrial city, three divisions at most a hex."""
    s, pols, _ = first_turn
    hm = s.map
    stranded = pols["axis"].brain._stranded(Context(pols["axis"], s, "axis", None))
    orders = _drive(s, pols, lambda st: not _at("initial-movement")(st))
    axis = [o for o in orders if o["_side"] == "axis"]
    sails = [o for o in axis if o["kind"] == "sail" and s.unit(o["unit"]).type == "transport"]
    debarks = [o for o in axis if o["kind"] == "debark"]
    embarks = [o for o in axis if o["kind"] == "embark"]
    assert sails and debarks and embarks
    first_debark = axis.index(debarks[0])
    assert any(o["kind"] == "embark" for o in axis[:first_debark]), "cargo embarks before any landing"
    staging = [o for o in sails if o["to"].isdigit() and stranded[hm.index(o["to"])]]
    assert staging and sails.index(staging[0]) < sails.index(next(o for o in sails if not stranded[hm.index(o["to"])]))
    first_wave = {u for o in embarks for u in o["units"]}
    assert any(values.value(s, s.unit(u), "military_government", False) for u in first_wave)  # SSA-17.3

    target = pols["axis"].game_memo["landing_target"]
    assert hm.hexes["city_kind"][target] == "industrial"
    assert hm.hexes["country"][target] == "United States"
    landed = {s.unit(o["units"][0]).location for o in debarks}
    assert landed and all(hm.distance(hm.index(h), target) <= 4 for h in landed), (hm.label(target), landed)
    for h in landed:  # SSA-9.1
        n = sum(values.division_equivalents(s, u) for u in s.units_by_id.values()
                if u.side == "axis" and u.location == h and values.is_land(s, u) and not u.props.get("carried"))
        assert n <= 3
    # nothing was put back on the island, and no convoy sails on with cargo left aboard
    assert all(not carried_by(s, c) or not c.location.isdigit() or hm.distance(hm.index(c.location), target) <= 4
               for c in s.units_by_id.values() if c.side == "axis" and c.type == "transport"
               and c.location.isdigit() and c.nation == "GE")


def test_invasion_target_is_the_weakest_reachable_us_industrial_city(first_turn):
    """The target is read from the position: pile enemy strength (as seen) around the chosen city
    and the bot picks another, less defended one."""
    s, pols, _ = first_turn
    brain = pols["axis"].brain
    hm = s.map

    def choose(extra: dict[int, float] | None = None) -> int:
        pol = make_policy("heuristic", "ssa", "axis", 1)
        ctx = Context(pol, s, "axis", None)
        info = brain._info(ctx)
        for i, v in (extra or {}).items():
            info["enemy_str"][i] += v
        return brain._invasion_target(ctx)

    first = choose()
    assert first is not None and first in set(city_hexes(s))
    ring = np.flatnonzero(hm.dist_from(first) <= 1)
    second = choose({int(i): 50.0 for i in ring})
    assert second is not None and second != first
    assert hm.hexes["city_kind"][second] == "industrial"


def test_ssa_bot_plan_is_checked_at_load(tmp_path):
    """A scenario's authored bot plan is data like any other: a bad one is refused at load with the
    key that is wrong, and the sea lift is on only where the plan asks for it."""
    import pytest

    from workbench.engine import load_scenario
    from workbench.engine.errors import ScenarioError
    from workbench.engine.scenario import SCENARIOS_DIR

    text = (SCENARIOS_DIR / "ssa" / "1941.toml").read_text()
    bad = tmp_path / "bad.toml"
    bad.write_text(text.replace("sea_lift = true", 'sea_lift = "yes"'))
    with pytest.raises(ScenarioError, match="bot_plan.axis.sea_lift"):
        load_scenario(bad)
    assert load_scenario("ssa/1941").scenario.raw["bot_plan"]["axis"]["sea_lift"] is True
    assert "bot_plan" not in load_scenario("ssa/d-day-1944").scenario.raw
