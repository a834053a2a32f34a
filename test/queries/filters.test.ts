// Filter semantics on a fixed set of events, one operator at a time: text comparison of scalars,
// absent fields matching negative operators, numeric comparisons on JSON numbers only, odd keys.

import t from 'tap';
import { queryHarness } from './harness.js';
import { seedEvents } from '../support/seedEvents.js';

const h = await queryHarness(t);

t.test('each filter operator', async (t) => {
  const p = h.project('UTC');
  const at = '2026-06-01T12:00:00Z';
  await seedEvents(h.server, p, [
    { event: 'view', ts: at, user_id: 'e1', url: 'https://shop.example/p/1', props: { plan: 'pro', n: 5 } },
    { event: 'view', ts: at, user_id: 'e2', url: 'https://shop.example/docs/intro', props: { plan: 'free', n: '7' } },
    { event: 'view', ts: at, user_id: 'e3' },
    { event: 'view', ts: at, user_id: 'e4', url: 'https://shop.example/home', props: { plan: null, n: 2.5 } },
    {
      event: 'view',
      ts: at,
      user_id: 'e5',
      url: 'https://shop.example/home',
      referrer: 'https://search.example/',
      source: 'browser',
      sdk_name: 'web',
      release: '1.2.0',
      props: { plan: 'Pro' },
    },
    { event: 'view', ts: at, user_id: 'e6', props: { 'we"ird key': 'x', $dollar: 1 } },
  ]);
  const count = async (filters: unknown[]) => {
    const res = await h.query(p, 'segmentation', { metric: 'events', event: 'any', date_from: '2026-06-01', date_to: '2026-06-01', filters });
    t.equal(res.status, 200, JSON.stringify(filters));
    return res.body.series[0].points[0].value as number;
  };
  const cases: Array<[unknown[], number, string]> = [
    [[{ field: 'props.plan', op: 'eq', value: 'pro' }], 1, 'e1; "Pro" differs in case'],
    [[{ field: 'props.plan', op: 'neq', value: 'pro' }], 5, 'everyone else, absent and null included'],
    [[{ field: 'props.plan', op: 'in', value: ['pro', 'free'] }], 2, 'e1, e2'],
    [[{ field: 'props.plan', op: 'not_in', value: ['pro'] }], 5, 'everyone but e1'],
    [[{ field: 'props.plan', op: 'exists' }], 3, 'e1, e2, e5; a JSON null is absent'],
    [[{ field: 'props.plan', op: 'not_exists' }], 3, 'e3, e4, e6'],
    [[{ field: 'props.n', op: 'gt', value: 4 }], 1, 'e1; the string "7" is not a number'],
    [[{ field: 'props.n', op: 'lte', value: 2.5 }], 1, 'e4'],
    [[{ field: 'props.n', op: 'eq', value: 7 }], 1, 'e2: scalars compare as text'],
    [[{ field: 'props.n', op: 'eq', value: '5' }], 1, 'e1'],
    [[{ field: 'url', op: 'contains', value: '/p/' }], 1, 'e1'],
    [[{ field: 'url', op: 'not_contains', value: '/p/' }], 5, 'e2..e6, no url included'],
    [[{ field: 'path', op: 'starts_with', value: '/docs' }], 1, 'e2'],
    [[{ field: 'referrer', op: 'eq', value: 'https://search.example/' }], 1, 'e5'],
    [[{ field: 'source', op: 'eq', value: 'browser' }], 1, 'e5; the others are server events'],
    [[{ field: 'sdk_name', op: 'eq', value: 'web' }], 1, 'e5'],
    [[{ field: 'release', op: 'eq', value: '1.2.0' }], 1, 'e5'],
    [[{ field: 'props.we"ird key', op: 'eq', value: 'x' }], 1, 'e6'],
    [[{ field: 'props.$dollar', op: 'gte', value: 1 }], 1, 'e6'],
    [
      [
        { field: 'props.plan', op: 'exists' },
        { field: 'props.n', op: 'gte', value: 5 },
      ],
      1,
      'all must match: e1',
    ],
  ];
  for (const [filters, expected, why] of cases) t.equal(await count(filters), expected, `${JSON.stringify(filters)}: ${why}`);
});
