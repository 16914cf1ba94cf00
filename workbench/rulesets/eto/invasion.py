"""Invasion of neutral countries and the declarations of war it sets off (ETO-39.0-39.7).

A player announces an invasion with ``{"kind": "declare_war", "nation": "GE", "target": "NO"}``
(39.2's announcement; a verbal declaration is itself an invasion, 39.1).  Until it is announced,
every act 39.1 lists -- a land unit entering a neutral hex, a flight over one, a ship entering a
neutral port -- is refused, because the neutral's hexes are closed to both sides (control).
Announced, the invasion happens at once: the country joins the invader's enemy (39.3), its
units are placed (39.2), and the chains of 39.4, 39.5 and 39.7 invade their other members.
The US enters by 39.6 when the first turn after December 1941 begins.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from workbench.engine.errors import IllegalOrder, Refusal, refuse
from workbench.engine.ruleset import OrderKind
from workbench.engine.state import State
from workbench.rulesets.eto import italian_restrictions, politics
from workbench.rulesets.eto.values import month_key

RULE = "ETO-39.0"
UNPLACED = "Unplaced"
#: ``f(state, nation)`` run when a neutral major enters the war by invading (47.1 registers).
ENTRY_HOOKS: list[Callable[[State, str], None]] = []


def _tables(state: State) -> dict[str, Any]:
    return politics.table(state)


def open_now(state: State) -> bool:
    """ETO-39.0: "invasions can only occur during the Strategic Warfare, Naval and Air, and
    Offensive phases"."""
    step = state.step
    if step is None:
        return False
    key = step.key.split("/", 1)[0]
    return key in _tables(state)["invasion"]["phases"]


def commanded(state: State, side: str) -> list[str]:
    """The nations a player commands: its scenario side's nations (neutral majors included:
    Italy before June 1940, the USSR before June 1941)."""
    return list(state.game.scenario.sides.get(side, []))


def declare_why_not(state: State, side: str, invader: str, target: str) -> Refusal | None:
    """Why ``side`` may not announce ``invader``'s invasion of ``target`` now (39.0, 39.2, 42.6)."""
    rows = politics.nations(state)
    if not politics.on(state.game):
        return Refusal(RULE, "this scenario fixes the political situation of its months: no invasions "
                       "of neutral countries (switch options.politics on to play them)")
    if invader not in rows or target not in rows:
        return Refusal(RULE, f"{invader if invader not in rows else target!r} is no ETO nation")
    if invader not in commanded(state, side):
        return Refusal(RULE, f"{side} does not command {invader}")
    if rows[invader].get("kind") != "major":
        return Refusal(RULE, "only major countries can initiate invasions; minor allies may only join "
                       "the attack on the invaded country")
    if politics.partnership(state, target) is not None:
        return Refusal(RULE, f"{rows[target]['name']} is already at war: only neutral countries are invaded")
    if target in commanded(state, side) and rows[target].get("kind") == "major":
        return Refusal("ETO-42.6", f"{rows[target]['name']} is commanded by {side} itself: the Western "
                       "Allies and the USSR never make war on each other")
    if not open_now(state):
        return Refusal(RULE, "invasions can only occur during the Strategic Warfare, Naval and Air, "
                       "and Offensive phases")
    from workbench.rulesets.eto.vichy import invasion_why_not

    why = invasion_why_not(state, target)
    if why:
        return Refusal("ETO-40.4", why)
    return restriction_why_not(state, invader, target)


def restriction_why_not(state: State, invader: str, target: str) -> Refusal | None:
    """The optional historical restrictions on invasions (ETO-46.1, 46.3, 46.4)."""
    why = italian_restrictions.invade_why_not(state, invader)  # 46.1 (optional)
    if why:
        return why
    t = _tables(state)["restrictions"]
    mine = politics.partnership(state, invader) or politics.natural_partnership(state, invader)
    if state.game.optional_rule("ETO-46.3") and mine == "western" and target in t["western_never_invades"]:
        return Refusal("ETO-46.3", "the Western Allies cannot invade Germany or Italy: they wait for the Axis "
                       "to precipitate the war")
    if state.game.optional_rule("ETO-46.4") and invader == "SU":
        if target == "GE" and state.turn_label.startswith(t["soviet_not_germany_in"]):
            return Refusal("ETO-46.4", "the Soviet Union cannot invade Germany during 1939")
        if target == "IT" and not politics.at_war(state, "IT", "UK") and not _adjacent_land(state, "IT", "SU"):
            return Refusal("ETO-46.4", "the Soviet Union may invade Italy only once Italy is at war with the "
                           "Western Allies, or Italy and the USSR have adjacent land territory")
    return None


def _adjacent_land(state: State, a: str, b: str) -> bool:
    """Whether land held by ``a`` (its territory, friendly to it) touches land held by ``b``."""
    import numpy as np

    ta_a, ta_b = politics.territory(state, a), politics.territory(state, b)
    nb = state.map.neighbors
    rows = nb[np.flatnonzero(ta_a)]
    rows = rows[rows >= 0]
    return bool(ta_b[rows].any())


def invaded_together(state: State, invader: str, target: str) -> list[str]:
    """ETO-39.4, 39.5, 39.7: the countries one invasion invades (the target first)."""
    out = [target]
    axis_invader = politics.natural_partnership(state, invader) == "axis"
    ws = politics.war_state(state)
    for chain in _tables(state)["chains"]:
        members = chain["nations"]
        hit = target in members or any(n in members for n in out)
        if chain.get("also_first_axis_invasion") and axis_invader and not ws.get("axis_invaded"):
            hit = True
        if chain.get("only_before_activation"):
            hit = hit and target in members and politics.neutral(state, target)
        if chain.get("axis_invaders_only") and not axis_invader:
            hit = False
        if hit:
            out += [n for n in members if n not in out]
    for hook in TOGETHER_HOOKS:  # 43.2: a Baltic State invades the USSR with it
        out += [n for n in hook(state, invader, out) if n not in out]
    return [n for n in out if politics.neutral(state, n)]


#: ``f(state, invader, target) -> bool``: the invasion is a limited war handled by the hook (43.6).
LIMITED_HOOKS: list[Callable[[State, str, str], bool]] = []
#: ``f(state, invader, victims) -> [more nations]`` invaded together with ``victims``.
TOGETHER_HOOKS: list[Callable[[State, str, list[str]], list[str]]] = []


def joins(state: State, invader: str, target: str) -> str:
    """ETO-39.3: the partnership an invaded country joins.  A major joins its own; a minor the
    invader's enemy, except Yugoslavia (Soviet) and Greece and Turkey (a die: 1-3 Western
    Allies, 4-6 Soviet) while the USSR is at war with the Axis."""
    rows = politics.nations(state)
    if rows[target].get("kind") == "major":
        return politics.natural_partnership(state, target)
    mine = politics.partnership(state, invader) or politics.natural_partnership(state, invader)
    enemy = politics.enemy_partnership(mine)
    sp = _tables(state)["soviet_partners"]
    if enemy == "western" and politics.front_open(state, "axis", "soviet"):
        if target in sp["automatic"]:
            return "soviet"
        if target in sp["by_roll"]:
            (die,) = state.roll(1, purpose=f"{rows[target]['name']} invaded while the USSR fights the Axis: "
                                f"1-3 Western Allies, 4-6 Soviet partner", rule=sp["rule"])
            return "soviet" if die in sp["soviet_on"] else "western"
    return enemy


def invade(state: State, invader: str, target: str, *, how: str = "declaration") -> list[str]:
    """ETO-39.2-39.7: ``invader`` invades ``target`` (and whoever 39.4/39.5/39.7 add); returns
    the nations that entered the war."""
    rows = politics.nations(state)
    for hook in LIMITED_HOOKS:  # 43.6: a neutral USSR's war with a minor alone
        if hook(state, invader, target):
            return [target]
    mine = politics.partnership(state, invader)
    if mine is None:  # a neutral major that invades enters the war in its own partnership (39.0)
        mine = politics.natural_partnership(state, invader)
        politics.join(state, invader, mine)
        deploy(state, invader)  # its fleet and air force waiting off the map come out (P5, ruling C3)
        for hook in ENTRY_HOOKS:  # 47.1: Italy's limited war becomes part of the war
            hook(state, invader)
    war_base = state.ruleset.tables["income"]["base"].get(invader, {}).get("at_war")
    if war_base is not None:  # 36.3: Italy's base is 30 once it has invaded anyone
        key = f"{invader}.income_base"
        state.tracks[key] = max(int(state.tracks.get(key, 0)), int(war_base))
    victims = invaded_together(state, invader, target)
    for n in victims:
        p = joins(state, invader, n)
        politics.join(state, n, p)
        politics.open_war(state, invader, n)
        if rows[n].get("kind") == "major" and p != mine and {p, mine} != {"western", "soviet"}:
            politics.open_front(state, mine, p)  # majors at war: every partner fights (42.0; never 42.6's)
        politics.record(state, invader=invader, by=mine, nation=n, joined=p)
        placed = deploy(state, n)
        if rows[n].get("kind") == "minor":
            for hook in DEPLOY_HOOKS:  # 39.2: "the player controlling the minor country places" them
                hook(state, n, placed)
        why = "" if n == target else f" ({_chain_rule(state, n)}: invaded with {rows[target]['name']})"
        state.emit("invaded", side=politics.side_of(state, n), rule="ETO-39.3", nation=n, invader=invader,
                   partnership=p, how=how,
                   text=f"{rows[invader]['name']} invades {rows[n]['name']}{why}: it joins the "
                        f"{_PARTNERSHIP_NAME[p]}" + (f"; {len(placed)} units placed (39.2)" if placed else ""))
    if mine == "axis":
        politics.mark_axis_invasion(state)
    return victims


_PARTNERSHIP_NAME = {"axis": "Axis", "western": "Western Allies", "soviet": "Soviet Union"}


def _chain_rule(state: State, nation: str) -> str:
    for chain in _tables(state)["chains"]:
        if nation in chain["nations"]:
            return chain["rule"]
    return "ETO-39.3"


#: ``f(state, nation, placed ids)`` run after an invaded minor's units are put down (39.2's choice).
DEPLOY_HOOKS: list[Callable[[State, str, list[str]], None]] = []


def deploy(state: State, nation: str) -> list[str]:
    """ETO-39.2: an invaded minor's units go on the map at once, inside its home country: each
    unit waiting in the Unplaced box goes to the hex its scenario entry names (``props.deploy``,
    the controlling player's set-up chosen when the scenario was written).  A neutral major's
    ships and air units wait there too until it enters the war (ruling C3): a ship enters its
    port (``props.in_port`` as written), an air unit lands on its base (13.2)."""
    from workbench.rulesets.eto import air_units, airbases

    out = []
    for u in sorted(state.units_by_id.values(), key=lambda u: u.id):
        if u.nation == nation and u.location == UNPLACED and u.props.get("deploy"):
            u.location = str(u.props.pop("deploy"))
            u.side = politics.side_of(state, nation) or u.side
            if air_units.flies(state, u) and not u.props.get("carrier"):
                airbases.land(state, u, u.location)
            out.append(u.id)
    return out


def us_entry(state: State, _step: Any = None) -> None:
    """ETO-39.6: "Between the December 1941 and Winter 1942 turns, the US is automatically
    invaded by any and all Axis partners" -- as the first turn after December 1941 begins."""
    t = _tables(state)["us_entry"]
    us = t["nation"]
    if not politics.on(state.game) or us not in politics.nations(state) or not politics.neutral(state, us):
        return
    early = politics.war_state(state).get("us_entry_at")  # 40.7: the UK's fall brings the US in
    if month_key(state.turn_label) <= month_key(t["after"]) and not (early and month_key(state.turn_label)
                                                                    >= month_key(early)):
        return
    politics.join(state, us, politics.natural_partnership(state, us))
    politics.open_front(state, "axis", politics.partnership(state, us) or "western")
    for hook in ENTRY_HOOKS:  # 40.7: an early entry brings the 1942 forces at once
        hook(state, us)
    deploy(state, us)
    state.emit("invaded", side="allies", rule=t["rule"], nation=us, invader="axis", partnership="western",
               how="automatic", text="The United States enters the war (39.6): every Axis partner invades it; "
                                     "it joins the Western Allies")


class DeclareWarOrder(OrderKind):
    """``{"kind": "declare_war", "nation": invader, "target": neutral}``: announce an invasion
    (ETO-39.1, 39.2); it takes effect at once (39.3-39.7)."""

    kind = "declare_war"
    rule = RULE

    def in_game(self, game: Any) -> bool:
        return politics.on(game)

    def legal(self, state: State) -> list[dict[str, Any]]:
        d = state.decision
        if d is None or not open_now(state):
            return []
        rows = politics.nations(state)
        return [{"kind": self.kind, "nation": a, "target": t}
                for a in commanded(state, d.side) if rows.get(a, {}).get("kind") == "major"
                for t in sorted(rows) if declare_why_not(state, d.side, a, t) is None]

    def check(self, state: State, order: dict[str, Any]) -> None:
        d = state.decision
        if d is None:
            raise IllegalOrder(self.rule, "no decision is open")
        refuse(declare_why_not(state, d.side, str(order.get("nation")), str(order.get("target"))))

    def execute(self, state: State, order: dict[str, Any]) -> None:
        invade(state, order["nation"], order["target"])


def neutral_territory_note(state: State) -> str:
    """The reason a neutral hex is closed, for movement's refusal (39.2)."""
    if politics.on(state.game):
        return "the hex is in a neutral country: announce its invasion first (ETO-39.2, declare_war)"
    return "the hex is in a neutral country (this scenario plays no invasions, ETO-39.0)"

