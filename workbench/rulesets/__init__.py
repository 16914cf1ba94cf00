"""The rulesets: SS Amerika (``ssa``) and ETO (``eto``)."""
