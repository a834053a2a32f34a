// Activation drivers: the ClickHouse statements, the rows of the DuckDB ones (statements.ts) from
// the raw events. Pure: nothing here touches the store.
//
// 18.16 has no window functions: an actor's outcome days are gathered into an array and its
// retention is whether one falls in the outcome window; the totals are four fixed rows (discovery
// or not × retained or not), and each candidate's tallies are computed per event for the four
// groups at once, so the candidates can be ranked and limited before the groups are unfolded.

import { filtersCondition, managedEvent } from '../../engine/clickhouse/conditions.js';
import { ACTOR } from '../../engine/clickhouse/identity.js';
import { literal } from '../../engine/clickhouse/literal.js';
import { dateLiteral, EVENT_MS, scanEvents } from '../../engine/clickhouse/scan.js';
import { addDays } from '../../engine/dates.js';
import type { BuiltSql } from '../../engine/sql.js';
import { today, type QueryContext } from '../context.js';
import type { DateRange } from '../ranges.js';
import { THRESHOLDS, DISCOVERY_PERCENT, windowsOf, type ActivationDriversParams } from './types.js';

/** The four groups, (discovery, retained), in the order their tallies are listed. */
const GROUPS: Array<[number, number]> = [
  [1, 1],
  [1, 0],
  [0, 1],
  [0, 0],
];

/** Anchored actors (actor, anchored_at, aday, eligible, discovery, retained). */
function anchoredActors(p: ActivationDriversParams, range: DateRange, ctx: QueryContext): string {
  const filters = filtersCondition(p.filters, ctx.segments);
  const base = { projectId: ctx.projectId, timezone: ctx.timezone };
  const anchorScan = scanEvents((local) => ({ actor: ACTOR, t: EVENT_MS, day: local.day }), {
    ...base,
    from: range.date_from,
    to: range.date_to,
    where: [`e.event = ${literal(p.anchor_event)}`, filters],
  });
  const outcomeScan = scanEvents((local) => ({ actor: ACTOR, day: local.day }), {
    ...base,
    from: addDays(range.date_from, p.outcome.from_day),
    to: addDays(range.date_to, p.outcome.to_day - 1),
    where: [`e.event = ${literal(p.outcome.event)}`, filters],
  });
  const from = literal(p.outcome.from_day);
  const to = literal(p.outcome.to_day);
  // `odays` is named outside the lambda too: 18.16 drops a subquery's column only a lambda reads.
  return `SELECT actor, anchored_at, aday, aday + ${to} <= ${dateLiteral(today(ctx))} AS eligible, actor % 100 < ${literal(DISCOVERY_PERCENT)} AS discovery,
  notEmpty(odays) AND arrayExists(d -> d >= aday + ${from} AND d < aday + ${to}, odays) AS retained
FROM (SELECT actor, min(t) AS anchored_at, argMin(day, t) AS aday FROM (${anchorScan}) GROUP BY actor)
ANY LEFT JOIN (SELECT actor, groupUniqArray(day) AS odays FROM (${outcomeScan}) GROUP BY actor) USING actor`;
}

export function activationDriversClickHouse(p: ActivationDriversParams, range: DateRange, ctx: QueryContext): { totals: BuiltSql; counts: BuiltSql } {
  const windows = windowsOf(p);
  const actors = anchoredActors(p, range, ctx);
  const groups = GROUPS.map(([d, r]) => `(toUInt8(${d}), toUInt8(${r}), countIf(eligible AND discovery = ${d} AND retained = ${r}))`).join(', ');
  const totals = {
    sql: `SELECT anchored, g.1 AS discovery, g.2 AS retained, g.3 AS n
FROM (SELECT count() AS anchored, [${groups}] AS groups FROM (${actors})) ARRAY JOIN groups AS g`,
    params: [],
  };
  const longest = windows.at(-1)!;
  const excluded = [p.anchor_event, ...(p.excluded_events ?? [])].map(literal).join(', ');
  const where = [`e.event NOT IN (${excluded})`, filtersCondition(p.filters, ctx.segments), ...(p.exclude_managed_events ? [`NOT ${managedEvent()}`] : [])];
  const behaviorScan = scanEvents((local) => ({ actor: ACTOR, t: EVENT_MS, day: local.day, ev_name: 'e.event' }), {
    projectId: ctx.projectId,
    timezone: ctx.timezone,
    from: range.date_from,
    to: addDays(range.date_to, longest - 1),
    where,
  });
  const perWindow = windows.map((w, i) => `countIf(day < aday + ${literal(w)}) AS c${i}`).join(', ');
  const did = `SELECT actor, ev_name, any(discovery) AS disc, any(retained) AS ret, ${perWindow}
FROM (${behaviorScan}) ANY INNER JOIN (SELECT actor, anchored_at, aday, discovery, retained FROM (${actors}) WHERE eligible) USING actor
WHERE t >= anchored_at AND day < aday + ${literal(longest)}
GROUP BY actor, ev_name`;
  const tallies = (d: number, r: number) => `[${windows.flatMap((_, i) => THRESHOLDS.map((k) => `countIf(disc = ${d} AND ret = ${r} AND c${i} >= ${k})`)).join(', ')}]`;
  const perEvent = `SELECT ev_name, [${GROUPS.map(([d, r]) => `(toUInt8(${d}), toUInt8(${r}), ${tallies(d, r)})`).join(', ')}] AS groups
FROM (${did}) GROUP BY ev_name ORDER BY count() DESC, ev_name LIMIT ${literal(p.candidate_limit)}`;
  const columns = windows.flatMap((_, i) => THRESHOLDS.map((k, j) => `arrayElement(g.3, ${i * THRESHOLDS.length + j + 1}) AS n${i}_${k}`)).join(', ');
  const counts = {
    sql: `SELECT ev_name AS event, g.1 AS discovery, g.2 AS retained, ${columns} FROM (${perEvent}) ARRAY JOIN groups AS g`,
    params: [],
  };
  return { totals, counts };
}
