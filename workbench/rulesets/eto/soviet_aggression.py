"""Soviet pre-war aggression (ETO-43.6).

Before the USSR and Germany are at war, a Soviet invasion of a minor country that might become an
Axis minor partner (35.0: the ``axis`` partnership of units.toml, e.g. Rumania, Hungary,
Bulgaria, Finland) is an invasion of the Axis (of Germany, with Italy if it is at war).  A Soviet
invasion of any other minor is a war of the two alone: the minor stays neutral to every other
nation (Germany may still invade it), its units are placed and fight the USSR, and if it is not
conquered when the USSR and Germany go to war it becomes a German minor partner.  Any other act
of war between Soviet and German units is an invasion, refused until announced
(:mod:`holders`, ``combat.peace_why_not``).  The 43.2 territories are :mod:`prewar_conquests`'s.
"""

from __future__ import annotations

from workbench.engine.state import State
from workbench.rulesets.eto import control as ctl
from workbench.rulesets.eto import invasion, politics, prewar_conquests

RULE = "ETO-43.6"


def _applies(state: State, invader: str, target: str) -> bool:
    rows = politics.nations(state)
    return (invader == prewar_conquests.claimant(state) and politics.neutral(state, invader)
            and prewar_conquests.prewar(state) and rows.get(target, {}).get("kind") == "minor")


def prospective_axis(state: State, nation: str) -> bool:
    """35.0: a minor that might become an Axis minor partner."""
    return politics.nations(state).get(nation, {}).get("partnership") == "axis"


def limited(state: State, invader: str, target: str) -> bool:
    """``invasion.LIMITED_HOOKS``: a war of the USSR and a minor not scheduled to join Germany; a
    prospective Axis minor's invasion opens the war with the Axis first (and goes on as usual)."""
    zones = {z.get("nation") for z in prewar_conquests.zones(state)}
    if not _applies(state, invader, target) or target in zones or state.game.optional_rule("ETO-47.2"):
        return False  # 47.2, when played, "supersedes this entire case"
    if prospective_axis(state, target):  # an invasion of the Axis: the war the USSR began (36.5 reads who)
        politics.open_front(state, "soviet", "axis")
        state.emit("war", side="allies", rule=RULE, nation=target, invader=invader,
                   text=f"the Soviet Union invades {politics.nations(state)[target]['name']}, a prospective Axis "
                        "partner (43.6): it is an invasion of the Axis")
        return False
    ws = politics.writable(state)
    politics.open_war(state, invader, target)
    ws.setdefault("soviet_victims", []).append(target)
    placed = invasion.deploy(state, target)
    foe = next((side for side, ns in state.game.scenario.sides.items() if invader not in ns), "axis")
    for u in state.units_by_id.values():
        if u.nation == target:
            u.side = foe  # it fights the Soviet units; no one else is its enemy (holders)
    terr = politics.territory(state, target) & (ctl.control(state) == ctl.NEUTRAL)
    ctl.control(state)[terr] = ctl.SIDE_CODE[foe]
    politics.record(state, invader=invader, by="soviet", nation=target, joined="limited")
    name = politics.nations(state)[target]["name"]
    state.emit("invaded", side=foe, rule=RULE, nation=target, invader=invader, partnership=None, how="limited",
               text=f"the Soviet Union invades {name} (43.6): a war of the two; {name} stays neutral to all "
                    f"others; {len(placed)} units placed")
    return True


def on_front(state: State, pa: str, pb: str) -> None:
    """``politics.FRONT_HOOKS``: when the USSR and the Axis go to war, its unconquered victims
    become German minor partners (43.6)."""
    if {pa, pb} != {"axis", "soviet"}:
        return
    ws = politics.writable(state)
    for n in ws.get("soviet_victims", []):
        if n not in ws.get("conquered", {}) and politics.neutral(state, n):
            politics.join(state, n, "axis")
            state.emit("joins", side="axis", rule=RULE, nation=n,
                       text=f"{politics.nations(state)[n]['name']}, unconquered, becomes a German minor partner (43.6)")


if limited not in invasion.LIMITED_HOOKS:
    invasion.LIMITED_HOOKS.append(limited)
if on_front not in politics.FRONT_HOOKS:
    politics.FRONT_HOOKS.append(on_front)
