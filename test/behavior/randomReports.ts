// The random comparison of the behavior and forms reports with test/oracles/behavior.ts, on any
// engine: random scenarios (DST windows, identity links, ties) whose events become page views,
// clicks, rage or dead clicks, scroll depths or form events on a few URL spellings of three pages.

import type { Test } from 'tap';
import fc from 'fast-check';
import { difference, type QueryHarness } from '../queries/harness.js';
import { filtersArb, scenarioArb, seedScenario } from '../queries/scenarios.js';
import type { SeedEvent } from '../support/seedEvents.js';
import type { HttpResult } from '../support/testServer.js';
import { behaviorUrlsOracle, formDetailOracle, formsOracle, pageBehaviorOracle, pageOfUrl } from '../oracles/behavior.js';
import { normalizePageUrl } from '../../server/behavior/pageUrl.js';

/** A GET of a report of the project (the DuckDB file folds its rollups around it). */
export type ReportGet = (projectId: number, path: string, params?: Record<string, unknown>) => Promise<HttpResult>;

// Random behavior on top of the random scenarios: each event becomes a page view, click, rage or
// dead click, scroll depth or form event on one of a few URL spellings of three pages.
export const SPELLINGS = [
  ['https://a.example/p/1', 'https://A.example/p/1/', 'https://a.example:443/p/1?utm=x'],
  ['https://a.example/', 'https://a.example', 'https://a.example/#top'],
  ['https://a.example/#/app', 'https://a.example/#/app'],
];
const CHAINS = [
  [{ tag: 'button', id: 'go', nth_child: 1, text: 'Go' }],
  [
    { tag: 'a', classes: ['x'], nth_child: 2, text: 'More' },
    { tag: 'li', nth_child: 1 },
  ],
  [
    { tag: 'a', classes: ['x'], nth_child: 2, text: 'Less' },
    { tag: 'li', nth_child: 1 },
  ],
  [
    { tag: 'span', nth_child: 3 },
    { tag: 'div', classes: ['card', 'wide'], nth_child: 1 },
    { tag: 'main', id: 'm', nth_child: 1 },
  ],
];
const FIELDS = ['input[name="email"]', 'input[name="zip"]', 'select:nth-child(3)'];
const KINDS = ['pp.page_view', 'pp.click', 'pp.click', 'pp.rage_click', 'pp.dead_click', 'pp.scroll_depth', 'pp.form_start', 'pp.form_submit', 'pp.form_abandon', 'other'];

export function decorate(e: SeedEvent, r: number[]): SeedEvent {
  const pick = <T>(list: readonly T[], i: number) => list[Math.floor(r[i]! * list.length) % list.length]!;
  const kind = pick(KINDS, 0);
  const url = pick(pick(SPELLINGS, 1), 2);
  const session = r[3]! < 0.3 ? undefined : `s${Math.floor(r[3]! * 3)}`;
  const base = { ...e, url, session_id: session, props: { ...e.props } };
  const n = (i: number, max: number) => Math.floor(r[i]! * max);
  switch (kind) {
    case 'pp.click':
    case 'pp.rage_click':
    case 'pp.dead_click':
      return {
        ...base,
        event: kind,
        elements: pick(CHAINS, 4),
        props: {
          ...base.props,
          x: n(5, 1600),
          y: n(6, 3000),
          ...(r[7]! < 0.8 ? { vw: pick([375, 767, 768, 1023, 1024, 1439, 1440, 1920], 8), ox: n(9, 101), oy: n(10, 101) } : {}),
          ...(r[11]! < 0.2 ? { fixed: true } : {}),
        },
      };
    case 'pp.scroll_depth':
      return { ...base, event: kind, props: { ...base.props, percent: pick([0, 24, 25, 50, 74, 75, 100], 5) } };
    case 'pp.form_start':
      return { ...base, event: kind, props: { ...base.props, form: pick(['form#f', 'form#f', 'form#f', 'form.g:nth-child(2)'], 5), field: pick(FIELDS, 6), since_load_ms: n(7, 5) * 1000 } };
    case 'pp.form_submit':
    case 'pp.form_abandon': {
      const fields = FIELDS.filter((_, i) => r[8 + i]! < 0.6).map((field, i) => ({
        field,
        tag: field.split(/[[:]/)[0],
        time_ms: n(5, 4) * 1000,
        focus_count: 1 + n(6, 3),
        to_change_ms: r[7]! < 0.5 ? n(11, 3) * 100 : undefined,
        corrections: n(9, 3) + i,
      }));
      return {
        ...base,
        event: kind,
        props: {
          ...base.props,
          form: pick(['form#f', 'form#f', 'form#f', 'form.g:nth-child(2)'], 5),
          fields,
          duration_ms: n(10, 4) * 1000,
          since_load_ms: r[11]! < 0.7 ? n(4, 4) * 500 : undefined,
          ...(fields.length > 0 ? { last_field: pick(fields, 2).field } : {}),
          ...(kind === 'pp.form_submit' ? { blank_fields: FIELDS.filter((_, i) => r[9 + i]! > 0.7) } : {}),
        },
      };
    }
    case 'pp.page_view':
      return { ...base, event: kind };
    default:
      return base;
  }
}

const reportArb = fc.record({ filters: fc.option(filtersArb, { nil: undefined }), limit: fc.integer({ min: 1, max: 4 }), mode: fc.constantFrom('standard', 'strict') });

/** `runs` random scenarios whose every report must equal the reference's. */
export async function randomReports(t: Test, h: QueryHarness, get: ReportGet, runs: number): Promise<void> {
  await fc.assert(
    fc.asyncProperty(
      scenarioArb({ maxDays: 6, minEvents: 80, maxEvents: 150, ties: true }),
      fc.array(
        fc.array(
          fc.noBias(fc.integer({ min: 0, max: 9999 })).map((v) => v / 10000),
          { minLength: 12, maxLength: 12 },
        ),
        { minLength: 150, maxLength: 150 },
      ),
      reportArb,
      async (s, randoms, q) => {
        const events = s.events.map((e, i) => decorate(e, randoms[i % randoms.length]!));
        const { projectId, events: stored } = await seedScenario(h, { ...s, events });
        await h.server.request('PATCH', `/api/v1/projects/${projectId}/behavior/settings`, { body: { privacy_mode: q.mode }, token: h.token });
        const input = { date_from: s.date_from, date_to: s.date_to, filters: q.filters };
        const params = { date_from: s.date_from, date_to: s.date_to, filters: q.filters, limit: q.limit };
        const check = (label: string, actual: unknown, expected: unknown) => {
          const diff = difference(actual, expected);
          if (diff) throw new Error(`${label} ${JSON.stringify(params)} in ${s.tz}: ${diff}`);
        };
        const all = async (path: string, extra: Record<string, unknown> = {}) => {
          const items: unknown[] = [];
          let cursor: string | undefined;
          let body: Record<string, unknown> = {};
          do {
            const res = await get(projectId, path, { ...params, ...extra, cursor });
            if (res.status !== 200) throw new Error(`${path}: ${res.status} ${res.text}`);
            body = res.body;
            items.push(...(body.items as unknown[]));
            cursor = (body.next_cursor as string | null) ?? undefined;
          } while (cursor);
          return { ...body, items };
        };
        check('urls', (await all('pages/behavior/urls')).items, behaviorUrlsOracle(stored, s.links, input, s.tz));
        for (const spellings of SPELLINGS) {
          const { summary, heatmap, items, url } = (await all('pages/behavior', { url: spellings[0] })) as Record<string, unknown>;
          check(`page ${spellings[0]}`, { url, summary, heatmap, items }, pageBehaviorOracle(stored, s.links, spellings[spellings.length - 1]!, input, s.tz, q.mode));
        }
        check('forms', (await all('forms')).items, formsOracle(stored, s.links, input, s.tz));
        for (const form of ['form#f', 'form.g:nth-child(2)']) {
          for (const url of [undefined, SPELLINGS[0]![1]]) {
            const { items, attempts, submitted, abandoned, median_hesitation_ms, url: page } = (await all('forms/detail', { form, url })) as Record<string, unknown>;
            check(`form ${form} ${url}`, { form, url: page, attempts, submitted, abandoned, median_hesitation_ms, items }, formDetailOracle(stored, form, url, input, s.tz));
          }
        }
        t.ok(pageOfUrl(SPELLINGS[0]![1]!) === normalizePageUrl(SPELLINGS[0]![1]!));
      },
    ),
    { numRuns: runs },
  );
  t.pass('behavior and forms reports agree with the reference');
}
