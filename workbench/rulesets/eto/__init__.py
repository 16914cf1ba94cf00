"""ETO ruleset: World War II: European Theater of Operations.

The monthly and seasonal sequences of play and every rule table are data in ``tables/``.
"""

from workbench.rulesets.eto.ruleset import ETORuleset

RULESET = ETORuleset()
