"""Step losses and eliminations (ETO-27.2, 27.5, 27.7, 23.3, 33.5).

A step loss flips a full two-step unit to its depleted side, or removes a
depleted or one-step unit (27.2; paratroops are always removed, 19.4).
Eliminated land units go to the force pool (a minor's to its major partner's,
27.2); infantry-class units eliminated inside their home country go to the
Replenishment box instead, unless marked out of supply (27.7).  Generals share
their stack's fate only when every unit with them is eliminated: a die, 1-2
permanently gone (Zhukov: 1), else the force pool (27.5, 43.7).  HQs are never
eliminated by combat: they move to the nearest friendly stack that may hold
them, or go to the force pool (23.3).

British infantry eliminated where the Suez Adds box may take it go to the force pool
marked ``suez_eligible`` (37.7, :mod:`suez`).
"""

from __future__ import annotations

from collections import defaultdict

from workbench.engine.state import State
from workbench.engine.units import Unit
from workbench.rulesets.eto import adjudicate as adj
from workbench.rulesets.eto import stacking, values
from workbench.rulesets.eto.values import FORCE_POOL, PERMANENT, REPLENISHMENT

KEEP_PROPS = ("name", "note", "pool_of")


def _clear(unit: Unit) -> None:
    for k in list(unit.props):
        if k not in KEEP_PROPS:
            unit.props.pop(k)


def eliminate(state: State, unit: Unit, rule: str, why: str = "", *, oos: bool = False,
              box: str | None = None) -> None:
    """Remove a unit from the map to the force pool or the Replenishment box (27.2, 27.7)."""
    from workbench.rulesets.eto.control import home_mask

    start = unit.location
    cls = values.unit_class(state, unit)
    if box is None:
        box = FORCE_POOL
        if cls == "infantry" and values.on_map(unit) and not oos and not unit.props.get("oos") \
                and home_mask(state, unit.nation)[state.map.index(unit.location)]:
            box = REPLENISHMENT
    marked = bool(unit.props.get("oos"))
    unit.location = box
    unit.reduced = False
    _clear(unit)
    suez = False
    if box == FORCE_POOL:
        unit.props["pool_of"] = values.major_of(state, unit.nation)
        from workbench.rulesets.eto import suez as suez_adds  # 37.7 (suez imports this module)

        suez = suez_adds.may_go(state, unit, start)
        if suez:
            unit.props[suez_adds.ELIGIBLE] = True
            why += " (may go to the Suez Adds box, ETO-37.7)"
    state.emit("eliminated", side=unit.side, rule=rule, text=f"{unit.id} eliminated{why} → {box}",
               unit=unit.id, at=start, box=box, oos=marked or oos, suez_eligible=suez)
    if values.on_map_label(start):
        orphans(state, start, unit.side, starved=oos)


def step_loss(state: State, unit: Unit, rule: str, why: str = "", *, oos: bool = False) -> None:
    """ETO-27.2: flip a full unit, remove a depleted or one-step one (paratroops: removed, 19.4)."""
    if values.steps_left(state, unit) >= 2 and values.unit_class(state, unit) != "paratroop":
        unit.reduced = True
        state.emit("depleted", side=unit.side, rule=rule, text=f"{unit.id} loses a step{why}",
                   unit=unit.id, at=unit.location)
        return
    eliminate(state, unit, rule, why, oos=oos)


def orphans(state: State, label: str, side: str, *, starved: bool = False) -> None:
    """After the last land unit of a hex is gone: its generals face 27.5, its HQs move (23.3).
    ``starved``: the stack died for lack of supply, so both go to the force pool (33.5)."""
    if any(values.is_combat_unit(state, u) for u in values.units_at(state, label, side)):
        return
    for u in sorted(values.units_at(state, label, side), key=lambda u: u.id):
        cls = values.unit_class(state, u)
        if starved and cls in ("general", "hq"):
            u.location = FORCE_POOL
            _clear(u)
            state.emit("to_force_pool", side=side, rule="ETO-33.5",
                       text=f"{u.id} returns to the force pool (its stack was eliminated for lack of supply)",
                       unit=u.id, at=label)
        elif cls == "general" and not state.markers.get("general_escape", {}).get(u.id):
            general_falls(state, u)
        elif cls == "hq":
            relocate_hq(state, u, "ETO-23.3")


def general_falls(state: State, gen: Unit, rule: str = "ETO-27.5") -> None:
    """ETO-27.5 / 43.7: roll for a general whose stack was eliminated."""
    zhukov = values.is_zhukov(state, gen)
    (die,) = state.roll(purpose=f"fate of general {gen.id} (stack eliminated)", rule=rule, side=gen.side)
    fate = adj.general_fate(die, zhukov, tables=state.ruleset.tables)
    start = gen.location
    gen.location = PERMANENT if fate == "eliminated" else FORCE_POOL
    _clear(gen)
    state.emit("general_fate", side=gen.side, rule="ETO-43.7" if zhukov else rule,
               text=f"general {gen.id}: die {die}, {fate.replace('_', ' ')}", unit=gen.id, die=die,
               fate=fate, at=start)


def relocate_hq(state: State, hq: Unit, rule: str) -> None:
    """ETO-23.3: move the HQ to the nearest friendly stack that may hold it (23.4), else the pool."""
    from workbench.rulesets.eto.hq_limits import interval_violations, region_why_not

    hm = state.map
    start = hq.location
    here = hm.index(start)
    cands = sorted({u.location for u in state.units_by_id.values()
                    if u.side == hq.side and values.on_map(u) and values.is_combat_unit(state, u)})
    cands.sort(key=lambda h: (int(hm.grid.distance(here, hm.index(h))), h))
    for h in cands:
        if not interval_violations(state, hq, h) and not region_why_not(state, hq, h):  # 23.4, 23.5
            hq.location = h
            state.emit("hq_moved", side=hq.side, rule=rule, text=f"HQ {hq.id} withdraws {start} → {h}",
                       unit=hq.id, start=start, to=h)
            return
    hq.location = FORCE_POOL
    _clear(hq)
    state.emit("hq_removed", side=hq.side, rule=rule, text=f"HQ {hq.id} returns to the force pool",
               unit=hq.id, at=start)


def enforce_stacking(state: State, rule: str = "ETO-24.2") -> None:
    """End of a step: eliminate excess units (weakest first) and absorbed partisans (45.6)."""
    by_hex: dict[tuple[str, str], list[Unit]] = defaultdict(list)
    for u in state.units_by_id.values():
        if stacking.counts(state, u):
            by_hex[(u.location, u.side)].append(u)
    # the lowest limit 24.2 sets anywhere: a stack within it needs no look at its hex and nations
    floor = min(adj.stacking_limit(cr, soviet, tables=state.ruleset.tables)
                for cr in (False, True) for soviet in (False, True))
    for (label, _side), units in sorted(by_hex.items()):
        partisans = [u for u in units if values.unit_class(state, u) == "partisan"]
        others = [u for u in units if u not in partisans] if partisans else units
        if others and partisans:
            for p in partisans:
                eliminate(state, p, "ETO-45.6", " (stacked with a friendly land unit)")
            units = others
        if len(units) <= floor:
            continue
        lim = stacking.limit_for(state, label, [u.nation for u in units])
        if len(units) > lim:
            for u in sorted(units, key=lambda u: (values.strength(state, u), u.id))[:len(units) - lim]:
                eliminate(state, u, rule, f" (overstacked: {len(units)} units, limit {lim})")
