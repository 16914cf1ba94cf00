"""Activation of Spain and Turkey (optional ahistorical rules ETO-47.3, 47.4).

In the seasonal Activation step either player may try, once per country per seasonal turn,
to bring a neutral Spain or Turkey in as a minor partner: ``{"kind": "attempt_activation",
"nation": "SP", "payer": "GE"}`` pays 4 EPs; the two dice are rolled as the step ends
(:func:`resolve`), once both sides have bought their modifiers.  Modifiers move each side's
*target number*, not the roll (inventory §3.48): the Axis activates on a roll of at most
2 + its modifiers, the Allies on at least 13 (Turkey 12) - theirs.  A 7 never activates; a roll
that would activate for both is rolled again.

Modifiers, bought or earned before the roll:

* ``{"kind": "buy_activation_modifier", "nation": "SP", "payer": "UK"}``: the next ±1 of the
  payer's partnership, 4 EPs for the first, 6 more for the second, 8 more for the third ...; the
  track may go below 0 by as much as the payer's base income (47.3's exception to the ban on
  deficit spending, ruling);
* ±1 per two (Turkey three) land units adjacent to the country for the entire preceding season,
  named a season ahead with ``{"kind": "declare_adjacent", "nation": "SP", "units": [ids]}``: a
  declaration made in one seasonal turn counts at the next one for the units that stood next
  to the country at the end of every monthly turn between (:func:`month_end`).

Spain joins the Western Allies on an Allied result; Turkey rolls 39.3's die when the USSR
fights the Axis (1-3 Western Allies, 4-6 Soviet).  The country's units are placed at once and
its major gets 35.0's bonus EPs in this turn's Income phase.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from workbench.engine.errors import IllegalOrder, Refusal, refuse
from workbench.engine.ruleset import OrderKind
from workbench.engine.state import State
from workbench.rulesets.eto import invasion, politics, values
from workbench.rulesets.eto.terrain import terrain_arrays

RULES = {"SP": "ETO-47.3", "TU": "ETO-47.4"}
KEY = "neutral_activation"  # war-state key: per country, this season's modifiers and the declarations


def _t(state: State) -> dict[str, Any]:
    return politics.table(state)[KEY]


def _row(state: State, nation: str) -> dict[str, Any]:
    return _t(state)[nation]


def played(state: State, nation: str) -> bool:
    return nation in RULES and politics.on(state.game) and state.game.optional_rule(RULES[nation]) \
        and nation in politics.nations(state)


def _record(state: State, nation: str) -> dict[str, Any]:
    return politics.war_state(state).get(KEY, {}).get(nation, {})


def _writable(state: State, nation: str) -> dict[str, Any]:
    return politics.writable(state).setdefault(KEY, {}).setdefault(nation, {})


def partnership_of_payer(state: State, nation: str, payer: str) -> str | None:
    """Which way a major's EPs push: "axis" or "allied" (None: it may not pay for this country)."""
    row = _row(state, nation)
    if payer in row["axis_payers"]:
        return "axis"
    if payer in row["allied_payers"]:
        return "allied"
    return None


def _side_of(way: str) -> str:
    return "axis" if way == "axis" else "allies"


def adjacent_mask(state: State, nation: str) -> np.ndarray:
    """Hexes next to the country but outside it."""
    hm = state.map
    land = politics.territory(state, nation)
    near = np.zeros(hm.size, dtype=bool)
    for i in np.flatnonzero(land):
        row = hm.neighbors[i]
        near[row[row >= 0]] = True
    return near & ~land & terrain_arrays(state).land


def adjacent_units(state: State, nation: str, side: str) -> list[str]:
    """The side's land units adjacent to the country now."""
    near = adjacent_mask(state, nation)
    hm = state.map
    return sorted(u.id for u in state.units_by_id.values() if u.side == side and values.on_map(u)
                  and values.is_combat_unit(state, u) and near[hm.index(u.location)])


def _previous_season(label: str) -> str:
    from workbench.rulesets.eto.construction import season_after

    return season_after(label, -1)


def unit_modifier(state: State, nation: str, side: str) -> tuple[int, int]:
    """(modifier, units counted): the side's units declared at the last seasonal turn that stayed
    adjacent all season, one modifier per two (Turkey three)."""
    n = len(_record(state, nation).get("declared", {}).get(side, {}).get(_previous_season(state.turn_label), []))
    return n // int(_row(state, nation)["units_per_modifier"]), n


def modifier_cost(state: State, k: int) -> int:
    """47.3: the ``k``-th ±1 (from 1): 4, then 6 more, then 8 more ..."""
    t = _t(state)
    return int(t["first_modifier_cost"]) + int(t["modifier_cost_increase"]) * (k - 1)


def bought(state: State, nation: str, way: str) -> int:
    rec = _record(state, nation)
    return int(rec.get("bought", {}).get(way, 0)) if rec.get("turn") == state.turn_label else 0


def _may_spend(state: State, payer: str, cost: int) -> bool:
    """47.3: the EPs may come out of the income due next step: the track may go below 0 by as
    much as the payer's base income (ruling)."""
    base = int(state.tracks.get(f"{payer}.income_base",
                                state.ruleset.tables["income"]["base"].get(payer, {}).get("eps", 0)) or 0)
    return int(state.tracks.get(f"{payer}.eps", 0)) + base >= cost


def thresholds(state: State, nation: str) -> tuple[int, int, list[str]]:
    """(Axis activates at most on, Allies at least on, words): the base numbers moved by both
    sides' bought and unit modifiers."""
    row = _row(state, nation)
    words = []
    ax_units, n_ax = unit_modifier(state, nation, "axis")
    al_units, n_al = unit_modifier(state, nation, "allies")
    ax = bought(state, nation, "axis") + ax_units
    al = bought(state, nation, "allied") + al_units
    if ax:
        words.append(f"Axis -{ax} ({bought(state, nation, 'axis')} bought, {n_ax} units adjacent)")
    if al:
        words.append(f"Allies +{al} ({bought(state, nation, 'allied')} bought, {n_al} units adjacent)")
    return int(row["axis_at_most"]) + ax, int(row["allied_at_least"]) - al, words


def why_not(state: State, side: str, nation: str, payer: str | None = None) -> Refusal | None:
    """Why ``side`` may not act on ``nation``'s activation now (47.3, 47.4)."""
    rule = RULES.get(nation, "ETO-47.3")
    if nation not in RULES:
        return Refusal(rule, f"{nation!r}: only Spain (SP) and Turkey (TU) are activated this way")
    if not played(state, nation):
        return Refusal(rule, f"the activation of {'Spain' if nation == 'SP' else 'Turkey'} is an optional "
                       "rule this game does not play")
    name = politics.nations(state)[nation]["name"]
    if not politics.neutral(state, nation):
        return Refusal(rule, f"{name} is no longer neutral")
    key = state.step.key if state.step else ""
    if not key.endswith("partner-activation"):
        return Refusal(rule, f"{name} is activated only in the Activation step of a seasonal turn")
    if payer is not None:
        way = partnership_of_payer(state, nation, payer)
        if way is None or _side_of(way) != side or payer not in state.game.scenario.sides.get(side, []):
            return Refusal(rule, f"{payer} cannot pay for {name}'s activation on the {side} side")
        if payer in politics.war_state(state).get("conquered", {}):
            return Refusal(rule, f"{payer} has been conquered")
    return None


def buy_why_not(state: State, side: str, nation: str, payer: str) -> Refusal | None:
    why = why_not(state, side, nation, payer)
    if why:
        return why
    way = partnership_of_payer(state, nation, payer) or "axis"
    k = bought(state, nation, way) + 1
    if k > int(_t(state)["max_modifiers"]):
        return Refusal(RULES[nation], f"{k - 1} modifiers bought already: more cannot change the roll")
    cost = modifier_cost(state, k)
    if not _may_spend(state, payer, cost):
        return Refusal(RULES[nation], f"modifier {k} costs {cost} EPs, more than {payer} has with next income")
    return None


def attempt_why_not(state: State, side: str, nation: str, payer: str) -> Refusal | None:
    why = why_not(state, side, nation, payer)
    if why:
        return why
    if state.turn_label in _record(state, nation).get("tried", []):
        return Refusal(RULES[nation], f"{politics.nations(state)[nation]['name']} has already been tried for this "
                       "seasonal turn")
    cost = int(_t(state)["attempt_cost"])
    if not _may_spend(state, payer, cost):
        return Refusal(RULES[nation], f"an attempt costs {cost} EPs, more than {payer} has with next income")
    return None


def declare_why_not(state: State, side: str, nation: str, units: Any) -> Refusal | None:
    why = why_not(state, side, nation)
    if why:
        return why
    if not isinstance(units, list) or not units or not all(isinstance(u, str) for u in units):
        return Refusal(RULES[nation], "name the land units adjacent to the country")
    near = set(adjacent_units(state, nation, side))
    off = [u for u in units if u not in near]
    if off:
        return Refusal(RULES[nation], f"{off[0]} is not a {side} land unit adjacent to "
                       f"{politics.nations(state)[nation]['name']}")
    return None


def _pay(state: State, payer: str, cost: int, rule: str, what: str) -> None:
    state.tracks[f"{payer}.eps"] = int(state.tracks.get(f"{payer}.eps", 0)) - cost
    state.emit("eps_spent", side=politics.side_of(state, payer), rule=rule, nation=payer, eps=cost,
               text=f"{payer} pays {cost} EPs for {what}")


def activate(state: State, nation: str, way: str, words: str) -> None:
    """The country joins a partnership: its units on the map at once, 35.0's bonus EPs."""
    row = _row(state, nation)
    axis_major = row["axis_payers"][0]
    if way == "axis":
        p = "axis"
    elif row["allied_partnership"] == "39.3":
        p = invasion.joins(state, axis_major, nation)  # 39.3's die while the USSR fights the Axis
    else:
        p = str(row["allied_partnership"])
    politics.join(state, nation, p)
    politics.record(state, invader="", by=p, nation=nation, joined=p, how="activation")
    placed = invasion.deploy(state, nation)
    bonus_to = {"axis": axis_major, "western": "UK", "soviet": "SU"}[p]
    ta = terrain_arrays(state)
    n_res = int((politics.territory(state, nation) & (ta.resource | ta.city_resource)).sum())
    bonus = n_res * int(politics.table(state)["activation"]["bonus_per_resource_hex"])
    key = f"{bonus_to}.activation_bonus"
    state.tracks[key] = int(state.tracks.get(key, 0)) + bonus
    name = politics.nations(state)[nation]["name"]
    who = {"axis": "an Axis", "western": "a Western Allies", "soviet": "a Soviet"}[p]
    state.emit("activated", side=politics.side_of(state, nation), rule=RULES[nation], nation=nation,
               text=f"{name} activated ({words}): {who} minor partner; {len(placed)} units placed; "
                    f"+{bonus} EPs to {bonus_to} this Income phase ({n_res} resource hexes)")


def roll(state: State, nation: str) -> None:
    """Two dice against both target numbers; 7 does nothing; a roll good for both is rolled again."""
    t = _t(state)
    rule = RULES[nation]
    name = politics.nations(state)[nation]["name"]
    ax, al, mods = thresholds(state, nation)
    note = f"Axis on {ax} or less, Allies on {al} or more" + (f" ({'; '.join(mods)})" if mods else "")
    for _ in range(int(t["max_rerolls"])):
        dice = state.roll(int(t["dice"]), purpose=f"activate {name}: {note}; a 7 does nothing", rule=rule)
        total = sum(dice)
        if total == int(t["no_effect"]):
            state.emit("activation_failed", side=None, rule=rule, nation=nation,
                       text=f"{name} stays neutral: a roll of {total} has no effect ({note})")
            return
        axis_ok, allied_ok = total <= ax, total >= al
        if axis_ok and allied_ok:
            state.emit("activation_reroll", side=None, rule=rule, nation=nation,
                       text=f"{total} would activate {name} for both sides: rolled again")
            continue
        if axis_ok or allied_ok:
            activate(state, nation, "axis" if axis_ok else "allied", f"roll {total}; {note}")
        else:
            state.emit("activation_failed", side=None, rule=rule, nation=nation,
                       text=f"{name} stays neutral: roll {total} ({note})")
        return


def resolve(state: State, _step: Any = None) -> None:
    """The end of the Activation step: the attempts announced in it are rolled, with every
    modifier both sides bought ("EP expenditures must be announced and deducted before the dice
    are rolled")."""
    ws = politics.war_state(state).get(KEY)
    for nation in sorted(ws or {}):
        if ws[nation].get("pending") == state.turn_label:
            _writable(state, nation).pop("pending")
            if politics.neutral(state, nation):
                roll(state, nation)


def month_end(state: State) -> None:
    """End of each monthly turn: declared units no longer adjacent lose their claim (47.3: "adjacent
    to Spain for the entire preceding season")."""
    ws = politics.war_state(state).get(KEY)
    if not ws:
        return
    for nation, rec in sorted(ws.items()):
        for side, by_turn in sorted(rec.get("declared", {}).items()):
            near = set(adjacent_units(state, nation, side)) if politics.neutral(state, nation) else set()
            gone = sorted({u for units in by_turn.values() for u in units if u not in near})
            if gone:
                w = _writable(state, nation)["declared"]
                w[side] = {turn: [u for u in units if u not in gone] for turn, units in by_turn.items()}
                state.emit("declaration_broken", side=side, rule=RULES[nation], nation=nation,
                           text=f"{', '.join(gone)} left the border of {politics.nations(state)[nation]['name']}: "
                                "they no longer count for the next activation roll")


class _Base(OrderKind):
    def in_game(self, game: Any) -> bool:
        return politics.on(game) and any(game.optional_rule(r) for r in RULES.values())

    @staticmethod
    def _side(state: State) -> str:
        d = state.decision
        if d is None:
            raise IllegalOrder("ETO-47.3", "no decision is open")
        return d.side

    @staticmethod
    def _payers(state: State, nation: str, side: str) -> list[str]:
        row = _row(state, nation)
        return [n for n in [*row["axis_payers"], *row["allied_payers"]] if n in state.game.scenario.sides.get(side, [])]


class _PaidOrder(_Base):
    """An order a payer makes for Spain or Turkey (``nation``, ``payer``): its legal list and its
    check come from the one ``why_not(state, side, nation, payer)`` rule function."""

    @staticmethod
    def why_not(state: State, side: str, nation: str, payer: str) -> Refusal | None:
        raise NotImplementedError

    def legal(self, state: State) -> list[dict[str, Any]]:
        if state.decision is None:
            return []
        side = state.decision.side
        return [{"kind": self.kind, "nation": n, "payer": p} for n in RULES if played(state, n)
                for p in self._payers(state, n, side) if self.why_not(state, side, n, p) is None]

    def check(self, state: State, order: dict[str, Any]) -> None:
        refuse(self.why_not(state, self._side(state), str(order.get("nation")), str(order.get("payer"))))


class AttemptActivationOrder(_PaidOrder):
    """``{"kind": "attempt_activation", "nation": "SP"|"TU", "payer": major}`` (ETO-47.3, 47.4)."""

    kind = "attempt_activation"
    rule = "ETO-47.3"
    why_not = staticmethod(attempt_why_not)

    def execute(self, state: State, order: dict[str, Any]) -> None:
        nation, payer = order["nation"], order["payer"]
        w = _writable(state, nation)
        w["tried"] = [*w.get("tried", []), state.turn_label]
        w["pending"] = state.turn_label
        _pay(state, payer, int(_t(state)["attempt_cost"]), RULES[nation],
             f"an attempt to activate {politics.nations(state)[nation]['name']}: rolled as the Activation step ends, "
             "after both sides have bought their modifiers")


class BuyActivationModifierOrder(_PaidOrder):
    """``{"kind": "buy_activation_modifier", "nation": "SP"|"TU", "payer": major}``: the next ±1
    (47.3: 4 EPs, then 6 more, 8 more ...), before the roll."""

    kind = "buy_activation_modifier"
    rule = "ETO-47.3"
    why_not = staticmethod(buy_why_not)

    def execute(self, state: State, order: dict[str, Any]) -> None:
        nation, payer = order["nation"], order["payer"]
        way = partnership_of_payer(state, nation, payer) or "axis"
        k = bought(state, nation, way) + 1
        cost = modifier_cost(state, k)
        w = _writable(state, nation)
        if w.get("turn") != state.turn_label:
            w["turn"], w["bought"] = state.turn_label, {}
        w["bought"] = {**w["bought"], way: k}
        _pay(state, payer, cost, RULES[nation], f"{'-' if way == 'axis' else '+'}{k} on "
             f"{politics.nations(state)[nation]['name']}'s activation (modifier {k})")


class DeclareAdjacentOrder(_Base):
    """``{"kind": "declare_adjacent", "nation": "SP"|"TU", "units": [ids]}``: the land units that
    will count at the next seasonal turn's roll if they stay adjacent all season (47.3)."""

    kind = "declare_adjacent"
    rule = "ETO-47.3"

    def legal(self, state: State) -> list[dict[str, Any]]:
        if state.decision is None:
            return []
        side = state.decision.side
        out = []
        for n in RULES:
            if not played(state, n) or state.turn_label in _record(state, n).get("declared", {}).get(side, {}):
                continue
            units = adjacent_units(state, n, side)
            if units and declare_why_not(state, side, n, units) is None:
                out.append({"kind": self.kind, "nation": n, "units": units})
        return out

    def check(self, state: State, order: dict[str, Any]) -> None:
        refuse(declare_why_not(state, self._side(state), str(order.get("nation")), order.get("units")))

    def execute(self, state: State, order: dict[str, Any]) -> None:
        side = self._side(state)
        nation = order["nation"]
        w = _writable(state, nation)
        prev = _previous_season(state.turn_label)
        kept = {t: us for t, us in w.get("declared", {}).get(side, {}).items() if t == prev}  # older ones lapsed
        w["declared"] = {**w.get("declared", {}), side: {**kept, state.turn_label: list(order["units"])}}
        state.emit("declared_adjacent", side=side, rule=RULES[nation], nation=nation,
                   text=f"{', '.join(order['units'])} declared on the border of "
                        f"{politics.nations(state)[nation]['name']} for next season's activation roll")
