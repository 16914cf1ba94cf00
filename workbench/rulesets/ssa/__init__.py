"""SS Amerika ruleset (rules 1.0-20.0 basic game; 21-30 optional).

The sequence of play (SSA-4.0) and every rule table are data in ``tables/``.
"""

from workbench.rulesets.ssa.ruleset import SSARuleset

RULESET = SSARuleset()
