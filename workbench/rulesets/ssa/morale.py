"""National morale (optional rule SSA-21): levels, the cap, changes, fanaticism, surrender.

The track is ``state.tracks["<side>.morale"]`` (SSA-21.1, set by the scenario).  Numbers live
in ``tables/morale.toml``: the levels (21.2), the cap (21.3), fanaticism (21.5), the authored
surrender rule (21.6, gap G-13) and ``[changes]``, the morale changes the kernel applies.

* :func:`change` moves a track (capped at 100, no floor: 20.4 "zero or less") and checks
  automatic victory at once (SSA-20.4, 21.4d) when rule 21 is on.  Printed changes
  (the surprise attack, 30.2d; the assassination plot, 25.3) are applied whenever the scenario
  keeps a track, as the war-events module does; the authored changes below need rule 21.
* Losses (authored): every own division-equivalent eliminated costs 1 (brigades count 1/3
  and carry over until a whole division is lost), every naval unit 1 (:func:`note_elimination`,
  settled as each step closes by :func:`settle_losses`).
* Cities (authored): an own industrial hex lost -2, regained +1; a capital lost -10, regained +5;
  each new atrocity +1 to the Allies (:func:`city_changes`); an own city strategically bombed -1
  (:func:`city_bombed`).
* Fanaticism (21.5): an attacker at High morale may add ``"fanatic": true`` to an attack
  order (AR becomes EX); a defender at High morale is asked before the die is rolled
  (interrupt ``fanaticism``, order ``declare_fanaticism``; DR becomes EX).
* Surrender (21.6, authored): at Poor morale, a defending land unit out of supply that must
  retreat after DR or DE surrenders (is eliminated) instead.
"""

from __future__ import annotations

from typing import Any

from workbench.engine.errors import IllegalOrder
from workbench.engine.ruleset import OrderKind
from workbench.engine.state import State
from workbench.engine.units import Unit
from workbench.rulesets.ssa import values
from workbench.rulesets.ssa.subversion import morale_level

RULE = "SSA-21"
#: Where eliminations not yet turned into whole morale points wait (thirds of a division).
LOSSES = "morale_losses"
#: The side that held each industrial city and capital at the start (whose it is to lose / regain).
HOME = "morale_home_cities"


def rule_on(state: State) -> bool:
    """Whether optional rule SSA-21 is switched on for this game."""
    return RULE in state.game.options.get("optional_rules", [])


def level(state: State, side: str) -> str | None:
    """SSA-21.2: ``"high"`` (67-100), ``"average"`` (34-66), ``"poor"`` (1-33) or
    ``"capitulation"`` (0 or less); ``None`` if the scenario keeps no track."""
    return morale_level(state, side)


def table(state: State) -> dict[str, Any]:
    return state.ruleset.tables["morale"]


def change(state: State, side: str, delta: float, rule: str, why: str) -> float | None:
    """SSA-21.1, 21.3: move ``side``'s morale by ``delta``, never above the cap (100); log it;
    check automatic victory at once (SSA-20.4, 21.4d).  ``None`` if the scenario keeps no track."""
    key = f"{side}.morale"
    if key not in state.tracks or not delta:
        return None
    before = float(state.tracks[key])
    after = min(before + delta, float(table(state)["cap"]))
    state.tracks[key] = int(after) if after.is_integer() else after
    capped = " (capped at 100, SSA-21.3)" if before + delta > after else ""
    state.emit("morale", side=side, rule=rule, delta=delta, before=before, after=after,
               text=f"{side} morale {before:g} {delta:+g} = {after:g}{capped}: {why}")
    if state.result is None:
        from workbench.rulesets.ssa.victory import automatic_victory

        automatic_victory(state)
    if side == "axis":
        from workbench.rulesets.ssa.italians import withdraw_if_poor

        withdraw_if_poor(state)  # SSA-22.12b: "immediately"
    return after


# -- losses -----------------------------------------------------------------------------------
def note_elimination(state: State, unit: Unit, start: str) -> None:
    """SSA-21 (authored, G-13): remember an own land unit's division-equivalents (in thirds) or a
    naval unit eliminated from play, to be charged when the step closes."""
    if not rule_on(state) or start in ("unplaced", "Force pool", "Eliminated") \
            or f"{unit.side}.morale" not in state.tracks:
        return
    dom = values.domain(state, unit)
    if dom == "land" and not values.is_leader(state, unit):
        thirds = int(values.division_equivalents(state, unit) * 3)
    elif dom == "naval":
        thirds = 3
    else:
        return
    if thirds:
        book = state.markers.setdefault(LOSSES, {})
        book[unit.side] = int(book.get(unit.side, 0)) + thirds


def settle_losses(state: State) -> None:
    """SSA-21 (authored, G-13): each whole division-equivalent (or fleet) eliminated costs its
    owner 1 morale; a remainder of thirds waits for more losses."""
    book = state.markers.get(LOSSES)
    if not book:
        return
    delta = table(state)["changes"]["land_division_eliminated"]["delta"]
    for side in sorted(book):
        whole, rest = divmod(int(book[side]), 3)
        book[side] = rest
        if whole and state.result is None:
            change(state, side, whole * delta, "SSA-21", f"{whole} division-equivalent(s) or fleet(s) eliminated")


# -- cities -----------------------------------------------------------------------------------
def _scored_cities(state: State) -> dict[str, str]:
    """Label -> ``"capital"`` or ``"industrial"`` for the cities whose loss moves morale."""
    hm = state.map

    def compute() -> dict[str, str]:
        out: dict[str, str] = {}
        kinds = hm.hexes["city_kind"].to_list() if "city_kind" in hm.hexes.columns else [None] * hm.size
        caps = hm.hexes["capital"].to_list() if "capital" in hm.hexes.columns else [None] * hm.size
        for i, (k, c) in enumerate(zip(kinds, caps, strict=True)):
            if c:
                out[hm.label(i)] = "capital"
            elif k == "industrial":
                out[hm.label(i)] = "industrial"
        return out

    return hm.cached("ssa.morale_cities", compute)


def remember_home_cities(state: State) -> None:
    """Record who holds each industrial city and capital at the start (SSA-17.1)."""
    from workbench.rulesets.ssa.occupation import city_owner

    if not rule_on(state):
        return
    state.markers[HOME] = {lab: city_owner(state, state.map.index(lab)) for lab in _scored_cities(state)}


def snapshot(state: State) -> tuple[dict[str, Any], list[str]]:
    """City owners and atrocity markers now, for :func:`city_changes`."""
    return dict(state.markers.get("city_control", {})), list(state.markers.get("atrocity", []))


def city_changes(state: State, before: tuple[dict[str, Any], list[str]]) -> None:
    """SSA-21 (authored, G-13): an own industrial hex lost to the enemy -2, regained +1; an own
    capital lost -10, regained +5; each new atrocity marker +1 to the Allies."""
    if not rule_on(state) or state.result is not None:
        return
    owners_before, atrocities_before = before
    owners_now = state.markers.get("city_control", {})
    home = state.markers.get(HOME, {})
    ch = table(state)["changes"]
    for label, kind in _scored_cities(state).items():
        old, new = owners_before.get(label), owners_now.get(label)
        own = home.get(label)
        if old == new or own is None:
            continue
        if old == own and new not in (None, own):
            change(state, own, ch[f"{kind}_lost"]["delta"], "SSA-21", f"{kind} {label} lost to the enemy")
        elif new == own:
            change(state, own, ch[f"{kind}_regained"]["delta"], "SSA-21", f"{kind} {label} regained")
    new_atrocities = sorted(set(state.markers.get("atrocity", [])) - set(atrocities_before))
    if new_atrocities:
        spec = ch["atrocity"]
        change(state, spec["side"], spec["delta"] * len(new_atrocities), "SSA-21",
               f"atrocity at {', '.join(new_atrocities)}")


def city_bombed(state: State, target: str) -> None:
    """SSA-21 (authored, G-13): a side whose city is strategically bombed loses 1 morale."""
    from workbench.rulesets.ssa.occupation import city_owner

    if not rule_on(state):
        return
    i = state.map.index(target)
    kinds = state.map.hexes["city_kind"] if "city_kind" in state.map.hexes.columns else None
    if kinds is None or not kinds[i]:
        return
    owner = city_owner(state, i)
    if owner:
        change(state, owner, table(state)["changes"]["city_bombed"]["delta"], "SSA-21", f"{target} strategically bombed")


# -- fanaticism (21.5) ------------------------------------------------------------------------
def may_be_fanatic(state: State, side: str) -> bool:
    """SSA-21.4a(1), 21.5: fanatic attacks and defences need High morale (67-100)."""
    return rule_on(state) and level(state, side) == "high"


def fanatic_refusal(state: State, side: str) -> IllegalOrder | None:
    """SSA-21.5: why ``side`` may not declare fanaticism now, or None."""
    if not rule_on(state):
        return IllegalOrder("SSA-21.5", "fanaticism belongs to the national morale rule (optional rule 21), "
                            "which this game does not use")
    if level(state, side) != "high":
        now = state.tracks.get(f"{side}.morale")
        return IllegalOrder("SSA-21.5", f"fanaticism needs High national morale (67-100); {side} morale is {now}")
    return None


def fanatic_result(state: State, result: str, attacker: bool, defender: bool) -> str:
    """SSA-21.5d-e: a fanatic attacker turns AR into EX, a fanatic defender DR into EX
    (morale.toml [fanaticism])."""
    fan = table(state)["fanaticism"]
    if attacker and result in fan["attacker"]:
        return fan["attacker"][result]
    if defender and result in fan["defender"]:
        return fan["defender"][result]
    return result


class DeclareFanaticismOrder(OrderKind):
    """SSA-21.5b-c, e: the defender at High morale declares fanaticism (or not) for one combat,
    before the die is rolled; the combat is then resolved."""

    kind = "declare_fanaticism"
    rule = "SSA-21.5"

    def legal(self, state: State) -> list[dict[str, Any]]:
        return [{"kind": self.kind, "declare": True}, {"kind": self.kind, "declare": False}]

    def check(self, state: State, order: dict[str, Any]) -> None:
        if not isinstance(order.get("declare"), bool):
            raise IllegalOrder(self.rule, "say whether you declare fanaticism: 'declare' true or false")

    def execute(self, state: State, order: dict[str, Any]) -> None:
        f = state.pop_interrupt()
        from workbench.rulesets.ssa.combat import resolve

        resolve(state, f["data"]["attack"], bool(f["data"]["attacker_fanatic"]), order["declare"])


# -- surrender (21.6) -------------------------------------------------------------------------
def surrendering(state: State, side: str, ids: list[str]) -> list[str]:
    """SSA-21.6 (authored, G-13): ``side``'s defenders among ``ids`` that surrender instead of
    retreating: at Poor morale, those out of supply."""
    if not rule_on(state) or level(state, side) != "poor" or not table(state)["surrender"]:
        return []
    from workbench.rulesets.ssa.supply import supply_status

    status = supply_status(state, side)
    return [u for u in ids if state.unit(u).location.isdigit() and not status.get(u, False)
            and values.is_land(state, state.unit(u))]
