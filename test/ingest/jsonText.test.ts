// jsonText skips its replacer unless the text shows a lone surrogate: the output must be what the
// replacer alone gives, for every kind of input.

import t from 'tap';
import { jsonText, wellFormed } from '../../server/ingest/jsonText.js';

/** Every string and key made well-formed on the way, as jsonText did for every value. */
function reference(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => {
    if (typeof v === 'string') return wellFormed(v);
    if (v !== null && typeof v === 'object' && !Array.isArray(v)) return Object.fromEntries(Object.entries(v).map(([k, x]) => [wellFormed(k), x]));
    return v;
  });
}

/** Every string and key of a parsed JSON value. */
function strings(v: unknown): string[] {
  if (typeof v === 'string') return [v];
  if (Array.isArray(v)) return v.flatMap(strings);
  if (v !== null && typeof v === 'object') return Object.entries(v).flatMap(([k, x]) => [k, ...strings(x)]);
  return [];
}

const cases: Array<[string, unknown]> = [
  ['plain', { plan: 'pro', n: 3, ok: true, none: null, list: [1, 'two', { three: 3 }] }],
  ['a paired surrogate (emoji) stays', { mood: '\ud83d\ude00', ['\ud83d\ude00']: 1 }],
  ['lone high surrogate in a value', { k: 'v\ud800' }],
  ['lone low surrogate in a key', { ['k\udc00']: 'v' }],
  ['deep in an array', { a: [[['\udfff']]] }],
  ['the text of an escape, not a surrogate', { k: '\\ud800', ['\\udc00']: '\\\\ud83d' }],
  ['a surrogate after an escaped backslash', { k: '\\\ud800' }],
  ['numeric keys keep their order', { 2: 'b', 1: 'a', x: '\ud800' }],
  ['a date', { at: new Date('2026-11-02T12:00:00Z') }],
  ['a top-level string', '\udbff'],
];

for (const [name, value] of cases) {
  t.test(name, async (t) => {
    const text = jsonText(value);
    t.equal(text, reference(value));
    t.ok(
      strings(JSON.parse(text)).every((s) => wellFormed(s) === s),
      'every string and key well-formed',
    );
  });
}
