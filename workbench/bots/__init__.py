"""Bots: policies that choose orders from what their side may see."""

from workbench.bots.policy import Policy, RandomPolicy, play

__all__ = ["Policy", "RandomPolicy", "play"]
