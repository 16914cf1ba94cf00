"""How a game came out, in one schema for every ruleset (for batch runs and the strength bar).

Everything comes from the ruleset's face (:mod:`workbench.engine.face`):

* ``winner`` / ``level`` / ``vp_*``: :meth:`ruleset.result <Face.result>`, the victory rules'
  reading of the position; ``result_source`` says whether the rules named the winner
  (``ruleset``) or the face read it from the position while they do not (``workbench``).
* ``margin_axis``: a symmetric contest score, balance-free, for comparing bots: enemy steps
  lost minus own steps lost, plus 2 × the change in ``metrics.objective_value``.
* ``bot_winner``: ``winner`` when there is one, else the side with a positive margin
  (``None`` on an exact tie).  The strength bar counts this.
"""

from __future__ import annotations

import json
from typing import Any


def steps_lost(state: Any) -> dict[str, int]:
    """Steps lost per side so far (``metrics.losses``)."""
    return dict(state.ruleset.metrics(state).losses)


def objective_value(state: Any) -> dict[str, float]:
    """Objective value held per side now (``metrics.objective_value``)."""
    return dict(state.ruleset.metrics(state).objective_value)


def economy(state: Any) -> dict[str, float]:
    """Numeric economy tracks summed per nation.metric (``metrics.economy``)."""
    return dict(state.ruleset.metrics(state).economy)


def summarize(state: Any, start: dict[str, Any] | None = None) -> dict[str, Any]:
    """One row per game: result, VP, turn reached, losses, objectives, economy, contest margin.

    ``start`` is :func:`snapshot` of the starting position (for the objective change).
    """
    sides = state.ruleset.sides
    out: dict[str, Any] = {"over": state.is_over, "turn_reached": state.turn_label,
                           "turns_played": int(state.turn), "orders": len(state.orders),
                           "events": len(state.log)}
    r = state.ruleset.result(state)
    winner, vp_axis, vp_allies = r.get("winner"), r.get("vp_axis"), r.get("vp_allies")
    out.update(winner=winner, level=str(r.get("level")), result_source=r.get("source", "ruleset"),
               vp_axis=None if vp_axis is None else float(vp_axis),
               vp_allies=None if vp_allies is None else float(vp_allies))
    m = state.ruleset.metrics(state)
    lost, obj = m.losses, m.objective_value
    obj0 = (start or {}).get("objectives", dict.fromkeys(sides, 0.0))
    for s in sides:
        out[f"steps_lost_{s}"] = lost.get(s, 0)
        out[f"objectives_{s}"] = obj.get(s, 0.0)
    a, b = sides[0], sides[1]
    margin = (lost.get(b, 0) - lost.get(a, 0)) + 2.0 * ((obj.get(a, 0.0) - obj0.get(a, 0.0))
                                                        - (obj.get(b, 0.0) - obj0.get(b, 0.0)))
    out["margin_axis"] = float(margin)
    out["bot_winner"] = winner if winner is not None else (a if margin > 0 else b if margin < 0 else None)
    out["economy"] = json.dumps(m.economy, sort_keys=True)
    out["economy_total"] = float(sum(m.economy.values()))
    return out


def snapshot(state: Any) -> dict[str, Any]:
    """What :func:`summarize` compares against, and one row of the turn-by-turn series."""
    m = state.ruleset.metrics(state)
    return {"turn": state.turn_label, "t": int(state.turn), "objectives": dict(m.objective_value),
            "steps_lost": dict(m.losses), "economy": dict(m.economy)}
