"""Land movement (SSA-5.0): terrain costs, ZOC costs, the minimum move, roads and rail.

The order format, reach search and path check are the engine's
(:mod:`workbench.engine.moves`); this module supplies the SS Amerika costs:

* terrain to enter, mechanized or not (SSA-5.3, TEC); +2/+1 across rivers;
* +1 MF to enter and +1 to leave an enemy land ZOC, so a step from one ZOC
  hex to another costs +2 in total (SSA-5.5, 8.2; docs/rulings-ssa.md A18);
* ½ MF per hex along a transportation line, whatever the terrain (SSA-5.8);
* never into a hex holding enemy land (other than leaders) or naval units (SSA-5.1);
* a unit may always move one hex, unless into prohibited terrain or from one
  enemy ZOC hex to another (SSA-5.4);
* in the Mechanized Movement phase only mechanized units move (SSA-4.2e);
* a unit judged out of supply at the start of the phase (SSA-10.G) has its MF cut and may
  not move by rail, as movement.toml ``[supply_effects]`` says (authored, gap G-24).
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

import numpy as np

from workbench.engine.errors import IllegalOrder, Refusal
from workbench.engine.moves import MovementRules, MoveOrder
from workbench.engine.ruleset import OrderKind
from workbench.engine.state import State
from workbench.engine.units import Unit
from workbench.rulesets.ssa import values
from workbench.rulesets.ssa.control import AXIS, SIDE_CODE, control_array, pass_through
from workbench.rulesets.ssa.mountain_troops import move_class
from workbench.rulesets.ssa.special import frozen
from workbench.rulesets.ssa.stacking import land_room
from workbench.rulesets.ssa.terrain import hexside_steps, land_water, terrain_arrays
from workbench.rulesets.ssa.weather import hex_costs
from workbench.rulesets.ssa.weather import signature as weather_signature
from workbench.rulesets.ssa.zoc import land_zoc

MECH_PHASE = "mechanized-movement"
#: SSA-10.G: ``{"side", "units"}``, the land units judged out of supply at the start of this
#: movement phase (written by :func:`supply.judge_for_movement`, cleared when the phase ends).
MOVEMENT_MARK = "unsupplied_for_movement"


def other(side: str) -> str:
    return "allies" if side == "axis" else "axis"


def enemy_land_present(state: State, side: str) -> np.ndarray:
    """``bool[N]``: hexes holding enemy land units (not leaders, not aboard a convoy)."""
    def compute() -> np.ndarray:
        hm = state.map
        out = np.zeros(hm.size, dtype=bool)
        for u in state.units_by_id.values():
            if u.side != side and u.location.isdigit() and not u.props.get("carried") \
                    and values.domain(state, u) == "land" and not values.is_leader(state, u):
                out[hm.index(u.location)] = True
        return out

    return state.derived(("ssa.enemy_land_present", side), compute, side=side, others=True)  # enemy units alone


def enemy_present(state: State, side: str) -> np.ndarray:
    """``bool[N]``: hexes holding enemy land (not leaders) or naval units (SSA-5.1, A22)."""
    def compute() -> np.ndarray:
        hm = state.map
        out = np.zeros(hm.size, dtype=bool)
        for u in state.units_by_id.values():
            if u.side != side and u.location.isdigit() and not u.props.get("carried"):
                dom = values.domain(state, u)
                if (dom == "land" and not values.is_leader(state, u)) or dom == "naval":
                    out[hm.index(u.location)] = True
        return out

    return state.derived(("ssa.enemy_present", side), compute, side=side, others=True)  # enemy units alone


def blocked_hexes(state: State, side: str) -> np.ndarray:
    """``bool[N]``: hexes ``side``'s land units may not enter: enemy land (not leaders)
    or naval units there (SSA-5.1, docs/rulings-ssa.md A22), or a neutral country."""
    neutral = state.arrays.get("neutral")
    enemy = enemy_present(state, side)
    return enemy if neutral is None else (enemy | neutral)


def ignores_neutrality(state: State, unit: Unit) -> bool:
    """SSA-18.11c: special operations units (units.toml ``ignores_neutrality``) may enter neutral countries."""
    return bool(values.value(state, unit, "ignores_neutrality", False))


def blocked_for(state: State, unit: Unit) -> np.ndarray:
    """:func:`blocked_hexes` for this unit: neutral hexes stay open to special operations (SSA-18.11c)."""
    if ignores_neutrality(state, unit):
        return enemy_present(state, unit.side)
    return blocked_hexes(state, unit.side)


def home_rule(state: State, unit: Unit) -> str | None:
    """SSA-18.2a, 18.3, 18.4: the rule binding ``unit`` to its home country, or None."""
    if not values.is_land(state, unit):
        return None
    return state.ruleset.tables["movement"].get("home_country", {}).get("rules", {}).get(unit.nation)


def away_from_home(state: State, unit: Unit) -> np.ndarray | None:
    """``bool[N]``: hexes outside the home country (units.toml [nations] ``home``) of a
    minor-country land unit that may never leave it (SSA-18.2a, 18.3, 18.4); None for others.
    Its own border hexes are home: it may stand on them and attack across the border."""
    if home_rule(state, unit) is None:
        return None
    home = state.ruleset.tables["units"]["nations"][unit.nation]["home"]
    hm = state.map

    def compute() -> np.ndarray:  # the map's alone, per home country
        country = np.array([c or "" for c in hm.hexes["country"].to_list()], dtype=object)
        return country != home

    return hm.cached(("ssa.away_from_home", home), compute)


def unsupplied_for_movement(state: State, unit: Unit) -> bool:
    """SSA-10.G: whether ``unit`` was judged out of supply at the start of this movement phase."""
    mark = state.markers.get(MOVEMENT_MARK)
    return bool(mark) and mark.get("side") == unit.side and unit.id in mark.get("units", ())


def surprise_halved(state: State, unit: Unit) -> bool:
    """SSA-30.2c: whether ``unit``'s MF are halved by a surprise attack now."""
    from workbench.rulesets.ssa import surprise

    return surprise.halved_mf(state, unit, 10.0) < 10.0


def movement_mf(state: State, unit: Unit) -> float:
    """SSA-10.G: the unit's MF this phase.  Its printed MF (SSA-3.3a), or, if it was judged out
    of supply at the start of the phase, that MF times movement.toml ``[supply_effects]
    movement_mf_factor``, rounded by ``movement_round`` (authored, gap G-24: halved, fractions
    dropped).  The one-hex minimum move (SSA-5.4) still applies."""
    mf = values.mf(state, unit)
    from workbench.rulesets.ssa import leaders, surprise

    mf = leaders.armor_bonus_mf(state, unit, mf)  # SSA-24.8-A: MF 10 with an "A" leader
    mf = surprise.halved_mf(state, unit, mf)  # SSA-30.2c: Allied MF halved on the surprise turn
    if not unsupplied_for_movement(state, unit):
        return mf
    eff = state.ruleset.tables["movement"]["supply_effects"]
    mf *= float(eff["movement_mf_factor"])
    rounding = eff.get("movement_round", "down")
    if rounding == "down":
        return float(math.floor(mf + 1e-9))
    return float(math.ceil(mf - 1e-9)) if rounding == "up" else mf


class SSAMovement(MovementRules):
    """SS Amerika costs plugged into the engine's movement order."""

    rule = "SSA-5.0"

    def movers(self, state: State) -> list[Unit]:
        d = state.decision
        step = state.step
        if d is None or step is None:
            return []
        mech_only = step.key.endswith(MECH_PHASE)
        return [u for u in state.units_by_id.values() if self._may_move(state, u, d.side, mech_only)]

    def may_move(self, state: State, unit: Unit) -> bool:
        d = state.decision
        step = state.step
        if d is None or step is None:
            return False
        return self._may_move(state, unit, d.side, step.key.endswith(MECH_PHASE))

    def _may_move(self, state: State, u: Unit, side: str, mech_only: bool) -> bool:
        if u.side != side or not u.location.isdigit() or not values.is_land(state, u):
            return False
        if u.props.get("railed") or u.props.get("carried") or u.props.get("riding") or frozen(state, u):
            return False
        if mech_only and not values.is_mech(state, u):
            return False
        return not (self.allowance(state, u) <= 0 and u.props.get("mf_spent", 0) > 0)

    def allowance(self, state: State, unit: Unit) -> float:
        """MF left this phase (SSA-5.2: unused MF never carries over; SSA-10.G: halved out of supply)."""
        return movement_mf(state, unit) - float(unit.props.get("mf_spent", 0))

    def _context(self, state: State, unit: Unit):  # noqa: ANN202
        ta = terrain_arrays(state)
        mech = values.is_mech(state, unit)
        ezoc = land_zoc(state, other(unit.side))
        bombed = state.arrays.get("bombed")
        base = ta.enter_mech if mech else ta.enter_mountain if move_class(state, unit) == "mountain" else ta.enter_foot
        river = ta.river_mech if mech else ta.river_foot
        blocked = blocked_for(state, unit)
        away = away_from_home(state, unit)
        if away is not None:  # SSA-18.2a-18.4
            blocked = blocked | away
        return ta, base, river, ezoc, bombed, blocked

    def step_cost(self, state: State, unit: Unit):  # noqa: ANN201
        """Full cost of the step a→b: terrain or road, river, weather, ZOC (see the module doc);
        a leader pays 1 MF a land hex (SSA-24.1)."""
        ta, base, river, ezoc, bombed, blocked = self._context(state, unit)
        water = land_water(state)
        add, line_add, frozen = hex_costs(state)
        if values.is_leader(state, unit):
            base = np.where(np.isfinite(ta.enter_mech) | np.isfinite(ta.enter_foot), 1.0, np.inf)
            river = 0.0
        if frozen.any():  # SSA-26.3-F: a frozen lake counts as clear
            lakes = state.map.terrain_mask("lake", "all-lake") & frozen
            base = np.where(lakes, 1.0, base)

        def cost(a: int, d: int, b: int) -> float | None:
            if blocked[b] or water[b]:
                return None
            zoc = float(ezoc[a]) + float(ezoc[b])
            road = bool(ta.transport[a, d]) and not (bombed is not None and (bombed[a] or bombed[b]))
            if road:  # SSA-5.8: 1/2 MF per hex whatever the terrain, rivers bridged
                return ta.road_cost + float(line_add[b]) + zoc
            if not np.isfinite(base[b]):
                return None
            frozen_river = bool(frozen[b])
            return float(base[b]) + float(add[b]) + (river if ta.river[a, d] and not frozen_river else 0.0) + zoc

        return cost

    def step_graph(self, state: State, unit: Unit):  # noqa: ANN201
        """The step costs of :meth:`step_cost` for every hexside at once, cached per side and class."""
        mech = move_class(state, unit)  # SSA-24.1 leaders, SSA-22.3a mountain troops
        home = unit.nation if home_rule(state, unit) else None  # SSA-18.2a-18.4: bound units stay home
        free = ignores_neutrality(state, unit)  # SSA-18.11c
        # reads the enemy's units alone (its ZOC and the hexes it holds): own moves keep the graph
        return state.derived(("ssa.step_graph", unit.side, mech, home, free),
                             lambda: self._graph(state, unit.side, mech, away_from_home(state, unit), free),
                             id(state.arrays.get("bombed")), id(state.arrays.get("neutral")), weather_signature(state),
                             side=unit.side, others=True)

    def _graph(self, state: State, side: str, mech: bool | str, away: np.ndarray | None = None,  # noqa: ANN202
               free: bool = False):
        from scipy.sparse import csr_matrix

        hm = state.map
        ezoc = land_zoc(state, other(side)).astype(float)
        blocked = (enemy_present(state, side) if free else blocked_hexes(state, side)) | land_water(state)
        if away is not None:
            blocked = blocked | away
        # the terrain steps in canonical CSR order, masked and charged ZOC for this position
        rows, cols, cost, target = hexside_steps(state, mech, state.arrays.get("bombed"))
        keep = ~blocked[target]
        rows, cols, target = rows[keep], cols[keep], target[keep]
        cost = cost[keep] + (ezoc[rows] + ezoc[target])
        indptr = np.zeros(hm.size + 1, dtype=np.int32)
        np.cumsum(np.bincount(rows, minlength=hm.size), out=indptr[1:])
        return csr_matrix((cost, cols, indptr), shape=(hm.size, hm.size))

    def end_refusal(self, state: State, unit: Unit, dest: int) -> IllegalOrder | None:
        return land_room(state, unit.side, state.map.label(dest), unit)

    def end_ok(self, state: State, unit: Unit) -> np.ndarray:
        """SSA-9.1 room for this unit in every hex at once (thirds of a division, exact)."""
        from workbench.rulesets.ssa.stacking import land_thirds

        thirds = land_thirds(state, unit.side)
        own = int(values.division_equivalents(state, unit) * 3)
        limit = int(state.ruleset.tables["stacking"]["land"]["limit_per_hex"]) * 3
        ok = thirds + own <= limit
        if unit.location.isdigit():
            ok[state.map.index(unit.location)] = True
        return ok

    def minimum_move_ok(self, state: State, unit: Unit, a: int, b: int) -> bool:
        """SSA-5.4: one hex always, unless prohibited, blocked, or ZOC to ZOC."""
        if unit.props.get("mf_spent", 0) > 0:
            return False
        ta, base, river, ezoc, bombed, blocked = self._context(state, unit)
        dirs = np.nonzero(state.map.neighbors[a] == b)[0]
        if dirs.size == 0:
            return False
        d = int(dirs[0])
        enterable = (np.isfinite(base[b]) or bool(ta.transport[a, d])) and not state.map.is_water[b]
        return enterable and not blocked[b] and not (ezoc[a] and ezoc[b]) \
            and self.end_refusal(state, unit, b) is None

    def why_not(self, state: State, unit: Unit, a: int, b: int) -> Refusal:
        """The rule that closes hex ``b``: home country (18.2a-18.4), neutral (18.11b), enemy (5.1), terrain (5.3)."""
        hm = state.map
        ta, base, river, ezoc, bombed, blocked = self._context(state, unit)
        label = hm.label(b)
        away = away_from_home(state, unit)
        if away is not None and away[b] and not blocked_for(state, unit)[b]:
            return Refusal(home_rule(state, unit), f"{unit.id} may never leave its home country ({label} is outside it)")
        if blocked_for(state, unit)[b]:
            neutral = state.arrays.get("neutral")
            if neutral is not None and neutral[b] and not enemy_present(state, unit.side)[b]:
                return Refusal("SSA-18.11b", f"{label} is inside a neutral country: only its border hexes "
                               "(and special operations units anywhere) may be entered")
            return Refusal("SSA-5.1", f"a land unit may never enter a hex containing an enemy unit ({label})")
        terrain = hm.hexes["terrain"][b]
        kind = "mechanized" if values.is_mech(state, unit) else "non-mechanized"
        return Refusal("SSA-5.3", f"{terrain} ({label}) is prohibited to {kind} units" + (
            " except along a transportation line" if terrain == "mountains" else ""))

    def moved(self, state: State, unit: Unit, path: list[int]) -> None:
        unit.props["moved"] = state.step.path
        pass_through(state, unit, path)


def overrun_mates(state: State, unit: Unit) -> list[Unit]:
    """SSA-11.10c: the other units of ``unit``'s overrun stack still with it this phase."""
    stack = unit.props.get("overrun_stack")
    if not stack:
        return []
    return [state.units_by_id[m] for m in stack if m != unit.id and m in state.units_by_id
            and state.units_by_id[m].location == unit.location]


class SSAMoveOrder(MoveOrder):
    """The engine move order plus SS Amerika's minimum move and MF bookkeeping."""

    def check(self, state: State, order: dict[str, Any]) -> None:
        self._check_one(state, order)
        unit = state.units_by_id[order["unit"]]
        from workbench.rulesets.ssa.leaders import leader_move_refusal

        refusal = leader_move_refusal(state, unit)  # SSA-24.8-A
        if refusal:
            raise refusal
        mates = overrun_mates(state, unit)
        if mates:  # SSA-11.10c: the rest of the overrun stack moves with it, on the same path
            path = self._path_of(state, unit, order)
            for mate in mates:
                try:
                    self._check_one(state, {"kind": order.get("kind", "move"), "unit": mate.id, "path": path})
                except IllegalOrder as exc:
                    raise IllegalOrder("SSA-11.10c", f"{unit.id} overran together with {mate.id}, which must "
                                       f"move with it for the rest of the phase but cannot: {exc.why}") from None

    def _path_of(self, state: State, unit: Unit, order: dict[str, Any]) -> list[str]:
        if "path" in order:
            return list(order["path"])
        path = self.route(state, unit, order["to"])
        return path if path is not None else [order["to"]]  # the one-hex minimum move (SSA-5.4)

    def _check_one(self, state: State, order: dict[str, Any]) -> None:
        try:
            super().check(state, order)
        except IllegalOrder as exc:
            unit = state.units_by_id.get(order.get("unit", ""))
            path = order.get("path") or ([order["to"]] if isinstance(order.get("to"), str) else None)
            if unit is not None and isinstance(path, list) and len(path) == 1 \
                    and "movement points" in exc.why and state.map.has_hex(path[0]):
                a, b = state.map.index(unit.location), state.map.index(path[0])
                if self.rules.minimum_move_ok(state, unit, a, b):
                    return
            if "movement points" in exc.why and unit is not None and surprise_halved(state, unit):
                raise IllegalOrder("SSA-30.2c", f"{exc.why} (a surprise attack was declared: Allied land units "
                                   f"have half their MF on game turn 1)") from None
            if "movement points" in exc.why and unit is not None \
                    and movement_mf(state, unit) < values.mf(state, unit):
                raise IllegalOrder("SSA-10.G", f"{exc.why} ({unit.id} was out of supply at the start of "
                                   f"this phase, so its {values.mf(state, unit):g} MF are cut to "
                                   f"{movement_mf(state, unit):g})") from None
            if "movement points" in exc.why:
                raise IllegalOrder("SSA-5.2", exc.why) from None
            raise

    def legal(self, state: State) -> list[dict[str, Any]]:
        movers = self.rules.movers(state)  # listed once for both passes
        out = self.legal_for(state, movers)
        seen = {(o["unit"], o["to"]) for o in out}
        hm = state.map
        for unit in movers:
            a = hm.index(unit.location)
            for b in hm.neighbors[a]:
                if b >= 0 and (unit.id, hm.label(b)) not in seen and \
                        self.rules.minimum_move_ok(state, unit, a, int(b)):
                    out.append({"kind": "move", "unit": unit.id, "to": hm.label(b)})
        return out

    def execute(self, state: State, order: dict[str, Any]) -> None:
        unit = state.units_by_id[order["unit"]]
        if "path" not in order:
            order = {**order, "path": self._path_of(state, unit, order)}
        mates = overrun_mates(state, unit)
        from workbench.rulesets.ssa.leaders import bonus_leader, drag_along

        ldr = bonus_leader(state, unit)  # SSA-24.8-A: moving on the "A" leader's MF 10
        for mover in (unit, *mates):  # SSA-11.10c: an overrun stack moves as one
            cost = self.path_cost(state, mover, order["path"])
            mover.props["mf_spent"] = float(mover.props.get("mf_spent", 0)) + cost
            super().execute(state, {**order, "unit": mover.id})
        if ldr is not None and unit.location != ldr.location:
            drag_along(state, ldr, unit, list(order["path"]))

    def path_cost(self, state: State, unit: Unit, path: list[str]) -> float:
        """A minimum move (SSA-5.4) spends all the unit's MF, whatever the hex costs."""
        cost = super().path_cost(state, unit, path)
        return min(cost, values.mf(state, unit)) if len(path) == 1 else cost


class RailOrder(OrderKind):
    """Rail movement (SSA-5.7): unlimited distance along friendly-controlled transportation
    lines, in the Initial Movement phase only, within the turn's division limit."""

    kind = "rail"
    rule = "SSA-5.7"

    def _limit(self, state: State, side: str) -> Fraction:
        lim = state.ruleset.tables["movement"]["rail"]["limit_per_turn"][side]
        return Fraction(lim) - Fraction(state.tracks.get(f"{side}.rail_used", "0"))

    def _can_start(self, state: State, unit: Unit) -> Refusal | None:
        """Why ``unit`` may not start a rail move now (SSA-5.7, 10.G), or None."""
        hm = state.map
        ta = terrain_arrays(state)
        if not (unit.location.isdigit() and values.is_land(state, unit)) or unit.props.get("carried"):
            return Refusal(self.rule, "only land units on the map move by rail")
        if frozen(state, unit):
            return Refusal(self.rule, f"{unit.id} may not move this turn (scenario special rule)")
        if unit.props.get("moved") or unit.props.get("mf_spent"):
            return Refusal(self.rule, f"{unit.id} has already moved this phase")
        if unsupplied_for_movement(state, unit) and \
                not state.ruleset.tables["movement"]["supply_effects"].get("movement_rail", True):
            return Refusal("SSA-10.G", f"{unit.id} was out of supply at the start of this phase and may not "
                           "move by rail")
        a = hm.index(unit.location)
        if not ta.on_line[a]:
            return Refusal("SSA-5.7a", f"{unit.id} must start on a transportation line")
        if not values.value(state, unit, "rail_from_enemy_adjacent", False):
            enemy = enemy_land_present(state, unit.side)  # 5.7b: "adjacent to an enemy land unit"
            nb = hm.neighbors[a]
            if np.any(enemy[nb[nb >= 0]]):
                return Refusal("SSA-5.7b", f"{unit.id} may not start rail movement adjacent to an enemy land unit")
        if values.division_equivalents(state, unit) > self._limit(state, unit.side):
            rule = "SSA-5.7f" if unit.side == "allies" else "SSA-5.7g"
            return Refusal(rule, f"the {unit.side} rail limit this turn is used up "
                           f"({state.ruleset.tables['movement']['rail']['limit_per_turn'][unit.side]} divisions)")
        return None

    def _graph(self, state: State, unit: Unit) -> tuple[dict[int, int], int]:
        """Breadth-first over line hexsides; enemy-controlled hexes end a branch (SSA-5.7b)."""
        from scipy.sparse import csr_matrix
        from scipy.sparse.csgraph import breadth_first_order

        hm = state.map
        ta = terrain_arrays(state)
        ctrl = control_array(state)
        enemy_ctrl = SIDE_CODE[other(unit.side)]
        blocked = blocked_hexes(state, unit.side)
        away = away_from_home(state, unit)
        if away is not None:  # SSA-18.2a-18.4
            blocked = blocked | away
        bombed = state.arrays.get("bombed")
        if bombed is not None:
            blocked = blocked | bombed
        src = hm.index(unit.location)
        # the line hexsides as a graph in (hex, direction) order: scipy's breadth-first search then
        # finds every hex from the same parent, in the same order, as a loop over hexes and directions
        nb = hm.neighbors
        a = np.repeat(np.arange(hm.size), 6)
        b = nb.ravel()
        ok = ta.transport.ravel() & (b >= 0)
        ok[ok] = ~blocked[b[ok]]
        ok &= (a == src) | (ctrl[a] != enemy_ctrl)  # must stop in the first enemy-controlled hex
        indptr = np.zeros(hm.size + 1, dtype=np.int32)
        np.cumsum(np.bincount(a[ok], minlength=hm.size), out=indptr[1:])
        graph = csr_matrix((np.ones(int(ok.sum())), b[ok].astype(np.int32), indptr), shape=(hm.size, hm.size))
        graph.has_sorted_indices = False  # keep the direction order (never sort: it changes parents)
        found, pred = breadth_first_order(graph, src, directed=True, return_predecessors=True)
        parent = {src: src}
        rest = found[1:]
        parent.update(zip(rest.tolist(), pred[rest].tolist(), strict=True))
        return parent, src

    def _network(self, state: State, side: str):  # noqa: ANN202
        """Rail components for ``side``: hexes joined by line hexsides through hexes it may
        traverse, and for each component the enemy-controlled line hexes where a move ends."""
        def compute():  # noqa: ANN202
            from scipy.sparse import csr_matrix
            from scipy.sparse.csgraph import connected_components

            hm = state.map
            ta = terrain_arrays(state)
            ctrl = control_array(state)
            bombed = state.arrays.get("bombed")
            usable = ta.on_line & ~blocked_hexes(state, side)
            if bombed is not None:
                usable &= ~bombed
            enemy_ctrl = ctrl == SIDE_CODE[other(side)]
            through = usable & ~enemy_ctrl
            a = np.repeat(np.arange(hm.size), 6)
            b = hm.neighbors.ravel()
            line = ta.transport.ravel() & (b >= 0)
            bb = np.maximum(b, 0)
            inner = line & through[a] & through[bb]
            g = csr_matrix((np.ones(inner.sum()), (a[inner], b[inner])), shape=(hm.size, hm.size))
            _, comp = connected_components(g, directed=False)
            ends = line & through[a] & usable[bb] & enemy_ctrl[bb]
            terminals: dict[int, set[int]] = {}
            for c, t in zip(comp[a[ends]].tolist(), b[ends].tolist(), strict=True):
                terminals.setdefault(c, set()).add(t)
            return comp, through, terminals

        return state.derived(("ssa.rail_network", side), compute, id(state.arrays.get("control")),
                             state.arrays.get("control", np.zeros(0)).tobytes(),
                             id(state.arrays.get("bombed")), id(state.arrays.get("neutral")))

    def legal(self, state: State) -> list[dict[str, Any]]:
        """One order per reachable destination; the kernel fills in the line path."""
        from workbench.rulesets.ssa.stacking import land_thirds

        d = state.decision
        hm = state.map
        comp, through, terminals = self._network(state, d.side)
        thirds = land_thirds(state, d.side)
        limit = int(state.ruleset.tables["stacking"]["land"]["limit_per_hex"]) * 3
        members: dict[int, np.ndarray] = {}
        out = []
        for u in state.units_by_id.values():
            if u.side != d.side or self._can_start(state, u) is not None:
                continue
            src = hm.index(u.location)
            if through[src] and away_from_home(state, u) is None:
                c = int(comp[src])
                if c not in members:
                    members[c] = np.concatenate([np.flatnonzero((comp == c) & through),
                                                 np.fromiter(terminals.get(c, ()), dtype=np.int64)])
                dests = members[c]
            else:
                parent, _ = self._graph(state, u)
                dests = np.fromiter(parent, dtype=np.int64)
            own = int(values.division_equivalents(state, u) * 3)
            dests = dests[(dests != src) & (thirds[dests] + own <= limit)]
            out += [{"kind": "rail", "unit": u.id, "to": hm.labels_list[i]} for i in np.sort(dests).tolist()]
        return out

    def _path(self, state: State, unit: Unit, to: str) -> list[str] | None:
        parent, src = self._graph(state, unit)
        if not state.map.has_hex(to) or state.map.index(to) not in parent:
            return None
        path = [state.map.index(to)]
        while path[-1] != src:
            path.append(parent[path[-1]])
        return [state.map.label(i) for i in reversed(path[:-1])]

    def check(self, state: State, order: dict[str, Any]) -> None:
        uid, path = order.get("unit"), order.get("path")
        unit = state.units_by_id.get(uid) if isinstance(uid, str) else None
        if unit is None or unit.side != state.decision.side:
            raise IllegalOrder(self.rule, f"{uid!r} is not one of your units")
        why = self._can_start(state, unit)
        if why:
            raise IllegalOrder.of(why, self.rule)
        if path is None and isinstance(order.get("to"), str):
            path = self._path(state, unit, order["to"])
            if path is None:
                raise IllegalOrder(self.rule, f"{order['to']} cannot be reached by rail along friendly lines")
        if not isinstance(path, list) or not path or not all(isinstance(h, str) for h in path):
            raise IllegalOrder(self.rule, "a rail move needs a destination 'to' or a path of hexes entered")
        hm = state.map
        ta = terrain_arrays(state)
        ctrl = control_array(state)
        blocked = blocked_hexes(state, unit.side)
        try:
            idx = [hm.index(unit.location)] + [hm.index(h) for h in path]
        except KeyError as exc:
            raise IllegalOrder(self.rule, str(exc.args[0])) from None
        for n, (a, b) in enumerate(zip(idx, idx[1:], strict=False)):
            dirs = np.nonzero(hm.neighbors[a] == b)[0]
            if dirs.size == 0 or not ta.transport[a, dirs[0]]:
                raise IllegalOrder("SSA-5.7a", f"{hm.label(a)} to {hm.label(b)} is not along a "
                                   "transportation line")
            if blocked[b] and not enemy_present(state, unit.side)[b]:
                raise IllegalOrder("SSA-18.11b", f"{hm.label(b)} is inside a neutral country")
            if blocked[b]:
                raise IllegalOrder("SSA-5.1", f"{hm.label(b)} holds enemy units")
            away = away_from_home(state, unit)
            if away is not None and away[b]:
                raise IllegalOrder(home_rule(state, unit), f"{unit.id} may never leave its home country "
                                   f"({hm.label(b)} is outside it)")
            if n > 0 and ctrl[a] == SIDE_CODE[other(unit.side)]:
                raise IllegalOrder("SSA-5.7b", f"rail movement must stop in the first "
                                   f"enemy-controlled hex ({hm.label(a)})")
        refusal = land_room(state, unit.side, hm.label(idx[-1]), unit)
        if refusal is not None:
            raise refusal

    def execute(self, state: State, order: dict[str, Any]) -> None:
        unit = state.units_by_id[order["unit"]]
        if "path" not in order:
            order = {**order, "path": self._path(state, unit, order["to"])}
        start = unit.location
        used = Fraction(state.tracks.get(f"{unit.side}.rail_used", "0")) + \
            values.division_equivalents(state, unit)
        state.tracks[f"{unit.side}.rail_used"] = str(used)
        unit.location = order["path"][-1]
        unit.props["railed"] = True
        unit.props["moved"] = state.step.path
        pass_through(state, unit, [state.map.index(h) for h in order["path"]])
        state.emit("rail", side=unit.side, rule=self.rule,
                   text=f"{unit.id} moves by rail {start} → {unit.location}",
                   unit=unit.id, start=start, path=order["path"])


__all__ = ["AXIS", "MOVEMENT_MARK", "RailOrder", "SSAMoveOrder", "SSAMovement", "away_from_home", "blocked_for",
           "blocked_hexes", "home_rule", "ignores_neutrality", "movement_mf", "other", "unsupplied_for_movement"]
