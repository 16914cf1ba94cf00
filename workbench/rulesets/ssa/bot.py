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
        if not opts:
            ctx.memo["embark_done"] = True
            return None
        st = ctx.state

        def rank(o: dict[str, Any]) -> tuple:
            # a military government sails with the first wave: without one no city can be
            # occupied (SSA-17.3); then the strongest land units
            u = st.unit(o["units"][0])
            mg = bool(values.value(st, u, "military_government", False))
            return (values.domain(st, u) != "land", not mg, -values.cf(st, u), o["convoy"])

        order = ctx.first_ok(sorted(opts, key=rank))
        if order is None:
            ctx.memo["embark_done"] = True
        return order

    def _landing_target(self, ctx: Context) -> int | None:
        """The enemy city to land at: valuable and weakly held."""
        if "landing_target" in ctx.memo:
            return ctx.memo["landing_target"]
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
        if not loaded:
            back = self._return_trip(ctx, sailed)
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
        convoy = loaded[0]
        sailed.add(convoy.id)
        opts = [o for o in self._sail_opts(ctx) if o["unit"] == convoy.id and o["to"].isdigit()]
        if not opts:
            return None
        info = self._info(ctx)
        dt = hm.dist_from(target)
        coastal = hm.flag("coastal")
        port = hm.flag("port")
        cargo = carried_by(st, convoy)
        from workbench.rulesets.ssa.stacking import land_room

        def score(o: dict[str, Any]) -> float:
            i = hm.index(o["to"])
            if not coastal[i] or info["enemy_str"][i] > 0:
                return 1e9
            return dt[i] * 2.0 + 0.3 * info["enemy_adj"][i] - (1.5 if port[i] else 0.0) \
                - (0.5 if info["own_str"][i] > 0 else 0.0)

        for o in sorted(opts, key=score)[:12]:
            if score(o) >= 1e9:
                break
            if any(land_room(st, ctx.side, o["to"], u) is not None for u in cargo if values.is_land(st, u)):
                continue
            if ctx.ok(o):
                ctx.memo.setdefault("beach", o["to"])
                return o
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
            return self._pickup(ctx) or ctx.policy.game_memo.get("pickup")  # walk to the convoys
        from workbench.rulesets.ssa import values

        if values.value(ctx.state, u, "military_government", False):
            # SSA-17.3: the government follows the troops into the enemy cities they hold
            held = [i for i in info["targets"] if info["own_str"][i] > 0 and info["enemy_str"][i] == 0]
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
            if here in info["targets"] and info["enemy_adj"][here] > 0:
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
