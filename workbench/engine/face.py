"""The ruleset's face: everything above ``rulesets/`` asks a game through these methods.

The UI (map, counters, overlays, attack planner, charts), the bots, batch summaries and the
analysis never test a ruleset's name.  They call the methods of :class:`Face`, which every
:class:`~workbench.engine.ruleset.Ruleset` inherits with generic defaults; a ruleset overrides
what its rules know better in its own folder (``rulesets/<game>/face.py``).  A third game gets
the whole workbench by implementing these in its own folder and nothing else.

The face:

``rule_prefix``
    the rulebook prefix of its rule IDs (``"ETO"``, ``"SSA"``).
``attack_kinds``
    order kinds the attack planner builds (orders with ``"attackers"`` and ``"target"`` or
    ``"targets"``).
``combat_roll``
    how the purpose of a land combat's die roll begins (the lookahead bot forces that die).
``lookahead``
    how the lookahead bot weighs attacks: ``"rollout"`` (forks played on over each die face)
    or ``"allocation"`` (exact CRT expectations of whole sets of attacks, where forks are slow).
``view(state, side)``
    what ``side`` may see (``None``: the umpire).
``unit_card(state, unit)``
    the counter's printed values on its current side: ``{"strength", "movement", "note"}``.
``overlays(state, side)``
    per-hex layers ``control``, ``supply``, ``zoc`` (int arrays; ``None`` where unknown).
``out_of_supply(state)``
    unit ids out of supply, for the counter marks.
``air_range(state, unit)``
    hexes an air unit may fly, ``None`` for other units.
``assess_attack(state, order)``
    an :class:`Assessment` of an attack order, without rolling (``None``: cannot assess).
``metrics(state)``
    :class:`Metrics`: the economy, losses, objectives, VP and morale read each turn by the
    charts, the bots' scores, batch summaries and analysis.
``result(state)``
    the victory rules' reading of the game now (winner, level, VP), finished or not.
``brain(side)``
    the heuristic bot's brain for ``side`` (``None``: a brain that only ends steps).
``crt_table(tables, modifiers)``
    every CRT column's exact result distribution, as a polars frame (``None``: no CRT).
"""

from __future__ import annotations

import re
from dataclasses import asdict, dataclass, field
from fractions import Fraction
from typing import TYPE_CHECKING, Any

import numpy as np

if TYPE_CHECKING:
    import polars as pl

    from workbench.engine.state import State
    from workbench.engine.units import Unit

#: ``<NATION>.<economy word>...`` tracks: SS Amerika ``GE.mp.industrial``, ETO ``GE.eps``.
ECONOMY = re.compile(r"^([A-Za-z]{2,4})\.(mp|ep|eps|bpp|reserve|income|ip|production)(\.|$)", re.I)
#: tracks that are a side's or nation's morale (``US.morale``, ``morale.allies``).
MORALE = re.compile(r"(^|\.)morale($|\.)", re.I)
VP = re.compile(r"(^|\.)vp($|\.)", re.I)
#: events that cost the unit named in them one step.
LOSS_KINDS = ("eliminated", "reduced", "depleted")
OVERLAY_NAMES = ("control", "supply", "zoc")


@dataclass
class Assessment:
    """One attack priced before the roll, the same shape for every ruleset.

    ``contributions``: (who, strength, rule); ``shifts``: (columns or die modifier, why, rule);
    ``distribution``: exact probability of each result; ``losses_by_result``: steps each side
    loses on each result; ``expected_losses``: the probability-weighted steps per side.
    """

    attackers: list[str]
    defenders: list[str]
    attack: float
    defense: float
    base_column: str
    column: str
    distribution: dict[str, Fraction]
    contributions: list[tuple[str, float, str]] = field(default_factory=list)
    shifts: list[tuple[str, str, str]] = field(default_factory=list)
    results: dict[str, str] = field(default_factory=dict)
    losses_by_result: dict[str, dict[str, float]] = field(default_factory=dict)
    expected_losses: dict[str, float] = field(default_factory=dict)
    odds_rule: str = ""
    die: str = "1d6"
    target: str = ""

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass
class Metrics:
    """What a game's charts and scores read each turn.

    ``economy``: numeric economy tracks summed per ``NATION.metric``; ``losses``: steps lost
    per side; ``objectives``: objectives (cities, victory hexes) held per side, a count for
    the charts; ``objective_value``: the same weighted as the bots weigh them, for contest
    scores; ``vp`` and ``morale`` per side (or per track) where the game keeps them.
    """

    economy: dict[str, float] = field(default_factory=dict)
    losses: dict[str, int] = field(default_factory=dict)
    objectives: dict[str, float] = field(default_factory=dict)
    objective_value: dict[str, float] = field(default_factory=dict)
    vp: dict[str, float] = field(default_factory=dict)
    morale: dict[str, float] = field(default_factory=dict)

    def as_dict(self) -> dict[str, dict[str, Any]]:
        return asdict(self)


def _number(v: Any) -> bool:
    return isinstance(v, int | float) and not isinstance(v, bool)


def economy_tracks(state: State) -> dict[str, float]:
    """Numeric economy tracks (``GE.eps``, ``US.mp.industrial`` ...) summed per nation.metric."""
    out: dict[str, float] = {}
    for k, v in state.tracks.items():
        m = ECONOMY.match(k)
        if m and _number(v):
            key = f"{m.group(1)}.{m.group(2).lower()}"
            out[key] = out.get(key, 0.0) + float(v)
    return out


def steps_lost(state: State) -> dict[str, int]:
    """Steps lost per side so far: one per ``eliminated``/``reduced``/``depleted`` event."""
    out = dict.fromkeys(state.ruleset.sides, 0)
    for ev in state.log:
        if ev["kind"] in LOSS_KINDS and ev["side"] in out:
            out[ev["side"]] += 1
    return out


def tracks_matching(state: State, pattern: re.Pattern[str]) -> dict[str, float]:
    return {k: float(v) for k, v in state.tracks.items() if pattern.search(k) and _number(v)}


class Face:
    """Generic defaults of the ruleset face (see the module docstring); rulesets override."""

    rule_prefix: str = ""
    attack_kinds: tuple[str, ...] = ("attack",)
    combat_roll: str = "land combat"
    lookahead: str = "rollout"

    def view(self, state: State, side: str | None) -> Any:
        """What ``side`` may see (``None`` = umpire).  Default: everything."""
        return state

    def unit_card(self, state: State, unit: Unit) -> dict[str, str]:
        """The ``cf``/``attack``/``strength`` and ``mf``/``movement`` keys of the unit type
        (``*_reduced`` when reduced) in ``tables/units.toml``."""
        t = self.unit_types.get(unit.type, {})  # type: ignore[attr-defined]

        def pick(*keys: str) -> Any:
            for k in keys:
                if unit.reduced and f"{k}_reduced" in t:
                    return t[f"{k}_reduced"]
                if k in t:
                    return t[k]
            return None

        return {"strength": show_number(pick("cf", "attack", "strength")),
                "movement": show_number(pick("mf", "movement")), "note": ""}

    def overlays(self, state: State, side: str | None) -> dict[str, np.ndarray | None]:
        """``control`` from ``state.arrays["control"]`` when the game keeps one."""
        out: dict[str, np.ndarray | None] = dict.fromkeys(OVERLAY_NAMES)
        if "control" in state.arrays:
            out["control"] = np.asarray(state.arrays["control"]).astype(np.int64)
        return out

    def out_of_supply(self, state: State) -> set[str]:
        return set()

    def air_range(self, state: State, unit: Unit) -> int | None:
        t = self.unit_types.get(unit.type, {})  # type: ignore[attr-defined]
        if t.get("domain") != "air" or t.get("range") is None:
            return None
        return int(t["range"])

    def assess_attack(self, state: State, order: dict[str, Any]) -> Assessment | None:
        return None

    @property
    def can_assess(self) -> bool:
        return type(self).assess_attack is not Face.assess_attack

    def metrics(self, state: State) -> Metrics:
        """Economy tracks, step losses, cities held (``markers["city_control"]`` or
        ``markers["cities"]``), and ``*.vp`` / ``*.morale`` tracks; no objective value (a game
        that scores objectives says how)."""
        held: dict[str, float] = {}
        cities = state.markers.get("city_control", state.markers.get("cities"))
        if isinstance(cities, dict):
            held = {s: 0.0 for s in state.ruleset.sides}
            for owner in cities.values():
                if owner in held:
                    held[owner] += 1
        vp = tracks_matching(state, VP)
        return Metrics(economy=economy_tracks(state), losses=steps_lost(state), objectives=held,
                       objective_value=dict.fromkeys(state.ruleset.sides, 0.0), vp=vp,
                       morale=tracks_matching(state, MORALE))

    def result(self, state: State) -> dict[str, Any]:
        """The game's result as its victory rules give it: ``winner``, ``level``, ``vp_axis``,
        ``vp_allies`` and ``source`` (``ruleset``: the rules named it; ``workbench``: read
        from the position by the face while the rules name no winner)."""
        res = dict(state.result or {})
        level = res.get("level", "draw" if state.is_over else "unfinished")
        return {"winner": res.get("winner"), "level": str(level), "source": "ruleset",
                "vp_axis": res.get("axis_vp"), "vp_allies": res.get("allies_vp")}

    def brain(self, side: str) -> Any:
        return None

    def optional_rules_catalog(self) -> list[dict[str, str]]:
        """The optional rules a scenario may switch on, for the set-up panel: ``id``, ``title``,
        ``summary``, read from the ruleset's ``tables/optional_rules.toml`` (none without it)."""
        rules = getattr(self, "tables", {}).get("optional_rules", {}).get("rules", {})
        return [{"id": rid, "title": str(r.get("title", rid)), "summary": str(r.get("summary", ""))}
                for rid, r in rules.items()]

    def crt_table(self, tables: dict[str, Any] | None = None,
                  modifiers: range | list[int] | None = None) -> pl.DataFrame | None:
        return None


def show_number(v: Any) -> str:
    """A table value as printed on a counter: ``7.0`` -> ``"7"``, ``None`` -> ``""``."""
    if v is None:
        return ""
    if isinstance(v, float) and v.is_integer():
        v = int(v)
    return str(v)


def expected(distribution: dict[str, Fraction], losses: dict[str, dict[str, float]]) -> dict[str, float]:
    """Probability-weighted steps per side over a result distribution."""
    out: dict[str, float] = {}
    for r, p in distribution.items():
        for side, steps in losses.get(r, {}).items():
            out[side] = out.get(side, 0.0) + float(p) * float(steps)
    return out
