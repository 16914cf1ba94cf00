"""Where the map draws what is not a land hex: sea areas and off-map boxes.

Sea areas (ETO's North Sea, SS Amerika's Atlantic Ocean ...) are runs of
water hexes; the map labels each at its middle and draws the lines where one
area meets another, so a player sees which area a fleet is in.

Off-map boxes (holding areas, port and escort boxes, transfer boxes) have no
hexes.  Each is drawn as a labelled rectangle just outside the map edge
nearest to what it links to (its hexes, sea areas or other boxes), so the
Europe holding area sits off the east coast and the Pacific one off the west.
Units in a box are drawn inside it like any other stack, and a tap inside the
rectangle is a tap on the box.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from workbench.map import HexMap

#: Box size and spacing in data units (a hex has circumradius 1) on a map 60 hexes across;
#: bigger maps scale them up so a box stays readable when the whole map is shown.
BOX_W, BOX_H, GAP, MARGIN = 9.0, 5.0, 1.2, 2.5


@dataclass(frozen=True)
class BoxSpot:
    """A box's rectangle on the figure: centre, size and the map edge it hangs off."""

    name: str
    x: float
    y: float
    w: float
    h: float
    edge: str

    def contains(self, x: float, y: float) -> bool:
        return abs(x - self.x) <= self.w / 2 and abs(y - self.y) <= self.h / 2


def sea_area_of(hm: HexMap) -> np.ndarray:
    """The sea-area name of each hex ('' on land); a hex on two areas counts for the first."""
    cols = hm.hexes.columns
    col = "sea_area" if "sea_area" in cols else ("ocean" if "ocean" in cols else None)
    if col is None:
        return np.full(hm.size, "", dtype=object)
    return np.array([(v or "").split("|")[0] for v in hm.hexes[col].to_list()], dtype=object)


def sea_anchors(hm: HexMap, hx: np.ndarray, hy: np.ndarray) -> dict[str, int]:
    """Each sea area's hex nearest its median point: where its name is written and where ships
    standing in the area (an ETO space, 7.2) are drawn."""
    area = sea_area_of(hm)
    out: dict[str, int] = {}
    for name in sorted(set(area.tolist()) - {""}):
        idx = np.flatnonzero(area == name)
        mx, my = np.median(hx[idx]), np.median(hy[idx])
        out[name] = int(idx[np.argmin((hx[idx] - mx) ** 2 + (hy[idx] - my) ** 2)])
    return out


def sea_labels(hm: HexMap, hx: np.ndarray, hy: np.ndarray) -> dict[str, list]:
    """One label per sea area, at its anchor hex (:func:`sea_anchors`)."""
    out: dict[str, list] = {"x": [], "y": [], "name": []}
    for name, k in sea_anchors(hm, hx, hy).items():
        out["x"].append(float(hx[k]))
        out["y"].append(float(hy[k]))
        out["name"].append(name)
    return out


def sea_boundaries(hm: HexMap, hx: np.ndarray, hy: np.ndarray) -> dict[str, list]:
    """Hexsides between two water hexes of different sea areas (each side once)."""
    area = sea_area_of(hm)
    nb = hm.neighbors
    out: dict[str, list] = {"x0": [], "y0": [], "x1": [], "y1": []}
    for d in range(3):  # N, NE, SE: every interior side exactly once
        j = nb[:, d]
        ok = j >= 0
        i = np.flatnonzero(ok)
        jj = j[ok]
        diff = (area[i] != "") & (area[jj] != "") & (area[i] != area[jj])
        i = i[diff]
        centre = np.deg2rad(90.0 - 60.0 * d)
        for sign, (kx, ky) in ((-1, ("x0", "y0")), (1, ("x1", "y1"))):
            a = centre + sign * np.deg2rad(30.0)
            out[kx] += (hx[i] + np.cos(a)).tolist()
            out[ky] += (hy[i] + np.sin(a)).tolist()
    return out


def box_layout(hm: HexMap, hx: np.ndarray, hy: np.ndarray) -> dict[str, BoxSpot]:
    """Rectangles for every off-map box, outside the edge nearest what each box links to."""
    if not hm.boxes:
        return {}
    area = sea_area_of(hm)
    x0, x1, y0, y1 = float(hx.min()), float(hx.max()), float(hy.min()), float(hy.max())
    anchors: dict[str, tuple[float, float]] = {}
    for _ in range(3):  # boxes linked only to boxes take their neighbours' anchors
        for name, box in hm.boxes.items():
            if name in anchors:
                continue
            pts: list[tuple[float, float]] = []
            for link in box.links:
                if hm.has_hex(link):
                    i = hm.index(link)
                    pts.append((float(hx[i]), float(hy[i])))
                elif link in anchors:
                    pts.append(anchors[link])
                else:
                    idx = np.flatnonzero(area == link)
                    if idx.size:
                        pts.append((float(np.median(hx[idx])), float(np.median(hy[idx]))))
            if pts:
                anchors[name] = (float(np.mean([p[0] for p in pts])), float(np.mean([p[1] for p in pts])))
    w, h = max(x1 - x0, 1.0), max(y1 - y0, 1.0)
    k = max(1.0, min(w, h) / 90.0)
    bw, bh, gap, margin = BOX_W * k, BOX_H * k, GAP * k, MARGIN * k
    edges: dict[str, list[tuple[float, str]]] = {"east": [], "west": [], "north": [], "south": []}
    for name in hm.boxes:
        cx, cy = anchors.get(name, (x1, (y0 + y1) / 2))
        dist = {"west": (cx - x0) / w, "east": (x1 - cx) / w, "north": (y1 - cy) / h, "south": (cy - y0) / h}
        edge = min(dist, key=lambda e: (dist[e], e))
        along = cy if edge in ("east", "west") else cx
        edges[edge].append((along, name))
    spots: dict[str, BoxSpot] = {}
    for edge, items in edges.items():
        vertical = edge in ("east", "west")
        size = bh if vertical else bw
        # east/west boxes run north to south; north/south ones west to east
        items.sort(key=lambda t: -t[0] if vertical else t[0])
        last = None
        for along, name in items:
            if last is not None:
                along = min(along, last - size - gap) if vertical else max(along, last + size + gap)
            last = along
            if edge == "east":
                spots[name] = BoxSpot(name, x1 + margin + bw / 2, along, bw, bh, edge)
            elif edge == "west":
                spots[name] = BoxSpot(name, x0 - margin - bw / 2, along, bw, bh, edge)
            elif edge == "north":
                spots[name] = BoxSpot(name, along, y1 + margin + bh / 2, bw, bh, edge)
            else:
                spots[name] = BoxSpot(name, along, y0 - margin - bh / 2, bw, bh, edge)
    return spots


__all__ = ["BoxSpot", "box_layout", "sea_anchors", "sea_area_of", "sea_boundaries", "sea_labels"]
