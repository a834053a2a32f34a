// The forms reports (docs/behavior.md#forms): forms ranked by starts with views, starts, submits,
// conversion, time to submit and abandonment, deduplicated per visit unit and local day; and one
// form's fields ranked by drop-off. Only what the tracker records is read (focus, time, changes,
// deletions, emptiness at submit); no value exists to read.

import type { EventEngine } from '../engine/engine.js';
import type { CursorCodec } from '../queries/cursors.js';
import { compareText, num, numOrNull } from '../engine/sql.js';
import { statementsOf } from '../engine/statements.js';
import { ValidationError } from '../ground/errors.js';
import { normalizePageUrl } from './pageUrl.js';
import { pageOf, positionOf, type ReportParams } from './reportParams.js';
import { storedUrlsOf, type ReportContext } from './pageBehavior.js';

const rate = (n: number, d: number) => (d === 0 ? null : n / d);

type FormPosition = [starts: number, form: string, url: string];

/** GET /forms: forms (selector and page) by deduplicated starts, keyset-paginated. */
export async function formsReport(store: EventEngine, p: ReportParams, ctx: ReportContext, codec: CursorCodec) {
  const scope = { report: 'forms', project: ctx.projectId, date_from: p.date_from, date_to: p.date_to, filters: p.filters, limit: p.limit };
  const after = positionOf<FormPosition>(codec, scope, p.cursor);
  const q = statementsOf(store).behavior.formsSql(p, ctx, p.limit + 1, after);
  const rows = await store.read(q.sql, q.params, { timeoutMs: ctx.timeoutMs });
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
async function viewsOf(store: EventEngine, pages: string[], p: ReportParams, ctx: ReportContext): Promise<Map<string, number>> {
  if (pages.length === 0) return new Map();
  const mapped = [...(await storedUrlsOf(store, new Set(pages), p, ctx)).entries()];
  if (mapped.length === 0) return new Map();
  const q = statementsOf(store).behavior.formViewsSql(p, ctx, mapped);
  const rows = await store.read(q.sql, q.params, { timeoutMs: ctx.timeoutMs });
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

/** GET /forms/detail?form=[&url=]: one form's attempts and its fields ranked by drop-off. */
export async function formDetail(store: EventEngine, form: string, url: string | undefined, p: ReportParams, ctx: ReportContext, codec: CursorCodec) {
  const page = url === undefined ? null : normalizePageUrl(url);
  if (url !== undefined && page === null) throw new ValidationError('url must not be empty', 'url');
  const scope = { report: 'forms/detail', project: ctx.projectId, form, url: page, date_from: p.date_from, date_to: p.date_to, filters: p.filters, limit: p.limit };
  const after = positionOf<FieldPosition>(codec, scope, p.cursor);
  const q = statementsOf(store).behavior.formDetailSql(p, ctx, form, page);
  const rows = await store.read(q.sql, q.params, { timeoutMs: ctx.timeoutMs });
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
