"""Write the malformed-input corpora of issue 20 (run from the repository root:
``python tests/data/bad/build_corpus.py``).

Each case is one file under ``scenarios/`` or ``records/``, made by breaking a valid base
(``scenarios/base-ssa.toml``, ``scenarios/base-eto.toml``, ``records/base.json``) in one
place; ``cases.toml`` beside them gives each case's expected error class and key (and the
issue item it belongs to).  ``tests/test_bad_inputs.py`` runs them all.  The files are
committed: this script only documents how they were made and rebuilds them after a change.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

HERE = Path(__file__).resolve().parent
SCEN = HERE / "scenarios"
RECS = HERE / "records"


def _toml_str(v: object) -> str:
    if isinstance(v, str):
        return json.dumps(v)
    if isinstance(v, bool):
        return "true" if v else "false"
    return str(v)


def _manifest(cases: list[dict]) -> str:
    out = ["# Malformed inputs and the typed error each must raise (tests/test_bad_inputs.py).",
           "# Written by build_corpus.py; `item` is the item of issue 20 the case belongs to.", ""]
    for c in cases:
        out.append("[[case]]")
        out += [f"{k} = {_toml_str(v)}" for k, v in c.items()]
        out.append("")
    return "\n".join(out)


# -- scenarios --------------------------------------------------------------------------------
SSA = (SCEN / "base-ssa.toml").read_text()
ETO = (SCEN / "base-eto.toml").read_text()


def sub(text: str, old: str, new: str) -> str:
    assert old in text, old
    return text.replace(old, new, 1)


def ssa(old: str, new: str) -> str:
    return sub(SSA, old, new)


def eto(old: str, new: str) -> str:
    return sub(ETO, old, new)


VICTORY = '[victory]\nsource = "authored"\nrule = "SSA-20"\nreplaces_standard = false\n'
GUARD = 'units = [{ id = "US-ng", nation = "US", type = "infantry_division", count = 2, reduced = true }]'
SR_TURNS = 'turns = [1]\n'
SR_BLOCK = SSA[SSA.index("[[special_rules]]"):SSA.index("[victory]")]
SECOND_GROUP = ('\n[[deployment]]\nname = "us-east"\nside = "allies"\nrule = "SSA-SC"\n'
                'where = { country = "US" }\ndefault = ["Boston"]\n')
SECOND_GUARD = ('\n[[reinforcements]]\nid = "US-guard"\nturn = "1942-08"\nside = "allies"\n'
                'units = [{ id = "US-ng2", nation = "US", type = "infantry_division" }]\n'
                'where = { country = "US" }\n')
LONG = "x" * 10_000

SCENARIO_CASES: list[tuple[str, str, str, int, str]] = [
    # (file, text, key, item, why)
    ("ssa-reinforcement-unit-type-typo.toml", ssa('type = "infantry_division", count = 2',
                                                  'type = "infantry_divison", count = 2'),
     "reinforcements[0] (US-guard).units[0] (US-ng).type", 4, "a typo in a reinforcement's unit type"),
    ("ssa-victory-is-a-list.toml", ssa(VICTORY, "").replace('last_turn = "1942-09"\n',
                                                            'last_turn = "1942-09"\nvictory = []\n'),
     "victory", 4, "victory = []"),
    ("ssa-special-rule-turns-is-text.toml", ssa(SR_TURNS, 'turns = "1"\n'), "special_rules[0] (SR1).turns", 4,
     'turns = "1" in a special rule'),
    ("ssa-unknown-special-rule-effect.toml", ssa('effect = "side_frozen"', 'effect = "side_frozzen"'),
     "special_rules[0] (SR1).effect", 4, "an unknown special-rule effect"),
    ("ssa-special-rule-unknown-parameter.toml", ssa(SR_TURNS, "turn = [1]\n"), "special_rules[0] (SR1).turn", 4,
     "a special rule's parameter misspelt"),
    ("ssa-special-rule-side-unknown.toml", ssa('side = "allies"\nturns', 'side = "soviets"\nturns'),
     "special_rules[0] (SR1).side", 4, "a special rule for a side the ruleset lacks"),
    ("ssa-special-rule-turn-past-the-end.toml", ssa(SR_TURNS, "turns = [9]\n"), "special_rules[0] (SR1).turns", 4,
     "a special rule for game turn 9 of a 4-turn scenario"),
    ("ssa-special-rule-nations-is-text.toml",
     SSA + '\n[[special_rules]]\nid = "N"\neffect = "neutral_nations"\nnations = "CO"\n',
     "special_rules[1] (N).nations", 4, "neutral_nations given as text"),
    ("ssa-special-rules-not-a-list.toml", sub(ssa(SR_BLOCK, ""), "[options]", 'special_rules = "none"\n\n[options]'),
     "special_rules", 4, "special_rules as text"),
    ("ssa-control-purple.toml", ssa('US = "allies"', 'US = "purple"'), "control.US", 4, 'control "purple"'),
    ("ssa-control-unknown-country.toml", ssa('CA = "allies"', 'CA = "allies"\nXX = "allies"'), "control.XX", 4,
     "control of a country code the rules lack"),
    ("ssa-control-region-unknown.toml", ssa('[technologies]', '[control_regions]\natlantis = "axis"\n\n[technologies]'),
     "control_regions.atlantis", 4, "a control region the map lacks"),
    ("ssa-reinforcement-turn-1939-13.toml", ssa('turn = "1942-07"', 'turn = "1939-13"'),
     "reinforcements[0] (US-guard).turn", 4, 'reinforcement turn = "1939-13"'),
    ("ssa-reinforcement-turn-after-the-end.toml", ssa('turn = "1942-07"', 'turn = "1943-07"'),
     "reinforcements[0] (US-guard).turn", 4, "a reinforcement after the last turn (never arrives)"),
    ("ssa-reinforcement-without-turn-or-trigger.toml", ssa('turn = "1942-07"\n', ''),
     "reinforcements[0] (US-guard)", 4, "a reinforcement that never arrives"),
    ("ssa-reinforcement-trigger-unknown-event.toml", ssa('turn = "1942-07"', 'trigger = { event = "coup", country = "AR" }'),
     "reinforcements[0] (US-guard).trigger.event", 4, "a trigger no rules code fires"),
    ("ssa-reinforcement-ids-collide.toml", SSA + SECOND_GUARD, "reinforcements[1].id", 4,
     "two reinforcements with one id"),
    ("ssa-reinforcement-unit-id-collides.toml", ssa('id = "US-ng"', 'id = "US-inf"'),
     "reinforcements[0] (US-guard).units[0] (US-inf).id", 4, "a reinforcement unit with a scenario unit's id"),
    ("ssa-reinforcement-nation-on-no-side.toml", ssa('nation = "US", type = "infantry_division", count = 2',
                                                     'nation = "ME", type = "infantry_division", count = 2'),
     "reinforcements[0] (US-guard).units[0] (US-ng).nation", 4, "a reinforcement of a nation on no side"),
    ("ssa-duplicate-deployment-name.toml", SSA + SECOND_GROUP, "deployment[1] (us-east).name", 4,
     "duplicate deployment names"),
    ("ssa-where-coast-typo.toml", ssa('coast = "east"', 'coast = "eastern"'), "deployment[0] (us-east).where.coast",
     4, "a where table's coast misspelt"),
    ("ssa-where-unknown-key.toml", ssa('coast = "east"', 'coastline = "east"'),
     "deployment[0] (us-east).where.coastline", 4, "an unknown where key"),
    ("ssa-unit-deploys-to-missing-group.toml", ssa('deploy = "us-east"', 'deploy = "us-west"'),
     "units[2] (US-res).deploy", 4, "a unit of a deployment group the scenario lacks (crashed at set-up)"),
    ("ssa-unplaced-unit-without-group.toml", ssa('at = "unplaced"\ndeploy = "us-east"\n', 'at = "unplaced"\n'),
     "units[2] (US-res).deploy", 4, "an unplaced unit with no deployment group"),
    ("ssa-unit-pool-unknown.toml", ssa('type = "armor_division"\n', 'type = "armor_division"\npool = "GE-air"\n'),
     "units[1] (US-arm).pool", 4, "a unit of a pool the scenario lacks"),
    ("ssa-unit-carried-by-unknown.toml", ssa('type = "armor_division"\n', 'type = "armor_division"\ncarried_by = "nobody"\n'),
     "units[1] (US-arm).carried_by", 4, "a unit carried by no unit"),
    ("ssa-nation-on-both-sides.toml", ssa('nations = ["US", "BC"]', 'nations = ["US", "BC", "GE"]'),
     "sides.allies.nations", 4, "one nation on both sides"),
    ("ssa-nation-unknown.toml", ssa('nations = ["US", "BC"]', 'nations = ["US", "BC", "ZZ"]'),
     "sides.allies.nations", 4, "a nation code the rules lack"),
    ("ssa-format-99.toml", ssa("format = 1", "format = 99"), "format", 4, "format = 99"),
    ("ssa-optional-rules-is-text.toml", ssa("optional_rules = []", 'optional_rules = "SSA-21"'),
     "options.optional_rules", 4, "optional_rules given as a string"),
    ("ssa-optional-rule-unknown.toml", ssa("optional_rules = []", 'optional_rules = ["SSA-99"]'),
     "options.optional_rules", 4, "an optional rule the ruleset lacks"),
    ("ssa-expects-optional-rules-is-text.toml", ssa('expects_optional_rules = ["SSA-21"]',
                                                    'expects_optional_rules = "SSA-21"'),
     "expects_optional_rules", 4, "expects_optional_rules as text"),
    ("ssa-ten-divisions-in-one-hex.toml", ssa('at = "New York"\ncount = 2', 'at = "New York"\ncount = 10'),
     "units[0] (US-inf-1).at", 4, "ten divisions in one hex at set-up (SSA-9.1)"),
    ("ssa-unit-sets-up-in-enemy-territory.toml", ssa('nation = "JA"\ntype = "infantry_division"\nat = "Far East"',
                                                     'nation = "JA"\ntype = "infantry_division"\nat = "Denver"'),
     "units[4] (JA-inf).at", 4, "a unit set up on a hex the enemy controls (SSA-17.1)"),
    ("ssa-victory-measure-unknown.toml", ssa("replaces_standard = false", 'replaces_standard = false\nmeasure = "vp"'),
     "victory.measure", 4, "an unknown victory measure"),
    ("ssa-victory-replaces-standard-without-measure.toml", ssa("replaces_standard = false", "replaces_standard = true"),
     "victory.measure", 4, "replaces_standard with nothing to replace it"),
    ("ssa-victory-level-without-result.toml",
     ssa("replaces_standard = false", 'replaces_standard = true\nmeasure = "japanese_controlled_us_industrial_hexes"\n'
                                      'levels = [{ min = 1 }]'),
     "victory.levels[0].result", 4, "a victory level without its result (crashed at the end)"),
    ("ssa-track-misspelt.toml", ssa('"axis.morale" = 60', '"axis.moral" = 60'), "tracks.axis.moral", 4,
     "a track no rule reads"),
    ("ssa-initiative-not-a-side.toml", ssa('"US.mp.industrial" = 5', '"US.mp.industrial" = 5\ninitiative = "purple"'),
     "tracks.initiative", 4, "initiative held by no side"),
    ("ssa-technology-unknown.toml", ssa('allies = ["radar"]', 'allies = ["death_ray"]'), "technologies.allies", 4,
     "an unknown technology"),
    ("ssa-scenario-id-escapes.toml", ssa('id = "test/ssa-base"', 'id = "../escape"'), "id", 7,
     "a scenario id that is a path"),
    ("ssa-unit-props-not-a-table.toml", ssa('at = "Chicago"\n', 'at = "Chicago"\nprops = 5\n'),
     "units[1] (US-arm).props", 5, "props = 5 (TypeError)"),
    ("ssa-unit-props-list-of-pairs.toml", ssa('at = "Chicago"\n', 'at = "Chicago"\nprops = [[1, 2]]\n'),
     "units[1] (US-arm).props", 5, "props = [[1, 2]] (a non-text key)"),
    ("ssa-unit-id-10000-characters.toml", ssa('id = "US-arm"', f'id = "{LONG}"'), "units[1].id", 6,
     "a 10,000-character unit id"),
    ("ssa-deep-nesting-5000.toml", SSA + "\n[bogus_nest]\nx = " + "[" * 5000 + "]" * 5000 + "\n", "(file)", 5,
     "TOML nested 5,000 deep (RecursionError)"),
    ("ssa-deep-nesting-40.toml", ssa("optional_rules = []", "optional_rules = []\nnest = " + "[" * 40 + "]" * 40),
     "(file)", 6, "TOML nested 40 deep (past the depth limit)"),
    ("ssa-map-broken-meta-json.toml", ssa('map = "north-america"', 'map = "maps/broken-meta"'), "map", 5,
     "a map folder whose meta.json is not JSON (JSONDecodeError)"),
    ("ssa-map-without-hexes.toml", ssa('map = "north-america"', 'map = "maps/no-hexes"'), "map", 5,
     "a map folder without hexes.parquet (FileNotFoundError)"),
    ("ssa-map-name-10000-characters.toml", ssa('map = "north-america"', f'map = "{LONG}"'), "map", 5,
     "a 10,000-character map name (OSError)"),
    ("ssa-count-one-billion.toml", ssa('at = "New York"\ncount = 2', 'at = "New York"\ncount = 1000000000'),
     "units[0] (US-inf).count", 6, "count = 1000000000 (23 s, then MemoryError)"),
    ("ssa-reinforcement-of-a-million.toml", ssa(GUARD, GUARD.replace("count = 2", "count = 1000000")),
     "reinforcements[0] (US-guard).units[0] (US-ng).count", 6, "a reinforcement of a million units (hangs play)"),
    ("ssa-reinforcement-of-501.toml", ssa(GUARD, GUARD.replace("count = 2", "count = 501")),
     "reinforcements[0] (US-guard).units[0] (US-ng).count", 6, "a reinforcement past 500 units"),
    ("ssa-calendar-8000-years.toml", ssa('last_turn = "1942-09"', 'last_turn = "9999-12"'), "last_turn", 6,
     "a calendar of 96,000 turns"),
    # ETO
    ("eto-reinforcement-unit-type-typo.toml", eto('type = "infantry" }]', 'type = "infantri" }]'),
     "reinforcements[0].units[0] (GE-XXXV).type", 4, "a typo in a reinforcement's unit type"),
    ("eto-reinforcement-takes-no-count.toml", eto('type = "infantry" }]', 'type = "infantry", count = 2 }]'),
     "reinforcements[0].units[0].count", 4, "count on an ETO reinforcement (ignored: one unit came)"),
    ("eto-reinforcement-turn-1941-13.toml", eto('turn = "1941-07"', 'turn = "1941-13"'), "reinforcements[0].turn", 4,
     'reinforcement turn = "1941-13"'),
    ("eto-reinforcement-seasonal-turn.toml", eto('turn = "1941-07"', 'turn = "1941-summer"'),
     "reinforcements[0].turn", 4, "a reinforcement on a seasonal turn (never arrives)"),
    ("eto-reinforcement-nation-on-no-side.toml", eto('nation = "GE"\nunits = [', 'nation = "IT"\nunits = ['),
     "reinforcements[0].nation", 4, "a reinforcement of a nation on no side (KeyError mid-game)"),
    ("eto-reinforcement-unit-id-collides.toml", eto('id = "GE-XXXV"', 'id = "GE-pz"'),
     "reinforcements[0].units[0] (GE-pz).id", 4, "a reinforcement unit with a scenario unit's id"),
    ("eto-force-pool-ids-collide.toml", ETO + '\n[[force_pool]]\nnation = "SU"\ntype = "infantry"\ncount = 1\n',
     "force_pool[1]", 4, "two force pool entries making the same unit ids"),
    ("eto-force-pool-of-a-million.toml", eto("count = 2", "count = 1000000"), "force_pool[0].count", 6,
     "a force pool of a million units"),
    ("eto-unknown-special-rule-effect.toml", eto('effect = "land_only"', 'effect = "land_onyl"'),
     "special_rules[0] (land_only).effect", 4, "an unknown special-rule effect"),
    ("eto-special-rule-unknown-parameter.toml", eto('effect = "land_only"', 'effect = "land_only"\nturns = [1]'),
     "special_rules[0] (land_only).turns", 4, "a parameter the effect does not take"),
    ("eto-control-purple.toml", eto('USSR = "allies"', 'USSR = "purple"'), "control.USSR", 4, 'control "purple"'),
    ("eto-control-unknown-country.toml", eto('USSR = "allies"', 'USSR = "allies"\nAtlantis = "axis"'),
     "control.Atlantis", 4, "control of a country the map lacks"),
    ("eto-nation-on-both-sides.toml", eto('nations = ["SU"]', 'nations = ["SU", "GE"]'), "sides.allies.nations", 4,
     "one nation on both sides"),
    ("eto-format-99.toml", eto("format = 1", "format = 99"), "format", 4, "format = 99"),
    ("eto-optional-rules-is-text.toml", eto("[sides.axis]", '[options]\noptional_rules = "ETO-46"\n\n[sides.axis]'),
     "options.optional_rules", 4, "optional_rules given as a string"),
    ("eto-optional-rule-unknown.toml", eto("[sides.axis]", '[options]\noptional_rules = ["SSA-21"]\n\n[sides.axis]'),
     "options.optional_rules", 4, "another ruleset's optional rule"),
    ("eto-initiative-not-a-side.toml", eto('initiative = "axis"', 'initiative = "purple"'), "tracks.initiative", 4,
     "initiative held by no side"),
    ("eto-track-eps-is-text.toml", eto('"GE.eps" = 10', '"GE.eps" = "ten"'), "tracks.GE.eps", 4, "EPs as text"),
    ("eto-victory-is-a-list.toml", sub(ETO[:ETO.index("[victory]")], 'last_turn = "1941-08"\n',
                                       'last_turn = "1941-08"\nvictory = []\n'),
     "victory", 4, "victory = []"),
    ("eto-victory-vp-is-text.toml", eto("vp = 10", 'vp = "ten"'), "victory.objectives[0].vp", 4,
     "objective VP as text (crashed at the end)"),
    ("eto-seasonal-turns-not-in-calendar.toml", eto('last_turn = "1941-08"', 'last_turn = "1941-08"\n'
                                                    'seasonal_turns = ["1941-spring"]'),
     "seasonal_turns", 4, "a seasonal turn the calendar lacks"),
    ("eto-four-corps-in-one-hex.toml", eto('at = "Warsaw"\n', 'at = "Warsaw"\ncount = 4\n'), "units[0] (GE-inf-1).at",
     4, "four corps in one hex at set-up (ETO-24.2)"),
    ("eto-unit-sets-up-in-enemy-territory.toml", eto('at = "Lublin"', 'at = "Smolensk"'), "units[1] (GE-pz).at", 4,
     "a unit set up on a hex the enemy controls (ETO-24.4)"),
]

#: Cases loaded by id (never a file of their own): a path is not an id (item 7).
ID_CASES = [
    {"name": "id-climbs-out-of-scenarios", "id": "../tests/data/bad/scenarios/base-ssa", "error": "ScenarioError",
     "key": "(id)", "item": 7, "why": "an id that climbs out of scenarios/ (read a .toml elsewhere)"},
    {"name": "id-absolute-path", "id": "/etc/passwd", "error": "ScenarioError", "key": "(id)", "item": 7,
     "why": "an absolute path as an id"},
    {"name": "id-10000-characters", "id": "x", "repeat": 10_000, "error": "ScenarioError", "key": "(id)", "item": 5,
     "why": "a 10,000-character id (OSError: file name too long)"},
    {"name": "path-is-a-folder", "file": "folder.toml", "error": "ScenarioError", "key": "(file)", "item": 5,
     "why": "a folder named like a scenario file (IsADirectoryError)"},
]


def build_scenarios() -> None:
    for old in SCEN.glob("*.toml"):
        if old.is_file() and old.name not in ("base-ssa.toml", "base-eto.toml", "cases.toml"):
            old.unlink()
    cases = []
    for name, text, key, item, why in SCENARIO_CASES:
        assert text not in (SSA, ETO), name
        (SCEN / name).write_text(text, encoding="utf-8")
        cases.append({"file": name, "error": "ScenarioError", "key": key, "item": item, "why": why})
    cases += ID_CASES
    (SCEN / "folder.toml").mkdir(exist_ok=True)
    (SCEN / "folder.toml" / "README").write_text("A folder named like a scenario file (a case of cases.toml).\n")
    maps = SCEN / "maps"
    (maps / "broken-meta").mkdir(parents=True, exist_ok=True)
    (maps / "broken-meta" / "meta.json").write_text('{"name": "broken", "grid": {"cols": 4,\n')
    (maps / "no-hexes").mkdir(parents=True, exist_ok=True)
    (maps / "no-hexes" / "meta.json").write_text('{"name": "no-hexes", "grid": {"cols": 4, "rows": 4}}\n')
    (SCEN / "cases.toml").write_text(_manifest(cases), encoding="utf-8")


# -- records ----------------------------------------------------------------------------------
def build_records() -> None:
    base_text = (RECS / "base.json").read_text()
    base = json.loads(base_text)
    for old in RECS.glob("*.json"):
        if old.is_file() and old.name != "base.json":
            old.unlink()

    def with_(**kw: object) -> str:
        return json.dumps({**base, **kw}, indent=1) + "\n"

    edited = json.loads(base_text)
    edited["annotations"]["2"]["comment"] = "edited after saving"
    big = list(base["orders"])
    big[2] = {**big[2], "padding": "x" * 70_000}
    no_kind = list(base["orders"])
    no_kind[3] = {"unit": "US-ftr-i"}
    sail_list = list(base["orders"])
    sail_list[11] = {"kind": "sail", "unit": "JA-cv", "to": ["051025"]}
    cases = [
        ("seed-negative.json", with_(seed=-1), "seed", 5, "seed: -1"),
        ("seed-5000-digits.json", re.sub(r'"seed": 5,', '"seed": ' + "7" * 5000 + ",", base_text), "(file)", 5,
         "a 5,000-digit seed (ValueError from the JSON reader)"),
        ("seed-past-the-limit.json", with_(seed=2**64), "seed", 6, "a seed past 2**64 - 1"),
        ("overrides-a-list.json", with_(overrides=[1, 2]), "overrides", 5, "overrides of the wrong type"),
        ("overrides-unknown-entry.json", with_(overrides={"no.such.entry": 1}), "overrides", 5,
         "an override of no table entry"),
        ("nested-100000-deep.json", "[" * 100_000 + "]" * 100_000, "(file)", 5, "JSON nested 100,000 deep"),
        ("nested-40-deep.json", with_(branches=[json.loads("[" * 39 + "]" * 39)]), "(file)", 6,
         "JSON nested past the depth limit"),
        ("scenario-10000-characters.json", with_(scenario="s" * 10_000), "scenario", 5,
         "a 10,000-character scenario name"),
        ("scenario-absolute-path.json", with_(scenario="/etc/passwd"), "scenario", 7, "a record naming a file"),
        ("scenario-climbs-out.json", with_(scenario="../tests/data/bad/scenarios/base-ssa"), "scenario", 7,
         "a record naming a scenario outside scenarios/"),
        ("scenario-toml-file.json", with_(scenario="ssa/valor-of-ignorance.toml"), "scenario", 7,
         "a record naming a .toml file"),
        ("version-true.json", with_(version=True), "version", 5, "version: true"),
        ("ruleset-does-not-match.json", with_(ruleset="eto", ruleset_version="0.2"), "ruleset", 5,
         "a ruleset label that does not match the scenario"),
        ("ruleset-10000-characters.json", with_(ruleset="r" * 10_000), "ruleset", 6, "a 10,000-character ruleset"),
        ("options-optional-rules-text.json", with_(options={"optional_rules": "SSA-21"}), "options", 5,
         "optional_rules as text in the record's options"),
        ("annotation-is-text.json", with_(annotations={"2": "the first move"}), "annotations.2", 5,
         "an annotation of the wrong type (crashed the log view)"),
        ("annotation-comment-is-a-number.json", with_(annotations={"2": {"comment": 5, "marks": []}}),
         "annotations.2.comment", 5, "an annotation comment of the wrong type"),
        ("annotation-marks-is-text.json", with_(annotations={"2": {"comment": "x", "marks": "!"}}),
         "annotations.2.marks", 5, "annotation marks of the wrong type"),
        ("annotation-key-not-a-number.json", with_(annotations={"x": {"comment": "x", "marks": []}}),
         "annotations.x", 5, "an annotation key that is no order number"),
        ("annotation-past-the-orders.json", with_(annotations={"99": {"comment": "x", "marks": []}}),
         "annotations.99", 5, "an annotation of an order the record lacks"),
        ("notes-edited-after-saving.json", json.dumps(edited, indent=1), "notes_digest", 8,
         "annotations edited after the record was saved"),
        ("digest-not-hex.json", with_(digest="xyz"), "digest", 5, "a digest that is no SHA-256"),
        ("branches-text.json", with_(branches="none"), "branches", 5, "branches of the wrong type"),
        ("order-without-kind.json", with_(orders=no_kind), "orders.3", 5, "an order without a kind"),
        ("order-70000-characters.json", with_(orders=big), "orders.2", 6, "an order past the size limit"),
        ("order-sail-to-a-list.json", with_(orders=sail_list), "orders.11", 5,
         "an order with a field of the wrong type (sail to a list: TypeError)"),
    ]
    manifest = []
    for name, text, key, item, why in cases:
        (RECS / name).write_text(text, encoding="utf-8")
        manifest.append({"file": name, "error": "RecordError", "key": key, "item": item, "why": why})
    (RECS / "folder.json").mkdir(exist_ok=True)
    (RECS / "folder.json" / "README").write_text("A folder named like a record file (a case of cases.toml).\n")
    manifest.append({"file": "folder.json", "error": "RecordError", "key": "(file)", "item": 5,
                     "why": "a folder named like a record (IsADirectoryError)"})
    (RECS / "cases.toml").write_text(_manifest(manifest), encoding="utf-8")


if __name__ == "__main__":
    build_scenarios()
    build_records()
    print(f"wrote {len(SCENARIO_CASES) + len(ID_CASES)} scenario cases and the record cases")
