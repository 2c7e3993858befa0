"""The time-zone table: timezone-boundary-builder's polygons (through timezonefinder-data) as a
quadtree of lat/lon cells, written as C arrays for the Places target.

Why this shape (the figures are in docs/design/decisions.md, "The zone table"):
- The polygons are ~8 M vertices; the table has to fit in 1 MB and answer in under 1 µs. A cell is
  split only where the clock changes: cells are compared by *clock class* (zones whose UT offset
  and DST flag agree at every instant since 1970, from tzdata's TZif files), so the 140 zones that
  are the same clock as a neighbour cost no border precision. Names still matter for the user, so
  a cell holding two names of one class is split down to NAME_LEVEL (~40 km) and named by area.
- At the border of two classes a cell stops at SPLIT_LEVEL..MAX_LEVEL when one straight chord
  through the cell separates them with a mean error under TOLERANCE_KM, and stores the chord.
  Where three clocks meet (an enclave on a coast, a tripoint) or no chord fits within
  DEEP_TOLERANCE_KM, cells go on down to DEEP_LEVEL.
- The open sea is timezone-boundary-builder's Etc/GMT±N by 15° of longitude; a cell with nothing
  but sea stores nothing and the lookup computes the band. A cell with one land class and the sea
  takes the land's zone from COAST_LEVEL (~80 km) down, so the sea within one cell of the 12-mile
  limit reads as the coast's zone.
- Overlaps in the source (disputed areas: Xinjiang, the West Bank, Crimea ...) are settled the way
  the reference (timezonefinder) answers inside them.
- Every uniform or sea cell stores how far it is from the nearest border between classes on land
  (km, 0..255), so the lookup can say how far the fix is from a clock change (the device's
  hysteresis).
"""
import math
import struct
import importlib.resources
import re

import numpy as np
import shapely
from shapely import Polygon, MultiPolygon
from shapely.ops import linemerge

REGION_LEVEL = 6       # 2^6 x 2^5 regions of 5.625°, each its own byte stream and name palette
COAST_LEVEL = 9        # 0.70°
NAME_LEVEL = 10        # 0.35°
SPLIT_LEVEL = 11       # 0.18°
MAX_LEVEL = 13         # 0.044°, ~4.9 km of latitude
DEEP_LEVEL = 15        # 0.011°: where three clocks meet (enclaves like Melilla, tripoints) or a
                       # chord at MAX_LEVEL is more than DEEP_TOLERANCE_KM off on average
DEEP_TOLERANCE_KM = 1.0
TOLERANCE_KM = 0.4     # mean distance between a border and its chord, misclassified area / length
CHORD_BITS = 10        # chord end points: 1/1024 of the cell's side on its perimeter
MARGIN_CAP_KM = 255
KM_PER_DEGREE = 111.195  # mean Earth radius 6,371.0088 km


def is_sea(name):
    return name.startswith("Etc/GMT")


# ---------------------------------------------------------------- sources

def load_zones():
    """Every zone's polygons from timezonefinder-data, valid, overlaps settled as the reference."""
    from timezonefinder import TimezoneFinder
    finder = TimezoneFinder()
    names = list(finder.timezone_names)
    geoms = []
    for name in names:
        polygons = [Polygon(np.column_stack(p[0]), [np.column_stack(h) for h in p[1:]])
                    for p in finder.get_geometry(tz_name=name)]
        geometry = MultiPolygon(polygons) if len(polygons) > 1 else polygons[0]
        geoms.append(shapely.make_valid(geometry))
    tree = shapely.STRtree(geoms)
    for i in range(len(geoms)):
        if is_sea(names[i]):
            continue
        for j in sorted(int(k) for k in tree.query(geoms[i], predicate="intersects")):
            if j <= i or is_sea(names[j]):
                continue
            both = shapely.intersection(geoms[i], geoms[j])
            if both.area <= 1e-9:
                continue
            inside = shapely.point_on_surface(both)
            winner = finder.timezone_at(lng=inside.x, lat=inside.y)
            loser = j if winner == names[i] else i
            keep = i if loser == j else j
            geoms[loser] = shapely.make_valid(shapely.difference(geoms[loser], geoms[keep]))
    return finder, names, geoms


def tzif_clock(name):
    """The clock a zone keeps since 1970 (UT offset and DST flag at 1970 and at every change,
    then the POSIX rule without abbreviations), from the tzdata package's TZif file (RFC 9636)."""
    data = importlib.resources.files("tzdata.zoneinfo").joinpath(*name.split("/")).read_bytes()

    def counts(offset):
        assert data[offset:offset + 4] == b"TZif", name
        return struct.unpack(">6l", data[offset + 20:offset + 44])
    isut, isstd, leap, timecnt, typecnt, charcnt = counts(0)
    second = 44 + timecnt * 5 + typecnt * 6 + charcnt + leap * 8 + isstd + isut
    isut, isstd, leap, timecnt, typecnt, charcnt = counts(second)
    p = second + 44
    times = struct.unpack(f">{timecnt}q", data[p:p + 8 * timecnt]); p += 8 * timecnt
    indices = data[p:p + timecnt]; p += timecnt
    types = [struct.unpack(">lBB", data[p + 6 * i:p + 6 * i + 6])[:2] for i in range(typecnt)]
    p += 6 * typecnt + charcnt + leap * 12 + isstd + isut
    footer = data[p:].strip(b"\n")
    current = types[0]
    changes = []
    for time, index in zip(times, indices):
        if time <= 0:
            current = types[index]
        elif types[index] != (changes[-1][1:] if changes else current):
            changes.append((time,) + types[index])
    return (current, tuple(changes), re.sub(rb"<[^>]*>|[A-Za-z]{3,}", b"_", footer))


def clock_classes(names):
    """Class number per zone: equal numbers keep the same clock since 1970."""
    seen = {}
    return [seen.setdefault(tzif_clock(name), len(seen)) for name in names]


# ---------------------------------------------------------------- the tree

class Builder:
    def __init__(self, names, geoms, classes):
        self.names, self.geoms, self.classes = names, geoms, classes
        self.sea = [is_sea(n) for n in names]

    def build(self):
        return self.cell(0, -180.0, -90.0, 360.0, list(enumerate(self.geoms)))

    def cell(self, level, x0, y0, size, items):
        if y0 >= 90:
            return ("S",)
        x1, y1 = x0 + size, min(y0 + size, 90.0)
        clipped = []
        for zone, geometry in items:
            part = shapely.clip_by_rect(geometry, x0, y0, x1, y1)
            if not part.is_empty and part.area > 0:
                clipped.append((zone, part))
        land = {}
        for zone, part in clipped:
            if not self.sea[zone]:
                land.setdefault(self.classes[zone], []).append((zone, part))
        every_class = {self.classes[z] for z, _ in clipped}
        if not land:
            return ("S",)
        names_here = {z for z, _ in clipped if not self.sea[z]}
        one_clock = len(every_class) == 1 or (len(land) == 1 and level >= COAST_LEVEL)
        if one_clock and (len(names_here) == 1 or level >= NAME_LEVEL):
            (klass, parts), = land.items()
            return ("Z", self.named(parts), klass)
        if level >= SPLIT_LEVEL and len(land) == 2 and len(every_class) == 2:
            split = self.split(x0, y0, x1, y1, land)
            if split and (split[1] <= TOLERANCE_KM or level == DEEP_LEVEL
                          or (level >= MAX_LEVEL and split[1] <= DEEP_TOLERANCE_KM)):
                return split[0]
        # Past MAX_LEVEL only where three clocks meet or no chord fits (above); DEEP_LEVEL ends it.
        if level == DEEP_LEVEL:
            if len(land) >= 2:
                split = self.split(x0, y0, x1, y1, land)
                if split:
                    return split[0]
            merged = self.merged(land)
            return ("M", self.named(land[merged[0][0]]), merged[0][0])
        half = size / 2
        return ("N", [self.cell(level + 1, x0 + dx * half, y0 + dy * half, half, clipped)
                      for dy in (0, 1) for dx in (0, 1)])

    @staticmethod
    def named(parts):
        """The zone of a class that covers the most of the cell (ties: the lower zone number)."""
        area = {}
        for zone, part in parts:
            area[zone] = area.get(zone, 0.0) + part.area
        return min(area, key=lambda z: (-area[z], z))

    @staticmethod
    def merged(land):
        out = []
        for klass, parts in land.items():
            geometry = shapely.union_all([p for _, p in parts]) if len(parts) > 1 else parts[0][1]
            out.append((klass, geometry))
        return sorted(out, key=lambda kv: (-kv[1].area, kv[0]))

    def split(self, x0, y0, x1, y1, land):
        """The chord that best stands for the border of the two largest classes in the cell, as
        ('L', left zone, right zone, left class, right class, (e, f)) with e, f quantized
        perimeter positions, and its mean error in km; None when the border is no line."""
        merged = self.merged(land)
        (class_a, a), (class_b, b) = merged[0], merged[1]
        shared = shapely.intersection(a.boundary, b.boundary)
        lines = [g for g in getattr(shared, "geoms", [shared])
                 if g.geom_type == "LineString" and not g.is_empty]
        if not lines:
            return None
        line = linemerge(lines) if len(lines) > 1 else lines[0]
        ends = [c for g in getattr(line, "geoms", [line]) for c in (g.coords[0], g.coords[-1])]
        p, q = max(((p, q) for p in ends for q in ends),
                   key=lambda pq: ((pq[0][0] - pq[1][0]) ** 2 + (pq[0][1] - pq[1][1]) ** 2, pq))
        size = x1 - x0
        e, f = chord_ends(x0, y0, size, p, q)
        if e is None:
            return None
        left, right = halves(x0, y0, size, e, f)
        wrong_ab = shapely.intersection(a, right).area + shapely.intersection(b, left).area
        wrong_ba = shapely.intersection(a, left).area + shapely.intersection(b, right).area
        scale = math.cos(math.radians((y0 + y1) / 2))
        (ex, ey), (fx, fy) = perimeter_point(e, x0, y0, size), perimeter_point(f, x0, y0, size)
        length = math.hypot((fx - ex) * scale, fy - ey)
        error = min(wrong_ab, wrong_ba) * scale * KM_PER_DEGREE / max(length, 1e-12)
        zone_a = self.named(land[class_a])
        zone_b = self.named(land[class_b])
        if wrong_ab <= wrong_ba:
            return ("L", zone_a, zone_b, class_a, class_b, (e, f)), error
        return ("L", zone_b, zone_a, class_b, class_a, (e, f)), error


SIDE = 1 << CHORD_BITS


def perimeter_point(position, x0, y0, size):
    """Perimeter position (0 ..< 4·SIDE, anticlockwise from the south-west corner) to degrees."""
    side, t = divmod(position, SIDE)
    u = t / SIDE
    x, y = [(u, 0.0), (1.0, u), (1.0 - u, 1.0), (0.0, 1.0 - u)][side]
    return x0 + x * size, y0 + y * size


def perimeter_position(x, y):
    """Local (0..1, 0..1) point on the perimeter to its quantized position."""
    candidates = [(abs(y), 0, x), (abs(1 - x), 1, y), (abs(1 - y), 2, 1 - x), (abs(x), 3, 1 - y)]
    _, side, u = min(candidates)
    t = min(max(int(round(u * SIDE)), 0), SIDE)
    return (side * SIDE + t) % (4 * SIDE)


def chord_ends(x0, y0, size, p, q):
    """The line through p and q, cut to the cell: its quantized end points on the perimeter."""
    px, py = (p[0] - x0) / size, (p[1] - y0) / size
    qx, qy = (q[0] - x0) / size, (q[1] - y0) / size
    dx, dy = qx - px, qy - py
    if abs(dx) < 1e-15 and abs(dy) < 1e-15:
        return None, None
    ts = []
    for t in ([-px / dx, (1 - px) / dx] if abs(dx) > 1e-15 else []) + \
             ([-py / dy, (1 - py) / dy] if abs(dy) > 1e-15 else []):
        x, y = px + t * dx, py + t * dy
        if -1e-9 <= x <= 1 + 1e-9 and -1e-9 <= y <= 1 + 1e-9:
            ts.append(t)
    if len(ts) < 2 or max(ts) - min(ts) < 1e-9:
        return None, None
    a, b = min(ts), max(ts)
    e = perimeter_position(px + a * dx, py + a * dy)
    f = perimeter_position(px + b * dx, py + b * dy)
    if e == f:
        return None, None
    return e, f


def chord_side(e, f, lx, ly):
    """> 0 when the local point (in SIDE units) is left of e→f: the lookup's exact integer test."""
    ex, ey = local_point(e)
    fx, fy = local_point(f)
    return (fx - ex) * (ly - ey) - (fy - ey) * (lx - ex)


def local_point(position):
    side, t = divmod(position, SIDE)
    return [(t, 0), (SIDE, t), (SIDE - t, SIDE), (0, SIDE - t)][side]


def halves(x0, y0, size, e, f):
    corners = [(0, 0), (SIDE, 0), (SIDE, SIDE), (0, SIDE)]
    left = [local_point(e), local_point(f)] + [c for c in corners if chord_side(e, f, *c) > 0]
    right = [local_point(e), local_point(f)] + [c for c in corners if chord_side(e, f, *c) < 0]

    def polygon(points):
        if len(points) < 3:
            return Polygon()
        cx = sum(p[0] for p in points) / len(points)
        cy = sum(p[1] for p in points) / len(points)
        points = sorted(points, key=lambda p: math.atan2(p[1] - cy, p[0] - cx))
        return Polygon([(x0 + px / SIDE * size, y0 + py / SIDE * size) for px, py in points])
    return polygon(left), polygon(right)


# ---------------------------------------------------------------- borders between clocks

def class_borders(names, geoms, classes):
    """Every border where the clock changes, as an STRtree of short line pieces (degrees)."""
    by_class = {}
    for zone, klass in enumerate(classes):
        by_class.setdefault(klass, []).append(geoms[zone])
    pieces = []
    for klass in sorted(by_class):
        parts = by_class[klass]
        union = shapely.union_all(parts) if len(parts) > 1 else parts[0]
        boundary = shapely.segmentize(union.boundary, 0.5)
        for line in getattr(boundary, "geoms", [boundary]):
            coords = np.asarray(line.coords)
            for start in range(0, len(coords) - 1, 32):
                piece = coords[start:start + 33]
                if len(piece) >= 2:
                    pieces.append(shapely.LineString(piece))
    # the pole rows and the antimeridian are edges of the map, not borders
    pieces = [p for p in pieces if not edge_of_map(p)]
    return shapely.STRtree(pieces), pieces


def edge_of_map(line):
    x0, y0, x1, y1 = line.bounds
    return (x0 == x1 and abs(x0) == 180.0) or (y0 == y1 and abs(y0) == 90.0)


def km_between(lon0, lat0, lon1, lat1):
    """Great-circle distance (haversine, mean radius)."""
    p0, p1 = math.radians(lat0), math.radians(lat1)
    dp, dl = p1 - p0, math.radians(lon1 - lon0)
    h = math.sin(dp / 2) ** 2 + math.cos(p0) * math.cos(p1) * math.sin(dl / 2) ** 2
    return 2 * 6371.0088 * math.asin(min(1.0, math.sqrt(h)))


def border_km(tree, pieces, lon, lat, cap_km=500.0):
    """Distance from a point to the nearest border between clocks, exact on the sphere within
    the degree search radius (None past cap_km)."""
    radius = cap_km / KM_PER_DEGREE / max(math.cos(math.radians(min(abs(lat), 89.0))), 0.02)
    point = shapely.Point(lon, lat)
    best = None
    for index in tree.query(point.buffer(min(radius, 360.0))):
        nearest = shapely.shortest_line(point, pieces[int(index)]).coords[1]
        km = km_between(lon, lat, nearest[0], nearest[1])
        best = km if best is None or km < best else best
    return best if best is not None and best <= cap_km else None


# ---------------------------------------------------------------- the bytes

REGION_COLUMNS = 1 << REGION_LEVEL         # 64 across 360° of longitude
REGION_ROWS = 1 << (REGION_LEVEL - 1)      # 32 across 180° of latitude
KIND_SEA, KIND_ZONE, KIND_SPLIT, KIND_NODE = 0, 1, 2, 3


def regions(root):
    """The tree cut at REGION_LEVEL: (row, column, subtree, x0, y0, size) for every region; a leaf
    above the cut stands for each region it covers."""
    size = 360.0 / REGION_COLUMNS
    out = []
    for row in range(REGION_ROWS):
        for column in range(REGION_COLUMNS):
            node, level = root, 0
            while node[0] == "N" and level < REGION_LEVEL:
                shift = REGION_LEVEL - 1 - level
                node = node[1][((row >> shift) & 1) * 2 + ((column >> shift) & 1)]
                level += 1
            out.append((row, column, node, -180.0 + column * size, -90.0 + row * size, size))
    return out


def leaf_boxes(cut):
    """Every zone and sea leaf with its cell, and the cells where clocks meet on land (split and
    mixed leaves), in the order the encoder meets them."""
    boxes, borders = [], []

    def walk(node, x0, y0, size):
        box = (x0, y0, x0 + size, min(y0 + size, 90.0))
        if node[0] in ("Z", "M") or (node[0] == "S" and y0 < 90.0):
            boxes.append((node, box))
        if node[0] in ("L", "M"):
            borders.append(box)
        elif node[0] == "N":
            half = size / 2
            for k, child in enumerate(node[1]):
                walk(child, x0 + (k & 1) * half, y0 + (k >> 1) * half, half)
    for _, _, node, x0, y0, size in cut:
        walk(node, x0, y0, size)
    return boxes, borders


def margins(boxes, borders):
    """Margin code per zone or sea leaf: how far the cell is from the nearest border between
    clocks on land. Those borders lie in the split and mixed cells (a border exactly on a cell
    edge between two uniform cells would not, and none is: the edges are binary fractions of
    360°), so the distance from a cell to the nearest such cell is a lower bound. Code 0 for a
    mixed cell (a border inside, the distance unknown), else 1 + whole km (capped). The limit of
    the territorial sea is not counted: it is no border a device on land drives along. In km the
    planar distance is scaled by the cosine of the highest latitude a border under the cap can
    be at, and a cell at the antimeridian counts the distance to it (a border across it is out
    of the plane's sight)."""
    tree = shapely.STRtree([shapely.box(*b) for b in borders])
    index, distance = tree.query_nearest([shapely.box(*b) for _, b in boxes],
                                         return_distance=True, all_matches=False)
    found = np.full(len(boxes), np.inf)
    found[index[0]] = distance
    codes = {}
    for k, (node, (x0, y0, x1, y1)) in enumerate(boxes):
        d = found[k]
        if node[0] == "M":
            codes[id(node), (x0, y0)] = 0
            continue
        # Only distances under the cap matter, and a border that close is within cap_degrees of
        # latitude, where the parallels are at least cos(reach) as long as at the equator.
        cap_degrees = MARGIN_CAP_KM / KM_PER_DEGREE
        reach = min(90.0, max(abs(y0), abs(y1)) + cap_degrees)
        scale = math.cos(math.radians(reach))
        km = d * KM_PER_DEGREE * scale
        if x0 - d < -180.0 or x1 + d > 180.0:
            km = min(km, min(x0 + 180.0, 180.0 - x1) * KM_PER_DEGREE * scale)
        codes[id(node), (x0, y0)] = 1 + min(int(km), MARGIN_CAP_KM - 1)
    return codes


def varint(value):
    out = bytearray()
    while True:
        byte = value & 0x7F
        value >>= 7
        out.append(byte | (0x80 if value else 0))
        if not value:
            return bytes(out)


def encode_region(node, x0, y0, size, palette, codes):
    """(kind, payload) of a cell; a node's payload is varint(len(body)) + body, the body a tag
    byte (2 bits a child, child 0 in the low bits) and the children's payloads in order."""
    kind = node[0]
    if kind == "S":
        return KIND_SEA, bytes([codes[id(node), (x0, y0)]]) if y0 < 90.0 else b"\0"
    if kind in ("Z", "M"):
        return KIND_ZONE, bytes([palette[node[1]], codes[id(node), (x0, y0)]])
    if kind == "L":
        e, f = node[5]
        packed = e | (f << 12)
        return KIND_SPLIT, bytes([palette[node[1]], palette[node[2]]]) + packed.to_bytes(3, "little")
    half = size / 2
    tag = 0
    payloads = b""
    for k, child in enumerate(node[1]):
        child_kind, payload = encode_region(child, x0 + (k & 1) * half, y0 + (k >> 1) * half, half, palette, codes)
        tag |= child_kind << (2 * k)
        payloads += payload
    body = bytes([tag]) + payloads
    return KIND_NODE, varint(len(body)) + body


def zones_in(node, out):
    if node[0] in ("Z", "M"):
        out.add(node[1])
    elif node[0] == "L":
        out.update((node[1], node[2]))
    elif node[0] == "N":
        for child in node[1]:
            zones_in(child, out)
    return out


def encode(root, names):
    cut = regions(root)
    codes = margins(*leaf_boxes(cut))
    stream = bytearray()
    offsets, palette_starts, palette = [], [], []
    for row, column, node, x0, y0, size in cut:
        used = sorted(zones_in(node, set()))
        assert len(used) <= 256, (row, column, len(used))
        local = {zone: k for k, zone in enumerate(used)}
        kind, payload = encode_region(node, x0, y0, size, local, codes)
        offsets.append(len(stream))
        palette_starts.append(len(palette))
        palette.extend(used)
        stream += bytes([kind]) + payload
    palette_starts.append(len(palette))
    sea = [names.index("Etc/GMT" + ("" if band == 0 else f"{-band:+d}")) for band in range(-12, 13)]
    return bytes(stream), offsets, palette_starts, palette, sea
