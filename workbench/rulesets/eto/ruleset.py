"""The ETO ruleset object: tables, calendar, sequence of play, order kinds, procedures.

The land campaign core (issue 5): weather (Part 2), command and HQs (22-23),
offensive movement and ZOC (24-25), combat and results (26-27), breakthrough
and exploitation (28-29), the Movement phase and rail (30-31), supply (32-34),
the seasonal turn for land (36-38), and the land special rules (43-45).  Air,
naval, strategic warfare and politics keep their slots in ``sequence.toml``
(``when = "option:..."``) and in the combat pipeline (:data:`combat.EXTRA_TERMS`).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from workbench.engine.errors import IllegalOrder
from workbench.engine.flow import Step
from workbench.engine.ruleset import OrderKind, Ruleset, month_range
from workbench.engine.state import State
from workbench.engine.units import Unit
from workbench.rulesets.eto import (
    activation,
    advance,
    adventurism,
    air_flights,
    air_interception,
    air_missions,
    air_naval,
    air_offensive,
    air_ship_interception,
    air_transport,
    air_units,
    airbases,
    alternative_endings,
    arctic_interdiction,
    breakthrough,
    carriers,  # noqa: F401 - registers 13.3's loss of a carrier's air in naval_units.SINK_HOOKS
    combat,
    command,
    commitment,
    conquest,  # noqa: F401 - registers 40.0's conquest check in control.ENTRY_HOOKS
    construction,
    convoy_routes,
    convoys,
    fleets,
    garrison,
    ground_support,  # noqa: F401 - registers the 17.2/17.3 terms in combat.EXTRA_TERMS and 19.2's superiority
    historical,
    holders,  # noqa: F401 - registers the holder of captured hexes in control.CAPTURE_HOOKS
    hq,
    income,
    initiative,
    invasion,
    iron_route,
    italian_restrictions,
    italy_surrender,  # noqa: F401 - registers 40.6's roll in control.CAPTURE_HOOKS
    lend_lease,
    liberated_forces,
    losses,
    maginot,
    minor_placement,
    naval_interception,
    naval_movement,
    naval_repair,
    naval_search,
    naval_units,
    naval_upkeep,
    neutral_activation,
    paradrop,
    pilot_recovery,
    politics,
    ports,  # also registers the 7.7 port-capture hook in control.ENTRY_HOOKS
    prewar_conquests,
    rail,
    reaction,
    reaction_attack,
    reconnaissance,
    repair,
    replenishment,
    results,
    retreat,
    scenario_check,
    sea_supply,
    sea_transport,
    soviet_adventurism,  # noqa: F401 - registers 47.2 (optional) in the invasion, holder and combat hooks
    soviet_aggression,  # noqa: F401 - registers 43.6 in invasion.LIMITED_HOOKS and politics.FRONT_HOOKS
    stacking,
    strategic_bombing,
    submarines,
    supply,
    surface_raiders,
    uboats,
    values,
    vichy,
    victory,
    weather,
    winter_war,
)
from workbench.rulesets.eto.control import control, home_mask
from workbench.rulesets.eto.face import ETOFace
from workbench.rulesets.eto.front import apply_front
from workbench.rulesets.eto.losses import FORCE_POOL
from workbench.rulesets.eto.movement import MoveOrder

#: Which seasonal turn comes before a month (ETO-SOP 1.2: each year starts with winter).
SEASON_BEFORE = {1: "winter", 4: "spring", 7: "summer", 10: "autumn"}

#: Per-offensive unit marks cleared when an offensive ends (Step 6, unit status).
OFFENSIVE_PROPS = ("in_offensive", "moved", "attacked", "bt_done", "exploiter", "can_exploit", "supplied_offensive",
                   "hq_moved", "sec_adv", "retreated_into", "must_attack")


class RebuildOrder(OrderKind):
    """``rebuild`` means 37.3 (depleted units) in Construction and 34.1 (the box) in the End phase."""

    kind = "rebuild"
    rule = "ETO-34.0"

    def __init__(self) -> None:
        self.construction = construction.RebuildDepletedOrder()
        self.replenish = replenishment.ReplenishOrder()

    def _which(self, state: State) -> OrderKind:
        key = state.step.key if state.step else ""
        return self.construction if key.startswith("construction") else self.replenish

    def legal(self, state: State) -> list[dict[str, Any]]:
        return self._which(state).legal(state)

    def check(self, state: State, order: dict[str, Any]) -> None:
        self._which(state).check(state, order)

    def execute(self, state: State, order: dict[str, Any]) -> None:
        self._which(state).execute(state, order)


class ETORuleset(ETOFace, Ruleset):
    """ETO: monthly turns, with a seasonal turn before January, April, July and October."""

    name = "eto"
    version = "0.2"
    sides = ("axis", "allies")
    boxes = ("Force pool", "Replenishment", "Unplaced", "Eliminated", "Turn track", "Siberian Transfers")
    scenario_keys = frozenset({"seasonal_turns", "control_regions", "supply_markers", "politics"})
    unit_keys = frozenset({"note", "points"})
    optional_rules = scenario_check.OPTIONAL_RULES

    def __init__(self) -> None:
        super().__init__(Path(__file__).parent / "tables")
        kinds: list[OrderKind] = [
            MoveOrder(), rail.RailOrder(), command.ActivateHQOrder(), command.ImpromptuOrder(),
            command.ActivateOrder(), hq.MoveHQOrder(), hq.PlaceHQOrder(), hq.RemoveHQOrder(), breakthrough.BreakthroughOrder(),
            combat.AttackOrder(), combat.DesignateOrder(), combat.ResolveOrder(), combat.TakeLossesOrder(),
            retreat.RetreatOrder(), advance.AdvanceOrder(), advance.BTMoveOrder(), construction.BuildOrder(),
            RebuildOrder(), construction.ReserveOrder(), initiative.BuyOffensivesOrder(), reaction_attack.ReactOrder(),
            paradrop.ParadropOrder(), repair.RepairAttemptOrder(), pilot_recovery.RecoverPilotsOrder(), air_missions.FlyOrder(),
            air_interception.InterceptOrder(), air_ship_interception.InterceptShipsOrder(), airbases.RestackOrder(), air_offensive.AirOffensiveOrder(),
            air_transport.AirTransportOrder(), strategic_bombing.LeaveBoxOrder(), strategic_bombing.RaidOrder(),
            strategic_bombing.ReinforceBoxOrder(), sea_transport.EmbarkOrder(), sea_transport.DebarkOrder(),
            uboats.ConvertUboatOrder(), uboats.MergeSubsOrder(), naval_movement.SailOrder(), fleets.FleetOrder(),
            naval_interception.InterceptNavalOrder(), naval_interception.NavalSearchOrder(),
            sea_supply.LoadSupplyOrder(), sea_supply.RemoveMarkersOrder(), naval_repair.RepairShipOrder(), invasion.DeclareWarOrder(),
            activation.ActivatePartnerOrder(), convoy_routes.CloseRouteOrder(), convoy_routes.OpenRouteOrder(),
            lend_lease.LendLeaseOrder(), arctic_interdiction.TraceRouteOrder(),
            arctic_interdiction.InterdictOrder(), arctic_interdiction.EscortInterceptOrder(), vichy.CreateVichyOrder(),
            adventurism.LimitedWarOrder(), prewar_conquests.ClaimOrder(), winter_war.WinterWarOrder(),
            historical.HomeFighterOrder(), minor_placement.PlaceMinorOrder(), neutral_activation.AttemptActivationOrder(),
            neutral_activation.BuyActivationModifierOrder(), neutral_activation.DeclareAdjacentOrder(),
            maginot.PlaceMaginotFortOrder(),
        ]
        self.order_kinds = {k.kind: k for k in kinds}
        p = self.procedures
        p["weather"] = weather.weather_phase
        p["monthly"] = invasion.us_entry  # 39.6: the US enters as 1942 begins
        p["seasonal"] = self._seasonal_start
        p[vichy.DECLINED] = vichy.declined  # 40.4: "or forever forego the opportunity"
        p["partner-activation"] = activation.phase  # 35.1: Hungary, Rumania, Bulgaria in spring 1941
        p["partner-activation:exit"] = neutral_activation.resolve  # 47.3, 47.4: Spain and Turkey rolled
        p["offensive/command"] = lambda s, st: command.begin_offensive(s, s.phasing)
        p["offensive/exploitation"] = breakthrough.mark_exploiters
        p["offensive/unit-status"] = self._end_offensive
        p["resolve:exit"] = self._end_attack_sequence
        p["paradrops"] = paradrop.resolve_drops  # 4A-E (19.2)
        p["movement/move:exit"] = self._end_movement
        p["end/second-naval:exit"] = self._end_naval_movement  # 33.8, 7.6: ships at sea cost EPs
        p["naval-air"] = sea_transport.note_phase_start  # 10.4: where units stand as the phase begins
        p["naval-air:exit"] = self._end_naval_air  # 10.7, 7.8
        p[naval_interception.SETTLE] = naval_interception.settle  # 8.2: the voyage goes on
        p[naval_interception.COUNTER_SETTLE] = naval_interception.counter_settle  # 8.2: counter-interception
        p["naval-air/supply-debarkation"] = sea_supply.debark_supply  # 10.5, 32.4
        p["naval-air/sides/first-naval-movement:exit"] = self._naval_movement_over
        p["end/second-naval/sail:exit"] = self._end_sail_step  # 33.8 forced voyages; 14.1 interceptors go home
        p["naval-air/sides/naval-attacks:exit"] = naval_search.clear_step  # 8.5: once per step
        p["end/supply"] = self._supply_step
        p["end/replenishment"] = replenishment.begin
        p["end/replenishment:exit"] = replenishment.end
        p["end/command-status"] = self._command_status
        p["end/end-of-turn"] = self._end_of_month
        p["income/collection"] = income.collection
        p["income/losses"] = income.losses
        p["income/convoy-routes"] = self._convoy_routes  # 36.4 automatic closures, 5.6 escorts
        p["income/convoy-routes:exit"] = convoy_routes.charge  # 36.4: closed routes cost next season
        p["income/exchanges"] = lend_lease.reset  # 36.5-36.9: this season's exchanges begin at 0
        p["strategic/arctic"] = arctic_interdiction.begin  # 3.3: this turn's route
        p["strategic/arctic/interdict:exit"] = arctic_interdiction.resolve  # 3.2-3.5
        p[arctic_interdiction.ESCORT_SETTLE] = arctic_interdiction.escort_settled
        p["strategic/raiders"] = surface_raiders.raider_step  # 4.0
        p["strategic/uboats"] = uboats.uboat_step  # 5.0
        p["strategic/iron-route"] = iron_route.interdiction_step  # 6.0
        p["construction/force-pools"] = construction.additions
        p["construction/delayed"] = construction.delayed
        p["construction/build"] = construction.begin_build
        p["construction/build:exit"] = self._end_build
        p["initiative/adjust"] = initiative.adjust
        p["initiative/reveal"] = initiative.reveal
        p[reaction.DECLINED] = reaction.declined
        p.update(results.PROCEDURES)  # 27.1-27.6, 28.3: the combat-result steps
        # air (12.0-15.0): interception settles, destination combats, return to base
        p[air_interception.SETTLE] = air_interception.settle
        p[air_ship_interception.SETTLE] = air_ship_interception.settle  # 14.1: the voyage goes on
        for key in ("naval-air/sides/air-naval", "naval-air/sides/air-movement"):
            p[f"{key}:exit"] = self._air_step_over
        p["defensive-support:exit"] = air_interception.resolve_destinations  # 4A-D: GS meets GS
        p["air-return"] = air_flights.return_all  # 4A-G, 4B-D
        p["air-attacks"] = air_offensive.resolve  # 4B-C
        # Strategic Warfare phase (Part 3): strategic bombing (2.0-2.5)
        p[f"{strategic_bombing.BOXES_STEP}:exit"] = strategic_bombing.settle_boxes
        p[f"{strategic_bombing.RAID_STEP}:exit"] = strategic_bombing.end_raid_step
        p[strategic_bombing.DECLINED] = strategic_bombing.declined
        p["strategic:exit"] = strategic_bombing.end_phase  # 20.1: PC at the end of the phase

    def _seasonal_start(self, state: State, step: Step) -> None:
        """A seasonal turn begins: the US entry (39.6), liberated forces' winter unit (46.6), the
        Maginot Line's coastal forts (40.5)."""
        invasion.us_entry(state, step)
        liberated_forces.winter(state, step)
        maginot.seasonal(state, step)

    def _end_build(self, state: State, step: Step) -> None:
        """End of Construction Step 3: lapsed choices (37.7, 43.1), this season's Maginot marker (40.5)."""
        construction.end_build(state, step)
        maginot.end_construction(state, step)

    def _convoy_routes(self, state: State, step: Step) -> None:
        """Income phase Step 3: 36.4's automatic closures, then 5.6's escort check."""
        convoy_routes.step(state, step)
        convoys.seasonal_check(state, step)

    def _naval_movement_over(self, state: State, step: Step) -> None:
        """End of Naval and Air Step 1: ships out of supply sail for port (33.8); searches are once
        per step (8.5); the bombers that intercepted ships return to base (14.1, 13.0)."""
        naval_upkeep.forced_voyages(state, step)
        naval_search.clear_step(state, step)
        air_flights.return_all(state)

    def _end_sail_step(self, state: State, step: Step) -> None:
        """End of an End-phase naval movement step: ships out of supply sail for port (33.8); the
        bombers that intercepted ships return to base (14.1)."""
        naval_upkeep.forced_voyages(state, step)
        air_flights.return_all(state)

    def _air_step_over(self, state: State, step: Step) -> None:
        """End of Naval and Air Steps 2 and 4: the combats over the flights' destinations, then
        every air unit returns to base (ETO-PART4 Step 4, 13.0)."""
        air_interception.resolve_destinations(state)
        submarines.strike_subs_at_sea(state)  # 11.2: a sub at sea must be found before it is struck
        air_naval.strike_flights(state)  # 16.1: the bombers that got through attack the ships
        air_flights.return_all(state)

    # -- calendar -------------------------------------------------------------------------
    def last_turn(self, game: Any) -> str:
        """47.5, 47.6: a game to June 1945 plays on with an alternative ending."""
        return alternative_endings.last_turn(game)

    def calendar(self, first: str, last: str) -> list[str]:
        """Monthly labels ``1941-06`` plus seasonal ones ``1941-autumn`` before Oct (ETO-SOP)."""
        out: list[str] = []
        for label in month_range(first, last):
            y, m = (int(x) for x in label.split("-"))
            if m in SEASON_BEFORE and label != first:
                out.append(f"{y:04d}-{SEASON_BEFORE[m]}")
            out.append(label)
        return out

    def condition(self, state: State, when: str) -> bool:
        """``paradrop:paratroops`` / ``paradrop:paradrops``: attack-sequence steps 4A-A and 4A-E
        (ETO-19.2) apply when a drop is possible / flying (:func:`paradrop.step_applies`).
        ``orders:a|b``: the step applies once every named order kind exists (Strategic Warfare
        Steps 2-5 wait for the war at sea)."""
        if when.startswith("paradrop:"):
            return paradrop.step_applies(state, when.split(":", 1)[1])
        if when.startswith("orders:"):
            return all(k in self.order_kinds for k in when.split(":", 1)[1].split("|"))
        return super().condition(state, when)

    def turn_root(self, state: State) -> str:
        return "seasonal" if state.turn_label[5:].isalpha() else "monthly"

    # -- set-up ---------------------------------------------------------------------------------
    def validate_scenario(self, scenario: Any) -> None:
        """Every ETO section of a scenario, checked at load (rulesets/eto/scenario_check.py)."""
        scenario_check.validate(self, scenario)

    def setup(self, state: State) -> None:
        sc = state.game.scenario
        names = {u["id"]: u.get("name") for u in sc.units}
        for uid, name in names.items():
            if name:
                state.units_by_id[uid].props["name"] = name
        sides = {n: s for s, ns in sc.sides.items() for n in ns}
        for entry in sc.raw.get("force_pool", []):
            box = entry.get("box", FORCE_POOL).replace(" box", "")
            for k in range(int(entry.get("count", 1))):
                tag = "sib" if box != FORCE_POOL else "pool"
                uid = f"{entry['nation']}-{tag}-{entry['type']}-{k + 1}"
                state.units_by_id[uid] = Unit(uid, sides[entry["nation"]], entry["nation"], entry["type"], None,
                                              box, False, {"pool_of": values.major_of(state, entry["nation"])})
        if politics.on(state.game):  # 39.0: the war state is played from the scenario's start
            state.markers["politics"] = politics.initial(state)
        if not air_units.in_play(state):  # a scenario played without its air war keeps no air counters
            for uid in [uid for uid, u in state.units_by_id.items() if values.is_air_counter(state, u)]:
                del state.units_by_id[uid]
        if not naval_units.in_play(state):  # nor one played without its war at sea its ships
            for uid in [uid for uid, u in state.units_by_id.items() if values.is_naval_counter(state, u)]:
                del state.units_by_id[uid]
        for spec in sc.units:  # STP markers' points (10.1)
            u = state.units_by_id.get(spec["id"])
            if u is not None and spec.get("points") and naval_units.is_stp(state, u):
                u.props["points"] = int(spec["points"])
        marks = state.markers.setdefault("supply_markers", {}) if sc.raw.get("supply_markers") else {}
        for m in sc.raw.get("supply_markers", []):  # stockpiles at set-up (32.4)
            h = m["place"] if str(m["place"]).isdigit() else state.map.hex_of(m["place"])
            marks[h] = {"side": m["side"], "markers": int(m["markers"])}
        for spec in sc.units:  # air units stand on their bases in scenario order (13.2, 13.4)
            u = state.units_by_id.get(spec["id"])
            if u is not None and air_units.flies(state, u) and values.on_map(u):
                if spec.get("points"):
                    u.props["points"] = int(spec["points"])  # ATP marker (18.1)
                airbases.land(state, u, u.location)
        state.tracks.setdefault("weather", "F")
        for r in sc.raw.get("special_rules", []):
            if isinstance(r, dict) and r.get("effect") == "blitzkrieg_available":
                state.tracks.setdefault(f"blitzkrieg.{r.get('nation', 'SU')}", "unused")
        if supply.special(state, "soviet_winter_proficiency") and state.tracks.get("winter_war") == "won":
            state.tracks.setdefault("soviet_winter", "pending")
        state.arrays["control"] = control(state)

    def begin_turn(self, state: State) -> None:
        if self.turn_root(state) != "monthly":
            return
        for key in [k for k in state.tracks if k.endswith(".rail_used") or k.endswith(".minor_offensives_used")]:
            state.tracks.pop(key)
        commitment.new_turn(state)  # 20.0: commitment markers are for one turn
        self._reinforcements(state)
        self._soviet_winter_window(state)

    def _soviet_winter_window(self, state: State) -> None:
        """ETO-43.4: from the first November turn with Axis units in the USSR until April."""
        month = int(state.turn_label[5:])
        status = state.tracks.get("soviet_winter")
        if status == "pending" and month == 11:
            su = home_mask(state, "SU")
            if any(u.side == "axis" and values.on_map(u) and su[state.map.index(u.location)]
                   for u in state.units_by_id.values()):
                state.tracks["soviet_winter"] = "active"
                state.emit("soviet_winter", rule="ETO-43.4", text="Soviet winter combat proficiency in effect")
        elif status == "active" and month == 4:
            state.tracks["soviet_winter"] = "over"
            state.emit("soviet_winter", rule="ETO-43.4", text="Soviet winter combat proficiency ends")

    def _reinforcements(self, state: State) -> None:
        """Scenario arrivals (special rule reinforcement_entry for the fallback)."""
        hm = state.map
        sc = state.game.scenario
        sides = {n: s for s, ns in sc.sides.items() for n in ns}
        for r in sc.raw.get("reinforcements", []):
            if r.get("turn") != state.turn_label:
                continue
            nation = r["nation"]
            if r["where"] in hm.boxes:  # 36.6: "USLL Destroyer" units "can be placed directly in a convoy escort box"
                for spec in r.get("units", []):
                    if spec["id"] not in state.units_by_id:
                        state.units_by_id[spec["id"]] = Unit(spec["id"], sides[nation], nation, spec["type"], None,
                                                             r["where"], False, {"usll": True})
                        state.emit("reinforcement", side=sides[nation], rule="ETO-36.6", unit=spec["id"],
                                   text=f"{spec['id']}, a USLL destroyer, arrives in the {r['where']}")
                continue
            where = r["where"] if str(r["where"]).isdigit() else hm.hex_of(r["where"])
            for spec in r.get("units", []):
                if spec["id"] in state.units_by_id:
                    continue
                u = Unit(spec["id"], sides[nation], nation, spec["type"], None, FORCE_POOL, False,
                         {"note": r.get("note", "")})
                if values.is_air_counter(state, u):
                    if air_units.in_play(state):
                        self._air_reinforcement(state, u, where)
                    continue
                state.units_by_id[u.id] = u
                at = self._entry_hex(state, u, where)
                if at is None:
                    u.props["pool_of"] = values.major_of(state, nation)
                    state.emit("reinforcement", side=u.side, rule="ETO-37.6",
                               text=f"{u.id} has no entry hex: to the force pool", unit=u.id)
                else:
                    u.location = at
                    state.emit("reinforcement", side=u.side, rule="ETO-37.6", text=f"{u.id} arrives at {at}",
                               unit=u.id, at=at)

    def _air_reinforcement(self, state: State, u: Unit, where: str) -> None:
        """An arriving air unit lands on the named base, or the nearest friendly base with room
        (13.2); with none it waits in the force pool."""
        hm = state.map
        state.units_by_id[u.id] = u
        bases = [b for b in airbases.friendly_bases(state, u.side) if airbases.has_room(state, u.side, b, u)]
        if not bases:
            u.props["pool_of"] = values.major_of(state, u.nation)
            state.emit("reinforcement", side=u.side, rule="ETO-37.6", unit=u.id,
                       text=f"{u.id} has no friendly airbase with room: to the force pool")
            return
        at = min(bases, key=lambda b: (hm.distance(where, b), b))
        airbases.land(state, u, at)
        state.emit("reinforcement", side=u.side, rule="ETO-37.6", text=f"{u.id} arrives at {at}", unit=u.id, at=at)

    def _entry_hex(self, state: State, u: Unit, where: str) -> str | None:
        import numpy as np

        from workbench.rulesets.eto.terrain import terrain_arrays
        from workbench.rulesets.eto.zoc import zoc

        hm = state.map
        ta = terrain_arrays(state)
        ctrl = control(state)
        ez = zoc(state, values.other(u.side))
        code = 1 if u.side == "axis" else 2
        reach = supply.reach(state, u.nation, u.side)
        i = hm.index(where)
        if ctrl[i] == code and not ez[i] and stacking.fits(state, where, u.side, [u]):
            return where
        country = ta.country[i]
        if u.nation == "IT":
            country = "Romania"
        cands = np.flatnonzero((ta.country == country) & ta.land & (ctrl == code) & ~ez & (reach >= 0))
        if u.nation == "SU":
            cands = np.flatnonzero(home_mask(state, "SU") & (ctrl == code) & ~ez & (reach >= 0))
        order = sorted(cands, key=lambda j: (int(hm.grid.distance(i, int(j))), int(j)))
        for j in order:
            if stacking.fits(state, hm.label(int(j)), u.side, [u]):
                return hm.label(int(j))
        return None

    # -- skipping empty decisions -------------------------------------------------------------
    def resolve_actor(self, state: State, actor: str, phasing: str | None) -> list[str]:
        """The sides that act; a side with nothing to do but end the step is skipped (so empty
        offensives and steps without legal orders pass at once)."""
        sides = super().resolve_actor(state, actor, phasing)
        f = state.frames[-1] if state.frames else None
        if not f or "node" not in f:
            return sides
        step = self.sequence.nodes[f["node"]]
        if step.kind != "leaf" or f.get("pending") is not None:
            return sides
        kinds = [k for k in step.orders if k in self.order_kinds]
        keep = []
        for s in sides:
            f["pending"] = [s]
            try:
                if any(self.order_kinds[k].any_legal(state) for k in kinds):
                    keep.append(s)
            finally:
                f["pending"] = None
        return keep

    def check_end_step(self, state: State, step: Step, side: str) -> None:
        """ETO-28.4: surviving breakthrough armor must repeat its attack in the Combat step."""
        if step is not None and step.key in ("offensive/combat", "designate", "resolve"):
            why = combat.repeat_why(state, side, step.key)
            if why:
                raise IllegalOrder("ETO-28.4", why)

    def exit(self, state: State, step: Step) -> None:
        super().exit(state, step)
        if step.kind == "leaf" and step.actor:
            losses.enforce_stacking(state)

    # -- procedures ------------------------------------------------------------------------------
    def _end_attack_sequence(self, state: State, step: Step) -> None:
        """End of an attack sequence: designations not rolled are cancelled (26.3); a minor's
        home garrison is restored from its units outside (41.2)."""
        garrison.restore(state)
        winter_war.check(state)  # 43.3: won when no Finnish unit is left east of the border
        for d in state.markers.get("designations", []):
            if not d["resolved"]:
                state.emit("cancelled", rule="ETO-26.3", text=f"attack on {d['target']} cancelled before the roll",
                           target=d["target"])
                if d.get("mode") == "breakthrough":  # 28.4: a cancelled breakthrough attack is repeated
                    for a in d["attackers"]:
                        if values.on_map(state.unit(a)):
                            state.unit(a).props["must_attack"] = d["target"]
        state.markers["designations"] = []

    def _end_offensive(self, state: State, step: Step) -> None:
        """Step 6, unit status: aircraft CC markers flip to PC (20.1); units stay activated for the
        turn (22.0, 22.5); HQs flip."""
        off = state.markers.pop("offensive", None) or {}
        side = off.get("side") or state.phasing
        commitment.end_offensive(state, side)
        sea_transport.end_offensive_debarks(state)  # 10.5: air units debarked in the offensive land, PC
        for u in state.units_by_id.values():
            for k in OFFENSIVE_PROPS:
                u.props.pop(k, None)
        state.markers.pop("exploit_attacks_begun", None)
        if off.get("mode"):
            apply_front(state, side)
            supply.refresh_markers(state)
            state.emit("offensive_end", side=side, rule="ETO-20.0", text=f"{side} offensive ends")

    def _end_naval_air(self, state: State, step: Step) -> None:
        """The end of the Naval and Air phase: evacuations by sea end (ETO-10.7), a port box that
        may no longer be used is evacuated (ETO-7.8), ships in a friendly port lose their out of
        supply markers (ETO-33.8)."""
        sea_transport.end_evacuations(state, step)
        ports.evacuate_closed_boxes(state, step)
        naval_upkeep.clear_in_port(state, step)

    def _end_naval_movement(self, state: State, step: Step) -> None:
        """The end of the End phase's naval movement: ships in a friendly port lose their out of
        supply markers (ETO-33.8), then ships at sea are paid for or marked (ETO-7.6, 10.3)."""
        naval_upkeep.clear_in_port(state, step)
        naval_upkeep.pay(state, step)

    def _supply_step(self, state: State, step: Step) -> None:
        """End phase Step 2: land supply (ETO-33.3-33.5) and the attrition of units embarked in a
        stack out of supply (ETO-10.3)."""
        supply.supply_step(state, step)
        naval_upkeep.embarked_attrition(state, step)

    def _end_movement(self, state: State, step: Step) -> None:
        side = state.phasing
        apply_front(state, side)
        supply.refresh_markers(state)
        for u in state.units_by_id.values():
            if u.side == side:
                u.props.pop("moved", None)

    def _command_status(self, state: State, step: Step) -> None:
        """End phase Step 4: HQs unflip, generals eligible again, activated/standby removed."""
        for u in state.units_by_id.values():
            for k in ("activated", "railed", "bt_general", "partisan_moved", *OFFENSIVE_PROPS):
                u.props.pop(k, None)

    def _end_of_month(self, state: State, step: Step) -> None:
        """End of turn: Italy's restrictions end for good once a condition held (46.1); units
        declared on Spain's or Turkey's border must still be there (47.3, 47.4); blitzkrieg."""
        italian_restrictions.latch(state)
        neutral_activation.month_end(state)
        for key, v in list(state.tracks.items()):
            if key.startswith("blitzkrieg.") and str(v).startswith("active:"):
                state.tracks[key] = "used"  # 44.1: once per nation per game, for one turn

    def end_turn(self, state: State) -> None:
        if self.turn_root(state) == "monthly":
            sd = alternative_endings.sudden_end(state) or victory.sudden_death(state)  # 47.6, scenario
            if sd:
                state.finish(**sd)

    def final_result(self, state: State) -> dict[str, Any]:
        return alternative_endings.final(state) or victory.final(state)  # 47.5, 47.6, scenario

    def setup_breaches(self, state: State) -> list[tuple[str, str]]:
        """The map's checks plus ETO stacking and control at set-up."""
        from workbench.rulesets.eto.setup import setup_breaches

        return super().setup_breaches(state) + setup_breaches(state)

    def view(self, state: State, side: str | None) -> Any:
        """What ``side`` may see: the enemy's secret offensive purchase hidden (38.2, GAP-24) and,
        out of air reconnaissance, every enemy stack beneath its top unit (12.7)."""
        if side is None:
            return state
        markers = None
        secret = state.markers.get("secret_offensives")
        if secret:
            other_nations = set(state.game.scenario.sides[values.other(side)])
            if other_nations & set(secret):
                markers = {**state.markers,
                           "secret_offensives": {n: k for n, k in secret.items() if n not in other_nations}}
        fogged = reconnaissance.view(state, side, markers)
        if fogged is not None:
            return fogged
        if markers is None:
            return state
        import copy

        v = copy.copy(state)  # a shallow, read-only view: only the markers differ
        v.markers = markers
        return v
