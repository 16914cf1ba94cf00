"""The SS Amerika heuristic brain: a sensible beginner for either side.

Per decision it does one thing a beginner would:

* **Set-up / mobilization**: keeps the default set-up; spends mobilization
  points (any ``replace`` first, then ``mobilize`` the strongest affordable
  units) when those order kinds exist.
* **Sea transport** (SSA-7.7): units waiting in a holding area embark on the
  convoys there; loaded convoys (escorted by the battle fleets) sail to the
  coastal hex nearest the most valuable weakly held enemy city, preferring
  ports (a convoy in a port supplies any number of units, SSA-10.1f), and the
  cargo debarks.  So the Axis really lands in North America.
* **Rail** (SSA-5.7): units far from their objective ride the rails first.
* **Movement**: each land unit heads for an objective — an enemy city to take
  or a threatened own city to hold — never ending out of reach of a supply
  point (a source or a logistic unit within its MF), avoiding stacks where it
  would stand alone beside much stronger enemies, and never overstacking.
* **Combat** (SSA-11): every possible attack is priced with ``combat.assess``
  and the exact CRT distribution; attacks go in when the expected result is
  clearly good (about 2-1 and better, more readily against cities).
* **Retreats and losses**: retreat toward friends and supply, away from the
  enemy; take the cheapest exchange losses.
* **Optional rules**: the Axis declares the surprise attack (SSA-30.1); leaders
  join the strongest friendly stack they can reach, an "A" leader a mechanized
  one (SSA-24.4, 24.8), after the other units have moved; fanaticism is declared
  where an exchange favours the side (SSA-21.5).  Weather reaches the bot
  through the rules: move costs (26.3) are in the legal moves and the
  weather's column shift (26.3-F/S) in ``combat.assess``, so a bot in a storm
  stays put rather than wading and does not attack at the worse odds.

Anything else (air, naval combat, interception, new kinds) ends the step.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from workbench.bots.heuristic import Brain, Context

#: Value of each CRT result to the attacker, in defender-steps-equivalents.
RESULT_VALUE = {"DZ": 3.0, "DE": 1.6, "DR": 0.6, "EX": 0.2, "AR": -0.5, "AE": -1.6, "AZ": -3.0}
OFF_MAP = ("Eliminated", "unplaced", "Force pool")
SPEND_KINDS = ("replace", "mobilize")


def _dest(order: dict[str, Any]) -> str:
    """Where a move order ends: ``to``, or the last hex of its ``path``."""
    return order["to"] if "to" in order else order["path"][-1]


def city_weights(state) -> dict[int, float]:  # noqa: ANN001
    """How much each city is worth to fight for: industrial 3, other 1, capitals +3
    (after SSA-20.1), and a fifth of that outside the countries the scenario gives a side."""
    return state.game.cached("bot.city_weights", lambda: _city_weights(state))  # scenario's control


def _city_weights(state) -> dict[int, float]:  # noqa: ANN001
    from workbench.rulesets.ssa.occupation import city_hexes

    hm = state.map
    kinds = hm.hexes["city_kind"].to_list()
    capital = hm.hexes["capital"].to_list() if "capital" in hm.hexes.columns else [False] * hm.size
    names = hm.hexes["country"].to_list()
    codes = state.ruleset.tables.get("countries", {}).get("codes", {})
    name_code = {n: c for c, ns in codes.items() for n in (ns if isinstance(ns, list) else [ns])}
    control = state.game.scenario.raw.get("control", {})
    contested = {k for k, v in control.items() if v in ("axis", "allies")}
    out: dict[int, float] = {}
    for i in city_hexes(state):
        w = 3.0 if kinds[i] == "industrial" else 1.0
        if capital[i]:
            w += 3.0
        code = name_code.get(names[i], names[i])
        if contested and code not in contested:
            w *= 0.2
        out[i] = w
    return out


#: Assumed combat strength of each unseen enemy unit in a hidden stack (SSA-19.G).
HIDDEN_UNIT_CF = 3.0


def enemy_strength(ctx: Context) -> np.ndarray:
    """Enemy land strength per hex as the side sees it: revealed units at their printed
    strength, hidden stacks (SSA-19) at :data:`HIDDEN_UNIT_CF` a unit."""
    from workbench.rulesets.ssa import values

    view, st = ctx.view, ctx.state
    hm = st.map
    out = np.zeros(hm.size)
    for u in view.units_by_id.values():
        if u.side != ctx.side and u.location.isdigit() and values.is_land(st, u) and not u.props.get("carried"):
            out[hm.index(u.location)] += values.cf(st, u)
    for h, n in getattr(view, "hidden_stacks", {}).items():
        if h.isdigit() and hm.has_hex(h):
            out[hm.index(h)] += HIDDEN_UNIT_CF * n
    return out


class SSABrain(Brain):
    def __init__(self, side: str) -> None:
        self.side = side

    # == dispatch ====================================================================
    def propose(self, ctx: Context) -> dict[str, Any] | None:
        d = ctx.decision
        kinds = set(d.kinds)
        if "declare_surprise_attack" in kinds:  # SSA-30.1: the scenario's premise
            return {"kind": "declare_surprise_attack", "declare": True}
        if "declare_fanaticism" in kinds:
            return self.fanaticism(ctx)
        if "take_losses" in kinds:
            return self.take_losses(ctx)
        if "retreat" in kinds:
            return self.retreat(ctx)
        step = d.step or ""
        if step.endswith("special-action"):
            return self.subvert(ctx)
        if step.endswith("mobilization/spend"):
            return self.spend(ctx)
        if step.endswith("combat/air"):
            return self.weapons(ctx)
        if step.endswith("combat/land"):
            return self.attack(ctx)
        if step.endswith("initial-movement") or step.endswith("mechanized-movement"):
            return self.movement(ctx)
        return None

    # == shared planning data ========================================================
    def _info(self, ctx: Context) -> dict[str, Any]:
        """Objectives, supply points and enemy strength, computed once per step."""
        if "info" in ctx.memo:
            return ctx.memo["info"]
        from workbench.rulesets.ssa import values
        from workbench.rulesets.ssa.occupation import city_hexes, city_owner

        st, hm, side = ctx.state, ctx.state.map, ctx.side
        weights = city_weights(st)
        own_str = np.zeros(hm.size)
        for u in st.units_by_id.values():
            if u.side == side and u.location.isdigit() and values.is_land(st, u) and not u.props.get("carried"):
                own_str[hm.index(u.location)] += values.cf(st, u)
        enemy_str = enemy_strength(ctx)
        nb = hm.neighbors
        nbv = np.where(nb >= 0, nb, 0)
        enemy_adj = (enemy_str[nbv] * (nb >= 0)).sum(axis=1)
        enemy_near = enemy_adj + enemy_str
        targets: dict[int, float] = {}
        for i in city_hexes(st):
            owner = city_owner(st, i)
            w = weights.get(i, 0.0)
            if w <= 0:
                continue
            if owner != side:
                targets[i] = w  # an enemy or unowned city to take
            elif enemy_near[i] > 0:
                targets[i] = w + 1.0  # hold a threatened city
        info = {"targets": targets, "enemy_str": enemy_str, "own_str": own_str, "enemy_adj": enemy_adj,
                "supply": self._supply_points(ctx)}
        ctx.memo["info"] = info
        return info

    def _supply_points(self, ctx: Context) -> np.ndarray:
        from workbench.rulesets.ssa import supply, values

        st, hm = ctx.state, ctx.state.map
        pts: list[int] = []
        try:
            if ctx.side == "allies":
                pts = [p.hex for p in supply.allied_sources(st)]
            else:
                pts = [p.hex for jp in (False, True) for p in supply.axis_sources(st, jp)]
        except Exception:  # noqa: BLE001 - planning aid only
            pts = []
        for u in st.units_by_id.values():
            if u.side == ctx.side and u.location.isdigit() and "logistic" in u.type and values.is_land(st, u):
                pts.append(hm.index(u.location))
        return hm.dist_to_set(set(pts))

    def _stranded(self, ctx: Context) -> np.ndarray:
        """``bool[N]``: land hexes whose landmass holds fewer than a tenth of the map's cities (an
        island such as Iceland); units there must go by sea (SSA-7.7).  Once per game."""
        memo = ctx.policy.game_memo
        if "stranded" not in memo:
            from scipy.sparse import coo_matrix
            from scipy.sparse.csgraph import connected_components

            from workbench.rulesets.ssa.occupation import city_hexes

            hm = ctx.state.map
            land = ~hm.is_water
            nb = hm.neighbors
            i, d = np.nonzero((nb >= 0) & land[:, None])
            j = nb[i, d]
            keep = land[j]
            graph = coo_matrix((np.ones(int(keep.sum())), (i[keep], j[keep])), shape=(hm.size, hm.size))
            _, label = connected_components(graph, directed=False)
            cities = np.asarray([c for c in city_hexes(ctx.state) if land[c]], dtype=np.int64)
            per_mass = np.bincount(label[cities], minlength=int(label.max()) + 1)
            memo["stranded"] = land & (per_mass[label] < max(1, cities.size // 10))
        return memo["stranded"]

    # == mobilization ================================================================
    def spend(self, ctx: Context) -> dict[str, Any] | None:
        """Replace losses first, then build the strongest units the points buy."""
        from workbench.rulesets.ssa import values

        n = ctx.memo.get("spent", 0)
        if n >= 60:
            return None
        tech = self.develop(ctx)
        if tech is not None:
            return tech
        lift = self._buy_lift(ctx)
        if lift is not None:
            ctx.memo["spent"] = n + 1
            return lift
        tables = ctx.state.ruleset.tables
        for kind in SPEND_KINDS:
            opts = ctx.legal(kind)
            if not opts:
                continue

            def worth(o: dict[str, Any], printed: dict[tuple[str, str], float] = {}) -> float:  # noqa: B006
                """Printed strength; ``printed`` memoises (type, nation): hundreds of options share a few."""
                t = o.get("type")
                if t is None and isinstance(o.get("unit"), str) and o["unit"] in ctx.state.units_by_id:
                    u = ctx.state.units_by_id[o["unit"]]
                    return values.full_cf(ctx.state, u)
                if isinstance(t, str):
                    k = (t, o.get("nation", ""))
                    if k not in printed:
                        printed[k] = float(values.type_value(tables, t, k[1], "cf", 0) or 0)
                    return printed[k]
                return 0.0

            best = ctx.first_ok(sorted(opts, key=lambda o: -worth(o))[:5])
            if best is not None:
                ctx.memo["spent"] = n + 1
                return best
        return None

    # == movement ====================================================================
    def movement(self, ctx: Context) -> dict[str, Any] | None:
        for planner in (self.atomic_mission, self.airdrop, self.embark, self.sail, self.debark, self.rail, self.move):
            order = planner(ctx)
            if order is not None:
                return order
        return None

    def develop(self, ctx: Context) -> dict[str, Any] | None:
        """SSA-23: once a Mobilization phase, buy the cheapest development that unlocks a unit type
        when it costs at most a third of the paying country's industrial points (the rest still
        builds units); abstract developments, which do nothing (23.3 ruling), are never bought."""
        from workbench.rulesets.ssa import technology

        if ctx.memo.get("developed"):
            return None
        ctx.memo["developed"] = True
        st = ctx.state
        unit_kinds = set(technology.table(st)["kinds"]["unit"])
        opts = []
        for o in ctx.legal("buy_technology"):
            if o.get("tech") not in unit_kinds:
                continue
            c = technology.cost(st, o["tech"])
            if 3 * c <= int(st.tracks.get(f"{o.get('nation')}.mp.industrial", 0)):
                opts.append((c, o["tech"], o))
        return min(opts, key=lambda x: x[:2])[2] if opts else None

    def weapons(self, ctx: Context) -> dict[str, Any] | None:
        """SSA-22.14, 22.13: a bomb over its target falls; a bomb on a missile goes to a holding
        area (Allies) or the strongest enemy stack (two divisions' worth at least); missiles go to
        the most valuable enemy city not yet bombed (for the Allies, Europe when no city is in reach)."""
        drops = ctx.legal("atomic_attack")
        if drops:
            flown = [o for o in drops if "missile" not in o]
            if flown:
                return flown[0]
            hm, enemy_str = ctx.state.map, self._info(ctx)["enemy_str"]

            def stack(o: dict[str, Any]) -> tuple:
                t = o["target"]
                return (float("inf") if not hm.has_hex(t) else float(enemy_str[hm.index(t)]), t)

            best = max(drops, key=stack)
            if stack(best)[0] >= 12:
                return best
        opts = ctx.legal("fire_missile")
        if not opts:
            return None
        st = ctx.state
        weights = city_weights(st)
        bombed = st.arrays.get("bombed")

        def worth(o: dict[str, Any]) -> tuple:
            t = o["target"]
            if not st.map.has_hex(t):
                return (0.5, t)
            i = st.map.index(t)
            hit = bombed is not None and bool(bombed[i])
            return (0.0 if hit else weights.get(i, 0.0) + 1.0, t)

        best = max(opts, key=worth)
        return best if worth(best)[0] > 0 else None

    def atomic_mission(self, ctx: Context) -> dict[str, Any] | None:
        """SSA-22.14c: a bomber flies its atomic weapon at the strongest enemy stack in range (at
        least two divisions' worth, else it waits)."""
        if ctx.memo.get("atomic_done") or not ctx.decision.step.endswith("initial-movement"):
            return None
        opts = ctx.legal("atomic_mission")
        ctx.memo["atomic_done"] = True
        if not opts:
            return None
        info = self._info(ctx)
        hm = ctx.state.map
        best = max(opts, key=lambda o: (info["enemy_str"][hm.index(o["to"])], o["to"]))
        return best if info["enemy_str"][hm.index(best["to"])] >= 12 else None

    def subvert(self, ctx: Context) -> dict[str, Any] | None:
        """SSA-27: try the country where the most special-operations units can take part (the
        Subversion Table's column grows with them), once per country a turn (27.6)."""
        from workbench.rulesets.ssa.subversion import attempting_units

        st = ctx.state
        opts = ctx.legal("subvert")
        if not opts:
            return None
        return max(opts, key=lambda o: (len(attempting_units(st, self.side, o["country"])), o["country"]))

    def airdrop(self, ctx: Context) -> dict[str, Any] | None:
        """SSA-22.1: airborne units jump onto an objective city no enemy holds and few enemies
        guard (the fullest lift first), before anything else moves."""
        from workbench.rulesets.ssa import values

        if ctx.memo.get("airdrop_done") or not ctx.decision.step.endswith("initial-movement"):
            return None
        opts = ctx.legal("airborne_drop")
        info = self._info(ctx) if opts else None
        st, hm = ctx.state, ctx.state.map
        best, best_score = None, 0.0
        for o in opts:
            j = hm.index(o["to"])
            w = info["targets"].get(j, 0.0)
            strength = sum(values.cf(st, st.unit(u)) for u in o["units"])
            if w <= 0 or info["enemy_str"][j] > 0 or info["enemy_adj"][j] > strength:
                continue
            score = w + 0.1 * len(o["units"])
            if score > best_score:
                best, best_score = o, score
        if best is None:
            ctx.memo["airdrop_done"] = True
        return best

    def _staging(self, ctx: Context, u, info: dict[str, Any]) -> int | None:  # noqa: ANN001
        """SSA-22.1a: an airborne unit walks to the base of a transport that has an open objective
        within its range, to jump from there next turn."""
        from workbench.rulesets.ssa.air import air_range, base_supplied, flight_distances, grounded
        from workbench.rulesets.ssa.special_units import is_special

        st, hm = ctx.state, ctx.state.map
        if not is_special(st, u, "SSA-22.1"):
            return None
        if "staging" not in info:
            open_targets = np.array([j for j in info["targets"] if info["enemy_str"][j] == 0], dtype=np.int64)
            bases = []
            for c in st.units_by_id.values():
                if c.side == self.side and grounded(st, c) and c.props.get("carrier") is None \
                        and st.ruleset.unit_types[c.type].get("cargo") \
                        and base_supplied(st, c) and open_targets.size:
                    d = flight_distances(st, hm.index(c.location))[open_targets]
                    if (d <= air_range(st, c)).any():
                        bases.append(hm.index(c.location))
            info["staging"] = sorted(set(bases))
        if not info["staging"] or hm.index(u.location) in info["staging"]:
            return None
        here = hm.index(u.location)
        return min(info["staging"], key=lambda i: (hm.distance(here, i), i))

    def embark(self, ctx: Context) -> dict[str, Any] | None:
        """Units waiting in a holding area, or on an island, board the convoys there (strongest
        first)."""
        from workbench.rulesets.ssa import values

        if ctx.memo.get("embark_done") or not ctx.decision.step.endswith("initial-movement"):
            return None
        stranded = self._stranded(ctx)
        hm = ctx.state.map

        def waiting(loc: str) -> bool:  # a holding area, or a convoy at an island's coast
            return not loc.isdigit() or bool(stranded[hm.index(loc)])

        opts = [o for o in ctx.legal("embark") if waiting(ctx.state.unit(o["convoy"]).location)]
        st = ctx.state
        lift = self._lift(ctx)
        if lift:  # leaders board convoys only (a battle fleet lands them where it stops)
            opts = [o for o in opts if st.unit(o["convoy"]).type == "transport"]
        if not opts:
            fetch = self._fetch(ctx) if lift else None
            if fetch is None:
                ctx.memo["embark_done"] = True
            return fetch
        if lift:  # SSA-9.1: a convoy lands all its cargo in one hex, which holds three divisions
            from workbench.rulesets.ssa.naval import carried_by

            aboard: dict[str, float] = {}

            def fits(o: dict[str, Any]) -> bool:
                c = o["convoy"]
                if c not in aboard:
                    aboard[c] = float(sum(values.division_equivalents(st, u) for u in carried_by(st, st.unit(c))))
                return aboard[c] + float(values.division_equivalents(st, st.unit(o["units"][0]))) <= 3

            opts = [o for o in opts if fits(o)]
            if not opts:
                fetch = self._fetch(ctx)
                if fetch is None:
                    ctx.memo["embark_done"] = True
                return fetch
        logistic_first = lift and self._wave_needs_logistics(ctx)

        def rank(o: dict[str, Any]) -> tuple:
            # a military government sails with the first wave: without one no city can be
            # occupied (SSA-17.3); the Axis lift takes a logistic unit in each wave (SSA-10);
            # then the strongest land units
            u = st.unit(o["units"][0])
            mg = bool(values.value(st, u, "military_government", False))
            log = logistic_first and "logistic" in u.type
            return (values.domain(st, u) != "land", not mg, not log, -values.cf(st, u), o["convoy"])

        order = ctx.first_ok(sorted(opts, key=rank))
        if order is None:
            ctx.memo["embark_done"] = True
        elif lift and "logistic" in st.unit(order["units"][0]).type:
            ctx.memo["wave_logistics"] = ctx.memo.get("wave_logistics", 0) + 1
        return order

    # == the Axis sea lift (issue 25 item 2) ===========================================
    #: Transport convoys the Axis builds toward (SSA-16.G, 7.7a: 4 MP each, 4 TP each).
    LIFT_CONVOYS = 10

    def _lift(self, ctx: Context) -> bool:
        """Whether this side plays the planned sea lift: the scenario's ``[bot_plan.<side>]
        sea_lift = true`` (ssa/1941's Axis, which starts with nothing ashore in America)."""
        plan = ctx.state.game.scenario.raw.get("bot_plan", {}).get(self.side, {})
        return bool(plan.get("sea_lift")) if isinstance(plan, dict) else False

    def _buy_lift(self, ctx: Context) -> dict[str, Any] | None:
        """Axis: the lift is the bottleneck of an invasion (SSA-7.7a: 4 TP a convoy), so a German
        transport is bought first whenever the industrial points allow, up to :data:`LIFT_CONVOYS`."""
        if not self._lift(ctx):
            return None
        st = ctx.state
        have = sum(1 for u in st.units_by_id.values() if u.nation == "GE" and u.type == "transport"
                   and u.location not in OFF_MAP)
        if have >= self.LIFT_CONVOYS:
            return None
        opts = [o for o in ctx.legal("mobilize") if o.get("type") == "transport" and o.get("nation") == "GE"]
        return ctx.first_ok(sorted(opts, key=lambda o: str(o.get("at"))))

    def _cargo_hexes(self, ctx: Context) -> dict[str, float]:
        """Where Axis cargo waits for a convoy (SSA-7.7: it must start the phase in the convoy's
        coastal hex or box): island coast hexes and boxes, with the transport points waiting."""
        from workbench.rulesets.ssa import values
        from workbench.rulesets.ssa.naval import transport_points

        st, hm = ctx.state, ctx.state.map
        stranded, coastal = self._stranded(ctx), hm.flag("coastal")
        out: dict[str, float] = {}
        for u in st.units_by_id.values():
            if u.side != ctx.side or u.location in OFF_MAP or u.props.get("carried") or u.props.get("moved") \
                    or values.domain(st, u) != "land" or values.is_leader(st, u):
                continue
            if u.location.isdigit():
                i = hm.index(u.location)
                if not (stranded[i] and coastal[i]):
                    continue
            elif u.location not in ("Europe",):
                continue
            tp = float(transport_points(st, u))
            if values.value(st, u, "military_government", False):
                tp += 100.0  # SSA-17.3: no city is occupied without one, so its hex is called at first
            out[u.location] = out.get(u.location, 0.0) + tp
        return out

    def _fetch(self, ctx: Context) -> dict[str, Any] | None:
        """Axis, SSA-7.7: an empty convoy sails to the island coast hex with the most cargo no other
        convoy there can carry (it embarks there and sails on to the beachhead, one lift a phase)."""
        from workbench.rulesets.ssa.naval import capacity, carried_by

        st = ctx.state
        waiting = {k: v for k, v in self._cargo_hexes(ctx).items() if k.isdigit()}
        if not waiting:
            return None
        fetched = ctx.memo.setdefault("fetched", set())
        for c in st.units_by_id.values():  # what the convoys already there will lift
            if c.side == ctx.side and c.type == "transport" and c.location in waiting:
                waiting[c.location] -= float(capacity(st, c))
        waiting = {k: v for k, v in waiting.items() if v > 0}
        empties = sorted(c.id for c in st.units_by_id.values() if c.side == ctx.side and c.type == "transport"
                         and c.id not in fetched and c.location not in OFF_MAP and not c.props.get("sail_done")
                         and not carried_by(st, c) and c.location not in ("Europe",))
        for cid in empties:
            fetched.add(cid)
            for here in sorted(waiting, key=lambda k: (-waiting[k], k)):
                o = ctx.first_ok([{"kind": "sail", "unit": cid, "to": here}])
                if o is not None:
                    return o
        return None

    def _wave_needs_logistics(self, ctx: Context) -> bool:
        """SSA-10: one logistic unit sails with each wave (two while none stands ashore), so the
        beachhead stays in supply when the convoys leave."""
        st, hm = ctx.state, ctx.state.map
        stranded = self._stranded(ctx)
        ashore = any(u.side == ctx.side and "logistic" in u.type and u.location.isdigit()
                     and not stranded[hm.index(u.location)] for u in st.units_by_id.values())
        return ctx.memo.get("wave_logistics", 0) < (1 if ashore else 2)

    def _beaches(self, ctx: Context) -> np.ndarray:
        """``bool[N]``: coastal hexes an Axis convoy can sail to now (SSA-7, 8.3), per step."""
        if "beaches" not in ctx.memo:
            hm = ctx.state.map
            mask = np.zeros(hm.size, dtype=bool)
            coastal = hm.flag("coastal")
            for o in self._sail_opts(ctx):
                if o["to"].isdigit():
                    mask[hm.index(o["to"])] = True
            ctx.memo["beaches"] = mask & coastal & ~self._stranded(ctx)
        return ctx.memo["beaches"]

    #: How far from a held beachhead city the next target may lie (hexes): the army walks there.
    NEXT_TARGET_RANGE = 8

    def _invasion_target(self, ctx: Context) -> int | None:
        """Axis: one U.S. industrial city to land beside and take, the weakest defended one a convoy
        can reach (enemy strength within two hexes as seen, SSA-19), kept until it is taken so every
        wave reinforces the same beachhead.  Once it is held it anchors the landings, and the next
        target is the weakest U.S. industrial city within :data:`NEXT_TARGET_RANGE` of it (none:
        the army holds the anchor)."""
        from workbench.rulesets.ssa.occupation import city_owner

        st, hm = ctx.state, ctx.state.map
        memo = ctx.policy.game_memo
        keep = memo.get("landing_target")
        if keep is not None and city_owner(st, keep) != ctx.side:
            return keep
        if keep is not None:
            memo["anchor"] = keep  # taken: the beachhead city
        info = self._info(ctx)
        kinds = hm.hexes["city_kind"].to_list()
        country = hm.hexes["country"].to_list()

        def defence(d: np.ndarray) -> float:
            return float(info["enemy_str"][d <= 1].sum()) + 0.5 * float(info["enemy_str"][d == 2].sum())

        cities = [i for i in sorted(info["targets"]) if kinds[i] == "industrial"
                  and country[i] == "United States" and city_owner(st, i) != ctx.side]
        anchor = memo.get("anchor")
        best, best_score = None, float("inf")
        if anchor is not None and city_owner(st, anchor) == ctx.side:
            from_anchor = hm.dist_from(anchor)
            for i in cities:
                if from_anchor[i] > self.NEXT_TARGET_RANGE:
                    continue
                score = defence(hm.dist_from(i)) + 2.0 * float(from_anchor[i]) - info["targets"][i]
                if score < best_score:
                    best, best_score = i, score
            memo["landing_target"] = anchor if best is None else best
            return memo["landing_target"]
        beaches = self._beaches(ctx) & (info["enemy_str"] == 0)
        if not beaches.any():
            return keep
        from_old = hm.dist_from(keep) if keep is not None else None
        for i in cities:
            d = hm.dist_from(i)
            near = beaches & (d <= 2)
            if not near.any():
                continue
            score = defence(d) + 2.0 * float(d[near].min()) - info["targets"][i]
            if from_old is not None:
                score += 0.5 * float(from_old[i])
            if score < best_score:
                best, best_score = i, score
        memo["landing_target"] = best
        memo["anchor"] = best
        return best

    def _to_europe(self, ctx: Context, sailed: set[str]) -> dict[str, Any] | None:
        """Axis: convoys left idle after the island pickups (none left there, or the way closed by
        weather, SSA-26.3, or enemy fleets, SSA-8.3) sail to the Europe box where the new units wait
        (SSA-16.G), and carry them next turn (SSA-7.6: a box stops the move)."""
        from workbench.rulesets.ssa.naval import capacity, carried_by

        st = ctx.state
        cargo = self._cargo_hexes(ctx)
        need = cargo.get("Europe", 0.0) - sum(float(capacity(st, c)) for c in st.units_by_id.values()
                                              if c.side == ctx.side and c.type == "transport"
                                              and c.location == "Europe")
        if need <= 0:
            return None
        for c in sorted(st.units_by_id.values(), key=lambda c: c.id):
            if c.side != ctx.side or c.type != "transport" or c.id in sailed or not c.location.isdigit() \
                    or c.props.get("sail_done") or carried_by(st, c):
                continue
            sailed.add(c.id)
            o = ctx.first_ok([{"kind": "sail", "unit": c.id, "to": "Europe"}])
            if o is not None:
                return o
        return None

    def _landing_target(self, ctx: Context) -> int | None:
        """The enemy city to land at: valuable and weakly held (the Axis: :meth:`_invasion_target`)."""
        if "landing_target" in ctx.memo:
            return ctx.memo["landing_target"]
        if self._lift(ctx):
            best = self._invasion_target(ctx)
            ctx.memo["landing_target"] = best
            return best
        info = self._info(ctx)
        hm = ctx.state.map
        coastal = hm.flag("coastal")
        keep = ctx.policy.game_memo.get("landing_target")
        if keep is not None and keep in info["targets"]:
            ctx.memo["landing_target"] = keep  # reinforce the same beachhead
            return keep
        best, best_score = None, -1e9
        for i, w in info["targets"].items():
            if info["own_str"][i] > 0:
                continue  # already ours on the ground
            near = hm.dist_from(i) <= 1
            if not (coastal & near).any():
                continue
            defence = float(info["enemy_str"][near].sum())
            score = 2.0 * w - defence
            if score > best_score:
                best, best_score = i, score
        ctx.memo["landing_target"] = best
        ctx.policy.game_memo["landing_target"] = best
        return best

    def sail(self, ctx: Context) -> dict[str, Any] | None:
        """Loaded convoys (and the battle fleets with them) sail to the landing hex."""
        from workbench.rulesets.ssa import values
        from workbench.rulesets.ssa.naval import carried_by

        st, hm = ctx.state, ctx.state.map
        if not ctx.decision.step.endswith("initial-movement") or ctx.memo.get("sail_done"):
            return None
        target = self._landing_target(ctx)
        if target is None:
            ctx.memo["sail_done"] = True
            return None
        sailed = ctx.memo.setdefault("sailed", set())
        loaded = [u for u in st.units_by_id.values() if u.side == ctx.side and u.type == "transport"
                  and u.id not in sailed and carried_by(st, u)]
        if self._lift(ctx):  # a government's convoy first: it lands nearest the city (SSA-17.3)
            loaded.sort(key=lambda c: not any(values.value(st, u, "military_government", False)
                                              for u in carried_by(st, c)))
        if not loaded:
            back = self._to_europe(ctx, sailed) if self._lift(ctx) else self._return_trip(ctx, sailed)
            if back is not None:
                return back
            # escorts follow the convoys to the beachhead
            beach = ctx.memo.get("beach")
            if beach is None:
                ctx.memo["sail_done"] = True
                return None
            fleets = [u for u in st.units_by_id.values() if u.side == ctx.side and u.id not in sailed
                      and u.type in ("battle_fleet", "carrier_fleet") and not u.props.get("sailed")
                      and not u.location.isdigit()]
            for f in fleets:
                sailed.add(f.id)
                o = ctx.first_ok([{"kind": "sail", "unit": f.id, "to": beach}])
                if o is not None:
                    return o
            ctx.memo["sail_done"] = True
            return None
        info = self._info(ctx)
        dt = hm.dist_from(target)
        coastal = hm.flag("coastal")
        port = hm.flag("port")
        from workbench.rulesets.ssa.stacking import land_room, land_thirds

        def score(o: dict[str, Any]) -> float:
            i = hm.index(o["to"])
            if not coastal[i] or info["enemy_str"][i] > 0:
                return 1e9
            return land[i] * 2.0 + 0.3 * info["enemy_adj"][i] - (1.5 if port[i] else 0.0) \
                - (0.5 if info["own_str"][i] > 0 else 0.0)

        planned = ctx.memo.setdefault("planned_thirds", {})  # SSA-9.1: what earlier convoys will land
        for convoy in loaded:  # each loaded convoy in turn, so one without a landing hex does not stop the rest
            sailed.add(convoy.id)
            land = dt
            if self._lift(ctx):  # from where it embarked (step-start options are stale): the beachhead
                near = np.flatnonzero((land <= 4) & coastal & ~self._stranded(ctx))
                if not near.size and ctx.policy.game_memo.get("anchor") is not None:
                    land = hm.dist_from(ctx.policy.game_memo["anchor"])  # an inland target: land at the anchor
                    near = np.flatnonzero((land <= 4) & coastal & ~self._stranded(ctx))
                opts = [{"kind": "sail", "unit": convoy.id, "to": hm.label(int(i))} for i in near]
            else:
                opts = [o for o in self._sail_opts(ctx) if o["unit"] == convoy.id and o["to"].isdigit()]
            cargo = [u for u in carried_by(st, convoy) if values.is_land(st, u)]
            need = sum(3 * values.division_equivalents(st, u) for u in cargo)
            thirds = land_thirds(st, ctx.side)
            for o in sorted(opts, key=score)[:12]:
                if score(o) >= 1e9:
                    break
                i = hm.index(o["to"])
                if self._lift(ctx):
                    if thirds[i] + planned.get(i, 0) + need > 9:
                        continue
                elif any(land_room(st, ctx.side, o["to"], u) is not None for u in cargo):
                    continue
                if ctx.ok(o):
                    ctx.memo.setdefault("beach", o["to"])
                    planned[i] = planned.get(i, 0) + need
                    return o
            if not self._lift(ctx):
                return None
        return None

    def _return_trip(self, ctx: Context, sailed: set[str]) -> dict[str, Any] | None:
        """Empty convoys sail to the island pickup hex while own land units are still stranded
        there (a shuttle: SSA-7.7 lets a convoy carry once a phase)."""
        from workbench.rulesets.ssa.naval import carried_by

        st, hm = ctx.state, ctx.state.map
        pickup = self._pickup(ctx)
        if pickup is None:
            return None
        label = hm.label(pickup)
        for t in st.units_by_id.values():
            if t.side != ctx.side or t.type != "transport" or t.id in sailed or not t.location.isdigit() \
                    or t.location == label or carried_by(st, t):
                continue
            sailed.add(t.id)
            o = ctx.first_ok([{"kind": "sail", "unit": t.id, "to": label}])
            if o is not None:
                return o
        return None

    def _sail_opts(self, ctx: Context) -> list[dict[str, Any]]:
        if "sail_opts" not in ctx.memo:
            ctx.memo["sail_opts"] = ctx.legal("sail")
        return ctx.memo["sail_opts"]

    def debark(self, ctx: Context) -> dict[str, Any] | None:
        """Cargo at a coastal hex goes ashore."""
        st = ctx.state
        opts = [o for o in ctx.legal("debark") if st.unit(o["convoy"]).location.isdigit()]
        if self._lift(ctx):
            stranded, hm = self._stranded(ctx), st.map
            opts = [o for o in opts if not stranded[hm.index(st.unit(o["convoy"]).location)]]
        return ctx.first_ok(opts)

    def _pickup(self, ctx: Context) -> int | None:
        """The island coast hex the convoys call at next: where a military government waits
        (no city can be occupied without one, SSA-17.3), else the most own land units (per step)."""
        if "pickup" in ctx.memo:
            return ctx.memo["pickup"]
        from workbench.rulesets.ssa import values

        st, hm = ctx.state, ctx.state.map
        stranded = self._stranded(ctx)
        coastal = hm.flag("coastal")
        score: dict[int, float] = {}
        for u in st.units_by_id.values():
            if u.side != ctx.side or not u.location.isdigit() or not values.is_land(st, u) \
                    or u.props.get("carried"):
                continue
            i = hm.index(u.location)
            if stranded[i] and coastal[i]:
                mg = bool(values.value(st, u, "military_government", False))
                score[i] = score.get(i, 0.0) + (100.0 if mg else 1.0)
        best = max(score, key=lambda i: (score[i], -i)) if score else None
        ctx.memo["pickup"] = best
        ctx.policy.game_memo["pickup"] = best
        return best

    def _objective(self, ctx: Context, u, info: dict[str, Any]) -> int | None:  # noqa: ANN001
        hm = ctx.state.map
        if u.location.isdigit() and self._stranded(ctx)[hm.index(u.location)]:
            if self._lift(ctx) and hm.flag("coastal")[hm.index(u.location)]:
                return None  # the convoys call here (SSA-7.7): wait on the coast
            return self._pickup(ctx) or ctx.policy.game_memo.get("pickup")  # walk to the convoys
        beach = self._beachhead_goal(ctx, u)
        if beach is not None:
            return beach
        from workbench.rulesets.ssa import values

        if values.value(ctx.state, u, "military_government", False):
            # SSA-17.3: the government follows the troops into the enemy cities they hold
            held = [i for i in info["targets"] if info["own_str"][i] > 0 and info["enemy_str"][i] == 0]
            if self._lift(ctx):  # only where it is still needed; else it follows the army
                from workbench.rulesets.ssa.occupation import city_owner

                held = [i for i in held if city_owner(ctx.state, i) != ctx.side]
                target = ctx.policy.game_memo.get("landing_target")
                if not held and target is not None and city_owner(ctx.state, target) != ctx.side:
                    held = [target]
            if held:
                here = hm.index(u.location)
                return min(held, key=lambda i: (hm.distance(here, i), i))
        staging = self._staging(ctx, u, info)
        if staging is not None:
            return staging
        if not info["targets"]:
            return None
        if "target_arrays" not in info:  # per step: the targets as arrays
            idx = np.fromiter(info["targets"], dtype=np.int64, count=len(info["targets"]))
            w = np.fromiter(info["targets"].values(), dtype=float, count=len(idx))
            info["target_arrays"] = (idx, -4.0 * w, 0.3 * info["enemy_str"][idx])
        idx, pull, threat = info["target_arrays"]
        # the loop "first target with the lowest distance - 4w + 0.3 enemy", vectorised over
        # the targets only (not a distance field over the whole map per unit)
        here = hm.index(u.location)
        score = hm.grid.distance(np.full(len(idx), here), idx) + pull + threat
        k = int(np.argmin(score))
        return int(idx[k]) if score[k] < 1e9 else None

    def _make_room(self, ctx: Context) -> set[str]:
        """Axis, SSA-17.3: a city is occupied only with a military government in it, so in a
        full (SSA-9.1) enemy city the Axis stands in without one while a government is within
        its move, the weakest unit steps out."""
        from workbench.rulesets.ssa import values
        from workbench.rulesets.ssa.occupation import city_hexes, city_owner
        from workbench.rulesets.ssa.stacking import land_thirds

        st, hm = ctx.state, ctx.state.map
        mgs = [hm.index(u.location) for u in st.units_by_id.values()
               if u.side == ctx.side and u.location.isdigit() and not u.props.get("carried")
               and values.value(st, u, "military_government", False)]
        if not mgs:
            return set()
        thirds = land_thirds(st, ctx.side)
        stacks: dict[str, list] = {}
        for u in st.units_by_id.values():
            if u.side == ctx.side and u.location.isdigit() and values.is_land(st, u) and not u.props.get("carried"):
                stacks.setdefault(u.location, []).append(u)
        out: set[str] = set()
        for i in city_hexes(st):
            label = hm.label(i)
            stack = stacks.get(label)
            if not stack or city_owner(st, i) == ctx.side or thirds[i] + 1 <= 9 \
                    or any(values.value(st, u, "military_government", False) for u in stack):
                continue
            if min(hm.distance(m, i) for m in mgs) > 3:
                continue
            movers = [u for u in stack if not values.is_leader(st, u)]
            if movers:
                out.add(min(movers, key=lambda u: (values.cf(st, u), u.id)).id)
        return out

    def _beachhead_goal(self, ctx: Context, u) -> int | None:  # noqa: ANN001
        """Axis: land units within reach of the invasion target all head for it (concentration:
        the city falls to one big attack, not to waves fed in one by one)."""
        if not self._lift(ctx) or not u.location.isdigit():
            return None
        from workbench.rulesets.ssa import values

        target = ctx.policy.game_memo.get("landing_target")
        st, hm = ctx.state, ctx.state.map
        if target is None or values.is_leader(st, u) or values.value(st, u, "military_government", False):
            return None
        return target if hm.distance(hm.index(u.location), target) <= 10 else None

    def rail(self, ctx: Context) -> dict[str, Any] | None:
        """Units far from their objective take the train toward it."""
        from workbench.rulesets.ssa import values

        if not ctx.decision.step.endswith("initial-movement") or ctx.memo.get("rail_done"):
            return None
        st, hm = ctx.state, ctx.state.map
        if "rail_opts" not in ctx.memo:
            opts = ctx.legal("rail")
            by_unit: dict[str, list[dict[str, Any]]] = {}
            for o in opts:
                by_unit.setdefault(o["unit"], []).append(o)
            ctx.memo["rail_opts"] = by_unit
            ctx.memo["rail_queue"] = sorted(by_unit, key=lambda uid: -values.cf(st, st.unit(uid)))
        info = self._info(ctx)
        from workbench.rulesets.ssa.stacking import land_room

        queue = ctx.memo["rail_queue"]
        while queue:
            uid = queue.pop(0)
            u = st.unit(uid)
            goal = self._objective(ctx, u, info)
            if goal is None:
                continue
            dg = hm.dist_from(goal)
            here = hm.index(u.location)
            if dg[here] <= max(2.0, values.mf(st, u)) * 1.5:
                continue
            cands = []
            for o in ctx.memo["rail_opts"][uid]:
                i = hm.index(o["to"])
                if info["enemy_adj"][i] > 0 or dg[i] >= dg[here] - 2:
                    continue
                cands.append((dg[i] + (0.0 if info["supply"][i] <= 3 else 3.0), o))
            cands.sort(key=lambda c: c[0])
            for _, o in cands[:6]:
                if land_room(st, ctx.side, o["to"], u) is None and ctx.ok(o):
                    ctx.memo.setdefault("moved", set()).add(uid)
                    return o
        ctx.memo["rail_done"] = True
        return None

    def move(self, ctx: Context) -> dict[str, Any] | None:
        """Each land unit in turn: toward its objective, in supply, not overstacked, not alone."""
        from workbench.rulesets.ssa import values
        from workbench.rulesets.ssa.stacking import land_room

        st, hm = ctx.state, ctx.state.map
        if "move_opts" not in ctx.memo:
            by_unit: dict[str, list[dict[str, Any]]] = {}
            for o in ctx.legal("move"):
                by_unit.setdefault(o["unit"], []).append(o)
            ctx.memo["move_opts"] = by_unit
            if self._lift(ctx):  # SSA-17.3: room is made in a held city, then the government walks in
                room = self._make_room(ctx)
                ctx.memo["make_room"] = room

                def first(uid: str) -> tuple:
                    u = st.unit(uid)
                    mg = bool(values.value(st, u, "military_government", False))
                    return (uid not in room, not mg, -values.cf(st, u), uid)

                ctx.memo["move_queue"] = sorted(by_unit, key=first)
            else:
                ctx.memo["move_queue"] = sorted(by_unit, key=lambda uid: (-values.cf(st, st.unit(uid)), uid))
        info = self._info(ctx)
        queue = ctx.memo["move_queue"]
        moved = ctx.memo.setdefault("moved", set())
        while queue:
            uid = queue.pop(0)
            if uid in moved:
                continue
            moved.add(uid)
            u = st.unit(uid)
            here = hm.index(u.location)
            if values.is_leader(st, u):
                order = self._leader_move(ctx, u, info, ctx.memo["move_opts"][uid])
                if order is not None:
                    return order
                continue
            goal = self._objective(ctx, u, info)
            if goal is None:
                continue
            dg = hm.dist_from(goal)
            mf = max(values.mf(st, u), 1.0)
            logistic = "logistic" in u.type
            strength = values.cf(st, u)

            def score(i: int, dg=dg, mf=mf, logistic=logistic, strength=strength) -> float:
                s = float(dg[i])
                if info["supply"][i] > mf and not logistic:
                    s += 6.0  # SSA-10: stay within reach of a supply point
                if logistic and info["enemy_adj"][i] > 0:
                    s += 4.0
                alone = info["own_str"][i] <= 0
                if info["enemy_adj"][i] > 2.5 * (strength + info["own_str"][i]) and alone:
                    s += 3.0
                if i in info["targets"] and info["enemy_str"][i] == 0:
                    s -= 2.0  # take / hold the city itself
                return s

            stay = score(here)
            if uid in ctx.memo.get("make_room", ()):
                stay = float("inf")  # step aside for the military government (SSA-17.3)
            elif here in info["targets"] and info["enemy_adj"][here] > 0:
                continue  # hold a threatened city
            dh = hm.dist_from(here)
            cands = sorted(((score(hm.index(_dest(o))), int(dh[hm.index(_dest(o))]), o)
                            for o in ctx.memo["move_opts"][uid]), key=lambda c: (c[0], c[1]))
            for s, _, o in cands[:8]:
                if s >= stay:
                    break
                if land_room(st, ctx.side, _dest(o), u) is None and ctx.ok(o):
                    j = hm.index(_dest(o))
                    info["own_str"][here] -= strength
                    info["own_str"][j] += strength
                    return o
        return None

    def _leader_move(self, ctx: Context, u, info: dict[str, Any], opts: list) -> dict[str, Any] | None:  # noqa: ANN001
        """SSA-24.4: a leader alone dies to the first enemy unit that walks in; it goes to the
        strongest friendly stack it can reach ("A" leaders: one with mechanized units, 24.8-A)."""
        from workbench.rulesets.ssa import values

        st, hm = ctx.state, ctx.state.map
        letter = u.props.get("letter")

        stacks: dict[str, list] = {}  # own land units but leaders, by hex (in unit order)
        for v in st.units_by_id.values():
            if v.side == ctx.side and values.is_land(st, v) and not values.is_leader(st, v):
                stacks.setdefault(v.location, []).append(v)

        def worth(label: str) -> float:
            i = hm.index(label)
            stack = stacks.get(label)
            if not stack:
                return -1.0
            w = float(info["own_str"][i])
            if letter == "A" and any(values.is_mech(st, v) for v in stack):
                w += 10.0
            return w - 0.1 * float(info["enemy_adj"][i] > 0)

        here = worth(u.location)
        best = max(opts, key=lambda o: worth(_dest(o)), default=None)
        if best is None or worth(_dest(best)) <= max(here, 0.0) or not ctx.ok(best):
            return None
        return best

    def fanaticism(self, ctx: Context) -> dict[str, Any]:
        """SSA-21.5e: the defender turns DR into EX when an exchange would cost the attacker at
        least as much: its land strength is at least half the attacker's, or it holds a city."""
        from workbench.rulesets.ssa.combat import assess

        st = ctx.state
        order = ctx.decision.data.get("attack", {}) if ctx.decision.data else {}
        try:
            a = assess(st, st.phasing, order["attackers"], order["targets"])
            city = any(st.map.index(t) in self._info(ctx)["targets"] for t in order["targets"])
            declare = city or 2 * a.land_defense >= a.land_attack
        except Exception:  # noqa: BLE001
            declare = True
        return {"kind": "declare_fanaticism", "declare": bool(declare)}

    # == combat ======================================================================
    def attack(self, ctx: Context) -> dict[str, Any] | None:
        from workbench.rulesets.ssa import values
        from workbench.rulesets.ssa.combat import assess

        st = ctx.state
        opts = ctx.legal("attack")
        if not opts:
            return None
        info = self._info(ctx)
        tables = st.ruleset.tables
        hm = st.map
        by_target: dict[str, list[dict[str, Any]]] = {}
        for o in opts:
            by_target.setdefault(o["targets"][0], []).append(o)
        from workbench.rulesets.ssa import adjudicate as adj

        best, best_ev = None, 0.0
        own_supply = self._own_supply(ctx)

        def column(attackers: list[str], t: str) -> str | None:
            """The column as the attacker can foresee it: own strength, the defence as seen
            (hidden stacks estimated), and the shifts the rules give (terrain, rivers)."""
            att = sum(adj.supply_strength(values.cf(st, st.unit(a)), own_supply.get(a, True)) for a in attackers)
            dfn = float(info["enemy_str"][hm.index(t)])
            if att <= 0:
                return None
            col = adj.odds_column(att, max(dfn, 0.5), tables=tables)
            a = assess(st, ctx.side, attackers, [t])
            return adj.shift(col, sum(n for n, _, _ in a.shifts), tables=tables)

        for t, group in by_target.items():
            full = max(group, key=lambda o: len(o["attackers"]))
            cands = [full]
            ranked = sorted(full["attackers"], key=lambda a: -values.cf(st, st.unit(a)))
            try:
                col_full = column(full["attackers"], t)
                for k in range(1, len(ranked)):  # the fewest strongest units that reach the same column
                    sub = sorted(ranked[:k])
                    if column(sub, t) == col_full:
                        cands.insert(0, {"kind": "attack", "attackers": sub, "targets": [t]})
                        break
            except Exception:  # noqa: BLE001
                continue
            bonus = 0.5 * info["targets"].get(hm.index(t), 0.0)
            for o in cands:
                try:
                    col = column(o["attackers"], t)
                    if col is None:
                        continue
                    dist = adj.outcome_distribution(col, tables=tables)
                except Exception:  # noqa: BLE001
                    continue
                ev = sum(float(p) * RESULT_VALUE.get(r, 0.0) for r, p in dist.items())
                p_good = sum(float(p) for r, p in dist.items() if r in ("DZ", "DE", "DR"))
                ev += bonus * p_good
                ev -= 0.02 * len(o["attackers"])
                if ev > best_ev + 1e-9 and ev >= 0.6:
                    best, best_ev = o, ev
        if best is not None:
            best = self._fanatic(ctx, best)
        return best if best is not None and ctx.ok(best) else None

    def _fanatic(self, ctx: Context, order: dict[str, Any]) -> dict[str, Any]:
        """SSA-21.5d: attack fanatically (AR becomes EX) when the attack is the stronger side,
        so an exchange costs it only part of its units."""
        from workbench.rulesets.ssa import morale
        from workbench.rulesets.ssa.combat import assess

        st = ctx.state
        if not morale.may_be_fanatic(st, ctx.side):
            return order
        a = assess(st, ctx.side, order["attackers"], order["targets"])
        return {**order, "fanatic": True} if a.land_attack > a.land_defense else order

    def _own_supply(self, ctx: Context) -> dict[str, bool]:
        from workbench.rulesets.ssa.supply import supply_status

        if "own_supply" not in ctx.memo:
            try:
                ctx.memo["own_supply"] = supply_status(ctx.state, ctx.side)
            except Exception:  # noqa: BLE001
                ctx.memo["own_supply"] = {}
        return ctx.memo["own_supply"]

    def retreat(self, ctx: Context) -> dict[str, Any] | None:
        hm = ctx.state.map
        opts = ctx.legal("retreat")
        if not opts:
            return None
        info = self._info(ctx)

        def score(o: dict[str, Any]) -> float:
            i = hm.index(o["to"])
            return float(info["enemy_adj"][i]) - 0.5 * float(info["own_str"][i] > 0) + 0.2 * float(info["supply"][i])

        return min(opts, key=score)

    def take_losses(self, ctx: Context) -> dict[str, Any] | None:
        from workbench.rulesets.ssa import values

        st = ctx.state
        opts = ctx.legal("take_losses")
        if not opts:
            return None
        return min(opts, key=lambda o: (sum(values.full_cf(st, st.unit(u)) for u in o["units"]), len(o["units"])))
