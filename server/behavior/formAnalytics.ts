// The forms reports (docs/behavior.md#forms): forms ranked by starts with views, starts, submits,
// conversion, time to submit and abandonment, deduplicated per visit unit and local day; and one
// form's fields ranked by drop-off. Only what the tracker records is read (focus, time, changes,
// deletions, emptiness at submit); no value exists to read.

import type { EventStore } from '../store/eventStore.js';
import type { CursorCodec } from '../queries/cursors.js';
import { listValue } from '@duckdb/node-api';
import { filtersCondition } from '../engine/conditions.js';
import { scanEvents } from '../engine/eventScan.js';
import { scanFormDays } from '../engine/rollups/formDays.js';
import { Binder, compareText, num, numOrNull } from '../engine/sql.js';
import { ValidationError } from '../ground/errors.js';
import { normalizePageUrl, pageUrlsSql } from './pageUrl.js';
import { pageOf, positionOf, type ReportParams } from './reportParams.js';
import { byUrl, storedUrlsOf, type ReportContext } from './pageBehavior.js';

const rate = (n: number, d: number) => (d === 0 ? null : n / d);

/** The range's events of these names with a URL, each with its local day. */
function scan(b: Binder, p: ReportParams, ctx: ReportContext, columns: Record<string, string>, events: string): string {
  return scanEvents(b, (local) => ({ day: local.day, ...columns }), {
    projectId: ctx.projectId,
    timezone: ctx.timezone,
    from: p.date_from,
    to: p.date_to,
    where: [`e.event IN ${events}`, 'e.url IS NOT NULL', filtersCondition(b, p.filters, new Map())],
  });
}

type FormPosition = [starts: number, form: string, url: string];

/** GET /forms: forms (selector and page) by deduplicated starts, keyset-paginated. */
export async function formsReport(store: EventStore, p: ReportParams, ctx: ReportContext, codec: CursorCodec) {
  const scope = { report: 'forms', project: ctx.projectId, date_from: p.date_from, date_to: p.date_to, filters: p.filters, limit: p.limit };
  const after = positionOf<FormPosition>(codec, scope, p.cursor);
  const b = new Binder();
  const project = b.bind(ctx.projectId);
  const fd = scanFormDays(b, {
    projectId: ctx.projectId, timezone: ctx.timezone, from: p.date_from, to: p.date_to, rollup: p.filters.length === 0, where: [filtersCondition(b, p.filters, new Map())],
  });
  const keyset = after
    ? `WHERE a.starts < ${b.bind(after[0])} OR (a.starts = ${b.bind(after[0])} AND (a.form > ${b.bind(after[1])} OR (a.form = ${b.bind(after[1])} AND a.page > ${b.bind(after[2])})))`
    : '';
  const sql = `WITH fd AS (${fd}),
    pages AS (${pageUrlsSql('SELECT DISTINCT url FROM fd')}),
    fa AS (SELECT p.page, f.form, f.day, coalesce(l.actor_key, f.distinct_key) AS actor,
        coalesce('s:' || CAST(f.session_key AS VARCHAR), 'a:' || CAST(coalesce(l.actor_key, f.distinct_key) AS VARCHAR)) AS unit,
        f.starts, f.submits, f.abandons, f.durations
      FROM fd f JOIN pages p USING (url) LEFT JOIN identity_links l ON l.project_id = ${project} AND l.distinct_key = f.distinct_key
      WHERE p.page IS NOT NULL),
    visits AS (SELECT page, form, unit, day, sum(starts) > 0 AS started, sum(submits) > 0 AS submitted, sum(abandons) > 0 AS abandoned,
        sum(submits) AS submit_events
      FROM fa GROUP BY page, form, unit, day),
    per_visit AS (SELECT page, form, count(*) FILTER (WHERE started) AS starts, count(*) FILTER (WHERE submitted) AS submits,
        count(*) FILTER (WHERE started AND submitted) AS converted, count(*) FILTER (WHERE abandoned AND NOT submitted) AS abandons,
        sum(submit_events) - count(*) FILTER (WHERE submitted) AS resubmissions
      FROM visits GROUP BY page, form),
    per_actor AS (SELECT page, form, count(DISTINCT actor) FILTER (WHERE starts > 0) AS starters,
        count(DISTINCT actor) FILTER (WHERE submits > 0) AS submitters
      FROM fa GROUP BY page, form),
    durations AS (SELECT page, form, median(d) AS median_time_to_submit_ms FROM (SELECT page, form, unnest(durations) AS d FROM fa) GROUP BY page, form),
    a AS (SELECT v.*, pa.starters, pa.submitters, d.median_time_to_submit_ms
      FROM per_visit v JOIN per_actor pa USING (page, form) LEFT JOIN durations d USING (page, form))
    SELECT * FROM a ${keyset} ORDER BY a.starts DESC, a.form, a.page LIMIT ${b.bind(p.limit + 1)}`;
  const rows = await store.read(sql, b.values, { timeoutMs: ctx.timeoutMs });
  const views = await viewsOf(store, [...new Set(rows.map((r) => String(r.page)))], p, ctx);
  const items = rows.map((r) => {
    const starts = num(r.starts);
    const seen = views.get(String(r.page)) ?? 0;
    return {
      form: String(r.form),
      url: String(r.page),
      views: seen,
      starts,
      starters: num(r.starters),
      submits: num(r.submits),
      submitters: num(r.submitters),
      resubmissions: num(r.resubmissions),
      abandons: num(r.abandons),
      start_rate: rate(starts, seen),
      conversion_rate: rate(num(r.converted), starts),
      abandonment_rate: rate(num(r.abandons), starts),
      median_time_to_submit_ms: numOrNull(r.median_time_to_submit_ms),
    };
  });
  return { date_from: p.date_from, date_to: p.date_to, ...pageOf(codec, scope, items, p.limit, (i): FormPosition => [i.starts, i.form, i.url]) };
}

/**
 * (visit unit, local day) pairs with a page view of each page, from the sessions and the
 * session-less ids the page rollup keeps per stored URL and day (with the raw events past it).
 */
async function viewsOf(store: EventStore, pages: string[], p: ReportParams, ctx: ReportContext): Promise<Map<string, number>> {
  if (pages.length === 0) return new Map();
  const mapped = [...(await storedUrlsOf(store, new Set(pages), p, ctx)).entries()];
  if (mapped.length === 0) return new Map();
  const b = new Binder();
  const project = b.bind(ctx.projectId);
  const urls = b.bind(listValue(mapped.map(([url]) => url)));
  const sql = `WITH m AS (SELECT unnest(${urls}::VARCHAR[]) AS url, unnest(${b.bind(listValue(mapped.map(([, page]) => page)))}::VARCHAR[]) AS page),
    pd AS (SELECT m.page, d.day, d.sessions, d.sessionless FROM (${byUrl(b, p, ctx, [], mapped.map(([url]) => url))}) d JOIN m USING (url)),
    units AS (SELECT DISTINCT page, day, 's' AS kind, unnest(sessions) AS k FROM pd
      UNION
      SELECT DISTINCT a.page, a.day, 'a', coalesce(l.actor_key, a.k) FROM (SELECT page, day, unnest(sessionless) AS k FROM pd) a
        LEFT JOIN identity_links l ON l.project_id = ${project} AND l.distinct_key = a.k)
    SELECT page, count(*) AS views FROM units GROUP BY page`;
  const rows = await store.read(sql, b.values, { timeoutMs: ctx.timeoutMs });
  return new Map(rows.map((r) => [String(r.page), num(r.views)]));
}

export interface FieldRow {
  field: string;
  tag: string | null;
  type: string | null;
  drop_offs: number;
  drop_off_rate: number | null;
  interactions: number;
  median_time_ms: number | null;
  median_to_change_ms: number | null;
  refocuses: number;
  corrections: number;
  left_blank: number;
}

type FieldPosition = [dropOffs: number, interactions: number, field: string];

const FIELD_TYPE = `'[{"field":"VARCHAR","tag":"VARCHAR","type":"VARCHAR","time_ms":"DOUBLE","focus_count":"DOUBLE","to_change_ms":"DOUBLE","corrections":"DOUBLE"}]'`;

/** GET /forms/detail?form=[&url=]: one form's attempts and its fields ranked by drop-off. */
export async function formDetail(store: EventStore, form: string, url: string | undefined, p: ReportParams, ctx: ReportContext, codec: CursorCodec) {
  const page = url === undefined ? null : normalizePageUrl(url);
  if (url !== undefined && page === null) throw new ValidationError('url must not be empty', 'url');
  const scope = { report: 'forms/detail', project: ctx.projectId, form, url: page, date_from: p.date_from, date_to: p.date_to, filters: p.filters, limit: p.limit };
  const after = positionOf<FieldPosition>(codec, scope, p.cursor);
  const b = new Binder();
  const ev = scan(b, p, ctx, { url: 'e.url', event: 'e.event', uuid: 'e.uuid', props: 'e.props' }, "('pp.form_submit', 'pp.form_abandon')");
  const formValue = b.bind(form);
  const pageCondition = page === null ? 'TRUE' : `p.page = ${b.bind(page)}`;
  const sql = `WITH ev AS (${ev}),
    pages AS (${pageUrlsSql('SELECT DISTINCT url FROM ev')}),
    att AS (SELECT ev.uuid, ev.event = 'pp.form_submit' AS submitted, ev.props
      FROM ev JOIN pages p USING (url) WHERE p.page IS NOT NULL AND ${pageCondition} AND json_extract_string(ev.props, '$.form') = ${formValue}),
    f AS (SELECT uuid, unnest(coalesce(TRY(from_json(json_extract(props, '$.fields'), ${FIELD_TYPE})), [])) AS f FROM att),
    fields AS (SELECT f.field AS field, min(f.tag) AS tag, min(f.type) AS type, count(DISTINCT uuid) AS interactions,
        median(f.time_ms) AS median_time_ms, median(f.to_change_ms) AS median_to_change_ms,
        sum(greatest(coalesce(f.focus_count, 1) - 1, 0)) AS refocuses, sum(coalesce(f.corrections, 0)) AS corrections
      FROM f WHERE f.field IS NOT NULL GROUP BY f.field),
    drops AS (SELECT json_extract_string(props, '$.last_field') AS field, count(*) AS drop_offs FROM att WHERE NOT submitted GROUP BY 1),
    blanks AS (SELECT field, count(DISTINCT uuid) AS left_blank FROM (
        SELECT uuid, unnest(coalesce(TRY(from_json(json_extract(props, '$.blank_fields'), '["VARCHAR"]')), [])) AS field FROM att WHERE submitted) GROUP BY field),
    names AS (SELECT field FROM fields UNION SELECT field FROM drops UNION SELECT field FROM blanks)
    SELECT 'field' AS part, n.field, fl.tag, fl.type, coalesce(d.drop_offs, 0) AS drop_offs, coalesce(fl.interactions, 0) AS interactions,
        fl.median_time_ms, fl.median_to_change_ms, coalesce(fl.refocuses, 0) AS refocuses, coalesce(fl.corrections, 0) AS corrections,
        coalesce(bl.left_blank, 0) AS left_blank, NULL::BIGINT AS attempts, NULL::BIGINT AS submits, NULL::DOUBLE AS hesitation
      FROM names n LEFT JOIN fields fl USING (field) LEFT JOIN drops d USING (field) LEFT JOIN blanks bl USING (field) WHERE n.field IS NOT NULL
    UNION ALL
    SELECT 'form', NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, count(*), count(*) FILTER (WHERE submitted),
        median(TRY_CAST(json_extract_string(props, '$.since_load_ms') AS DOUBLE))
      FROM att`;
  const rows = await store.read(sql, b.values, { timeoutMs: ctx.timeoutMs });
  const head = rows.find((r) => r.part === 'form')!;
  const attempts = num(head.attempts);
  const submitted = num(head.submits);
  const abandoned = attempts - submitted;
  const fields: FieldRow[] = rows
    .filter((r) => r.part === 'field')
    .map((r) => ({
      field: String(r.field),
      tag: r.tag === null ? null : String(r.tag),
      type: r.type === null ? null : String(r.type),
      drop_offs: num(r.drop_offs),
      drop_off_rate: rate(num(r.drop_offs), abandoned),
      interactions: num(r.interactions),
      median_time_ms: numOrNull(r.median_time_ms),
      median_to_change_ms: numOrNull(r.median_to_change_ms),
      refocuses: num(r.refocuses),
      corrections: num(r.corrections),
      left_blank: num(r.left_blank),
    }))
    .sort((x, y) => compareFields(x, [y.drop_offs, y.interactions, y.field]));
  const start = after ? fields.findIndex((f) => compareFields(f, after) > 0) : 0;
  const rest = start < 0 ? [] : fields.slice(start, start + p.limit + 1);
  return {
    form,
    url: page,
    date_from: p.date_from,
    date_to: p.date_to,
    attempts,
    submitted,
    abandoned,
    median_hesitation_ms: numOrNull(head.hesitation),
    ...pageOf(codec, scope, rest, p.limit, (f): FieldPosition => [f.drop_offs, f.interactions, f.field]),
  };
}

/** Ranking order: drop-offs, interactions (most first), then field selector. */
function compareFields(f: FieldRow, k: FieldPosition): number {
  return k[0] - f.drop_offs || k[1] - f.interactions || compareText(f.field, k[2]);
}
