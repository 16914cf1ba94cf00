"""ETO rules-test kit: small scenarios on the europe map, scripted dice, step helpers.

The test front (clear, no rivers, severe weather zone, USSR): west of 36.6°E the
USSR is Axis-controlled (a control region), so Axis units trace supply home
through Poland; east of it the Soviets hold.  Useful hexes:

    08640 08740 08840     08640/08641 are Axis territory (clear),
    08641 08741 08841     08740/08741/08742 Soviet (clear)
    08642 08742 08842

Import the helpers from test modules (no pytest plugin): ``from eto_kit import ...``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from kit import FixedDice  # noqa: F401 - re-exported for the ETO tests

from workbench.engine import load_scenario

AXIS_WEST = [[20.0, 44.0], [20.0, 70.0], [36.6, 70.0], [36.6, 44.0]]


def _toml(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, str):
        return f'"{v}"'
    if isinstance(v, list):
        return "[" + ", ".join(_toml(x) for x in v) + "]"
    if isinstance(v, dict):
        return "{" + ", ".join(f'"{k}" = {_toml(x)}' for k, x in v.items()) + "}"
    return str(v)


def scenario_text(units: list[dict[str, Any]], *, first: str = "1941-07", last: str = "1941-08",
                  tracks: dict[str, Any] | None = None, extra: str = "", specials: tuple[str, ...] = (),
                  west: bool = False, options: dict[str, Any] | None = None,
                  axis: tuple[str, ...] = ("GE", "IT"), allies: tuple[str, ...] = ("UK", "FR"),
                  control: dict[str, str] | None = None) -> str:
    """A test scenario: the eastern test front, or with ``west`` the 1940 Channel front (August 1940,
    after the fall of France: the UK against Germany and Italy, the Low Countries and France German-held).
    On the Channel front ``axis`` and ``allies`` list the sides' nations and ``control`` overrides
    countries' control (the politics tests add neutrals, and an unfallen France)."""
    t = {"GE.eps": 20, "GE.offensives": 3, "SU.eps": 20, "SU.offensives": 3, "IT.eps": 0,
         "initiative": "axis", **(tracks or {})}
    lines = [
        "format = 1", "designer_mode = true", 'id = "test/eto"', 'title = "ETO rules test"', 'ruleset = "eto"', 'map = "europe"',
        f'first_turn = "{first}"', f'last_turn = "{last}"',
    ]
    if west:
        ctl = {"Germany": "axis", "Belgium": "axis", "Netherlands": "axis", "Italy": "axis", "Luxembourg": "axis",
               "France": "axis", "United Kingdom": "allies", "Malta": "allies", **(control or {})}
        lines += [
            "[sides.axis]", f"nations = {_toml(list(axis))}", "[sides.allies]", f"nations = {_toml(list(allies))}",
            "[tracks]", *[f'"{k}" = {_toml(v)}' for k, v in {"UK.eps": 20, "UK.offensives": 3,
                                                               **{k: v for k, v in t.items() if not k.startswith("SU.")}}.items()],
            "[control]", *[f'"{k}" = "{v}"' for k, v in ctl.items()],
        ]
    else:
        lines += [
            "[sides.axis]", 'nations = ["GE", "IT", "RO", "FI", "HU"]', "[sides.allies]", 'nations = ["SU"]',
            "[tracks]", *[f'"{k}" = {_toml(v)}' for k, v in t.items()],
            "[control]", '"Germany" = "axis"', '"Poland" = "axis"', '"Romania" = "axis"', '"Hungary" = "axis"',
            '"Finland" = "axis"', '"USSR" = "allies"', '"Latvia" = "allies"', '"Lithuania" = "allies"',
            '"Estonia" = "allies"',
            "[[control_regions]]", 'name = "test Axis zone"', 'country = "USSR"', 'side = "axis"',
            f"polygon = {_toml(AXIS_WEST)}",
        ]
    if options:
        lines += ["[options]", *[f"{k} = {_toml(v)}" for k, v in options.items()]]
    for eff in specials:
        lines += ["[[special_rules]]", f'id = "{eff}"', f'effect = "{eff}"', 'rule = "test"', 'text = "test"']
    lines.append(extra)
    for u in units:
        lines.append("[[units]]")
        lines += [f"{k} = {_toml(v)}" for k, v in u.items()]
    return "\n".join(lines) + "\n"


def make_game(tmp_path: Path, units: list[dict[str, Any]], **kw: Any):
    path = tmp_path / "eto-test.toml"
    path.write_text(scenario_text(units, **kw))
    return load_scenario(path)


def unit(uid: str, nation: str, utype: str, at: str, **kw: Any) -> dict[str, Any]:
    return {"id": uid, "nation": nation, "type": utype, "at": at, **kw}


def new_state(tmp_path: Path, units: list[dict[str, Any]], *faces: int, seed: int = 1, **kw: Any):
    state = make_game(tmp_path, units, **kw).new_state(seed=seed)
    if faces:
        state.dice = FixedDice(*faces)
    return state


def flying_state(tmp_path: Path, units: list[dict[str, Any]], *faces: int, allies: tuple[str, ...] = ("SU",),
                 props: dict[str, dict[str, Any]] | None = None, naval: bool = False):  # noqa: ANN201
    """A test game of the eastern front with air on (and the war at sea with ``naval``) and
    ``allies`` on the Allied side; every unit flies (flight f1) from a base in 08640 unless
    ``props`` says otherwise (None removes a prop)."""
    path = tmp_path / "eto-air.toml"
    path.write_text(scenario_text(units).replace('nations = ["SU"]', f"nations = {_toml(list(allies))}"))
    s = load_scenario(path, options={"air": True, "naval": naval}).new_state(seed=1)
    for u in s.units_by_id.values():
        u.props.update({"base": "08640", "flight": "f1"})
        for k, v in (props or {}).get(u.id, {}).items():
            if v is None:
                u.props.pop(k, None)
            else:
                u.props[k] = v
    if faces:
        s.dice = FixedDice(*faces)
    return s


def begin_offensive(state, side: str = "axis"):  # noqa: ANN001, ANN201
    """From the Offensive phase decision (or before it: the Naval and Air phase is ended), let
    ``side`` begin an offensive."""
    if state.decision.kind != "offensive":
        step_to(state, "offensive")
    d = state.decision
    if d.kind == "offensive" and d.side != side:
        state.apply({"kind": "pass"})
    state.apply({"kind": "begin"})
    return state


def step_to(state, key: str, limit: int = 50):  # noqa: ANN001, ANN201
    """End steps until the decision is the step ``key`` (or an interrupt inside it)."""
    for _ in range(limit):
        d = state.decision
        if d is None or d.kind == key or (state.step and state.step.key == key and d.kind == key):
            return state
        if "choose_first" in d.kinds:
            state.apply({"kind": "choose_first", "side": d.side})
        elif "end_step" in d.kinds:
            state.apply({"kind": "end_step"})
        elif "pass" in d.kinds:
            state.apply({"kind": "pass"})
        else:
            raise AssertionError(f"cannot get to {key}: {d}")
    raise AssertionError(f"did not reach {key}: {state.decision}")


def events(state, kind: str) -> list[dict[str, Any]]:  # noqa: ANN001
    import json

    return [{**e, "data": json.loads(e["data"]) if isinstance(e.get("data"), str) else (e.get("data") or {})}
            for e in state.log if e["kind"] == kind]


def stack_attack(state, attackers: tuple[str, ...] = ("GE-a", "GE-b"), hex_: str = "08640",  # noqa: ANN001, ANN201
                 target: str = "08740"):
    """The stack at ``hex_`` makes a stack offensive (22.3) on ``target`` and rolls it; returns the
    combat event's data."""
    begin_offensive(state)
    state.apply({"kind": "activate", "mode": "stack", "hex": hex_})
    step_to(state, "offensive/combat")
    state.apply({"kind": "attack"})
    state.apply({"kind": "designate", "target": target, "attackers": list(attackers)})
    step_to(state, "resolve")
    state.apply({"kind": "resolve", "target": target})
    return events(state, "combat")[-1]["data"]
