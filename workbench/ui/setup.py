"""The scenario set-up panel: pick a scenario, switch options and optional rules, override rule
tables for this game, edit the starting position on the map and the tracks, and save the result
as a new scenario TOML that loads back to the same state digest.

Every edit works on a *draft* (the scenario's TOML data with each unit written out once) and
is checked before it is taken: the draft must pass the scenario validator (the map, the
ruleset's unit types, land units off water ...) and, unless *designer mode* is on, the
position must break no set-up rule (``ruleset.setup_breaches``: the map's checks, stacking,
neutral territory, deployment areas, control at the start).  A refused edit says why and
changes nothing.  In designer mode the edit is taken and the panel lists every rule the
position breaks.  Breaches the scenario has as shipped are not held against an edit.
"""

from __future__ import annotations

import copy
import html
import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

import ipywidgets as widgets

from workbench.engine.errors import ScenarioError
from workbench.engine.game import Game, load_scenario
from workbench.engine.ruleset import get_ruleset
from workbench.engine.scenario import Scenario, scenario_ids, validate
from workbench.engine.state import State
from workbench.map import load_map
from workbench.ui.tomlw import dumps

if TYPE_CHECKING:
    from workbench.ui.workbench import Workbench

TOOLS = ("move", "add", "remove", "reduce", "reinforce")


class SetupError(Exception):
    """An edit that was refused; ``rule`` and ``why`` as for IllegalOrder."""

    def __init__(self, rule: str, why: str) -> None:
        self.rule, self.why = rule, why
        super().__init__(f"{rule}: {why}")


def expand_units(raw: dict[str, Any]) -> list[dict[str, Any]]:
    """The [[units]] entries with ``count`` written out, one entry per unit id (same ids)."""
    out = []
    for u in raw.get("units", []):
        n = u.get("count", 1)
        if n == 1:
            out.append({k: v for k, v in u.items() if k != "count"})
            continue
        for i in range(1, n + 1):
            e = {k: v for k, v in u.items() if k != "count"}
            e["id"] = f"{u['id']}-{i}"
            out.append(e)
    return out


class Draft:
    """An editable scenario: raw TOML data + options + overrides; builds games and states."""

    def __init__(self, game: Game, seed: int) -> None:
        self.base = game
        self.seed = seed
        self.raw = copy.deepcopy(game.scenario.raw)
        self.raw["units"] = expand_units(self.raw)
        self.file = game.scenario.file
        self.options = copy.deepcopy(game.options)
        self.overrides = copy.deepcopy(game.overrides)
        self.designer = False
        self._inherited: set[tuple[str, str]] | None = None

    def inherited(self) -> set[tuple[str, str]]:
        """Breaches the scenario itself has as shipped: listed, never held against an edit."""
        if self._inherited is None:
            try:
                self._inherited = set(self.base.ruleset.setup_breaches(self.base.new_state(self.seed)))
            except Exception:  # noqa: BLE001 - a scenario that cannot set up has nothing to inherit
                self._inherited = set()
        return self._inherited

    def validated(self, raw: dict[str, Any]) -> Scenario:
        try:
            return validate(raw, self.file)
        except ScenarioError as exc:
            raise SetupError(f"scenario [{exc.key}]", exc.message) from None

    def game(self, raw: dict[str, Any] | None = None, options: dict[str, Any] | None = None,
             overrides: dict[str, Any] | None = None) -> Game:
        raw = self.raw if raw is None else raw
        sc = self.validated(raw)
        rs = get_ruleset(sc.ruleset)
        ov = self.overrides if overrides is None else overrides
        if ov:
            try:
                rs = rs.with_overrides(ov)
            except (KeyError, IndexError, ValueError, TypeError) as exc:
                raise SetupError("override", f"cannot override: {exc}") from None
        opts = {**sc.options, **(self.options if options is None else options)}
        return Game(rs, load_map(sc.map), sc, opts, dict(ov))

    def trial(self, raw: dict[str, Any], **kw: Any) -> tuple[State, list[tuple[str, str]]]:
        """Build the position of ``raw``; raise SetupError if it breaks a rule (outside designer mode)."""
        try:
            state = self.game(raw, **kw).new_state(self.seed)
        except SetupError:
            raise
        except Exception as exc:  # noqa: BLE001 - any failure to set up is a refusal, not a crash
            raise SetupError("set-up", f"{type(exc).__name__}: {exc}") from None
        breaches = [b for b in state.ruleset.setup_breaches(state) if b not in self.inherited()]
        if breaches and not self.designer:
            rule, why = breaches[0]
            more = f" (and {len(breaches) - 1} more)" if len(breaches) > 1 else ""
            raise SetupError(rule, why + more + "; switch on designer mode to allow it")
        return state, breaches

    def unit(self, raw: dict[str, Any], uid: str) -> dict[str, Any]:
        for u in raw["units"]:
            if u["id"] == uid:
                return u
        raise SetupError("set-up", f"no unit {uid!r} in the scenario")

    def toml(self, new_id: str, title: str) -> str:
        raw = copy.deepcopy(self.raw)
        raw["id"], raw["title"] = new_id, title
        if self.designer:  # its position may break set-up rules: say so, or it will not load
            raw["designer_mode"] = True
        if self.options:
            raw["options"] = {**raw.get("options", {}), **self.options}
        head = [f"# {title}: a variant of {self.base.scenario.id}, saved from the Wargame Workbench set-up panel."]
        if self.overrides:
            head.append("# Rule-table overrides of this variant (pass them to wb.load_scenario(..., overrides=...);")
            head.append("# the scenario format has no key for them yet):")
            head += [f"#   {k} = {json.dumps(v)}" for k, v in self.overrides.items()]
        return "\n".join(head) + "\n" + dumps(raw)


class SetupPanel:
    def __init__(self, wb: Workbench) -> None:
        self.wb = wb
        self.draft = Draft(wb.state.game, wb.state.seed)
        self.picked: str | None = None  # unit picked by the move tool
        lay = widgets.Layout(width="auto")
        ids = scenario_ids()
        cur = wb.state.game.scenario.id
        self.scenario = widgets.Dropdown(description="scenario", options=sorted(set(ids) | {cur}), value=cur,
                                         style={"description_width": "60px"}, layout=widgets.Layout(width="330px"))
        self.seed = widgets.IntText(value=wb.state.seed, description="seed", style={"description_width": "35px"},
                                    layout=widgets.Layout(width="130px"))
        self.load_btn = widgets.Button(description="Load scenario", button_style="primary", layout=lay)
        self.load_btn.on_click(lambda _=None: self.wb._guard(self.load))
        self.options_box = widgets.VBox()
        self.ov_key = widgets.Text(placeholder="table entry, e.g. crt.rows.2", layout=widgets.Layout(width="200px"))
        self.ov_val = widgets.Text(placeholder='JSON value, e.g. ["DR","DE"]', layout=widgets.Layout(width="240px"))
        self.ov_btn = widgets.Button(description="Override", layout=lay)
        self.ov_btn.on_click(lambda _=None: self.wb._guard(self.add_override))
        self.ov_list = widgets.HTML()
        self.edit = widgets.ToggleButton(description="Edit position on the map", icon="pencil", layout=lay)
        self.edit.add_class("wb-setup-edit")
        self.edit.observe(lambda ch: self._edit_mode(ch["new"]), names="value")
        self.tool = widgets.ToggleButtons(options=TOOLS, value="move", style={"button_width": "78px"})
        self.tool.add_class("wb-setup-tool")
        self.designer = widgets.Checkbox(description="designer mode (allow rule breaches)", indent=False,
                                         layout=widgets.Layout(width="280px"))
        self.designer.observe(lambda ch: setattr(self.draft, "designer", ch["new"]), names="value")
        nations = [n for ns in wb.state.game.scenario.sides.values() for n in ns]
        self.nation = widgets.Dropdown(description="add", options=nations, style={"description_width": "30px"},
                                       layout=widgets.Layout(width="120px"))
        self.utype = widgets.Dropdown(options=sorted(wb.state.ruleset.unit_types), layout=widgets.Layout(width="240px"))
        self.tracks_box = widgets.VBox()
        self.track_new = widgets.Text(placeholder="new track, e.g. axis.morale", layout=widgets.Layout(width="200px"))
        self.tracks_btn = widgets.Button(description="Set tracks", layout=lay)
        self.tracks_btn.on_click(lambda _=None: self.wb._guard(self.set_tracks))
        self.breaches = widgets.HTML()
        self.new_id = widgets.Text(description="new id", style={"description_width": "50px"},
                                   layout=widgets.Layout(width="300px"))
        self.new_title = widgets.Text(description="title", style={"description_width": "50px"},
                                      layout=widgets.Layout(width="400px"))
        self.path = widgets.Text(description="file", style={"description_width": "50px"},
                                 layout=widgets.Layout(width="480px"))
        self.save_btn = widgets.Button(description="Save scenario", button_style="success", layout=lay)
        self.save_btn.add_class("wb-setup-save")
        self.save_btn.on_click(lambda _=None: self.wb._guard(self.save))
        self.saved = widgets.HTML()
        self.saved.add_class("wb-setup-saved")
        self.widget = widgets.VBox([
            widgets.HBox([self.scenario, self.seed, self.load_btn]),
            widgets.HTML("<b>Options and optional rules</b> (a change starts a new game from the set-up)"),
            self.options_box,
            widgets.HTML("<b>Rule-table overrides for this game</b>"),
            widgets.HBox([self.ov_key, self.ov_val, self.ov_btn]), self.ov_list,
            widgets.HTML("<b>Starting position</b>: switch on editing, pick a tool, click the map"),
            widgets.HBox([self.edit, self.designer]), self.tool, widgets.HBox([self.nation, self.utype]),
            widgets.HTML("<b>Tracks</b>"), self.tracks_box, widgets.HBox([self.track_new, self.tracks_btn]),
            self.breaches,
            widgets.HTML("<b>Save as a new scenario</b>"), self.new_id, self.new_title,
            widgets.HBox([self.path, self.save_btn]), self.saved])
        self.widget.add_class("wb-setup")
        self.sync()

    # -- helpers -----------------------------------------------------------------------------
    def sync(self) -> None:
        """Rebuild the option, override and track widgets from the draft."""
        d = self.draft
        sid = d.raw.get("id", "scenario")
        if not self.new_id.value:
            self.new_id.value = f"{sid}-whatif"
            self.new_title.value = f"{d.raw.get('title', sid)} (what-if)"
            self.path.value = str(Path("out") / "scenarios" / f"{sid.replace('/', '-')}-whatif.toml")
        rs = get_ruleset(d.raw["ruleset"])
        catalog = {r["id"]: r for r in rs.optional_rules_catalog()}
        for rule in sorted({s.when.split(":", 1)[1] for s in rs.sequence.nodes.values()
                            if s.when and s.when.startswith("optional:")} - set(catalog)):
            catalog[rule] = {"id": rule, "title": f"optional rule {rule}", "summary": ""}
        on = set(d.options.get("optional_rules", []))
        rule_rows = []
        for rule, row in catalog.items():  # every optional rule with its ID and a one-line summary
            cb = widgets.Checkbox(value=rule in on, description=f"{rule} {row['title']}", indent=False,
                                  layout=widgets.Layout(width="300px"))
            cb.add_class("wb-optional-rule")
            cb.observe(lambda ch, r=rule: self.wb._guard(self.set_optional, r, ch["new"]), names="value")
            rule_rows.append(widgets.HBox([cb, widgets.HTML(f"<small>{html.escape(row['summary'])}</small>")]))
        boxes = []
        for k, v in sorted(d.options.items()):
            if isinstance(v, bool):
                cb = widgets.Checkbox(value=v, description=k, indent=False, layout=widgets.Layout(width="200px"))
                cb.observe(lambda ch, key=k: self.wb._guard(self.set_option, key, ch["new"]), names="value")
                boxes.append(cb)
        parts: list[widgets.Widget] = [widgets.HBox(boxes, layout=widgets.Layout(flex_flow="row wrap"))] if boxes else []
        parts += rule_rows
        self.options_box.children = parts or [widgets.HTML("<i>This ruleset declares no optional rules.</i>")]
        self.ov_list.value = ("<ul>" + "".join(f"<li><code>{html.escape(k)}</code> = {html.escape(json.dumps(v))}</li>"
                                               for k, v in d.overrides.items()) + "</ul>") if d.overrides \
            else "<i>No overrides.</i>"
        tracks = d.raw.get("tracks", {})
        rows = []
        for k, v in tracks.items():
            t = widgets.Text(value=json.dumps(v), description=k, style={"description_width": "160px"},
                             layout=widgets.Layout(width="300px"))
            t.track_key = k
            rows.append(t)
        self.tracks_box.children = rows or [widgets.HTML("<i>No tracks in this scenario.</i>")]

    def _edit_mode(self, on: bool) -> None:
        self.wb.mode = "setup" if on else "play"
        self.picked = None
        self.wb.say("Set-up editing is on: pick a tool and click the map." if on
                    else "Set-up editing is off: clicks give orders again.", "info")

    def commit(self, raw: dict[str, Any], what: str, **kw: Any) -> bool:
        """Take an edited draft if it builds and breaks no rule (or designer mode is on)."""
        try:
            state, breaches = self.draft.trial(raw, **kw)
        except SetupError as exc:
            self.wb.say(f"Refused ({what}): {exc.why} [rule {exc.rule}]. Nothing was changed.", "refused")
            self.wb.last_message = (f"{exc.rule}: {exc.why}", "refused")
            return False
        self.draft.raw = raw
        for k in ("options", "overrides"):
            if k in kw:
                setattr(self.draft, k, kw[k])
        kept = ""
        if self.wb.history.keeps_something():
            old = self.wb.history.live
            name = self.wb.history.adopt_edit(state)
            kept = f" The game before the edit is kept as branch '{old}' (Undo, fork & replay); this is '{name}'."
        else:
            self.wb.history.adopt(state)
        self.wb.set_state(state)
        self.breaches.value = ("<b>This position breaks:</b><ul>" + "".join(
            f"<li><span class='wb-rule'>{html.escape(r)}</span> {html.escape(w)}</li>" for r, w in breaches)
            + "</ul>") if breaches else "<i>The position breaks no set-up rule the workbench can check.</i>"
        self.wb.say(f"Set-up: {what}." + (f" ({len(breaches)} rule breach(es), designer mode)" if breaches else "")
                    + kept, "ok")
        return True

    # -- scenario, options, overrides, tracks -------------------------------------------------
    def load(self, sid: str | None = None, seed: int | None = None) -> bool:
        sid = sid or self.scenario.value
        seed = self.seed.value if seed is None else seed
        try:
            game = load_scenario(sid)
            state = game.new_state(seed)
        except ScenarioError as exc:
            self.wb.say(f"Cannot load {sid}: {exc}", "refused")
            return False
        self.draft = Draft(game, seed)
        self.new_id.value = ""
        self.wb.history.adopt(state)
        self.wb.set_state(state, message=f"Loaded {game.scenario.title} (seed {seed}).")
        self.sync()
        return True

    def set_optional(self, rule: str, on: bool) -> bool:
        opts = copy.deepcopy(self.draft.options)
        rules = [r for r in opts.get("optional_rules", []) if r != rule] + ([rule] if on else [])
        opts["optional_rules"] = sorted(rules)
        return self.commit(copy.deepcopy(self.draft.raw), f"optional rule {rule} {'on' if on else 'off'}",
                           options=opts)

    def set_option(self, key: str, value: Any) -> bool:
        opts = {**copy.deepcopy(self.draft.options), key: value}
        return self.commit(copy.deepcopy(self.draft.raw), f"option {key} = {value}", options=opts)

    def add_override(self, key: str | None = None, value: Any = None) -> bool:
        key = (key or self.ov_key.value).strip()
        if value is None:
            try:
                value = json.loads(self.ov_val.value)
            except json.JSONDecodeError as exc:
                self.wb.say(f"Refused (override): the value must be JSON ({exc}). Nothing was changed.", "refused")
                return False
        ov = {**self.draft.overrides, key: value}
        ok = self.commit(copy.deepcopy(self.draft.raw), f"override {key}", overrides=ov)
        if ok:
            self.sync()
        return ok

    def set_tracks(self, values: dict[str, Any] | None = None) -> bool:
        raw = copy.deepcopy(self.draft.raw)
        tracks = dict(raw.get("tracks", {}))
        if values is None:
            values = {}
            for t in self.tracks_box.children:
                if hasattr(t, "track_key"):
                    try:
                        values[t.track_key] = json.loads(t.value)
                    except json.JSONDecodeError:
                        values[t.track_key] = t.value
            if self.track_new.value.strip():
                values[self.track_new.value.strip()] = 0
        tracks.update(values)
        raw["tracks"] = tracks
        ok = self.commit(raw, "tracks " + ", ".join(f"{k} = {v}" for k, v in values.items()))
        if ok:
            self.track_new.value = ""
            self.sync()
        return ok

    # -- the position --------------------------------------------------------------------------
    def click(self, label: str) -> None:
        tool = self.tool.value
        state = self.wb.state
        here = [u.id for u in state.units_at(label)]
        if tool == "move":
            if self.picked is None:
                if not here:
                    self.wb.say(f"No unit at {label} to move.", "warn")
                    return
                self.picked = here[0]
                self.wb.map.selected_unit = self.picked
                self.wb.map.set_overlay("selected", [label], "#ff7f0e")
                self.wb.map.refresh(state, self.wb.side)
                self.wb.say(f"{self.picked} picked: click the hex to put it in.", "info")
                return
            uid, self.picked = self.picked, None
            self.wb.map.selected_unit = None
            self.wb.map.set_overlay("selected", [])
            self.move_unit(uid, label)
        elif tool == "add":
            self.add_unit(self.nation.value, self.utype.value, label)
        elif not here:
            self.wb.say(f"No unit at {label}.", "warn")
        elif tool == "remove":
            self.remove_unit(here[0])
        elif tool in ("reduce", "reinforce"):
            self.set_reduced(here[0], tool == "reduce")

    def move_unit(self, uid: str, label: str) -> bool:
        raw = copy.deepcopy(self.draft.raw)
        self.draft.unit(raw, uid)["at"] = label
        return self.commit(raw, f"{uid} moved to {label}")

    def add_unit(self, nation: str, utype: str, label: str) -> bool:
        raw = copy.deepcopy(self.draft.raw)
        ids = {u["id"] for u in raw["units"]}
        n = 1
        while f"{nation}-{utype}-{n}" in ids:
            n += 1
        uid = f"{nation}-{utype}-{n}"
        raw["units"].append({"id": uid, "nation": nation, "type": utype, "at": label})
        return self.commit(raw, f"{uid} added at {label}")

    def remove_unit(self, uid: str) -> bool:
        raw = copy.deepcopy(self.draft.raw)
        raw["units"] = [u for u in raw["units"] if u["id"] != uid]
        return self.commit(raw, f"{uid} removed")

    def set_reduced(self, uid: str, reduced: bool) -> bool:
        raw = copy.deepcopy(self.draft.raw)
        self.draft.unit(raw, uid)["reduced"] = reduced
        return self.commit(raw, f"{uid} {'reduced' if reduced else 'reinforced to full strength'}")

    # -- saving ------------------------------------------------------------------------------------
    def save(self, path: str | Path | None = None, new_id: str | None = None, title: str | None = None) -> Path | None:
        path = Path(path or self.path.value)
        new_id = new_id or self.new_id.value or f"{self.draft.raw['id']}-whatif"
        title = title or self.new_title.value or new_id
        text = self.draft.toml(new_id, title)
        from workbench.engine.record import atomic_write_text

        atomic_write_text(path, text)
        want = self.draft.game().new_state(self.draft.seed).digest()
        try:
            got = load_scenario(path, overrides=self.draft.overrides or None).new_state(self.draft.seed).digest()
        except ScenarioError as exc:
            self.saved.value = f"<span class='wb-msg-refused'>Saved {html.escape(str(path))} but it does not load: {html.escape(str(exc))}</span>"
            return None
        ok = got == want
        self.saved.value = (f"Saved <code>{html.escape(str(path))}</code>; loading it back gives "
                            + ("<b>the same state digest ✓</b>" if ok else "<b>a different digest ✗</b>")
                            + f" (<code>{got[:12]}</code>).")
        self.wb.say(f"Scenario saved to {path}" + (" and verified." if ok else " but the digest differs!"),
                    "ok" if ok else "refused")
        return path if ok else None
