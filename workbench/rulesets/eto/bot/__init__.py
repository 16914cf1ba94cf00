"""The ETO heuristic brain: a sensible beginner for either side of the land campaign.

:class:`ETOBrain` only routes a decision to the planner for its order kind; the planners share
state through one plan (``plan``: the per-decision, per-offensive and per-game memos and the
position info), never through the brain.

* ``plan`` -- the memos, the position info (units and enemy strength by hex, distances to the
  enemy and the objectives, goal fields, the prize mask), goal fields by unit, victory hexes a
  move enters (24.4), what an HQ commands where it stands (22.1).
* ``fields`` -- the Axis goal fields by path distance over enterable land (24.1) and the lanes.
* ``pricing`` -- attacks priced over the CRT rows (26.1, 26.4) and the greedy attack plans
  (22.1-22.3, 26.0).
* ``command`` -- the seasonal purchase of offensives and the EPs kept for them (38.2, 38.3),
  the initiative and the activation of HQs, units, generals, stacks and minors (22.0-22.4).
* ``movement`` -- HQ moves (23.2), offensive movement (24), the Movement phase and rail (30,
  31), exploitation (29.2).
* ``combat`` -- breakthrough (28.0), designation and resolution (26), losses, retreats and
  advances (27), breakthrough movement (28.3).
* ``construction`` -- rebuilds, force-pool placements and builds (37, 23.1, 27.5).
* ``air`` -- ground support, interception, fighter sweeps and rebasing, air offensives (12-21).
* ``strategic`` -- strategic bombing raids and their defence (2.0-2.5).
* ``politics`` -- declarations by the scenario's timetable, activations, claims, lend lease and
  Vichy (35, 36.5, 39, 40.4, 43.2, 43.3).

Anything else ends the step or passes.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from workbench.bots.heuristic import Brain, Context
from workbench.rulesets.eto.bot import (
    air,
    combat,
    command,
    construction,
    movement,
    naval,
    politics,
    strategic,
)
from workbench.rulesets.eto.bot.plan import GRAB_HEXES, OBJECTIVE_PULL
from workbench.rulesets.eto.bot.pricing import RESULT_VALUE

__all__ = ["GRAB_HEXES", "OBJECTIVE_PULL", "PLANNERS", "RESULT_VALUE", "ETOBrain"]

Planner = Callable[[Context], "dict[str, Any] | None"]

#: decision kind -> planner, in the order the brain tries them when a decision offers several kinds
PLANNERS: tuple[tuple[str, Planner], ...] = (
    ("create_vichy", politics.vichy), ("winter_war", politics.winter_war), ("declare_war", politics.declare),
    ("claim_territory", politics.claim), ("activate_partner", politics.activate), ("lend_lease", politics.lend_lease),
    ("intercept", air.intercept), ("intercept_naval", naval.intercept), ("naval_search", naval.search),
    ("load_supply", naval.load), ("sail", naval.sail),
    ("raid", strategic.place), ("reinforce_box", strategic.defend),
    ("interdict_convoy", strategic.interdict), ("escort_intercept", strategic.escort_intercept),
    ("take_losses", combat.take_losses), ("retreat", combat.retreat),
    ("advance", combat.advance), ("bt_move", combat.bt_move),
    ("buy_offensives", command.buy),
    ("designate", combat.designate), ("resolve", combat.resolve),
    ("air_offensive", air.air_offensive),
    ("activate_hq", command.activate_hq), ("move_hq", movement.move_hq),
    ("activate", command.activate),
    ("begin", air.begin), ("begin", command.begin), ("breakthrough", combat.breakthrough), ("fly", air.fly),
    ("attack", combat.attack), ("recover_pilots", construction.recover), ("build", construction.build),
    ("rebuild", construction.build),
    ("place_hq", construction.build), ("move", movement.move), ("rail", movement.move),
    ("place_maginot_fort", construction.maginot_fort),  # 40.5; Spain/Turkey (47.3/47.4): never tried
)


class ETOBrain(Brain):
    """The ETO heuristic brain for one side: the first planner, in :data:`PLANNERS` order, that
    proposes an order for one of the decision's kinds."""

    def __init__(self, side: str) -> None:
        self.side = side

    def propose(self, ctx: Context) -> dict[str, Any] | None:
        kinds = set(ctx.decision.kinds)
        for kind, planner in PLANNERS:
            if kind in kinds:
                order = planner(ctx)
                if order is not None:
                    return order
        return None
