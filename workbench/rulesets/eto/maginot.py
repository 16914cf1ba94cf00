"""Dismantling the Maginot Line (ETO-40.5).

When France falls (conquered, or Vichy created) Germany claims six coastal fortification
markers, one a season "beginning the seasonal turn after the conquest": in the Construction
step of each of the next six seasonal turns the German player may place the season's marker
``{"kind": "place_maginot_fort", "hex": h}`` in a coastal hex from Hamburg to Bordeaux
(``tables/politics.toml [maginot]``).  It costs no EPs, is under construction (``building``)
and is completed as the next seasonal turn begins.  A season's marker not placed by the end of
its Construction step lapses, as its turn-track box passes (ruling).  After the sixth season the
Maginot Line's fortifications on the Franco-German border no longer exist: :func:`terrain.
terrain_arrays` drops them once ``state.markers["maginot"]["dismantled"]`` is set.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from workbench.engine.errors import IllegalOrder, Refusal, refuse
from workbench.engine.ruleset import OrderKind
from workbench.engine.state import State
from workbench.rulesets.eto import politics
from workbench.rulesets.eto.control import SIDE_CODE, control
from workbench.rulesets.eto.terrain import hex_lonlat, terrain_arrays

RULE = "ETO-40.5"
KEY = "maginot"  # state.markers: {"from": seasonal label, "seasons": [label, ...], "placed": {hex: label}, "dismantled"}


def _t(state: State) -> dict[str, Any]:
    return politics.table(state)["maginot"]


def record(state: State) -> dict[str, Any]:
    return state.markers.get(KEY) or {}


def france_fallen(state: State) -> bool:
    ws = politics.war_state(state)
    return _t(state)["france"] in ws.get("conquered", {}) or bool(ws.get("vichy"))


def coast(state: State) -> np.ndarray:
    """The coastal land hexes from Hamburg to Bordeaux (authored bounds: west of Hamburg, between
    the two cities' latitudes, in the countries of that coast)."""
    def make() -> np.ndarray:
        t = _t(state)
        hm = state.map
        ta = terrain_arrays(state)
        lon, lat = hex_lonlat(state)
        a, b = hm.index(hm.hex_of(t["coast_from"])), hm.index(hm.hex_of(t["coast_to"]))
        return ta.coastal & ta.land & np.isin(ta.country, t["coast_countries"]) & (lon <= lon[a] + 1e-9) \
            & (lat >= lat[b] - 1e-9) & (lat <= lat[a] + 1e-9)
    return state.game.cached(("eto.maginot.coast",), make)


def seasonal(state: State, _step: Any = None) -> None:
    """A seasonal turn begins: last season's marker is completed; France's fall (in the turns
    before) opens the six seasons; after the sixth the line is gone."""
    if not politics.on(state.game):
        return
    forts = state.markers.get("forts", {})
    for h, m in sorted(forts.items()):
        if m.get("rule") == RULE and m.get("building") and m.get("turn") != state.turn_label:
            forts[h] = {k: v for k, v in m.items() if k != "building"}
            state.emit("fort_completed", side="axis", rule=RULE, hex=h,
                       text=f"the coastal fortification at {h} is completed (40.5)")
    rec = record(state)
    if not rec and france_fallen(state):
        state.markers[KEY] = {"from": state.turn_label, "seasons": [], "placed": {}}
        state.emit("maginot", side="axis", rule=RULE,
                   text=f"France has fallen: Germany claims {_t(state)['markers']} coastal fortification markers "
                        "from the Maginot Line, one a season from this seasonal turn (40.5)")


def _maybe_dismantle(state: State) -> None:
    """After the sixth season's marker the line is gone ("When all have been placed")."""
    rec = record(state)
    if rec and not rec.get("dismantled") and len(rec["seasons"]) >= int(_t(state)["markers"]):
        state.markers[KEY] = {**rec, "dismantled": state.turn_label}
        state.emit("maginot", side="axis", rule=RULE,
                   text=f"the last of the {_t(state)['markers']} coastal fortification markers is placed: the "
                        "Maginot Line fortifications along the Franco-German border no longer exist (40.5)")


def season_open(state: State) -> bool:
    """This seasonal turn has a marker to place (one of the six, not yet placed or lapsed)."""
    rec = record(state)
    return bool(rec) and state.turn_label[5:].isalpha() and state.turn_label not in rec["seasons"] \
        and len(rec["seasons"]) < int(_t(state)["markers"])


def end_construction(state: State, _step: Any = None) -> None:
    """The end of the Construction step: a marker not placed this season lapses (ruling)."""
    if not season_open(state):
        return
    rec = record(state)
    state.markers[KEY] = {**rec, "seasons": [*rec["seasons"], state.turn_label]}
    state.emit("maginot", side="axis", rule=RULE,
               text=f"no coastal fortification placed this season: marker {len(rec['seasons']) + 1} of "
                    f"{_t(state)['markers']} lapses (40.5)")
    _maybe_dismantle(state)


def place_why_not(state: State, side: str, label: Any) -> Refusal | None:
    """Why ``side`` may not place this season's marker in ``label``."""
    if side != "axis" or not record(state):
        return Refusal(RULE, "only the German player places coastal fortifications, once France has fallen")
    if not season_open(state):
        return Refusal(RULE, "one coastal fortification a season, six in all, from the seasonal turn after "
                       "France's fall")
    hm = state.map
    if not isinstance(label, str) or not hm.has_hex(label):
        return Refusal(RULE, f"{label!r} is not a hex")
    i = hm.index(label)
    if not coast(state)[i]:
        return Refusal(RULE, f"{label} is not a coastal hex from {_t(state)['coast_from']} to {_t(state)['coast_to']}")
    if control(state)[i] != SIDE_CODE["axis"]:
        return Refusal(RULE, f"{label} is not Axis-controlled")
    if label in state.markers.get("forts", {}):
        return Refusal(RULE, f"{label} already has a fortification or airfield marker")
    return None


class PlaceMaginotFortOrder(OrderKind):
    """``{"kind": "place_maginot_fort", "hex": h}`` (ETO-40.5), in the Construction step."""

    kind = "place_maginot_fort"
    rule = RULE

    def in_game(self, game: Any) -> bool:
        return politics.on(game)

    def legal(self, state: State) -> list[dict[str, Any]]:
        d = state.decision
        if d is None or d.side != "axis" or not season_open(state):
            return []
        hm = state.map
        ok = coast(state) & (control(state) == SIDE_CODE["axis"])
        taken = state.markers.get("forts", {})
        return [{"kind": self.kind, "hex": hm.label(int(i))} for i in np.flatnonzero(ok)
                if hm.label(int(i)) not in taken]

    def check(self, state: State, order: dict[str, Any]) -> None:
        d = state.decision
        if d is None:
            raise IllegalOrder(RULE, "no decision is open")
        refuse(place_why_not(state, d.side, order.get("hex")))

    def execute(self, state: State, order: dict[str, Any]) -> None:
        h = order["hex"]
        rec = record(state)
        state.markers.setdefault("forts", {})[h] = {"kind": _t(state)["kind"], "side": "axis", "building": True,
                                                    "turn": state.turn_label, "rule": RULE}
        state.markers[KEY] = {**rec, "seasons": [*rec["seasons"], state.turn_label],
                              "placed": {**rec["placed"], h: state.turn_label}}
        state.emit("fort_placed", side="axis", rule=RULE, hex=h,
                   text=f"coastal fortification {len(rec['seasons']) + 1} of {_t(state)['markers']} placed at {h}, "
                        "under construction until next season, no EP cost (40.5)")
        _maybe_dismantle(state)
