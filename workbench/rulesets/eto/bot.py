"""The ETO heuristic brain: a sensible beginner for either side of the land campaign.

* **Initiative** (SOP seasonal): buys offensives — the Axis enough for its
  army groups over the season (keeping EPs for them during construction), the
  Soviets one or two — and begins an offensive while an HQ with offensives on
  its nation's track has units near the enemy (the Axis), or once or twice a
  month (the Soviets).
* **Command** (ETO-22/23): activates the HQ with the most combat units in its
  radius near the enemy, then activates those units (and the generals) one by
  one — units far behind the front stay unactivated, so they can take the
  train in the Movement phase (31.3).  With no HQ worth it, the Axis lets a
  general lead the units around him (22.2) or a single stack (22.3) attack.
* **Breakthrough** (ETO-28): the armor stack with the best priced attack.
* **Offensive movement** (ETO-24): picks as many target hexes as the HQ may
  attack, the ones the activated units can reach at the best odds (nearest the
  objectives first among equals), and moves the units next to them.
* **Combat** (ETO-26): every possible designation is priced with
  ``combat.assess`` (odds column and DRMs) over the exact CRT rows; targets
  with a good expected result are designated, then resolved.
* **Losses, retreats, advances**: the fewest steps, away from the enemy;
  victorious stacks advance; breakthrough and exploitation moves head for the
  objectives.
* **Movement and rail** (ETO-30/31): units behind the front ride the rails
  toward it; others move toward the victory objectives and the Soviet resource
  hexes (Axis, by path distance over the land each class may enter, 24.1) or
  toward the front line (Soviets).  HQs and generals move after the combat
  units; the Axis ones go to where the units in contact now stand.
* **Construction** (ETO-37): rebuilds and builds what is offered, HQs first.

Anything else ends the step or passes.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from workbench.bots.heuristic import Brain, Context

RESULT_VALUE = {"DE": 3.0, "D3": 2.5, "(D2)": 2.0, "D2": 1.8, "D2x": 1.3, "D1": 1.0, "D1x": 0.6,
                "x": -0.4, "xx": -0.9, "AE": -2.5}
#: a victory hex the Axis does not hold, entered on the way, is worth this many hexes of progress
GRAB_HEXES = 3.0
#: objective weight in hexes: a unit is drawn to an objective worth more as if it were nearer
OBJECTIVE_PULL = {10: 4.0, 6: 3.0, 4: 2.0, 3: 1.5}


def _dest(o: dict[str, Any]) -> str | None:
    if "to" in o:
        return o["to"]
    path = o.get("path") or []
    return path[-1] if path else None


def _ev(column: str, drm: int, tables: dict[str, Any]) -> float:
    """Expected value of one attack over the six die rolls (attacker's view)."""
    from workbench.rulesets.eto import adjudicate as adj

    return sum(RESULT_VALUE.get(adj.crt(column, die + drm, tables=tables), 0.0) for die in range(1, 7)) / 6


class ETOBrain(Brain):
    def __init__(self, side: str) -> None:
        self.side = side

    def propose(self, ctx: Context) -> dict[str, Any] | None:
        kinds = set(ctx.decision.kinds)
        for kind, fn in (("take_losses", self.take_losses), ("retreat", self.retreat),
                         ("advance", self.advance), ("bt_move", self.bt_move),
                         ("buy_offensives", self.buy),
                         ("designate", self.designate), ("resolve", self.resolve),
                         ("activate_hq", self.activate_hq), ("move_hq", self.move_hq_forward),
                         ("activate", self.activate),
                         ("begin", self.begin), ("breakthrough", self.breakthrough),
                         ("attack", self.attack), ("build", self.build), ("rebuild", self.build),
                         ("place_hq", self.build), ("move", self.move), ("rail", self.move)):
            if kind in kinds:
                order = fn(ctx)
                if order is not None:
                    return order
        return None

    # -- helpers ------------------------------------------------------------------------------
    def _off(self, ctx: Context) -> dict[str, Any]:
        """Plans for the current offensive (the step memos are shared by every offensive of a turn)."""
        key = (ctx.state.turn, ctx.policy.game_memo.get("off_serial", 0))
        memo = ctx.policy.game_memo.get("off")
        if memo is None or memo.get("_key") != key:
            memo = {"_key": key}
            ctx.policy.game_memo["off"] = memo
        return memo

    @staticmethod
    def _current(ctx: Context) -> set[str]:
        """Units activated for the current offensive.  Units activated for an earlier offensive this
        turn are not used again (ETO-22.0: a unit is activated once a turn, for one offensive)."""
        return set((ctx.state.markers.get("offensive") or {}).get("units", []))

    def _info(self, ctx: Context) -> dict[str, Any]:
        stamp = (len(ctx.state.log), ctx.policy.game_memo.get("off_serial", 0))
        if ctx.memo.get("info_stamp") == stamp:
            return ctx.memo["info"]
        from workbench.rulesets.eto import values

        view, hm = ctx.view, ctx.state.map
        enemy = np.zeros(hm.size)
        enemy_sp = np.zeros(hm.size)
        own = np.zeros(hm.size)
        for u in view.units_by_id.values():
            if u.location.isdigit() and hm.has_hex(u.location):
                try:
                    land = values.is_land_unit(ctx.state, u)
                except Exception:  # noqa: BLE001
                    land = True
                if land:
                    i = hm.index(u.location)
                    if u.side == ctx.side:
                        own[i] += 1
                    else:
                        enemy[i] += 1
                        try:
                            enemy_sp[i] += values.strength(ctx.state, u) if values.is_combat_unit(ctx.state, u) else 0
                        except Exception:  # noqa: BLE001
                            enemy_sp[i] += 3
        objectives = []
        weights = []
        vps = []
        for o in ctx.state.game.scenario.raw.get("victory", {}).get("objectives", []):
            try:
                p = o["place"]
                objectives.append(hm.index(p if p.isdigit() else hm.hex_of(p)))
                vps.append(int(o.get("vp", 0)))
                weights.append(OBJECTIVE_PULL.get(vps[-1], 1.0))
            except Exception:  # noqa: BLE001
                continue
        enemy_idx = np.flatnonzero(enemy > 0)
        info = {"enemy": enemy, "enemy_sp": enemy_sp, "own": own, "objectives": objectives,
                "to_enemy": hm.dist_to_set(enemy_idx[:: max(1, len(enemy_idx) // 60)]),
                "to_obj": hm.dist_to_set(objectives)}
        goal = info["to_obj"].astype(float)
        info["lane_goal"] = {}
        if ctx.side == "axis" and objectives:
            try:
                goal, info["lane_goal"] = self._goal_fields(ctx, objectives, weights, vps, info)
            except Exception:  # noqa: BLE001
                goal = info["to_obj"].astype(float)
        info["goal"] = goal
        ctx.memo["info"] = info
        ctx.memo["info_stamp"] = stamp
        return info

    def _goal_fields(self, ctx: Context, objectives: list[int], weights: list[float], vps: list[int],
                     info: dict[str, Any]) -> tuple[np.ndarray, dict[str, list[np.ndarray]]]:
        """Axis goal fields: distance to the nearest objective or Soviet resource hex not yet held
        (the richer objectives pulling harder), for the whole army and for each *lane* -- one per
        victory objective, holding the resource hexes nearer to it than to any other -- so that the
        army spreads over all the objectives instead of crowding onto the nearest."""
        from workbench.rulesets.eto.control import SIDE_CODE, control, home_mask
        from workbench.rulesets.eto.terrain import terrain_arrays

        hm = ctx.state.map
        ctrl = control(ctx.state)
        mine = SIDE_CODE[ctx.side]
        ta = terrain_arrays(ctx.state)
        res = [int(i) for i in np.flatnonzero(home_mask(ctx.state, "SU", original=True)
                                                & (ta.resource | ta.city_resource)) if int(i) not in objectives]
        to_obj = np.array([hm.dist_from(o) for o in objectives], dtype=float)  # [objective, hex]
        lane_of = [int(np.argmin(to_obj[:, i])) for i in res]
        worth = [vp + 1 + lane_of.count(k) for k, vp in enumerate(vps)]
        self._assign_lanes(ctx, objectives, to_obj, np.array(worth, dtype=float))
        prize = np.zeros(hm.size, dtype=bool)
        prize[[i for i in list(objectives) + res if ctrl[i] != mine]] = True
        info["prize"] = prize
        fields: dict[str, list[np.ndarray]] = {}
        for cls in ("infantry", "armor"):
            lanes = []
            for k, (i, w) in enumerate(zip(objectives, weights, strict=True)):
                targets = [(i, -w)] if ctrl[i] != mine else []
                targets += [(r, 0.0) for r, kr in zip(res, lane_of, strict=True) if kr == k and ctrl[r] != mine]
                lanes.append(self._path_field(ctx, cls, targets))
            goal = np.minimum.reduce(lanes)
            if goal.min() >= 1e5:
                goal = info["to_enemy"].astype(float)
            fields[cls] = [lane if lane.min() < 1e5 else goal for lane in lanes] + [goal]
        return fields["infantry"][-1], fields

    def _path_field(self, ctx: Context, cls: str, targets: list[tuple[int, float]]) -> np.ndarray:
        """Hexes a unit of ``cls`` must walk to the nearest target, less the target's pull: a
        breadth-first search over the land it may enter (24.1: no marsh for armor, no neutral or
        banned hex, no all-sea or unfrozen lake hexside), so a unit is not led into a dead end
        behind a marsh or a coast as plain hex distance would.  Enemy units and ZOC are ignored:
        they are fought or bypassed on the way.  Cached for the turn (1e6 where unreachable)."""
        from workbench.engine.search import multi_source_reach

        st, hm = ctx.state, ctx.state.map
        cache = ctx.policy.game_memo.get("fields")
        if cache is None or cache.get("_turn") != st.turn:
            cache = {"_turn": st.turn}
            ctx.policy.game_memo["fields"] = cache
        key = (cls, tuple(targets))
        if key in cache:
            return cache[key]
        if ("open", cls) not in cache:
            cache[("open", cls)] = self._open_land(ctx, cls)
        passable, blocked = cache[("open", cls)]
        out = np.full(hm.size, 1e6)
        for pull in sorted({p for _i, p in targets}):
            d = multi_source_reach(hm.neighbors, passable, [i for i, p in targets if p == pull],
                                   blocked_sides=blocked)
            np.minimum(out, np.where(d >= 0, d + pull, 1e6), out=out)
        cache[key] = out
        return out

    def _open_land(self, ctx: Context, cls: str) -> tuple[np.ndarray, np.ndarray]:
        """``(passable[N], blocked_sides[N, 6])`` for a unit of ``cls`` of this side (24.1)."""
        from workbench.rulesets.eto import values
        from workbench.rulesets.eto.movement import banned_hexes
        from workbench.rulesets.eto.terrain import terrain_arrays
        from workbench.rulesets.eto.weather import crossable_sides

        st = ctx.state
        ta = terrain_arrays(st)
        sample = next((u for u in st.units_by_id.values() if u.side == ctx.side and u.nation != "FI"
                       and values.unit_class(st, u) == cls), None)
        passable = ta.land.copy()
        if sample is not None:
            passable &= ~banned_hexes(st, sample)
        if cls == "armor":
            passable &= ~ta.marsh
        return passable, ~crossable_sides(st)

    def _assign_lanes(self, ctx: Context, objectives: list[int], to_obj: np.ndarray, worth: np.ndarray) -> None:
        """Each Axis combat unit and HQ gets a lane for the game: shares of the army in proportion
        to each lane's worth (its objective's VP plus its resource hexes), the nearest units
        first; later arrivals fill the lane furthest below its share."""
        from workbench.rulesets.eto import values

        st, hm = ctx.state, ctx.state.map
        lanes: dict[str, int] = ctx.policy.game_memo.setdefault("lanes", {})
        share = worth / worth.sum()
        combat = [u for u in st.units_by_id.values()
                  if u.side == ctx.side and values.on_map(u) and values.unit_class(st, u) in ("infantry", "armor")]
        new = [u for u in combat if u.id not in lanes]
        if not new:
            return
        count = np.zeros(len(objectives))
        for u in combat:
            if u.id in lanes:
                count[lanes[u.id]] += 1
        quota = share * len(combat)
        plan = (st.game.scenario.raw.get("bot_plan", {}).get(ctx.side, {}) or {}).get("lanes", {})
        hq_lane = {}
        for hid, place in plan.items():
            try:
                i = hm.index(place if place.isdigit() else hm.hex_of(place))
                if hid in st.units_by_id and i in objectives:
                    hq_lane[hid] = objectives.index(i)
            except Exception:  # noqa: BLE001
                continue
        if hq_lane:
            # the scenario's plan: each unit follows the army group (HQ) nearest it when first seen
            for hid, k in hq_lane.items():
                lanes.setdefault(hid, k)
            for u in new:
                here = hm.index(u.location)
                near = [(int(hm.grid.distance(here, hm.index(st.unit(h).location))), h) for h in hq_lane
                        if values.on_map(st.unit(h))]
                if near:
                    lanes[u.id] = hq_lane[min(near)[1]]
        pairs = sorted((float(to_obj[k, hm.index(u.location)]), u.id, k)
                       for u in new for k in range(len(objectives)))
        for _d, uid, k in pairs:
            if uid not in lanes and count[k] < quota[k]:
                lanes[uid] = k
                count[k] += 1
        for u in new:
            if u.id not in lanes:
                k = int(np.argmax(quota - count))
                lanes[u.id] = k
                count[k] += 1
        # HQs follow the lane most of the combat units in their radius belong to
        for hq in st.units_by_id.values():
            if hq.side != ctx.side or hq.id in lanes or not values.on_map(hq) or values.unit_class(st, hq) != "hq":
                continue
            here = hm.index(hq.location)
            near = hm.dist_from(here)
            votes = np.zeros(len(objectives))
            for u in combat:
                if near[hm.index(u.location)] <= values.command_radius(st, hq):
                    votes[lanes[u.id]] += 1
            lanes[hq.id] = int(np.argmax(votes)) if votes.any() else int(np.argmin(to_obj[:, here]))

    def _goal_of(self, ctx: Context, info: dict[str, Any], uid: str) -> np.ndarray:
        """The goal field a unit moves by: its lane's (Axis), else the army's."""
        fields = info.get("lane_goal")
        if not fields:
            return info["goal"]
        from workbench.rulesets.eto import values

        u = ctx.state.units_by_id.get(uid)
        by_cls = fields["armor" if u is not None and values.unit_class(ctx.state, u) == "armor" else "infantry"]
        lane = ctx.policy.game_memo.get("lanes", {}).get(uid)
        return by_cls[-1] if lane is None else by_cls[lane]

    def _hq_score(self, ctx: Context, hq: Any, at: str | None = None, fresh: bool = False) -> float:
        """Own unactivated combat units in the HQ's radius near the enemy, and enemy stacks there
        (with the HQ at ``at``, default where it stands; ``fresh``: as if no unit were activated
        yet, for next month)."""
        from workbench.rulesets.eto import values

        st, hm = ctx.state, ctx.state.map
        info = self._info(ctx)
        if at is None and not values.on_map(hq):
            return 0.0
        radius = values.command_radius(st, hq)
        near = hm.dist_from(hm.index(at or hq.location))
        total = 0.0
        for u in st.units_by_id.values():
            if u.side != ctx.side or not values.on_map(u) or (u.props.get("activated") and not fresh):
                continue
            if values.unit_class(st, u) not in ("infantry", "armor"):
                continue
            i = hm.index(u.location)
            if near[i] <= radius and info["to_enemy"][i] <= 2:
                total += 1.0
        targets = (info["enemy"] > 0) & (near <= radius + 1)
        return total + 0.5 * float(targets.sum()) if total else 0.0

    @staticmethod
    def _bar(info: dict[str, Any], target: int, bar: float) -> float:
        """The expected result an attack must beat: lower on an objective or resource hex the Axis
        does not hold (the hex it must take for victory points) -- there even a weak attack may
        make the defender retreat out of it (27.1) -- than elsewhere."""
        prize = info.get("prize")
        return min(bar, 0.15) if prize is not None and prize[target] else bar

    @staticmethod
    def _grab(ctx: Context, info: dict[str, Any], o: dict[str, Any]) -> float:
        """Hexes a move takes, in goal-field hexes: the victory hexes (objectives and Soviet
        resource hexes) the Axis does not hold that the path enters.  A land unit that enters an
        enemy-controlled hex makes it friendly (24.4), and victory counts control, not occupation,
        so a move through an empty resource hex is worth it even if the unit ends elsewhere."""
        prize = info.get("prize")
        if prize is None:
            return 0.0
        hm = ctx.state.map
        n = sum(1 for h in o.get("path") or [] if isinstance(h, str) and hm.has_hex(h) and prize[hm.index(h)])
        return GRAB_HEXES * n

    @staticmethod
    def _spare_offensives(ctx: Context, nation: str) -> int:
        """Offensives on ``nation``'s track beyond those its army-group HQs need for the rest of
        the season (38.2: offensives are bought once a season): each HQ not yet activated this
        month, and every HQ once in each later month of the season.  An HQ offensive attacks up
        to its attack rating each step (22.1), a stack offensive once (22.3), so a stack or a
        general offensive spends only what the HQs will not need."""
        from workbench.rulesets.eto import values
        from workbench.rulesets.eto.command import track

        st = ctx.state
        label = st.turn_label
        month = int(label[5:7]) if len(label) >= 7 and label[5:7].isdigit() else 3
        later = (3 - month % 3) % 3  # months after this one before the next seasonal turn (Jan-Mar = winter)
        hqs = [u for u in st.units_by_id.values() if u.nation == nation and values.on_map(u)
               and values.unit_class(st, u) == "hq"]
        need = sum(1 for u in hqs if not u.props.get("activated")) + later * len(hqs)
        return track(st, f"{nation}.offensives") - need

    def _hq_candidates(self, ctx: Context) -> list[tuple[float, Any]]:
        from workbench.rulesets.eto import values
        from workbench.rulesets.eto.command import track

        st = ctx.state
        out = []
        for u in st.units_by_id.values():
            if u.side != ctx.side or not values.on_map(u) or u.props.get("activated"):
                continue
            if values.unit_class(st, u) != "hq" or values.nation_kind(st, u.nation) != "major":
                continue
            if track(st, f"{u.nation}.offensives") <= 0:
                continue
            s = self._hq_score(ctx, u)
            if s >= 2:
                out.append((s, u))
        return sorted(out, key=lambda t: (-t[0], t[1].id))

    def _stack_candidates(self, ctx: Context) -> list[tuple[float, str]]:
        """Axis: unactivated stacks next to a weak enemy hex, for a one-attack stack offensive (22.3),
        while the track has offensives the HQs will not need this season."""
        from workbench.rulesets.eto import command, values

        if ctx.side != "axis":
            return []
        st, hm = ctx.state, ctx.state.map
        info = self._info(ctx)
        out = []
        for h in command._stack_hexes(st, ctx.side):
            units = [u for u in values.units_at(st, h, ctx.side)
                     if command.can_activate(st, u, ctx.side) and values.unit_class(st, u) in ("infantry", "armor")]
            n = command._offensive_nation(st, units, ctx.side)
            if not units or n is None or self._spare_offensives(ctx, n) <= 0:
                continue
            att = sum(values.strength(st, u) for u in units)
            best = self._one_attack(ctx, info, hm.index(h), lambda _j, units=units, att=att: (units, att))
            if best is not None:
                out.append((best, h))
        return sorted(out, key=lambda t: (-t[0], t[1]))

    def _one_attack(self, ctx: Context, info: dict[str, Any], at: int, attack: Any) -> float | None:
        """The worth of the best single attack from hex ``at`` on an enemy hex next to it, for a
        one-attack offensive (22.2, 22.3): ``attack(j)`` gives the attackers on hex ``j`` and their
        strength.  None when no attack's expected result clears the bar."""
        from workbench.rulesets.eto import adjudicate as adj

        hm, tables = ctx.state.map, ctx.state.ruleset.tables
        best = None
        for j in hm.neighbors[at]:
            j = int(j)
            if j < 0 or info["enemy"][j] <= 0:
                continue
            units, att = attack(j)
            if not att:
                continue
            dfn = max(float(info["enemy_sp"][j]), 1.0)
            ev = _ev(adj.odds_column(int(att), int(dfn), tables=tables), self._drm_guess(ctx, units, hm.label(j)),
                     tables)
            if ev >= self._bar(info, j, 1.0):
                v = ev - 0.15 * float(info["goal"][j])
                best = v if best is None else max(best, v)
        return best

    def _general_candidates(self, ctx: Context) -> list[tuple[float, str]]:
        """Axis: unactivated generals whose group (the units stacked with or next to him, 22.2) can
        make one good attack on an enemy hex next to him without moving: a one-attack offensive
        that, unlike a stack offensive (22.3), combines several stacks against one hex."""
        from workbench.rulesets.eto import command, values

        if ctx.side != "axis":
            return []
        st, hm = ctx.state, ctx.state.map
        info = self._info(ctx)
        out = []
        for g in st.units_by_id.values():
            if g.side != ctx.side or not values.on_map(g) or g.props.get("activated") \
                    or values.unit_class(st, g) != "general" or values.nation_kind(st, g.nation) != "major" \
                    or command.track(st, f"{g.nation}.offensives") <= 0:
                continue
            group = [u for u in command.general_group(st, g) if values.unit_class(st, u) in ("infantry", "armor")]
            if sum(u.nation == g.nation for u in group) * 2 < len(group):
                continue

            def attack(j: int, g: Any = g, group: list[Any] = group) -> tuple[list[Any], int]:
                by = [u for u in group if int(hm.grid.distance(hm.index(u.location), j)) == 1]
                att = sum(values.strength(st, u) for u in by)
                return by, att + min(values.combat_rating(st, g), att)  # his rating, within 2x (26.2)

            best = self._one_attack(ctx, info, hm.index(g.location), attack)
            if best is not None:
                out.append((best, g.id))
        return sorted(out, key=lambda t: (-t[0], t[1]))

    def _minor_candidates(self, ctx: Context) -> set[str]:
        """Axis minor partners with unactivated combat units next to the enemy and a minor offensive
        left this month (22.4)."""
        from workbench.rulesets.eto import command, values

        if ctx.side != "axis":
            return set()
        st, hm = ctx.state, ctx.state.map
        info = self._info(ctx)
        out = set()
        for u in st.units_by_id.values():
            if u.side != ctx.side or not values.on_map(u) or values.nation_kind(st, u.nation) != "minor":
                continue
            if u.nation in out or not command.can_activate(st, u, ctx.side):
                continue
            if command.track(st, f"{u.nation}.minor_offensives_used") >= command.minor_offensives_allowed(st, u.nation):
                continue
            if values.unit_class(st, u) in ("infantry", "armor") and info["to_enemy"][hm.index(u.location)] <= 1:
                out.add(u.nation)
        return out

    # -- decisions ----------------------------------------------------------------------------
    def buy(self, ctx: Context) -> dict[str, Any] | None:
        opts = ctx.legal("buy_offensives")
        if not opts:
            return None
        by_nation: dict[str, list[dict[str, Any]]] = {}
        for o in opts:
            by_nation.setdefault(o["nation"], []).append(o)
        for n, os_ in sorted(by_nation.items()):
            want = self._offensives_wanted(ctx, n) if ctx.side == "axis" else 2
            best = max((o for o in os_ if o["count"] <= want), key=lambda o: o["count"], default=None)
            if best is not None and ctx.ok(best):
                return best
        return None

    @staticmethod
    def _offensives_wanted(ctx: Context, nation: str) -> int:
        """Axis offensives to buy for a season: each army group HQ once a month and a dozen stack
        offensives (22.1, 22.3), at most the 38.3 limit."""
        from workbench.rulesets.eto import values

        st = ctx.state
        hqs = sum(1 for u in st.units_by_id.values() if u.nation == nation and values.unit_class(st, u) == "hq")
        cap = int(st.ruleset.tables["costs"]["offensives"].get("max_per_nation", 30))
        return min(3 * hqs + 12, cap) if hqs else 0

    def _offensive_budget(self, ctx: Context, nation: str) -> int:
        """EPs to keep through construction for the season's offensives (bought after it, 38.2):
        the wanted number at this season's price (38.3: dearer in the winter seasonal turn).  Units
        are not what the Axis lacks -- each may be activated once a turn (22.0) -- offensives are."""
        offs = ctx.state.ruleset.tables["costs"]["offensives"]
        winter = ctx.state.turn_label.endswith("winter")
        price = int((offs["cost_winter_seasonal"] if winter else offs["cost"]).get(nation, 2))
        return self._offensives_wanted(ctx, nation) * price

    def begin(self, ctx: Context) -> dict[str, Any] | None:
        """Axis: begin while an HQ can usefully be activated.  Soviets: a couple a month."""
        key = ("begins", ctx.state.turn)
        n = ctx.policy.game_memo.get(key, 0)
        if ctx.side == "axis":
            if n >= 24 or not (self._hq_candidates(ctx) or self._general_candidates(ctx)
                               or self._stack_candidates(ctx) or self._minor_candidates(ctx)):
                return None
        elif n >= 2:
            return None
        order = ctx.first_ok(ctx.legal("begin"))
        if order is not None:
            ctx.policy.game_memo[key] = n + 1
            ctx.policy.game_memo["off_serial"] = ctx.policy.game_memo.get("off_serial", 0) + 1
        return order

    def activate_hq(self, ctx: Context) -> dict[str, Any] | None:
        off = self._off(ctx)
        if off.get("hq_tried"):
            return None
        off["hq_tried"] = True
        opts = ctx.legal("activate_hq")
        if not opts:
            return None
        cands = self._hq_candidates(ctx)
        rank = {u.id: s for s, u in cands}
        singles = [o for o in opts if len(o.get("hqs", [])) == 1 and o["hqs"][0] in rank]
        if ctx.side != "axis" and not singles:
            singles = [o for o in opts if len(o.get("hqs", [])) == 1]
        singles.sort(key=lambda o: (-rank.get(o["hqs"][0], 0.0), o["hqs"][0]))
        return ctx.first_ok(singles[:4])

    def move_hq_forward(self, ctx: Context) -> dict[str, Any] | None:
        """ETO-23.2: the activated HQ moves up to 3 hexes at Step 1-B and again at 3-C.  At 1-B
        (before any unit is activated) it goes where its radius covers the most units in contact;
        at 3-C (after the units moved) it follows the advance toward the objectives, keeping every
        infantry attacker it planned within its radius (26.3) and out of enemy ZOC when alone."""
        from workbench.rulesets.eto import values

        st, hm = ctx.state, ctx.state.map
        key = st.step.key if st.step else ""
        memo = self._off(ctx)
        flag = ("hq_moved", key)
        if memo.get(flag) or key not in ("offensive/command", "offensive/movement"):
            return None
        if key == "offensive/movement" and ("oqueue" not in memo or memo["oqueue"]):
            return None  # the units move first
        memo[flag] = True
        opts = ctx.legal("move_hq")
        if not opts:
            return None
        info = self._info(ctx)
        best, best_v = None, None
        for hid in sorted({o["hq"] for o in opts}):
            hq = st.unit(hid)
            if not values.on_map(hq):
                continue
            # 23.3: an HQ alone in enemy ZOC is pushed away, so it never ends there
            mine = [o for o in opts if o["hq"] == hid and hm.has_hex(o["path"][-1])
                    and not (info["to_enemy"][hm.index(o["path"][-1])] <= 1
                             and info["own"][hm.index(o["path"][-1])] <= 0)]
            if key == "offensive/command":
                here = self._hq_score(ctx, hq)
                for o in mine:
                    v = self._hq_score(ctx, hq, o["path"][-1]) - here
                    if v > 0.5 and (best_v is None or v > best_v):
                        best, best_v = o, v
                continue
            keep = [st.unit(uid) for uid in memo.get("oplan", {})
                    if uid in st.units_by_id and values.unit_class(st, st.unit(uid)) == "infantry"]
            goal = self._goal_of(ctx, info, hid)
            here = float(goal[hm.index(hq.location)])
            radius = values.command_radius(st, hq)
            for o in mine:
                j = hm.index(o["path"][-1])
                if any(int(hm.grid.distance(j, hm.index(v.location))) > radius for v in keep if values.on_map(v)):
                    continue
                v = here - float(goal[j])
                if v > 0 and (best_v is None or v > best_v):
                    best, best_v = o, v
        return best if best is not None and ctx.ok(best) else None

    def activate(self, ctx: Context) -> dict[str, Any] | None:
        """Activate the units of the activated HQ that are near the enemy (and its generals)."""
        from workbench.rulesets.eto import values

        st = ctx.state
        off = st.markers.get("offensive") or {}
        memo = self._off(ctx)
        if not off.get("mode"):
            # no HQ worth activating: the Axis starts a stack offensive (22.3) instead
            if ctx.side != "axis" or memo.get("stack_tried"):
                return None
            memo["stack_tried"] = True
            legal = ctx.legal("activate")
            gens = {o["general"]: o for o in legal if o.get("mode") == "general"}
            opts = {o["hex"]: o for o in legal if o.get("mode") == "stack"}
            ranked = sorted([(v, 0, gens[g]) for v, g in self._general_candidates(ctx) if g in gens]
                            + [(v, 1, opts[h]) for v, h in self._stack_candidates(ctx) if h in opts],
                            key=lambda t: (-t[0], t[1]))
            order = ctx.first_ok(o for _v, _k, o in ranked)
            if order is None:  # a minor country's own offensive (22.4): its units near the enemy
                minors = self._minor_candidates(ctx)
                order = ctx.first_ok(o for o in legal if o.get("mode") == "minor" and o.get("form") == "home"
                                     and o.get("nation") in minors)
            return order
        if memo.get("activation_done"):
            return None
        opts = [o for o in ctx.legal("activate") if "unit" in o]
        if not opts:
            memo["activation_done"] = True
            return None
        info = self._info(ctx)
        hm = st.map
        major = off.get("nation")

        def want(o: dict[str, Any]) -> tuple[int, float, str] | None:
            u = st.units_by_id.get(o["unit"])
            if u is None or not values.on_map(u):
                return None
            cls = values.unit_class(st, u)
            d = float(info["to_enemy"][hm.index(u.location)])
            if cls == "general":
                # a general is only worth activating with a carrier activated for this offensive
                # (24.3: he moves only with the land units he stacks with); one left alone stays
                # unactivated and joins the armor in the Movement phase (30.1)
                cur = self._current(ctx)
                carried = any(v.id in cur for v in values.units_at(st, u.location, ctx.side)
                              if values.unit_class(st, v) in ("infantry", "armor"))
                return (3, d, u.id) if carried else None
            reach = values.printed_ma(st, u) + 1
            if cls not in ("infantry", "armor") or d > reach:
                return None
            return (1 if u.nation == major else 2, d, u.id)

        ranked = sorted((w, o) for o in opts if (w := want(o)) is not None)
        if off.get("mode") == "hq" and ctx.side == "axis":
            chosen = self._pre_plan(ctx, [o["unit"] for _w, o in ranked])
            ranked = [(w, o) for w, o in ranked if w[0] == 3 or o["unit"] in chosen]
        for _w, o in ranked:
            if ctx.ok(o):
                return o
        memo["activation_done"] = True
        return None

    def _assign_targets(self, ctx: Context, targets: list[int], reach: dict[str, Any], units: dict[str, Any],
                        limit: int, taken: set[str], order: Any, mud: bool = False) -> list[tuple[int, list[str]]]:
        """Greedy attack plan: ``limit`` times, the target hex (one attack per hex, 26.0) whose best
        attack is worth most, made by up to six untaken units that reach it (in ``order``) until
        6:1.  Worth: the expected result (over the CRT row, DRMs guessed, -1 in mud if ``mud``)
        less the distance to the goal.  ``taken`` gains the units used."""
        from workbench.rulesets.eto import adjudicate as adj
        from workbench.rulesets.eto import values
        from workbench.rulesets.eto.weather import MUD, conditions

        st, hm = ctx.state, ctx.state.map
        tables = st.ruleset.tables
        info = self._info(ctx)
        cond = conditions(st) if mud else None
        planned: set[int] = set()
        out: list[tuple[int, list[str]]] = []
        for _ in range(max(limit, 0)):
            best = None
            for t in targets:
                if t in planned:
                    continue
                pool = sorted((uid for uid, r in reach.items() if t in r and uid not in taken),
                              key=lambda uid, t=t: order(uid, t))
                if not pool:
                    continue
                dfn = max(float(info["enemy_sp"][t]), 1.0)
                pick, att = [], 0
                for uid in pool[:6]:
                    pick.append(uid)
                    att += values.strength(st, units[uid])
                    if att >= 6 * dfn:
                        break
                drm = self._drm_guess(ctx, [units[u] for u in pick], hm.label(t))
                if cond is not None and cond[t] == MUD:
                    drm -= 1
                ev = _ev(adj.odds_column(int(att), int(dfn), tables=tables), drm, tables)
                v = ev - 0.15 * float(info["goal"][t])
                if ev > self._bar(info, t, 0.5) and (best is None or v > best[0]):
                    best = (v, t, pick)
            if best is None:
                break
            planned.add(best[1])
            taken.update(best[2])
            out.append((best[1], best[2]))
        return out

    def _pre_plan(self, ctx: Context, candidates: list[str]) -> set[str]:
        """The units an HQ offensive needs: attackers for as many targets as it may attack (the best
        odds each, up to 6:1) and armor able to break through; the rest stay unactivated, free to
        move in the Movement phase or to make stack offensives of their own (22.3)."""
        from workbench.rulesets.eto import command, values

        memo = self._off(ctx)
        if "pre_plan" in memo:
            return memo["pre_plan"]
        st, hm = ctx.state, ctx.state.map
        info = self._info(ctx)
        limit = command.attacks_left(st, "combat")
        enemy_hexes = [int(i) for i in np.flatnonzero(info["enemy"] > 0)]
        units = {uid: st.unit(uid) for uid in candidates}
        reach: dict[str, set[int]] = {}
        chosen: set[str] = set()
        for uid, u in units.items():
            here = hm.index(u.location)
            ma = values.printed_ma(st, u)
            near = {t for t in enemy_hexes if int(hm.grid.distance(here, t)) <= ma + 1}
            if near:
                reach[uid] = near
            if values.unit_class(st, u) == "armor" and any(int(hm.grid.distance(here, t)) <= 1 for t in near):
                chosen.add(uid)  # breakthrough candidates already in contact (28.1)
        self._assign_targets(ctx, enemy_hexes, reach, units, limit, chosen,
                             lambda uid, t: (int(hm.grid.distance(hm.index(units[uid].location), t)),
                                             -values.strength(st, units[uid]), uid))
        memo["pre_plan"] = chosen
        return chosen

    def breakthrough(self, ctx: Context) -> dict[str, Any] | None:
        from workbench.rulesets.eto import values
        from workbench.rulesets.eto.weather import MUD, conditions

        memo = self._off(ctx)
        if memo.get("bt_tries", 0) >= 3:
            return None
        memo["bt_tries"] = memo.get("bt_tries", 0) + 1
        cur = self._current(ctx)
        opts = [o for o in ctx.legal("breakthrough") if set(o["units"]) <= cur]
        if not opts:
            return None
        st, hm = ctx.state, ctx.state.map
        tables = st.ruleset.tables
        info = self._info(ctx)
        cond = conditions(st)
        best, best_v = None, 0.9
        for o in opts:
            t = o["target"]
            ti = hm.index(t)
            att = sum(values.strength(st, st.unit(u)) for u in o["units"])
            if o.get("general"):
                att += min(values.combat_rating(st, st.unit(o["general"])), att)
            dfn = float(info["enemy_sp"][ti]) or 1.0
            drm = self._drm_guess(ctx, [st.unit(u) for u in o["units"]], t) - (1 if cond[ti] == MUD else 0)
            from workbench.rulesets.eto import adjudicate as adj
            col = adj.odds_column(int(att), int(dfn), tables=tables)
            v = _ev(col, drm, tables) - 0.05 * float(info["goal"][ti])
            if o.get("general"):
                # 28.3: with a general the stack moves his exploitation rating after the advance,
                # without one a single hex: the same attack is worth more with him along
                v += 0.1 * values.exploitation_rating(st, st.unit(o["general"]))
            if v > best_v:
                best, best_v = o, v
        return best if best is not None and ctx.ok(best) else None

    def _drm_guess(self, ctx: Context, attackers: list[Any], target: str) -> int:
        from workbench.rulesets.eto.terrain import terrain_arrays

        st = ctx.state
        drm = 0
        v = str(st.tracks.get("blitzkrieg.SU", ""))
        if any(u.nation == "GE" for u in attackers) and (v == "unused" or v == f"active:{st.turn_label}"):
            drm += 1
        if terrain_arrays(st).rough[st.map.index(target)]:
            drm -= 1
        return drm

    def attack(self, ctx: Context) -> dict[str, Any] | None:
        memo = self._off(ctx)
        key = ("attack_done", ctx.state.step.key if ctx.state.step else "")
        if memo.get(key):
            return None
        memo[key] = True
        return ctx.first_ok(ctx.legal("attack"))

    def designate(self, ctx: Context) -> dict[str, Any] | None:
        from workbench.rulesets.eto import adjudicate as adj
        from workbench.rulesets.eto.combat import assess

        cur = self._current(ctx)
        opts = []
        for o in ctx.legal("designate"):
            mine = [a for a in o["attackers"] if a in cur]
            if mine:
                opts.append(o if len(mine) == len(o["attackers"]) else {**o, "attackers": mine})
        if not opts:
            return None
        tables = ctx.state.ruleset.tables
        info = self._info(ctx)
        hm = ctx.state.map
        threshold = 0.3 if ctx.side == "axis" else 0.4
        best, best_v = None, -1e9
        for o in opts:
            try:
                a = assess(ctx.state, ctx.side, o["attackers"], o["target"])
                ev = sum(RESULT_VALUE.get(adj.crt(a.column, die + a.drm, tables=tables), 0.0)
                         for die in range(1, 7)) / 6
            except Exception:  # noqa: BLE001
                continue
            if ev <= self._bar(info, hm.index(o["target"]), threshold):  # no prize hexes for the Soviets
                continue
            v = ev - 0.15 * float(info["goal"][hm.index(o["target"])]) if ctx.side == "axis" else ev
            if v > best_v:
                best, best_v = o, v
        return best if best is not None and ctx.ok(best) else None

    def resolve(self, ctx: Context) -> dict[str, Any] | None:
        return ctx.first_ok(ctx.legal("resolve"))

    def take_losses(self, ctx: Context) -> dict[str, Any] | None:
        opts = ctx.legal("take_losses")
        return min(opts, key=lambda o: (len(o.get("units", [])), str(o))) if opts else None

    def retreat(self, ctx: Context) -> dict[str, Any] | None:
        opts = ctx.legal("retreat")
        if not opts:
            return None
        info = self._info(ctx)
        hm = ctx.state.map

        def score(o: dict[str, Any]) -> float:
            d = _dest(o)
            return -float(info["to_enemy"][hm.index(d)]) if d and hm.has_hex(d) else 0.0

        return min(opts, key=score)

    def advance(self, ctx: Context) -> dict[str, Any] | None:
        cur = self._current(ctx)
        opts = [o for o in ctx.legal("advance") if set(o.get("units", [])) <= cur]
        return max(opts, key=lambda o: (len(o.get("units", [])), "general" in o)) if opts else None

    def bt_move(self, ctx: Context) -> dict[str, Any] | None:
        """Breakthrough movement: toward the goal, with the general when there is one."""
        opts = ctx.legal("bt_move")
        if not opts:
            return None
        info = self._info(ctx)
        hm = ctx.state.map
        here = None
        u = ctx.state.units_by_id.get(opts[0].get("unit", ""))
        goal = self._goal_of(ctx, info, u.id) if u is not None else info["goal"]
        if u is not None and hm.has_hex(u.location):
            here = float(goal[hm.index(u.location)])

        def score(o: dict[str, Any]) -> tuple[float, int]:
            d = _dest(o)
            g = float(goal[hm.index(d)]) if d and hm.has_hex(d) else (here or 0.0)
            return (g - self._grab(ctx, info, o), 0 if "general" in o else 1)

        for o in sorted(opts, key=score)[:5]:
            if ctx.ok(o):
                return o
        return None

    def build(self, ctx: Context) -> dict[str, Any] | None:
        n = ctx.memo.get("built", 0)
        if n >= 40:
            return None
        if ctx.side == "axis":
            from workbench.rulesets.eto.command import spendable

            if spendable(ctx.state, "GE") < self._offensive_budget(ctx, "GE"):
                return None  # keep EPs for the season's offensives (bought after construction, 38.2)
        for kind in ("rebuild", "place_hq", "build"):
            opts = ctx.legal(kind)
            if kind == "build":
                opts = [o for o in opts if not o.get("depleted")]
            if kind == "place_hq" and ctx.side == "axis" and opts:
                opts = self._placements(ctx, opts)
            if opts:
                o = ctx.first_ok(opts[:3])
                if o is not None:
                    ctx.memo["built"] = n + 1
                    return o
        return None

    def _placements(self, ctx: Context, opts: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """23.1/27.5: the HQ or general back from the force pool is placed where it is worth most
        (as in the Movement phase), not on the first legal hex -- the first in label order is a
        far corner of the map, from which an army group's HQ walked back for months."""
        from workbench.rulesets.eto import values

        st = ctx.state
        uid = opts[0]["unit"]
        u = st.units_by_id.get(uid)
        if u is None:
            return opts
        info = self._info(ctx)
        goal = self._goal_of(ctx, info, uid)
        value = (self._hq_value if values.unit_class(st, u) == "hq" else self._general_value)(ctx, u, goal)
        hm = st.map
        mine = [o for o in opts if o["unit"] == uid]
        near = [o for o in mine if hm.has_hex(o["at"]) and info["to_enemy"][hm.index(o["at"])] <= 6]
        return sorted(near or mine, key=lambda o: value(o["at"]), reverse=True)

    # -- movement -----------------------------------------------------------------------------
    def move(self, ctx: Context) -> dict[str, Any] | None:
        key = ctx.state.step.key if ctx.state.step else ""
        if key == "offensive/movement":
            return self.offensive_move(ctx) or self.move_hq_forward(ctx)
        return self.free_move(ctx, self._off(ctx) if key.startswith("offensive") else ctx.memo)

    def _plan_attacks(self, ctx: Context, by_unit: dict[str, list[dict[str, Any]]]) -> dict[str, str]:
        """Targets for this offensive's Combat step and the units that will attack each."""
        from workbench.rulesets.eto import command, values
        from workbench.rulesets.eto.combat import can_attack_across
        from workbench.rulesets.eto.hq import in_radius

        st, hm = ctx.state, ctx.state.map
        info = self._info(ctx)
        off = st.markers.get("offensive") or {}
        hqs = [st.unit(h) for h in off.get("hqs", [])]
        limit = command.attacks_left(st, "combat")
        if limit <= 0:
            return {}
        enemy_hexes = {int(i) for i in np.flatnonzero(info["enemy"] > 0)}
        gen = st.units_by_id.get(off.get("general") or "") if off.get("mode") == "general" else None
        if gen is not None and values.on_map(gen):
            # 22.2: a general's offensive attacks only hexes next to him; he stays where he is
            enemy_hexes &= {int(j) for j in hm.neighbors[hm.index(gen.location)] if j >= 0}
        # where each activated attacker could stand at the Combat step, by target
        reach: dict[str, dict[int, list[int]]] = {}
        units = {}
        cur = self._current(ctx)
        for u in st.units_by_id.values():
            if u.id not in cur or not values.on_map(u):
                continue
            if values.unit_class(st, u) not in ("infantry", "armor"):
                continue
            units[u.id] = u
            spots = {hm.index(u.location)}
            for o in by_unit.get(u.id, []):
                d = _dest(o)
                if d and hm.has_hex(d):
                    spots.add(hm.index(d))
            infantry = values.unit_class(st, u) == "infantry"
            for s in spots:
                if infantry and hqs and not any(in_radius(st, h, hm.label(s)) for h in hqs):
                    continue
                for j in hm.neighbors[s]:
                    j = int(j)
                    if j >= 0 and j in enemy_hexes and can_attack_across(st, hm.label(s), hm.label(j)):
                        reach.setdefault(u.id, {}).setdefault(j, []).append(s)
        plan: dict[str, str] = {}
        for t, chosen in self._assign_targets(ctx, sorted(enemy_hexes), reach, units, limit, set(),
                                              lambda uid, t: (-values.strength(st, units[uid]), uid), mud=True):
            for uid in chosen:
                plan[uid] = hm.label(t)
        return plan

    def offensive_move(self, ctx: Context) -> dict[str, Any] | None:
        st, hm = ctx.state, ctx.state.map
        memo = self._off(ctx)
        if "oqueue" not in memo:
            by_unit: dict[str, list[dict[str, Any]]] = {}
            cur = self._current(ctx)
            for o in ctx.legal("move"):
                if o.get("unit") in cur:
                    by_unit.setdefault(o["unit"], []).append(o)
            plan = self._plan_attacks(ctx, by_unit)
            memo["oplan"] = plan
            memo["oqueue"] = sorted(by_unit, key=lambda u: (u not in plan, u))
            memo["oopts"] = by_unit
        info = self._info(ctx)
        plan = memo["oplan"]
        while memo["oqueue"]:
            uid = memo["oqueue"].pop(0)
            u = st.units_by_id.get(uid)
            if u is None or not u.location.isdigit() or not hm.has_hex(u.location):
                continue
            here = hm.index(u.location)
            opts = memo["oopts"].get(uid, [])
            if (st.markers.get("offensive") or {}).get("mode") == "general":
                opts = [o for o in opts if "general" not in o]  # the general holds his ground (22.2)
            goal = self._goal_of(ctx, info, uid)
            if uid in plan:
                t = hm.index(plan[uid])
                if int(hm.grid.distance(here, t)) == 1:
                    continue  # already in place
                cands = []
                for o in opts:
                    d = _dest(o)
                    if d and hm.has_hex(d) and int(hm.grid.distance(hm.index(d), t)) == 1:
                        cands.append((float(goal[hm.index(d)]), "general" not in o, o))
                cands.sort(key=lambda c: (c[0], c[1]))
                for _s, _g, o in cands[:8]:
                    if ctx.ok(o):
                        return o
                continue
            if info["to_enemy"][here] <= 1:
                continue  # in the line: hold it
            if ctx.side != "axis":
                continue
            cands = []
            for o in opts:
                d = _dest(o)
                if d and hm.has_hex(d):
                    j = hm.index(d)
                    cands.append((float(goal[j]) - self._grab(ctx, info, o), "general" not in o, o))
            cands.sort(key=lambda c: (c[0], c[1]))
            stay = float(goal[here])
            for s, _g, o in cands[:5]:
                if s >= stay:
                    break
                if ctx.ok(o):
                    return o
        return None

    def _hq_value(self, ctx: Context, hq: Any, goal: np.ndarray) -> Any:
        """Where an Axis HQ should stand: where its radius will cover the most combat units in
        contact next month, nearer the objectives among equals."""
        hm = ctx.state.map

        def value(at: str) -> tuple[float, float]:
            return (self._hq_score(ctx, hq, at, fresh=True), -float(goal[hm.index(at)]))

        return value

    def _place_hq(self, ctx: Context, hq: Any, opts: list[dict[str, Any]], goal: np.ndarray) -> dict[str, Any] | None:
        """Movement phase (30.1: HQs move 5 hexes): the Axis HQ goes where it is worth most."""
        return self._best_move(ctx, hq, opts, self._hq_value(ctx, hq, goal))

    @staticmethod
    def _best_move(ctx: Context, unit: Any, opts: list[dict[str, Any]], value: Any) -> dict[str, Any] | None:
        """The move order whose destination ``value`` beats staying put most, or None."""
        hm = ctx.state.map
        best, best_v = None, value(unit.location)
        for o in opts:
            d = _dest(o)
            if o.get("kind") != "move" or not d or not hm.has_hex(d):
                continue
            v = value(d)
            if v > best_v:
                best, best_v = o, v
        return best if best is not None and ctx.ok(best) else None

    def _place_general(self, ctx: Context, gen: Any, opts: list[dict[str, Any]],
                       goal: np.ndarray) -> dict[str, Any] | None:
        """Movement phase (30.1: generals move 5 hexes): the Axis general goes where he is worth most."""
        return self._best_move(ctx, gen, opts, self._general_value(ctx, gen, goal))

    def _general_value(self, ctx: Context, gen: Any, goal: np.ndarray) -> Any:
        """Where an Axis general should stand: with the strongest group of own combat units in
        contact -- the stack he stands on and the hexes next to it (22.2) -- on a hex next to the
        enemy, so next month he adds his rating to an HQ offensive's attack or, if the HQs leave
        that group unactivated, leads an offensive of his own."""
        from workbench.rulesets.eto import values

        st, hm = ctx.state, ctx.state.map
        info = self._info(ctx)
        sp = np.zeros(hm.size)
        armor = np.zeros(hm.size)
        for u in st.units_by_id.values():
            if u.side == ctx.side and values.on_map(u) and values.unit_class(st, u) in ("infantry", "armor"):
                i = hm.index(u.location)
                if info["to_enemy"][i] <= 1:
                    sp[i] += values.strength(st, u)
                    if values.unit_class(st, u) == "armor" and u.nation == gen.nation:
                        armor[i] += values.strength(st, u)

        def value(at: str) -> tuple[float, float]:
            # riding with armor first: a breakthrough with a general moves his exploitation rating (28.3)
            i = hm.index(at)
            if sp[i] <= 0 or not any(j >= 0 and info["enemy"][j] > 0 for j in hm.neighbors[i]):
                return (0.0, -float(goal[i]))
            return (2 * armor[i] + sp[i] + sum(float(sp[j]) for j in hm.neighbors[i] if j >= 0), -float(goal[i]))

        return value

    def free_move(self, ctx: Context, memo: dict[str, Any]) -> dict[str, Any] | None:
        """Each unit once: rail toward the front if far from it, else step toward the goal."""
        from workbench.rulesets.eto import values

        st, hm = ctx.state, ctx.state.map
        key_mp = (st.step.key if st.step else "").startswith("movement")
        if "queue" not in memo:
            by_unit: dict[str, list[dict[str, Any]]] = {}
            cur = self._current(ctx) if ctx.state.step and ctx.state.step.key.startswith("offensive") else None
            for kind in ("rail", "move"):
                for o in ctx.legal(kind):
                    if "unit" in o and (cur is None or o["unit"] in cur):
                        by_unit.setdefault(o["unit"], []).append(o)
            memo["opts"] = by_unit
            # the combat units first: HQs and generals then go where the units now stand
            late = {u.id for u in st.units_by_id.values() if u.id in by_unit
                    and values.unit_class(st, u) in ("hq", "general")} if key_mp else set()
            memo["queue"] = sorted(by_unit, key=lambda uid: (uid in late, uid))
        info = self._info(ctx)
        army = info["goal"] if ctx.side == "axis" and info["objectives"] else info["to_enemy"]
        front = info["to_enemy"]
        while memo["queue"]:
            uid = memo["queue"].pop(0)
            u = st.units_by_id.get(uid)
            if u is None or not u.location.isdigit() or not hm.has_hex(u.location):
                continue
            goal = self._goal_of(ctx, info, uid) if ctx.side == "axis" else army
            if ctx.side == "axis" and key_mp and values.unit_class(st, u) in ("hq", "general"):
                place = self._place_hq if values.unit_class(st, u) == "hq" else self._place_general
                o = place(ctx, u, memo["opts"].get(uid, []), goal)
                if o is not None:
                    return o
                continue
            here = hm.index(u.location)
            if ctx.side != "axis" and front[here] <= 1:
                continue  # the Soviets hold the line where they stand
            cands = []
            for o in memo["opts"].get(uid, []):
                d = _dest(o)
                if not d or not hm.has_hex(d):
                    continue
                j = hm.index(d)
                if o["kind"] == "rail" and front[here] <= 4:
                    continue
                s = float(goal[j]) - self._grab(ctx, info, o)
                if ctx.side != "axis":
                    s = float(abs(front[j] - 1)) + 0.1 * float(goal[j])
                cands.append((s, "general" not in o, o))
            stay = float(goal[here]) if ctx.side == "axis" else float(abs(front[here] - 1)) + 0.1 * float(goal[here])
            cands.sort(key=lambda c: (c[0], c[1]))
            for s, _g, o in cands[:5]:
                if s >= stay:
                    break
                if ctx.ok(o):
                    return o
        return None
