// The ring of recent log lines behind `ppctl logs` for a checkout's server, against a plain list.

import fc from 'fast-check';
import t from 'tap';
import { RecentLogLines } from '../../server/ground/recentLogLines.js';

t.test('holds the newest lines, numbered, like a plain list would', async (t) => {
  fc.assert(
    fc.property(
      fc.integer({ min: 1, max: 8 }),
      fc.array(
        fc.oneof(
          fc.array(fc.constantFrom('a', 'b', '\n'), { maxLength: 6 }).map((c) => c.join('')),
          fc.constant('x\n'),
        ),
        { maxLength: 40 },
      ),
      fc.integer({ min: 1, max: 10 }),
      fc.option(fc.integer({ min: -1, max: 40 }), { nil: undefined }),
      (capacity, writes, max, after) => {
        const ring = new RecentLogLines(capacity);
        const all: string[] = [];
        for (const w of writes) {
          ring.push(w);
          all.push(...w.split('\n').filter(Boolean));
        }
        const kept = all.map((line, n) => ({ line, n })).slice(-capacity);
        const expected = kept
          .filter(({ n }) => after === undefined || n > after)
          .slice(-max)
          .map(({ line }) => line);
        const got = ring.since(after, max);
        return JSON.stringify(got) === JSON.stringify({ lines: expected, last: all.length - 1 });
      },
    ),
  );
  t.pass('agrees with a plain list');
});
