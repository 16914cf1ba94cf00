"""Soviet pre-war conquests (ETO-43.2, 43.5).

Before its war with Germany the USSR may claim the territories next to its 1939 borders: the
Baltic States, Bessarabia, eastern Poland once Poland is conquered, and eastern Finland once the
Winter War is won (``politics.toml [prewar_conquests]``).  A claim (``{"kind": "claim_territory",
"zone": "Latvia"}``) is made where invasions are announced; the territory has no forces, Soviet
units must be activated by an offensive to make the first crossing, and it is conquered when
Soviet units have captured each of its city and resource hexes (one with neither, when first
entered: ruling P23).  Conquered, it is Soviet home country for replenishment, construction, rail
and 43.4 but not for income; its resource hexes pay the USSR 2 EPs, and 2 to an Axis captor
(43.5: :mod:`income`).

These areas belong to the Soviet sphere from the start: an Axis move into one before the Axis
and the USSR are at war is an invasion of the Soviet Union (43.2), so their hexes are held by
the USSR (:mod:`holders`) and closed to the Axis; declaring war on a Baltic State invades the
USSR with it.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from workbench.engine.errors import IllegalOrder, Refusal, refuse
from workbench.engine.ruleset import OrderKind
from workbench.engine.state import State
from workbench.engine.units import Unit
from workbench.rulesets.eto import conquest, holders, invasion, politics, values
from workbench.rulesets.eto import control as ctl
from workbench.rulesets.eto.terrain import terrain_arrays

RULE = "ETO-43.2"


def _t(state: State) -> dict[str, Any]:
    return politics.table(state)["prewar_conquests"]


def zones(state: State) -> list[dict[str, Any]]:
    return list(_t(state)["zones"])


def zone(state: State, name: str) -> dict[str, Any] | None:
    return next((z for z in zones(state) if z["name"] == name), None)


def mask(state: State, name: str) -> np.ndarray:
    """The land hexes of a zone (cached per game: the zones are the table's)."""
    def make() -> np.ndarray:
        z = zone(state, name)
        if z is None:
            return np.zeros(state.map.size, bool)
        if z.get("nation"):
            return politics.territory(state, z["nation"])
        return ctl.area_mask(state, z) & terrain_arrays(state).land
    return state.game.cached(("eto.prewar.zone", name), make)


def claimant(state: State) -> str:
    return str(_t(state)["claimant"])


def claims(state: State) -> dict[str, dict[str, Any]]:
    return politics.war_state(state).get("claims", {})


def prewar(state: State) -> bool:
    """43.2: "pre-war" -- the USSR and the Axis are not (yet) at war."""
    return not politics.front_open(state, "axis", politics.natural_partnership(state, claimant(state)))


def available(state: State, z: dict[str, Any]) -> bool:
    """A zone's prerequisite is met (43.2: eastern Poland after Poland's conquest, eastern Finland
    after the Winter War)."""
    after = z.get("after")
    ws = politics.war_state(state)
    if not after:
        return True
    if after.startswith("conquered:"):
        return after.split(":", 1)[1] in ws.get("conquered", {})
    if after == "winter_war":
        return ws.get("winter_war") == "won"
    return False


def conquered_zones(state: State) -> list[str]:
    return [n for n, c in claims(state).items() if c.get("conquered")]


def claim_why_not(state: State, side: str, name: Any) -> Refusal | None:
    """Why ``side`` may not claim zone ``name`` now (43.2)."""
    su = claimant(state)
    if not politics.on(state.game):
        return Refusal(RULE, "this scenario fixes the political situation: no pre-war conquests")
    z = zone(state, name) if isinstance(name, str) else None
    if z is None:
        return Refusal(RULE, f"{name!r} is no pre-war conquest (" + ", ".join(x["name"] for x in zones(state)) + ")")
    if su not in invasion.commanded(state, side):
        return Refusal(RULE, f"{side} does not command the Soviet Union")
    if not invasion.open_now(state):
        return Refusal("ETO-39.0", "claims are announced in the Strategic Warfare, Naval and Air or Offensive phase")
    if not prewar(state):
        return Refusal(RULE, "the Soviet Union is at war with the Axis: pre-war conquests are over")
    if name in claims(state):
        return Refusal(RULE, f"{name} is already claimed")
    if not available(state, z):
        why = "Poland is conquered" if str(z.get("after", "")).startswith("conquered:") else "the Winter War is won (43.3)"
        return Refusal(RULE, f"{name} may be claimed only after {why}")
    n = z.get("nation")
    if n and not politics.neutral(state, n):
        return Refusal(RULE, f"{politics.nations(state)[n]['name']} is at war: it is no longer the USSR's to claim")
    if not n and (ctl.control(state)[mask(state, name)] == ctl.AXIS).any():
        return Refusal("ETO-43.6", f"Axis units hold part of {name}: entering it would invade the Axis")
    return None


def claim(state: State, name: str) -> None:
    """ETO-43.2: the claim opens the territory to Soviet units (a war of the two: it has no
    forces, its units stay out of play)."""
    ws = politics.writable(state)
    ws.setdefault("claims", {})[name] = {"turn": state.turn_label, "crossed": False}
    z = zone(state, name)
    if z and z.get("nation"):
        politics.open_war(state, claimant(state), z["nation"])
    holders.assign(state, mask(state, name), claimant(state))
    politics.record(state, invader=claimant(state), by="soviet", nation=z.get("nation") or name, joined="claimed")
    state.emit("claim", side=_side(state), rule=RULE, zone=name,
               text=f"the Soviet Union claims {name} (43.2): activated Soviet units make the first crossing")
    check(state)


def _side(state: State) -> str:
    for side, ns in state.game.scenario.sides.items():
        if claimant(state) in ns:
            return side
    return "allies"


def closed(state: State, unit: Unit) -> tuple[np.ndarray, str] | None:
    """Zones closed to ``unit`` (43.2): to Soviet units, unclaimed zones, and claimed ones not yet
    crossed unless the unit is activated for an offensive; to the Axis, every zone while the Axis
    and the USSR are at peace (a move in is an invasion of the USSR)."""
    if not politics.on(state.game):
        return None
    su = claimant(state)
    out = np.zeros(state.map.size, bool)
    if unit.nation == su:
        for z in zones(state):
            c = claims(state).get(z["name"])
            if c is None and prewar(state) and available(state, z):
                out |= mask(state, z["name"]) & ~home(state)
            elif c is not None and not c.get("crossed") and not unit.props.get("activated"):
                out |= mask(state, z["name"])
    elif politics.natural_partnership(state, unit.nation) == "axis" and prewar(state):
        for z in zones(state):
            if available(state, z) or z["name"] in claims(state):
                out |= mask(state, z["name"]) & (ctl.control(state) != ctl.AXIS)
    if not out.any():
        return None
    why = ("ETO-43.2: an Axis move into the Soviet Union's pre-war claims is an invasion of the USSR: announce it "
           "first (declare_war)") if unit.nation != su else \
        ("ETO-43.2: the territory is not claimed yet (claim_territory), or its first crossing needs units "
         "activated by a Soviet offensive")
    return out, why


def on_capture(state: State, unit: Unit, taken: np.ndarray) -> None:
    """``control.CAPTURE_HOOKS``: a Soviet unit entering a claimed zone crosses it and may
    complete its conquest."""
    if not politics.on(state.game) or unit.nation != claimant(state):
        return
    for name, c in claims(state).items():
        if not c.get("crossed") and mask(state, name)[taken].any():
            c["crossed"] = True
    check(state)


def check(state: State) -> None:
    """ETO-43.2: a claimed zone is conquered when Soviet units have captured each of its city and
    resource hexes (a zone with neither: when first entered)."""
    ta = terrain_arrays(state)
    ctrl = ctl.control(state)
    su = holders.code(state, claimant(state))
    held = (ctrl == ctl.SIDE_CODE[_side(state)]) & (holders.raw(state) == su)
    for name, c in claims(state).items():
        if c.get("conquered"):
            continue
        m = mask(state, name)
        keys = m & (ta.city | ta.city_resource | ta.resource)
        done = held[keys].all() if keys.any() else bool(c.get("crossed"))
        if done:
            conquer(state, name)


def conquer(state: State, name: str) -> None:
    """The zone is Soviet (43.5): its hexes Soviet-held, the minor (if a whole one) conquered."""
    c = politics.writable(state)["claims"][name]
    c["conquered"] = state.turn_label
    m = mask(state, name)
    ctl.control(state)[m] = ctl.SIDE_CODE[_side(state)]
    holders.assign(state, m, claimant(state))
    z = zone(state, name) or {}
    n = z.get("nation")
    if n:
        politics.writable(state).setdefault("conquered", {})[n] = claimant(state)
        for u in [u for u in state.units_by_id.values() if u.nation == n]:
            del state.units_by_id[u.id]  # "The territory has no forces"
    state.emit("prewar_conquest", side=_side(state), rule=RULE, zone=name,
               text=f"{name} is conquered by the Soviet Union (43.2): Soviet home country for replenishment, "
                    "construction and rail, 2 EPs a resource hex (43.5)")


def home(state: State, nation: str = "SU") -> np.ndarray:
    """ETO-43.5: the conquered pre-war areas (Soviet home country except for income)."""
    out = np.zeros(state.map.size, bool)
    if nation != claimant(state) or "politics" not in state.markers:
        return out
    for name in conquered_zones(state):
        out |= mask(state, name)
    return out


def _home_hook(state: State, nation: str) -> np.ndarray | None:
    if nation != claimant(state) or "politics" not in state.markers or not claims(state):
        return None
    h = home(state, nation)
    return h if h.any() else None


def initial_holders(state: State, arr: np.ndarray) -> None:
    """``holders.INITIAL_HOOKS``: the zones open to claims from the start belong to the Soviet
    sphere (an Axis move in invades the USSR, 43.2)."""
    if not politics.on(state.game) or not prewar(state):
        return
    for z in zones(state):
        if available(state, z) and (not z.get("nation") or politics.neutral(state, z["nation"])):
            arr[mask(state, z["name"]) & (ctl.control(state) != ctl.AXIS)] = holders.code(state, claimant(state))


def on_conquest(state: State, nation: str) -> None:
    """``conquest.CONQUEST_HOOKS``: when Poland falls before the USSR's war with Germany, eastern
    Poland's hexes not occupied by Axis land units pass to the Soviet sphere, neutral until
    claimed (ruling P23)."""
    if not politics.on(state.game) or not prewar(state):
        return
    for z in zones(state):
        if z.get("after") == f"conquered:{nation}":
            m = mask(state, z["name"]).copy()
            for u in state.units_by_id.values():
                if values.on_map(u) and values.is_land_unit(state, u) and u.side == "axis":
                    m[state.map.index(u.location)] = False
            ctl.control(state)[m] = ctl.NEUTRAL
            holders.assign(state, m, claimant(state))


def invaded_with(state: State, invader: str, victims: list[str]) -> list[str]:
    """``invasion.TOGETHER_HOOKS``: an Axis invasion of a Baltic State before the war with the USSR
    invades the USSR too (43.2)."""
    su = claimant(state)
    if politics.natural_partnership(state, invader) != "axis" or not prewar(state) or not politics.neutral(state, su):
        return []
    baltic = {z["nation"] for z in zones(state) if z.get("nation") and z["name"] not in claims(state)}
    return [su] if baltic & set(victims) else []


class ClaimOrder(OrderKind):
    """``{"kind": "claim_territory", "zone": name}`` (ETO-43.2)."""

    kind = "claim_territory"
    rule = RULE

    def in_game(self, game: Any) -> bool:
        return politics.on(game)

    def legal(self, state: State) -> list[dict[str, Any]]:
        d = state.decision
        if d is None:
            return []
        return [{"kind": self.kind, "zone": z["name"]} for z in zones(state)
                if claim_why_not(state, d.side, z["name"]) is None]

    def check(self, state: State, order: dict[str, Any]) -> None:
        d = state.decision
        if d is None:
            raise IllegalOrder(self.rule, "no decision is open")
        refuse(claim_why_not(state, d.side, order.get("zone")))

    def execute(self, state: State, order: dict[str, Any]) -> None:
        claim(state, str(order["zone"]))


if closed not in holders.CLOSED_HOOKS:
    holders.CLOSED_HOOKS.append(closed)
if on_capture not in ctl.CAPTURE_HOOKS:
    ctl.CAPTURE_HOOKS.append(on_capture)
if _home_hook not in ctl.HOME_HOOKS:
    ctl.HOME_HOOKS.append(_home_hook)
if initial_holders not in holders.INITIAL_HOOKS:
    holders.INITIAL_HOOKS.append(initial_holders)
if on_conquest not in conquest.CONQUEST_HOOKS:
    conquest.CONQUEST_HOOKS.append(on_conquest)
if invaded_with not in invasion.TOGETHER_HOOKS:
    invasion.TOGETHER_HOOKS.append(invaded_with)
