"""Air movement and basing (SSA-6.0-6.6, 9.2, 10.1h).

State of an air unit (``unit.props``):

* on the ground: ``location`` is its base hex; ``carrier`` names the carrier
  fleet it is based on, if any (it then sails with the carrier);
* in the air: ``flying = True``, ``location`` is the target hex, ``base`` the
  hex it took off from, ``base_kind`` ``"carrier" | "coastal" | "land"`` (for
  anti-submarine attacks, SSA-13.6), ``mission`` and ``target``;
* ``flown = True`` once it flew a mission this player turn (no transfer then,
  SSA-6.6); ``transferred = True`` once it transferred (no mission then);
* interceptors (SSA-6.5) carry ``intercepting = True`` and return to ``base``.

Orders
------
``fly``  ``{"kind": "fly", "unit": id, "to": hex, "mission": m}`` with ``m`` one of
``ground_support``, ``interdict_ground``, ``interdict_naval``, ``interdict_airbase``,
``bomb``, ``air_supply`` (Initial Movement phase, target within range, SSA-6.2) or
``transfer`` (base to base, each leg up to 2x range, either movement phase, SSA-6.6;
optional ``"carrier": id`` to land on a carrier in that hex).
``land`` ``{"kind": "land", "unit": id, "to": hex}`` (Mechanized Movement phase, a
friendly base with room within range of where the unit is, SSA-6.4; optional ``carrier``).

At the end of the Mechanized Movement phase, mission aircraft still in the air
return to the base they took off from if it is in range and has room, else they
are eliminated (SSA-6.4, docs/rulings-ssa.md); interceptors return to their base
(SSA-6.5).  Enemy land units that enter or pass through a hex with grounded air
units eliminate them (SSA-6.3c): :func:`hook_movement`; carrier air sails with
its carrier: :func:`hook_sail`.

Events: ``fly``, ``land``, ``transfer``, ``eliminated``.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from workbench.engine.errors import IllegalOrder, Refusal
from workbench.engine.ruleset import OrderKind
from workbench.engine.state import State
from workbench.engine.units import Unit
from workbench.rulesets.ssa import leaders, values, weather
from workbench.rulesets.ssa.losses import ELIMINATED, eliminate
from workbench.rulesets.ssa.movement import blocked_hexes, enemy_present, other
from workbench.rulesets.ssa.occupation import city_owner
from workbench.rulesets.ssa.special import frozen

MISSIONS = ("ground_support", "interdict_ground", "interdict_naval", "interdict_airbase", "bomb",
            "air_supply", "transfer")
COMBAT_MISSIONS = MISSIONS[:-1]
INITIAL = "player/initial-movement"
MECH = "player/mechanized-movement"
FIGHTER_TYPES = ("standard_fighter", "advanced_fighter", "jet_fighter", "bomber_destroyer")


# ----------------------------------------------------------------------------------- helpers
def is_air(state: State, u: Unit) -> bool:
    return values.value(state, u, "domain", "land") == "air"


def air_range(state: State, u: Unit) -> int:
    return int(values.value(state, u, "range", 0) or 0)


def on_map(u: Unit) -> bool:
    return u.location.isdigit()


def flying(u: Unit) -> bool:
    return bool(u.props.get("flying"))


def grounded(state: State, u: Unit) -> bool:
    return is_air(state, u) and on_map(u) and not flying(u)


def distances(state: State, i: int) -> np.ndarray:
    """``int[N]``: hex distance from hex ``i`` to every hex (SSA-6.1: every hex costs 1)."""
    cache = state.map.cached("ssa.air_dist", dict)  # hex -> distances: the map's alone
    d = cache.get(i)
    if d is None:
        d = state.map.grid.distance(np.full(state.map.size, i), np.arange(state.map.size))
        if len(cache) > 512:
            cache.clear()
        cache[i] = d
    return d


#: A flight distance for hexes no flight may reach (inside a neutral country).
UNREACHABLE = 10**6


def _airspace_cache(state: State) -> dict[str, Any]:
    """The closed airspace of the position's neutral countries and the flight distances computed
    over it: a pure function of the map and the neutral mask, so memoised per map by the mask's
    content (it survives unit moves, undo and forks, which leave the mask as it was)."""
    neutral = state.arrays.get("neutral")
    memo = state.map.cached("ssa.airspace", dict)  # neutral-mask bytes -> {"closed", "d"}
    key = None if neutral is None else neutral.tobytes()
    cache = memo.get(key)
    if cache is None:
        closed = None if neutral is None else neutral & ~state.map.flag("coastal")
        cache = {"closed": closed if closed is not None and closed.any() else None, "d": {}}
        if len(memo) >= 16:
            memo.clear()
        memo[key] = cache
    return cache


def neutral_airspace(state: State) -> np.ndarray | None:
    """``bool[N]``: neutral hexes air units may not fly over (SSA-18.11a-b): a neutral country's
    coastal and border hexes are open to them, its inner hexes are not.  ``None`` when none."""
    return _airspace_cache(state)["closed"]


def flight_distances(state: State, i: int) -> np.ndarray:
    """``int[N]``: hexes an air unit at hex ``i`` flies to reach each hex (SSA-6.1), going round
    the inner hexes of neutral countries (SSA-18.11a); :data:`UNREACHABLE` where it cannot."""
    cache = _airspace_cache(state)
    closed = cache["closed"]
    if closed is None:
        return distances(state, i)
    d = cache["d"].get(i)
    if d is None:
        from workbench.engine.search import multi_source_reach

        d = multi_source_reach(state.map.neighbors, ~closed, [i])
        d = np.where(d < 0, UNREACHABLE, d)
        if len(cache["d"]) > 512:
            cache["d"].clear()
        cache["d"][i] = d
    return d


def range_refusal(state: State, u: Unit, to: str, limit: int, rule: str, what: str) -> Refusal | None:
    """Why ``to`` is out of a flight of at most ``limit`` hexes (citing SSA-18.11a when only the
    neutral detour makes it too far), or ``None``."""
    hm = state.map
    i, j = hm.index(u.location), hm.index(to)
    d = int(flight_distances(state, i)[j])
    if d <= limit:
        return None
    straight = int(distances(state, i)[j])
    if straight <= limit:
        around = "no way round" if d >= UNREACHABLE else f"the way round is {d} hexes"
        return Refusal("SSA-18.11a", "air units may cross a neutral country only over its coastal and border "
                                     f"hexes; {to} is {straight} hexes from {u.location} but {around} "
                                     f"({what} {limit})")
    return Refusal(rule, f"{to} is {straight} hexes from {u.location}; {what} {limit}")


def air_tables(state: State) -> dict[str, Any]:
    return state.ruleset.tables["air"]


def city_kinds(state: State) -> np.ndarray:
    hm = state.map

    def compute() -> np.ndarray:  # read once per map (asked per base update)
        kinds = hm.hexes["city_kind"].to_list() if "city_kind" in hm.hexes.columns else [None] * hm.size
        return np.array([k or "" for k in kinds], dtype=object)

    return hm.cached("ssa.city_kinds", compute).copy()


def canal_hexes(state: State) -> list[int]:
    return [state.map.index(h) for h in state.map.meta.get("panama_canal_hexes", [])]


# ----------------------------------------------------------------------------------- supply of bases
def supplied_hexes(state: State, side: str) -> np.ndarray:
    """``bool[N]``: SSA-6.3a supplied hexes of ``side``: within 4 mechanized MP of a
    transportation line leading to a friendly supply source, or air-supplied (SSA-10.1h)."""
    def compute() -> np.ndarray:
        from scipy.sparse.csgraph import connected_components, dijkstra

        from workbench.rulesets.ssa import supply
        from workbench.rulesets.ssa.terrain import terrain_arrays

        hm = state.map
        ta = terrain_arrays(state)
        if side == "allies":
            points = [p.hex for p in supply.allied_sources(state)]
        else:
            points = [p.hex for jp in (False, True) for p in supply.axis_sources(state, jp)]
        out = np.zeros(hm.size, dtype=bool)
        for h, info in state.markers.get("air_supplied", {}).items():
            if isinstance(info, dict) and info.get("side") == side and hm.has_hex(h):
                out[hm.index(h)] = True
        if not points:
            return out
        from scipy.sparse import csr_matrix

        bombed = state.arrays.get("bombed")
        usable = ta.on_line & ~blocked_hexes(state, side)
        if bombed is not None:
            usable &= ~bombed
        a = np.repeat(np.arange(hm.size), 6)
        b = hm.neighbors.ravel()
        bb = np.maximum(b, 0)
        inner = ta.transport.ravel() & (b >= 0) & usable[a] & usable[bb]
        g = csr_matrix((np.ones(int(inner.sum())), (a[inner], b[inner])), shape=(hm.size, hm.size))
        _, comp = connected_components(g, directed=False)
        src_comps = {int(comp[p]) for p in points if usable[p]}
        line = usable & np.isin(comp, list(src_comps))
        start_mask = line.copy()  # a mask, not np.union1d: same sorted indices, no hashing
        start_mask[np.asarray(points, dtype=np.int64)] = True
        start = np.flatnonzero(start_mask)
        graph = supply._step_graph(state, side, True)
        limit = float(air_tables(state)["basing"]["supplied_hex_trace_mp"])
        dist = dijkstra(graph, directed=True, indices=start, min_only=True, limit=limit + 1e-9)
        return out | np.isfinite(dist)

    bombed = state.arrays.get("bombed")
    return state.derived(("ssa.air_supplied_hexes", side), compute, id(bombed),
                         None if bombed is None else bombed.tobytes(),
                         repr(state.markers.get("city_control")), repr(state.markers.get("air_supplied")))


# ----------------------------------------------------------------------------------- bases
def land_base_capacity(state: State, side: str) -> np.ndarray:
    """``int[N]``: air units ``side`` may base in each land hex (SSA-6.3a-b).

    A friendly-controlled city is always a base (industrial 4, other 2); a supplied
    clear/desert/forestation/rough or transportation-line hex bases 1; an airbase unit
    bases 2 in any supplied land hex; the largest capacity applies (air.toml)."""
    def compute() -> np.ndarray:
        hm = state.map
        basing = air_tables(state)["basing"]
        sup = supplied_hexes(state, side)
        enemy = enemy_present(state, side) | hm.is_water
        field = _field_terrain(state, tuple(basing["supplied_hex_terrains"]))
        cap = np.where(field & sup & ~enemy, int(basing["supplied_hex"]), 0)
        for u in state.units_by_id.values():
            if u.side == side and on_map(u) and values.value(state, u, "airbase_capacity") is not None \
                    and not u.props.get("carried"):
                i = hm.index(u.location)
                if sup[i] and not enemy[i]:
                    cap[i] = max(cap[i], int(values.value(state, u, "airbase_capacity")))
        kinds = city_kinds(state)
        for i in np.flatnonzero(kinds != ""):
            if city_owner(state, int(i)) == side and not enemy[i]:
                key = "industrial_city" if kinds[i] == "industrial" else "non_industrial_city"
                cap[i] = max(cap[i], int(basing[key]))
        return cap

    bombed = state.arrays.get("bombed")
    return state.derived(("ssa.air_base_capacity", side), compute, id(bombed),
                         None if bombed is None else bombed.tobytes(),
                         repr(state.markers.get("city_control")), repr(state.markers.get("air_supplied")))


def _field_terrain(state: State, terrains: tuple[str, ...]) -> np.ndarray:
    """``bool[N]``: hexes whose terrain (or transportation line) may hold a field base; the
    map and tables never change, so this is built once per game (not per base-capacity update)."""
    from workbench.rulesets.ssa.terrain import terrain_arrays

    def compute() -> np.ndarray:
        terrain = np.array(state.map.hexes["terrain"].to_list(), dtype=object)
        return np.isin(terrain, list(terrains)) | terrain_arrays(state).on_line

    return state.game.cached(("ssa.field_terrain", terrains), compute).copy()


def land_occupancy(state: State, side: str, exclude: Unit | None = None) -> np.ndarray:
    """``int[N]``: land-based air units of ``side`` per hex: grounded ones, plus interceptors
    whose base it is (they come back, SSA-6.5)."""
    hm = state.map
    occ = np.zeros(hm.size, dtype=np.int64)
    for u in state.units_by_id.values():
        if u.side != side or u is exclude or not is_air(state, u) or u.props.get("carrier") \
                or u.props.get("carried"):  # aboard a convoy: not on the base (SSA-9.6)
            continue
        if on_map(u) and not flying(u):
            occ[hm.index(u.location)] += 1
        elif flying(u) and u.props.get("intercepting") and str(u.props.get("base", "")).isdigit():
            occ[hm.index(u.props["base"])] += 1
    return occ


def carrier_qualified(state: State, u: Unit) -> bool:
    """SSA-6.3d: only the listed types, and (scenarios) only carrier-qualified units."""
    basing = air_tables(state)["basing"]
    if u.type not in basing["carrier_types"] or not values.value(state, u, "carrier_capable", False):
        return False
    return bool(u.props.get("carrier_qualified")) or not basing.get("carrier_requires_qualified_unit", True)


def carrier_room(state: State, carrier: Unit, exclude: Unit | None = None) -> int:
    basing = air_tables(state)["basing"]
    cap = int(basing["carrier_reduced" if carrier.reduced else "carrier_full"])
    aboard = [u for u in state.units_by_id.values()
              if u.props.get("carrier") == carrier.id and u is not exclude
              and (not flying(u) or u.props.get("intercepting"))]
    return cap - len(aboard)


def carriers_at(state: State, side: str, label: str) -> list[Unit]:
    return sorted((u for u in state.units_by_id.values() if u.side == side and u.type == "carrier_fleet"
                   and u.location == label), key=lambda u: u.id)


def base_refusal(state: State, u: Unit, label: str, carrier: str | None = None) -> Refusal | None:
    """Why ``u`` may not be based in ``label`` (or on carrier ``carrier``) now, or None."""
    hm = state.map
    if not isinstance(label, str) or not hm.has_hex(label):
        return Refusal("SSA-6.3", f"{label!r} is not a hex of the map")
    if carrier is not None:
        c = state.units_by_id.get(carrier) if isinstance(carrier, str) else None
        if c is None or c.side != u.side or c.type != "carrier_fleet" or c.location != label:
            return Refusal("SSA-6.3d", f"there is no friendly carrier fleet {carrier!r} in {label}")
        if not carrier_qualified(state, u):
            return Refusal("SSA-6.3d", f"{u.id} is not a carrier-qualified fighter or tactical/jet bomber")
        if carrier_room(state, c, exclude=u) <= 0:
            return Refusal("SSA-6.3d", f"{c.id} already bases {'one air unit' if c.reduced else 'two air units'}")
        return None
    i = hm.index(label)
    cap = int(land_base_capacity(state, u.side)[i])
    if cap <= 0:
        return Refusal("SSA-6.3a", f"{label} is not a friendly airbase (a friendly city, or a supplied clear, desert, "
                                   "forestation, rough or transportation-line hex)")
    if int(land_occupancy(state, u.side, exclude=u)[i]) >= cap:
        return Refusal("SSA-6.3a", f"the airbase in {label} is full ({cap} air unit{'s' if cap > 1 else ''})")
    return None


def base_supplied(state: State, u: Unit) -> bool:
    """SSA-6.3b: an air unit on an out-of-supply base may only transfer.  Carriers count as
    supplied (docs/rulings-ssa.md)."""
    if u.props.get("carrier"):
        return True
    return bool(supplied_hexes(state, u.side)[state.map.index(u.location)])


def base_kind(state: State, u: Unit) -> str:
    if u.props.get("carrier"):
        return "carrier"
    return "coastal" if state.map.flag("coastal")[state.map.index(u.location)] else "land"


# ----------------------------------------------------------------------------------- mission targets
def mission_targets(state: State, side: str, mission: str) -> np.ndarray:
    """``bool[N]``: hexes where ``mission`` has something to do for ``side`` (for legal())."""
    def compute() -> np.ndarray:
        from workbench.rulesets.ssa.control import SIDE_CODE, control_array
        from workbench.rulesets.ssa.terrain import terrain_arrays

        hm = state.map
        enemy = other(side)
        out = np.zeros(hm.size, dtype=bool)
        if mission in ("ground_support", "interdict_ground", "air_supply"):
            who = side if mission == "air_supply" else enemy
            for u in state.units_by_id.values():
                if u.side == who and on_map(u) and values.is_land(state, u) and not values.is_leader(state, u) \
                        and not u.props.get("carried"):
                    out[hm.index(u.location)] = True
            if mission == "ground_support":  # a friendly land unit must be able to attack there
                mine = np.zeros(hm.size, dtype=bool)
                for u in state.units_by_id.values():
                    if u.side == side and on_map(u) and values.is_land(state, u) and values.cf(state, u) > 0 \
                            and not values.value(state, u, "defend_only", False) and not u.props.get("carried"):
                        mine[hm.index(u.location)] = True
                nb = hm.neighbors
                near = np.where(nb >= 0, mine[np.maximum(nb, 0)], False).any(axis=1)
                out &= near | mine  # in the hex itself: an amphibious assault attacks its own hex (G-09)
        elif mission == "interdict_naval":
            for u in state.units_by_id.values():
                if u.side == enemy and on_map(u) and values.domain(state, u) == "naval":
                    out[hm.index(u.location)] = True
        elif mission == "interdict_airbase":
            for u in state.units_by_id.values():
                if u.side == enemy and grounded(state, u) and not u.props.get("carrier"):
                    out[hm.index(u.location)] = True
        elif mission == "bomb":
            kinds = city_kinds(state)
            for i in np.flatnonzero(kinds != ""):
                if city_owner(state, int(i)) == enemy:
                    out[i] = True
            out |= terrain_arrays(state).on_line & (control_array(state) == SIDE_CODE[enemy])
            out[canal_hexes(state)] = True
            bombed = state.arrays.get("bombed")
            if bombed is not None:
                out &= ~bombed
        return out

    bombed = state.arrays.get("bombed")
    ctrl = state.arrays.get("control")
    return state.derived(("ssa.air_targets", side, mission), compute,
                         None if bombed is None else bombed.tobytes(),
                         None if ctrl is None else ctrl.tobytes(), repr(state.markers.get("city_control")))


def over_hex(state: State, side: str, label: str) -> int:
    """SSA-9.2b: air units of ``side`` in the air over a hex."""
    return sum(1 for u in state.units_by_id.values()
               if u.side == side and flying(u) and u.location == label)


def mission_refusal(state: State, u: Unit, mission: str) -> Refusal | None:
    """Whether the unit's type may fly the mission at all."""
    cargo = bool(values.value(state, u, "cargo", False))
    if mission == "air_supply" and not cargo:
        return Refusal("SSA-10.1h", "only air cargo units fly air supply")
    if mission in COMBAT_MISSIONS[:-1] and (cargo or float(values.value(state, u, "bombardment", 0) or 0) <= 0):
        return Refusal("SSA-12.G", f"{u.id} has no bombardment strength for a {mission.replace('_', ' ')} mission")
    return None


# ----------------------------------------------------------------------------------- orders
def _step_key(state: State) -> str:
    return state.step.key if state.step else ""


class FlyOrder(OrderKind):
    """SSA-6.2-6.6: fly out on a mission (Initial Movement) or transfer base to base."""

    kind = "fly"
    rule = "SSA-6.0"

    def flyers(self, state: State) -> list[Unit]:
        side = state.decision.side
        # 7.7f: air units aboard a convoy are cargo: they debark at a friendly airbase, they do not fly off
        return [u for u in state.units_by_id.values()
                if u.side == side and grounded(state, u) and not frozen(state, u) and not u.props.get("carried")]

    def _why_not(self, state: State, u: Unit, to: Any, mission: Any, carrier: Any = None) -> Refusal | None:
        hm = state.map
        key = _step_key(state)
        if mission not in MISSIONS:
            return Refusal("SSA-12.G", f"the mission must be one of {', '.join(MISSIONS)}")
        if not isinstance(to, str) or not hm.has_hex(to):
            return Refusal("SSA-6.0", f"{to!r} is not a hex of the map")
        why = weather.flight_refusal(state, u, u.location, to)  # SSA-26.3-S, 26.3-H
        if why:
            return why
        rng = air_range(state, u)
        if mission == "transfer":
            if u.props.get("flown"):
                return Refusal("SSA-6.6", f"{u.id} flew a mission this turn and may not transfer")
            if to == u.location and carrier == u.props.get("carrier"):
                return Refusal("SSA-6.6", f"{u.id} is already based there")
            mult = int(air_tables(state)["movement"]["transfer_leg_multiplier"])
            why = range_refusal(state, u, to, mult * rng, "SSA-6.6", f"a transfer leg may be at most {mult} x range =")
            return why or base_refusal(state, u, to, carrier)
        if key != INITIAL:
            return Refusal("SSA-6.4", "air missions fly out only in the Initial Movement phase")
        if u.props.get("flown") or u.props.get("transferred"):
            return Refusal("SSA-6.6", f"{u.id} already flew (a mission or a transfer) this turn")
        if not base_supplied(state, u):
            return Refusal("SSA-6.3b", f"{u.id} is on an out-of-supply base and may only transfer")
        why = mission_refusal(state, u, mission)
        if why:
            return why
        why = range_refusal(state, u, to, rng, "SSA-6.2", f"{u.id}'s range is")
        if why:
            return why
        if not mission_targets(state, u.side, mission)[hm.index(to)]:
            return Refusal("SSA-12.G", f"{to} holds no target for a {mission.replace('_', ' ')} mission")
        limit = int(air_tables(state)["basing"]["max_in_air_over_hex"])
        if over_hex(state, u.side, to) >= limit:
            return Refusal("SSA-9.2b", f"at most {limit} friendly air units may be in the air over {to}")
        return None

    def legal(self, state: State) -> list[dict[str, Any]]:
        hm = state.map
        key = _step_key(state)
        labels = hm.labels_list
        out: list[dict[str, Any]] = []
        room: dict[str, np.ndarray] = {}
        for u in sorted(self.flyers(state), key=lambda u: u.id):
            if u.side not in room:
                room[u.side] = land_base_capacity(state, u.side) - land_occupancy(state, u.side)
            i = hm.index(u.location)
            dist = flight_distances(state, i)
            rng = air_range(state, u)
            if key == INITIAL and not (u.props.get("flown") or u.props.get("transferred")) \
                    and base_supplied(state, u):
                for m in COMBAT_MISSIONS:
                    if mission_refusal(state, u, m):
                        continue
                    for j in np.flatnonzero(mission_targets(state, u.side, m) & (dist <= rng)):
                        if self._why_not(state, u, labels[j], m) is None:
                            out.append({"kind": "fly", "unit": u.id, "to": labels[j], "mission": m})
            if not u.props.get("flown"):
                mult = int(air_tables(state)["movement"]["transfer_leg_multiplier"])
                cap = room[u.side].copy()
                if not u.props.get("carrier"):
                    cap[i] += 1  # its own place
                ok = (cap > 0) & (dist <= mult * rng)
                if weather.current(state):  # SSA-26.3-S/H: weather.flight_refusal for every hex at once
                    grounded_here = weather.no_flight(state)
                    ok &= ~grounded_here & ~grounded_here[i]
                for j in np.flatnonzero(ok):
                    if labels[j] != u.location or u.props.get("carrier"):
                        out.append({"kind": "fly", "unit": u.id, "to": labels[j], "mission": "transfer"})
                for c in state.units_by_id.values():
                    if c.side == u.side and c.type == "carrier_fleet" and on_map(c) \
                            and c.id != u.props.get("carrier") \
                            and dist[hm.index(c.location)] <= mult * rng \
                            and self._why_not(state, u, c.location, "transfer", c.id) is None:
                        out.append({"kind": "fly", "unit": u.id, "to": c.location, "mission": "transfer",
                                    "carrier": c.id})
        return out

    def check(self, state: State, order: dict[str, Any]) -> None:
        uid = order.get("unit")
        u = state.units_by_id.get(uid) if isinstance(uid, str) else None
        if u is None or u not in self.flyers(state):
            raise IllegalOrder(self.rule, f"{uid!r} is not one of your air units on the ground that may fly now")
        why = self._why_not(state, u, order.get("to"), order.get("mission"), order.get("carrier"))
        if why:
            raise IllegalOrder.of(why, self.rule)
        if order.get("leader") is not None:  # SSA-24.5, 24.8-F/B: a leader goes with the aircraft
            refusal = leaders.air_leader_refusal(state, u, order["leader"])
            if refusal:
                raise refusal

    def execute(self, state: State, order: dict[str, Any]) -> None:
        u = state.unit(order["unit"])
        start, mission, to = u.location, order["mission"], order["to"]
        if order.get("leader"):
            leaders.board(state, u, order["leader"])
        if mission == "transfer":
            u.flag("carrier", order.get("carrier"))
            u.location = to
            u.props["transferred"] = True
            u.props["transferred_in"] = state.step.path if state.step else ""  # 19.3: this phase's move
            leaders.follow_air(state, u)  # SSA-24.5: a leader carried along gets off at the new base
            state.emit("transfer", side=u.side, rule="SSA-6.6", text=f"{u.id} transfers {start} → {to}",
                       unit=u.id, start=start, to=to, carrier=order.get("carrier"))
            return
        u.props.update({"flying": True, "base": start, "base_kind": base_kind(state, u), "mission": mission,
                        "target": to, "flown": True})
        if u.props.get("carrier"):
            u.props["base_carrier"] = u.props["carrier"]
        u.location = to
        leaders.follow_air(state, u)
        state.emit("fly", side=u.side, rule="SSA-6.2",
                   text=f"{u.id} flies {start} → {to} on a {mission.replace('_', ' ')} mission",
                   unit=u.id, start=start, to=to, mission=mission)


class LandOrder(OrderKind):
    """SSA-6.4: in the Mechanized Movement phase a flying unit lands at a friendly airbase
    within range of where it is (it need not be the base it took off from)."""

    kind = "land"
    rule = "SSA-6.4"

    def fliers(self, state: State) -> list[Unit]:
        side = state.decision.side
        return [u for u in state.units_by_id.values()
                if u.side == side and is_air(state, u) and flying(u) and not u.props.get("intercepting")]

    def _why_not(self, state: State, u: Unit, to: Any, carrier: Any) -> Refusal | None:
        hm = state.map
        if not isinstance(to, str) or not hm.has_hex(to):
            return Refusal("SSA-6.4", f"{to!r} is not a hex of the map")
        why = range_refusal(state, u, to, air_range(state, u), "SSA-6.2", "the way back may be at most the range")
        return why or base_refusal(state, u, to, carrier)

    def legal(self, state: State) -> list[dict[str, Any]]:
        if _step_key(state) != MECH:
            return []
        hm = state.map
        labels = hm.labels_list
        out = []
        room: dict[str, np.ndarray] = {}
        for u in sorted(self.fliers(state), key=lambda u: u.id):
            dist = flight_distances(state, hm.index(u.location))
            rng = air_range(state, u)
            if u.side not in room:
                room[u.side] = land_base_capacity(state, u.side) - land_occupancy(state, u.side)
            cap = room[u.side]
            for j in np.flatnonzero((cap > 0) & (dist <= rng)):
                out.append({"kind": "land", "unit": u.id, "to": labels[j]})
            for c in state.units_by_id.values():
                if c.side == u.side and c.type == "carrier_fleet" and on_map(c) \
                        and dist[hm.index(c.location)] <= rng and base_refusal(state, u, c.location, c.id) is None:
                    out.append({"kind": "land", "unit": u.id, "to": c.location, "carrier": c.id})
        return out

    def check(self, state: State, order: dict[str, Any]) -> None:
        if _step_key(state) != MECH:
            raise IllegalOrder(self.rule, "air units land in the Mechanized Movement phase")
        uid = order.get("unit")
        u = state.units_by_id.get(uid) if isinstance(uid, str) else None
        if u is None or u not in self.fliers(state):
            raise IllegalOrder(self.rule, f"{uid!r} is not one of your air units in the air")
        why = self._why_not(state, u, order.get("to"), order.get("carrier"))
        if why:
            raise IllegalOrder.of(why, self.rule)

    def execute(self, state: State, order: dict[str, Any]) -> None:
        u = state.unit(order["unit"])
        start = u.location
        land(state, u, order["to"], order.get("carrier"))
        state.emit("land", side=u.side, rule=self.rule, text=f"{u.id} lands at {u.location} (from {start})",
                   unit=u.id, start=start, to=u.location, carrier=order.get("carrier"))


def land(state: State, u: Unit, to: str, carrier: str | None) -> None:
    for k in ("flying", "base", "base_kind", "mission", "target", "attacked", "aborted", "supported",
              "intercepting", "base_carrier"):
        u.props.pop(k, None)
    u.flag("carrier", carrier)
    u.location = to
    leaders.follow_air(state, u)  # SSA-24.8-F/B: a leader that flew with it lands with it


# ----------------------------------------------------------------------------------- phase ends
def end_of_mechanized_phase(state: State, step: Any) -> None:
    """SSA-6.4, 6.5: return (or lose) everything still in the air; clear the turn's air marks."""
    phasing = state.phasing
    for u in sorted(state.units_by_id.values(), key=lambda u: u.id):
        if not is_air(state, u) or not flying(u):
            continue
        base, carrier = u.props.get("base"), u.props.get("base_carrier")
        if u.props.get("intercepting"):  # SSA-6.5: interceptors return to their base
            if carrier and not (carrier in state.units_by_id and on_map(state.unit(carrier))):
                eliminate(state, u, "SSA-6.5", " (its carrier is gone)")
                continue
            to = state.unit(carrier).location if carrier else base
            land(state, u, to, carrier)
            state.emit("land", side=u.side, rule="SSA-6.5", text=f"{u.id} returns to {to}", unit=u.id, to=to)
            continue
        if u.side != phasing:
            continue
        to = state.unit(carrier).location if carrier and carrier in state.units_by_id \
            and on_map(state.unit(carrier)) else base
        ok = isinstance(to, str) and to.isdigit() and \
            int(flight_distances(state, state.map.index(u.location))[state.map.index(to)]) <= air_range(state, u) and \
            base_refusal(state, u, to, carrier) is None
        if isinstance(to, str) and to in state.ruleset.tables["holding_areas"]["boxes"]:  # SSA-15.5b: a box base
            from workbench.rulesets.ssa.holding import air_link_cost

            ok = bool(air_link_cost(state, u, to)[state.map.index(u.location)] <= air_range(state, u))
        if ok:
            land(state, u, to, carrier)
            state.emit("land", side=u.side, rule="SSA-6.4", text=f"{u.id} returns to {to}", unit=u.id, to=to)
        else:
            eliminate(state, u, "SSA-6.4", " (no friendly airbase within range at the end of the "
                                           "Mechanized Movement phase)")
    for u in state.units_by_id.values():
        if u.side == phasing and is_air(state, u):
            for k in ("flown", "transferred", "transferred_in"):
                u.props.pop(k, None)
    state.markers.pop("intercepted_hexes", None)


def air_supply_expiry(state: State) -> None:
    """SSA-10.1h: air supply lasts one complete game turn."""
    marks = state.markers.get("air_supplied")
    if not marks:
        return
    keep = {h: v for h, v in marks.items()
            if not (isinstance(v, dict) and v.get("side") == state.phasing and v.get("turn", -1) < state.turn)}
    state.markers["air_supplied"] = keep


# ----------------------------------------------------------------------------------- hooks into other orders
def destroy_grounded_air(state: State, unit: Unit, labels: list[str]) -> None:
    """SSA-6.3c: enemy land units that enter or pass through a hex with air units on the
    ground eliminate them (carrier-based air is at sea with its carrier)."""
    if values.is_land(state, unit):
        leaders.enemy_entered(state, unit, labels)  # SSA-24.4: lone leaders in the hexes entered
    if not values.is_land(state, unit) or values.is_leader(state, unit):
        return
    hexes = set(labels)
    for u in sorted(state.units_by_id.values(), key=lambda u: u.id):
        if u.side != unit.side and grounded(state, u) and not u.props.get("carrier") \
                and not u.props.get("carried") and u.location in hexes:  # aboard a convoy: cargo, not grounded
            eliminate(state, u, "SSA-6.3c", f" on the ground by {unit.id}")


def carry_air(state: State, carrier: Unit) -> None:
    """SSA-6.3d: air units on the ground on a carrier go where it goes."""
    for u in state.units_by_id.values():
        if u.props.get("carrier") == carrier.id and not flying(u):
            u.location = carrier.location


def hook_movement(rules: Any) -> None:
    """Add SSA-6.3c to a movement-rules object's ``moved`` hook (land moves)."""
    if getattr(rules, "_ssa_air_hooked", False):
        return
    inner = rules.moved

    def moved(state: State, unit: Unit, path: list[int]) -> None:
        inner(state, unit, path)
        destroy_grounded_air(state, unit, [state.map.label(i) for i in path])

    rules.moved = moved
    rules._ssa_air_hooked = True


def hook_entry(order: Any, hexes_of: Any) -> None:
    """Add SSA-6.3c to a land order that moves a unit without the move hook (rail, retreat):
    ``hexes_of(state, order)`` gives the hex labels it enters, worked out before it moves."""
    if getattr(order, "_ssa_entry_hooked", False):
        return
    inner = order.execute

    def execute(state: State, o: dict[str, Any]) -> None:
        labels = list(hexes_of(state, o))
        inner(state, o)
        destroy_grounded_air(state, state.unit(o["unit"]), labels)

    order.execute = execute
    order._ssa_entry_hooked = True


def hook_sail(order: Any) -> None:
    """Add SSA-6.3d (carrier air sails with its carrier) to the sail order's ``execute``."""
    if getattr(order, "_ssa_air_hooked", False):
        return
    inner = order.execute

    def execute(state: State, o: dict[str, Any]) -> None:
        inner(state, o)
        carry_air(state, state.unit(o["unit"]))

    order.execute = execute
    order._ssa_air_hooked = True


__all__ = ["ELIMINATED", "FlyOrder", "LandOrder", "MISSIONS", "hook_entry", "hook_movement", "hook_sail"]
