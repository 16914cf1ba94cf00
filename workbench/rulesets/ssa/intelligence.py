"""Intelligence (SSA-19): what one side may see of the other's stacks.

``SSARuleset.view(state, side)`` returns a :class:`SideView`.  Enemy stacks are
hidden (19.G) except:

* 19.1 units in combat at that instant: the enemy units named by an open
  decision (loss choices, retreats, a carrier's retreat before combat) and the
  units of the last combat event, until the next order;
* 19.2 stacks in a hex with a friendly special-operations or underground partisan unit;
* 19.3 air reconnaissance: ``{"kind": "recon", "hex": h}`` at the start of a
  friendly Initial or Mechanized Movement phase (before any unit moves),
  one stack within 10 hexes of each friendly hex with a supplied fighter or
  bomber on the ground or a carrier fleet; none in Storms.  A recon lasts until
  the end of the player turn (docs/rulings-ssa.md);
* 19.X the ULTRA (Allies) and ENIGMA (Axis) war events: a war-events module sets
  ``state.markers["reveal_all"][side] = turn label`` and every enemy stack is
  visible to that side for that turn.

The view is read-only: ``units_by_id`` holds own units and revealed enemy
units; ``units()`` is the polars frame with one ``stack of N`` row per hidden
enemy stack; ``hidden_hexes`` lists their hexes (the UI greys them out).
"""

from __future__ import annotations

import json
from typing import Any

import numpy as np

from workbench.engine import fog
from workbench.engine.errors import IllegalOrder, Refusal
from workbench.engine.ruleset import OrderKind
from workbench.engine.state import State
from workbench.engine.units import Unit
from workbench.rulesets.ssa import values
from workbench.rulesets.ssa.air import (
    FIGHTER_TYPES,
    INITIAL,
    MECH,
    base_supplied,
    distances,
    grounded,
)

BOMBER_TYPES = ("tactical_bomber", "strategic_bomber", "jet_bomber")
COMBAT_EVENTS = ("combat", "air_combat", "naval_combat", "intercept", "overrun")


def _ids_in(obj: Any, known: dict[str, Unit]) -> set[str]:
    out: set[str] = set()
    if isinstance(obj, str):
        if obj in known:
            out.add(obj)
    elif isinstance(obj, dict):
        for v in obj.values():
            out |= _ids_in(v, known)
    elif isinstance(obj, list | tuple):
        for v in obj:
            out |= _ids_in(v, known)
    return out


def in_combat(state: State) -> set[str]:
    """SSA-19.1: units named by open interrupts, and by the combat event(s) of the last order."""
    known = state.units_by_id
    ids: set[str] = set()
    for f in state.frames:
        if "interrupt" in f:
            ids |= _ids_in(f["data"], known)
    last = len(state.orders) - 1
    for ev in reversed(state.log):
        if ev["order"] != last:
            break
        if ev["kind"] in COMBAT_EVENTS and ev.get("data"):
            data = ev["data"] if isinstance(ev["data"], dict) else json.loads(ev["data"])
            ids |= _ids_in(data, known)
    return ids


def recon_sources(state: State, side: str) -> list[str]:
    """SSA-19.3: friendly hexes with a supplied fighter or bomber, or a carrier fleet."""
    out = set()
    for u in state.units_by_id.values():
        if u.side != side or not u.location.isdigit():
            continue
        if u.type == "carrier_fleet" and not u.props.get("carried") or u.type in FIGHTER_TYPES + BOMBER_TYPES and grounded(state, u) and base_supplied(state, u):
            out.add(u.location)
    return sorted(out)


def storms(state: State, source: str) -> bool:
    """SSA-26.3-S: no air recon from a hex whose zone has Storms (optional rule 26)."""
    from workbench.rulesets.ssa.weather import recon_blocked

    return recon_blocked(state, source)


def enemy_stacks(state: State, side: str) -> dict[str, list[Unit]]:
    """The enemy's stacks by location (not aboard, not off the board).  Memoised while no enemy
    unit changes (a view is built for every decision); read-only: callers must not change it."""
    def compute() -> dict[str, list[Unit]]:
        out: dict[str, list[Unit]] = {}
        for u in state.units_by_id.values():
            if u.side != side and u.location not in ("Eliminated", "unplaced", "Force pool") \
                    and not u.props.get("carried"):
                out.setdefault(u.location, []).append(u)
        return out

    return state.derived(("ssa.enemy_stacks", side), compute, side=side, others=True)


def revealed_hexes(state: State, side: str) -> set[str]:
    """Hexes (and boxes) whose enemy stacks ``side`` may examine now."""
    stacks = enemy_stacks(state, side)
    if state.markers.get("reveal_all", {}).get(side) == state.turn_label:  # 19.X ULTRA / ENIGMA
        return set(stacks)
    rec = state.markers.get("recon", {}).get(side, {})
    out = set(rec.get("revealed", [])) if rec.get("turn") == [state.turn, state.phasing] else set()
    for u in state.units_by_id.values():  # 19.2
        if u.side == side and u.location in stacks and (
                values.value(state, u, "special_operations", False) or u.props.get("underground")):
            out.add(u.location)
    return out & set(stacks)


class SideView(fog.SideView):
    """What one side may see (SSA-19): every enemy stack hidden but those revealed (19.1-19.3, 19.X).
    Read-only; see the module doc and docs/rulings-ssa.md."""

    def __init__(self, state: State, side: str) -> None:
        stacks = enemy_stacks(state, side)
        seen_hexes = revealed_hexes(state, side)
        combat = in_combat(state)
        revealed: dict[str, list[str]] = {}
        shown: dict[str, Unit] = {}
        hidden: dict[str, int] = {}
        for u in state.units_by_id.values():
            if u.side == side:
                shown[u.id] = u
        for h, us in stacks.items():
            if h in seen_hexes:
                for u in us:
                    shown[u.id] = u
                revealed[h] = sorted(u.id for u in us)
                continue
            vis = [u for u in us if u.id in combat]
            for u in vis:
                shown[u.id] = u
            rest = len(us) - len(vis)
            if rest:
                hidden[h] = rest
        super().__init__(state, side, shown, hidden, revealed)


#: SSA-19.3: the refusal that depends on the target hex (legal() still lists the targets in range).
NO_SOURCE = "no unused friendly fighter, bomber or carrier hex"


class ReconOrder(OrderKind):
    """SSA-19.3: examine one enemy stack within 10 hexes of a recon source, once per source per phase."""

    kind = "recon"
    rule = "SSA-19.3"

    def _phase_id(self, state: State) -> str:
        return f"{state.turn}:{state.step.path}"

    def _record(self, state: State, side: str) -> dict[str, Any]:
        rec = state.markers.get("recon", {}).get(side, {})
        if rec.get("phase") != self._phase_id(state):
            return {"phase": self._phase_id(state), "used": [], "revealed": rec.get("revealed", []),
                    "turn": rec.get("turn")}
        return rec

    def _started(self, state: State, side: str) -> bool:
        path = state.step.path
        return any(u.side == side and (u.props.get("moved") == path or u.props.get("mf_spent")
                                       or u.props.get("railed") or u.props.get("sailed")
                                       or (u.props.get("flying") and state.step.key == INITIAL)
                                       or u.props.get("transferred_in") == path)
                   for u in state.units_by_id.values())

    def _free_sources(self, state: State, side: str) -> list[str]:
        used = set(self._record(state, side)["used"])
        return [h for h in recon_sources(state, side) if h not in used and not storms(state, h)]

    def _why_not(self, state: State, target: Any) -> tuple[Refusal | None, str | None]:
        """Why ``target`` may not be examined now (or None), and the recon source that would examine it."""
        side = state.decision.side
        key = state.step.key if state.step else ""
        if key not in (INITIAL, MECH):
            return Refusal(self.rule, "air reconnaissance is made at the start of a friendly movement phase"), None
        if self._started(state, side):
            return Refusal(self.rule, "air reconnaissance is made at the start of the phase, before any unit moves"), None
        hm = state.map
        if not isinstance(target, str) or not hm.has_hex(target) or target not in enemy_stacks(state, side):
            return Refusal(self.rule, f"{target!r} holds no enemy stack"), None
        radius = int(state.ruleset.tables["air"]["movement"]["recon_radius"])
        for src in self._free_sources(state, side):
            if distances(state, hm.index(src))[hm.index(target)] <= radius:
                return None, src
        used = set(self._record(state, side)["used"])
        for src in recon_sources(state, side):
            if src not in used and storms(state, src) and distances(state, hm.index(src))[hm.index(target)] <= radius:
                return Refusal("SSA-26.3-S", f"no air reconnaissance in Storms ({src})"), None
        return Refusal(self.rule, f"{NO_SOURCE} within {radius} hexes of {target}"), None

    def legal(self, state: State) -> list[dict[str, Any]]:
        side = state.decision.side
        seen = revealed_hexes(state, side)
        out = []
        hm = state.map
        targets = [h for h in enemy_stacks(state, side) if h.isdigit() and h not in seen]
        if not targets:
            return []
        why, _ = self._why_not(state, targets[0])
        if why and not why.why.startswith(NO_SOURCE):
            return []
        radius = int(state.ruleset.tables["air"]["movement"]["recon_radius"])
        srcs = [hm.index(s) for s in self._free_sources(state, side)]
        if not srcs:
            return []
        near = np.zeros(hm.size, dtype=bool)
        for s in srcs:
            near |= distances(state, s) <= radius
        for h in sorted(targets):
            if near[hm.index(h)]:
                out.append({"kind": "recon", "hex": h})
        return out

    def check(self, state: State, order: dict[str, Any]) -> None:
        why, _ = self._why_not(state, order.get("hex"))
        if why:
            raise IllegalOrder.of(why, self.rule)

    def execute(self, state: State, order: dict[str, Any]) -> None:
        side = state.decision.side
        _, src = self._why_not(state, order["hex"])
        rec = self._record(state, side)
        if rec.get("turn") != [state.turn, state.phasing]:
            rec["revealed"] = []
        rec = {**rec, "used": [*rec["used"], src], "revealed": sorted({*rec["revealed"], order["hex"]}),
               "turn": [state.turn, state.phasing]}
        state.markers.setdefault("recon", {})[side] = rec
        units = sorted(u.id for u in enemy_stacks(state, side)[order["hex"]])
        state.emit("recon", side=side, rule=self.rule, text=f"{side} air reconnaissance examines {order['hex']} "
                   f"(from {src})", hex=order["hex"], source=src, units=units)
