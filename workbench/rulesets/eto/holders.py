"""Which nation holds each hex, and who may enter it (ETO-39.1, 42.5, 43.2, 43.6).

Control (24.4, :mod:`control`) is two-sided: a hex is Axis, Allied or neutral.  The politics of
the campaign need more: a neutral USSR's hexes are not Britain's to enter, nor Germany's (43.6:
"any move by one nation's unit into a hex controlled by the other nation is an invasion"); a
neutral Finland fights the Winter War alone (43.3).  So games that play politics also keep, per
hex, the *nation* holding it: its own country's at the start, the capturing unit's nation when
a land unit takes it (``control.CAPTURE_HOOKS``).  Where a bulk change of control (conquest,
fronts, Vichy) left a holder on the wrong side, the country's own nation, or the side's first
major, holds it (:func:`holders`).

A unit may enter a hex held by its own nation, by a partner, or by a nation it is at war with
(a capture); every other hex is closed: entering it is an invasion, announced first (39.2).
"""

from __future__ import annotations

import numpy as np

from workbench.engine.state import State
from workbench.engine.units import Unit
from workbench.rulesets.eto import control as ctl
from workbench.rulesets.eto import politics
from workbench.rulesets.eto.terrain import terrain_arrays

KEY = "holder"


def codes(state: State) -> list[str]:
    """Nation codes by holder number (0: nobody, the open sea)."""
    return state.game.cached("eto.holder.codes", lambda: ["", *sorted(politics.nations(state))])


def code(state: State, nation: str) -> int:
    return codes(state).index(nation)


def _country_holders(state: State) -> np.ndarray:
    """Each land hex's own nation: the nation whose home country or colony it is (0: none)."""
    def make() -> np.ndarray:
        ta = terrain_arrays(state)
        out = np.zeros(state.map.size, dtype=np.int16)
        for n in codes(state)[1:]:
            cs = politics.countries(state, n)
            if cs:
                out[np.isin(ta.country, cs) & ta.land & (out == 0)] = code(state, n)
        return out
    return state.game.cached("eto.holder.country", make)


def raw(state: State) -> np.ndarray:
    """The stored holders (made from the countries and the scenario's start on first use)."""
    arr = state.arrays.get(KEY)
    if arr is None:
        arr = _country_holders(state).copy()
        for reg, mask in ctl.region_masks(state):  # 1939-40 annexations: the region's home nation
            if reg.get("home") in codes(state):
                arr[mask] = code(state, str(reg["home"]))
        for hook in INITIAL_HOOKS:
            hook(state, arr)
        state.arrays[KEY] = arr
    return arr


#: ``f(state, holders)`` adjusting the start (43.2: the Soviet sphere registers here).
INITIAL_HOOKS: list = []


def _side_codes(state: State) -> np.ndarray:
    """Per holder number, the control codes consistent with it: a belligerent's side only; a
    neutral's hexes may be neutral or held for it by either player (a neutral USSR's hexes are
    Allied-controlled in a scenario that says so; a Finland fighting the Winter War alone, 43.3)."""
    out = np.zeros((len(codes(state)), 3), dtype=bool)
    for i, n in enumerate(codes(state)):
        s = politics.side_of(state, n)
        if s is None:
            out[i, :] = True
        else:
            out[i, ctl.SIDE_CODE[s]] = True
    return out


def assign(state: State, where: np.ndarray, nation: str) -> None:
    """Give the hexes ``where`` (a mask or indices) to ``nation``; every writer goes through here so
    that :func:`holders` is recomputed (``markers["holder_rev"]``)."""
    raw(state)[where] = code(state, nation)
    state.markers["holder_rev"] = int(state.markers.get("holder_rev", 0)) + 1


def holders(state: State) -> np.ndarray:
    """``int16[N]``: the holder number of each hex (see :func:`codes`), consistent with control."""
    def make() -> np.ndarray:
        arr = raw(state)
        ctrl = ctl.control(state)
        ok = _side_codes(state)
        bad = ~ok[arr, ctrl]
        if bad.any():
            own = _country_holders(state)
            fix = np.where(ok[own, ctrl], own, 0).astype(np.int16)
            default = politics.table(state)["holders"]["default"]
            for side, n in default.items():
                fix[(fix == 0) & (ctrl == ctl.SIDE_CODE[side])] = code(state, n)
            arr = arr.copy()
            arr[bad] = fix[bad]
        return arr
    return state.derived(("eto.holders",), make, state.event_stamp, state.markers.get("holder_rev", 0))


def holder_at(state: State, index: int) -> str | None:
    n = codes(state)[int(holders(state)[index])]
    return n or None


def may_enter_nations(state: State, nation: str) -> np.ndarray:
    """``bool[codes]``: whose hexes ``nation``'s units may enter: their own, a partner's, an
    enemy's (a capture), and under 42.5 the other Allied partnership's once both fight the Axis."""
    def make() -> np.ndarray:
        cs = codes(state)
        out = np.zeros(len(cs), dtype=bool)
        out[0] = True
        mine = politics.partnership(state, nation)
        for i, n in enumerate(cs[1:], start=1):
            theirs = politics.partnership(state, n)
            out[i] = (n == nation or (mine is not None and mine == theirs) or politics.at_war(state, nation, n)
                      or _cooperating(state, mine, theirs))
        return out
    return state.derived(("eto.holders.may_enter", nation), make, _war_stamp(state))


def _war_stamp(state: State) -> str:
    ws = politics.war_state(state)
    return repr((sorted(ws["members"].items()), ws["fronts"], ws["wars"]))


def _cooperating(state: State, a: str | None, b: str | None) -> bool:
    """42.5: the Western Allies and the USSR, both at war with the Axis."""
    if a is None or b is None:
        return False
    t = politics.table(state)["cooperation"]
    return frozenset((a, b)) in {frozenset(p) for p in t["apart_partnerships"]} \
        and politics.front_open(state, "axis", a) and politics.front_open(state, "axis", b)


#: ``f(state, unit) -> (mask, reason) | None``: hexes more rules close to a unit (43.2's claims,
#: 43.3's temporary border), with the plain words of the refusal.
CLOSED_HOOKS: list = []


def closed(state: State, unit: Unit) -> np.ndarray:
    """``bool[N]``: land hexes closed to ``unit`` because their holder is neither its nation, a
    partner, nor an enemy (39.1, 42.5, 43.6), or by :data:`CLOSED_HOOKS`."""
    ok = may_enter_nations(state, unit.nation)
    out = ~ok[holders(state)] & terrain_arrays(state).land
    for hook in OPEN_HOOKS:  # 47.2: German and Soviet units meet inside the country the USSR invaded
        more = hook(state, unit)
        if more is not None:
            out = out & ~more
    for hook in CLOSED_HOOKS:
        more = hook(state, unit)
        if more is not None:
            out = out | more[0]
    return out


#: ``f(state, unit) -> mask | None``: hexes open to ``unit`` whoever holds them (47.2's limited war).
OPEN_HOOKS: list = []
#: ``f(state, unit, path, reach) -> Refusal | None``: more reasons a land move is refused, ``reach()``
#: giving the unit's reachable hexes (40.4: units leave Vichy territory as soon as possible).
MOVE_CHECKS: list = []


def capture(state: State, unit: Unit, taken: np.ndarray) -> None:
    """``control.CAPTURE_HOOKS``: the hexes a land unit took are its nation's (24.4)."""
    if politics.on(state.game):
        assign(state, taken, unit.nation)


def why_closed(state: State, unit: Unit, index: int) -> str:
    """Plain words for a hex :func:`closed` shuts."""
    for hook in CLOSED_HOOKS:
        more = hook(state, unit)
        if more is not None and more[0][index]:
            return more[1]
    n = holder_at(state, index)
    name = politics.nations(state).get(n or "", {}).get("name", n)
    me = politics.nations(state).get(unit.nation, {}).get("name", unit.nation)
    return (f"the hex is held by {name}, with which {me} is not at war: entering it is an invasion -- "
            f"announce it first (ETO-39.2, declare_war)")


if capture not in ctl.CAPTURE_HOOKS:
    ctl.CAPTURE_HOOKS.append(capture)


def enemy_zoc(state: State, unit: Unit) -> np.ndarray | None:
    """The ZOC that stops ``unit`` when some units of the other side belong to nations it is not
    at war with (a neutral USSR's army on the border, 43.6): only its enemies' ZOCs count; ``None``
    when every one of them is an enemy (the plain side's ZOC applies)."""
    from workbench.rulesets.eto import values
    from workbench.rulesets.eto.zoc import zoc_of_nations

    other = values.other(unit.side)

    def make() -> tuple[str, ...] | None:
        present = sorted({u.nation for u in state.units_by_id.values() if u.side == other and values.on_map(u)})
        enemies = tuple(n for n in present if politics.at_war(state, unit.nation, n))
        return None if len(enemies) == len(present) else enemies

    enemies = state.derived(("eto.holders.enemies", unit.nation, other), make, state.event_stamp)
    return None if enemies is None else zoc_of_nations(state, other, enemies)
