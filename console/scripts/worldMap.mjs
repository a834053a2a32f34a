// Writes console/src/web/worldShapes.ts: the world's countries as SVG paths keyed by ISO 3166
// alpha-2 code, for the Web page's map. The outlines are Natural Earth's 1:110m admin-0 countries
// (public domain) as the npm package world-atlas ships them in TopoJSON; the countries' numeric ISO
// codes become alpha-2 through i18n-iso-countries. Neither package is a dependency of pp: the file
// written is checked in, and this script is run again only to change it:
//
//   npm install --no-save world-atlas@2.0.2 i18n-iso-countries@7.14.0
//   node console/scripts/worldMap.mjs && npx biome format --write console/src/web/worldShapes.ts
//
// (or install the two elsewhere and run the script with NODE_PATH=that/node_modules). The same
// packages give the same file, byte for byte.
//
// What it does: projects every arc (a border shared by two countries is one arc) with the Equal
// Earth projection onto a 1000-unit-wide plane, rounds it to whole units, drops the points that
// change the outline by less than MIN_AREA square units (Visvalingam, per arc so that neighbours
// keep one common border), joins the arcs into each country's rings, drops islands smaller than
// MIN_RING, and writes each ring as relative moves ("M x y l dx dy … z"). Antarctica is left out
// (it would take a fifth of the height for visitors there are none of); Northern Cyprus is drawn
// as part of Cyprus and Somaliland of Somalia, as address lists place them; Kosovo is XK.

import { createRequire } from 'node:module';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const out = path.join(here, '..', 'src', 'web', 'worldShapes.ts');
const require = createRequire(path.join(here, '..', '..', 'package.json'));
const atlasPackage = require('world-atlas/package.json');
if (atlasPackage.version !== '2.0.2') throw new Error(`world-atlas ${atlasPackage.version}: this script reads 2.0.2`);
const topology = require('world-atlas/countries-110m.json');
const isoCountries = require('i18n-iso-countries');

const WIDTH = 1000;
/** Points whose triangle with their neighbours is smaller than this (square units) are dropped. */
const MIN_AREA = 1.5;
/** Rings smaller than this (square units) are dropped, unless a country would have none left. */
const MIN_RING = 6;
const BY_NAME = { 'N. Cyprus': 'CY', Somaliland: 'SO', Kosovo: 'XK' };
const LEFT_OUT = new Set(['AQ']);

// Equal Earth (Šavrič, Patterson and Jenny, 2018).
const [A1, A2, A3, A4] = [1.340264, -0.081106, 0.000893, 0.003796];
const M = Math.sqrt(3) / 2;
const X_MAX = 2.7206990463; // x at longitude 180° on the equator
function equalEarth(lon, lat) {
  const l = (lon * Math.PI) / 180;
  const t = Math.asin(M * Math.sin((lat * Math.PI) / 180));
  const t2 = t * t;
  const t6 = t2 * t2 * t2;
  const x = (l * Math.cos(t)) / (M * (A1 + 3 * A2 * t2 + t6 * (7 * A3 + 9 * A4 * t2)));
  const y = t * (A1 + A2 * t2 + t6 * (A3 + A4 * t2));
  return [x, y];
}
/** Every arc as longitude/latitude pairs (TopoJSON keeps them quantized and delta-encoded), its
 * longitudes unwrapped: an arc crossing the antimeridian goes on past ±180° instead of jumping. */
const {
  scale: [kx, ky],
  translate: [dx, dy],
} = topology.transform;
const lonLatArcs = topology.arcs.map((arc) => {
  let x = 0;
  let y = 0;
  let shift = 0;
  let lastLon = null;
  return arc.map(([ax, ay]) => {
    x += ax;
    y += ay;
    const lon = x * kx + dx;
    if (lastLon !== null && Math.abs(lon + shift - lastLon) > 180) shift += lon + shift > lastLon ? -360 : 360;
    lastLon = lon + shift;
    return [lastLon, y * ky + dy];
  });
});

// The countries kept.
const countries = new Map();
for (const g of topology.objects.countries.geometries) {
  const code = BY_NAME[g.properties.name] ?? (g.id ? isoCountries.numericToAlpha2(g.id) : undefined);
  if (!code) throw new Error(`no code for ${g.properties.name} (${g.id})`);
  if (LEFT_OUT.has(code)) continue;
  const polygons = g.type === 'Polygon' ? [g.arcs] : g.arcs;
  countries.set(code, [...(countries.get(code) ?? []), ...polygons]);
}

// The plane: Equal Earth's x is a multiple of the longitude, so a point past ±180° projects past
// the edge, where the rings are cut below.
const scale = WIDTH / (2 * X_MAX);
const plane = ([lon, lat]) => {
  const [x, y] = equalEarth(lon, lat);
  return [(x + X_MAX) * scale, -y * scale];
};

/** Visvalingam–Whyatt on one arc in the plane, its two ends kept; answers the points kept. */
function simplify(points) {
  const at = points.map(plane);
  const area = (a, b, c) => Math.abs((at[b][0] - at[a][0]) * (at[c][1] - at[a][1]) - (at[c][0] - at[a][0]) * (at[b][1] - at[a][1])) / 2;
  const keep = points.map(() => true);
  // A few hundred points per arc at most: a plain repeated scan is quick enough for a build script.
  for (;;) {
    let best = -1;
    let bestArea = MIN_AREA;
    let prev = 0;
    for (let i = 1; i < points.length - 1; i++) {
      if (!keep[i]) continue;
      let next = i + 1;
      while (!keep[next]) next++;
      const a = area(prev, i, next);
      if (a < bestArea) [best, bestArea] = [i, a];
      prev = i;
    }
    if (best < 0) break;
    keep[best] = false;
  }
  return points.filter((_, i) => keep[i]);
}
const simpleArcs = lonLatArcs.map(simplify);

/** A ring's points from its arcs (a negative index is the arc reversed; arcs share their ends),
 * each arc moved by 360° where needed to go on from the one before. */
function ring(indexes) {
  const points = [];
  for (const i of indexes) {
    let arc = i < 0 ? [...simpleArcs[~i]].reverse() : simpleArcs[i];
    if (points.length) {
      const gap = arc[0][0] - points[points.length - 1][0];
      if (Math.abs(gap) > 180) arc = arc.map(([lon, lat]) => [lon - Math.sign(gap) * 360, lat]);
    }
    points.push(...(points.length ? arc.slice(1) : arc));
  }
  return points;
}

/** Sutherland–Hodgman against one meridian: the part of the ring with `side * (lon - edge) <= 0`. */
function clip(points, edge, side) {
  const inside = ([lon]) => side * (lon - edge) <= 0;
  const out = [];
  for (let i = 0; i < points.length; i++) {
    const p = points[i];
    const q = points[(i + 1) % points.length];
    if (inside(p) !== inside(q)) {
      const t = (edge - p[0]) / (q[0] - p[0]);
      out.push([edge, p[1] + t * (q[1] - p[1])]);
    }
    if (inside(q)) out.push(q);
  }
  return out;
}

/** A ring within ±180°, or the two parts of one going past an edge, each shifted onto the map. */
function onMap(points) {
  const lons = points.map(([lon]) => lon);
  if (Math.max(...lons) > 180)
    return [
      clip(points, 180, 1),
      clip(
        points.map(([lon, lat]) => [lon - 360, lat]),
        -180,
        -1,
      ),
    ];
  if (Math.min(...lons) < -180)
    return [
      clip(points, -180, -1),
      clip(
        points.map(([lon, lat]) => [lon + 360, lat]),
        180,
        1,
      ),
    ];
  return [points];
}

/** A ring in whole units of the plane, without repeated points nor the first again at its end. */
function rounded(points) {
  const pts = points.map(plane).map(([x, y]) => [Math.round(x), Math.round(y)]);
  const distinct = pts.filter((p, i) => i === 0 || p[0] !== pts[i - 1][0] || p[1] !== pts[i - 1][1]);
  const [first, last] = [distinct[0], distinct[distinct.length - 1]];
  return distinct.length > 1 && first[0] === last[0] && first[1] === last[1] ? distinct.slice(0, -1) : distinct;
}
const ringArea = (pts) => Math.abs(pts.reduce((s, p, i) => s + p[0] * pts[(i + 1) % pts.length][1] - pts[(i + 1) % pts.length][0] * p[1], 0)) / 2;

/** The rings as one path, moved up by `top`: "M x y l dx dy … z" each, z closing it. */
function pathOf(rings, top) {
  let d = '';
  for (const pts of rings) {
    const deltas = [];
    for (let i = 1; i < pts.length; i++) deltas.push(pts[i][0] - pts[i - 1][0], pts[i][1] - pts[i - 1][1]);
    d += `M${pts[0][0]} ${pts[0][1] - top}l${deltas.join(' ').replace(/ -/g, '-')}z`;
  }
  return d;
}

const shapes = [];
for (const [code, polygons] of [...countries].sort(([a], [b]) => a.localeCompare(b))) {
  const rings = polygons
    .flatMap((rs) => rs.flatMap((r) => onMap(ring(r))))
    .map(rounded)
    .filter((pts) => pts.length > 2);
  const largest = Math.max(...rings.map(ringArea));
  const kept = rings.filter((pts) => ringArea(pts) >= Math.min(MIN_RING, largest));
  shapes.push([code, kept]);
}
const ys = shapes.flatMap(([, rings]) => rings.flat().map(([, y]) => y));
const top = Math.min(...ys);
const HEIGHT = Math.max(...ys) - top;

const lines = shapes.map(([code, rings]) => `  ${code}: '${pathOf(rings, top)}',`);
writeFileSync(
  out,
  `// Generated by console/scripts/worldMap.mjs from Natural Earth's 1:110m countries (public domain,
// through the npm package world-atlas 2.0.2): each country's outline as an SVG path in a
// ${WIDTH} x ${HEIGHT} Equal Earth plane, keyed by ISO 3166 alpha-2 code. Do not edit.

export const WORLD_WIDTH = ${WIDTH};
export const WORLD_HEIGHT = ${HEIGHT};

export const WORLD_SHAPES: Record<string, string> = {
${lines.join('\n')}
};
`,
);
console.log(`${shapes.length} countries, ${WIDTH} x ${HEIGHT}`);
