"""Ground support: the air over a hex under land attack (ETO-17.0-17.3).

Ground support is no separate process (17.1): the land combat pipeline
(:func:`combat.assess`) reads the air over the target hex through :func:`terms`,
registered in :data:`combat.EXTRA_TERMS`, and the paradrop roll reads the same
superiority through :func:`paradrop_drm`, registered in :data:`paradrop.AIR_SUPERIORITY`.

An air unit is over hex H for ground support when it is flying (``props["flight"]``
set, :mod:`air_units`), its ``location`` is H and it is not aborted (``props["aborted"]``,
15.6).  ATP markers are never air units here (17.2).  The mission that brought it is not
asked: 17.2 counts "the presence of an unaborted air unit" (ruling in docs/rulings-eto.md).

* 17.2: any such unit, fighter or bomber, gives its side air superiority (+1 attacker,
  -1 defender); both sides present = contested, no modifier.
* 17.3: attacking bombers add their strength, at most the attacking land SP (and with the
  general and naval bombardment never more than doubling it, 26.2: ``adjudicate.capped``);
  each defending bomber adds 1, at most 2 (``adjudicate.defending_bomber_sp``).
"""

from __future__ import annotations

from typing import Any, Literal

from workbench.engine.state import State
from workbench.engine.units import Unit
from workbench.rulesets.eto import adjudicate as adj
from workbench.rulesets.eto import air_units, combat, paradrop, values

Superiority = Literal["attacker", "defender", "contested"]


def air_over(state: State, hex_: str, side: str) -> list[Unit]:
    """ETO-17.0/17.2: the unaborted air units of ``side`` flying over ``hex_`` (not ATPs,
    which never establish air superiority), by id."""
    return sorted((u for u in state.units_by_id.values()
                   if u.side == side and u.location == hex_ and u.props.get("flight")
                   and not u.props.get("aborted") and air_units.is_air(state, u)), key=lambda u: u.id)


def superiority(state: State, hex_: str, attacker_side: str) -> Superiority | None:
    """ETO-17.2: "The presence of an unaborted air unit (fighter or bomber) in the combat hex
    gives the friendly player the air superiority combat die modifier"; both sides present:
    contested, the modifiers cancel.  None when no air unit is over the hex."""
    att = bool(air_over(state, hex_, attacker_side))
    dfn = bool(air_over(state, hex_, values.other(attacker_side)))
    if att and dfn:
        return "contested"
    if att:
        return "attacker"
    if dfn:
        return "defender"
    return None


def bombers_over(state: State, hex_: str, side: str) -> list[Unit]:
    """ETO-17.3: the unaborted bombers of ``side`` over ``hex_`` (bombers, and fighter-bombers or
    naval air flying in the bomber role, 12.1)."""
    return [u for u in air_over(state, hex_, side) if air_units.is_bomber(state, u)]


def attacking_bomber_sp(state: State, hex_: str, side: str, *, land_sp: int | None = None) -> int:
    """ETO-17.3: "Each unaborted bomber unit friendly to the attacking player adds its strength to
    the attacking land units, to a maximum equal to the land units' strength (see 26.2)".
    ``land_sp``: the attacking land SP (no cap when None)."""
    sp = sum(air_units.strength(state, u) for u in bombers_over(state, hex_, side))
    return sp if land_sp is None else min(sp, max(int(land_sp), 0))


def defending_bombers(state: State, hex_: str, side: str) -> int:
    """ETO-17.3: how many unaborted bombers of the defending ``side`` are over ``hex_`` (each adds
    1 SP to the defence, at most 2: :func:`adjudicate.defending_bomber_sp`)."""
    return len(bombers_over(state, hex_, side))


def terms(state: State, ctx: dict[str, Any]) -> dict[str, Any]:
    """ETO-17.1-17.3: the air over the target hex as terms of the land combat (registered in
    :data:`combat.EXTRA_TERMS`): the superiority DRM (17.2), the attacking bombers' SP and the
    defending bombers (17.3)."""
    side, target = ctx["side"], ctx["target"]
    enemy = values.other(side)
    out: dict[str, Any] = {}
    sup = superiority(state, target, side)
    if sup is not None:
        out["drm_kwargs"] = {"air_superiority": sup}
    contrib: list[tuple[str, int, str]] = []
    land = sum(values.strength(state, state.unit(a)) for a in ctx["attackers"])
    att = attacking_bomber_sp(state, target, side, land_sp=land)
    if att:
        out["attack_add"] = att
        ids = ", ".join(u.id for u in bombers_over(state, target, side))
        contrib.append((f"bombers {ids}", att, "ETO-17.3"))
    n = defending_bombers(state, target, enemy)
    if n:
        out["defending_bombers"] = n
        ids = ", ".join(u.id for u in bombers_over(state, target, enemy))
        contrib.append((f"defending bombers {ids}", adj.defending_bomber_sp(n, tables=state.ruleset.tables),
                        "ETO-17.3"))
    if contrib:
        out["terms"] = contrib
    return out


def paradrop_drm(state: State, side: str, target: str) -> int:
    """ETO-19.2: +2 for friendly air superiority in the combat hex, -2 for enemy air superiority
    (``paradrop.toml [drm]``); contested or no air: 0.  Registered in
    :data:`paradrop.AIR_SUPERIORITY`."""
    drm = state.ruleset.tables["paradrop"]["drm"]
    sup = superiority(state, target, side)
    if sup == "attacker":
        return int(drm["friendly_air_superiority"])
    if sup == "defender":
        return int(drm["enemy_air_superiority"])
    return 0


if terms not in combat.EXTRA_TERMS:
    combat.EXTRA_TERMS.append(terms)
if paradrop_drm not in paradrop.AIR_SUPERIORITY:
    paradrop.AIR_SUPERIORITY.append(paradrop_drm)
