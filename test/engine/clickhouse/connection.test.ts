// pp's ClickHouse connection: values become literals that read back exactly (quotes, backslashes,
// NUL and other control characters, unicode, 64-bit integers, floats at the edges, DateTimes,
// arrays, NULL), statements go to the first node that answers, and refusals carry ClickHouse's code.

import t from 'tap';
import { ClickHouseConnection, ClickHouseQueryError } from '../../../server/engine/clickhouse/connection.js';
import { dateTimeText, identifier, literal, raw, splitMicros, sql, stringLiteral } from '../../../server/engine/clickhouse/literal.js';
import { freePort, startClickHouse } from '../../support/clickhouseCluster.js';

const AWKWARD = [
  '',
  "it's",
  "''",
  '\\',
  "\\'",
  'a\\nb',
  'end\\',
  'tab\there',
  'line\nbreak\r\n',
  'nul\u0000inside',
  '\u0001\u001f\u007f',
  'café',
  '日本語',
  '😀 emoji',
  '\u202eright-to-left',
  '{"json": "with \\"quotes\\""}',
  "'; DROP TABLE t; --",
  '?',
  '{param:String}',
  '$1',
];

t.test('literals as text', async (t) => {
  t.equal(stringLiteral("it's"), "'it\\'s'");
  t.equal(stringLiteral('a\\b'), "'a\\\\b'");
  t.equal(stringLiteral('\u0000\n\t\u007f'), "'\\x00\\x0A\\x09\\x7F'", 'control characters as \\xHH');
  t.equal(stringLiteral('é😀'), "'é😀'", 'unicode as it is');
  t.equal(stringLiteral('a\ud800b'), "'a\ufffdb'", 'a lone surrogate has no UTF-8 form');
  t.equal(stringLiteral('\udc00'), "'\ufffd'");
  t.equal(literal(42), '42');
  t.equal(literal(-7), '-7');
  t.equal(literal(0.1), '0.1');
  t.equal(literal(1e21), '1e+21');
  t.equal(literal(-0), '0');
  t.equal(literal(2n ** 64n - 1n), '18446744073709551615');
  t.equal(literal(-(2n ** 63n)), '-9223372036854775808');
  t.throws(() => literal(2n ** 64n), { name: 'LiteralError' });
  t.throws(() => literal(-(2n ** 63n) - 1n), { name: 'LiteralError' });
  t.throws(() => literal(Number.NaN), { name: 'LiteralError' });
  t.throws(() => literal(5e-324), { message: /subnormal/ }, "a subnormal double: 18.16's parser refuses it");
  t.throws(() => literal(Number.POSITIVE_INFINITY), { name: 'LiteralError' });
  t.equal(literal(true), '1');
  t.equal(literal(null), 'NULL');
  t.equal(literal(undefined), 'NULL');
  t.equal(literal(new Date('2026-03-02T10:00:00Z')), "toDateTime('2026-03-02 10:00:00', 'UTC')");
  t.throws(() => literal(new Date('2026-03-02T10:00:00.001Z')), { message: /sub-second part/ }, 'a DateTime literal would lose the milliseconds');
  t.throws(() => literal(new Date('1969-12-31T23:59:59Z')), { message: /outside ClickHouse's DateTime/ });
  t.throws(() => literal(new Date(Number.NaN)), { name: 'LiteralError' });
  t.equal(dateTimeText(new Date('2026-03-02T10:00:00.999Z')), '2026-03-02 10:00:00', 'the second an instant falls in');
  t.same(splitMicros(1_772_445_600_123_456), { seconds: 1_772_445_600, micros: 123_456 });
  t.equal(literal(['a', null, 1, [2n]]), "['a', NULL, 1, [2]]");
  t.equal(literal([]), '[]');
  t.throws(() => literal({ a: 1 }), { name: 'LiteralError' });
  t.equal(identifier('a`b\\c').text, '`a\\`b\\\\c`');
  t.equal(sql`SELECT ${"x'"} AS s, ${raw('1')} AS one, ${identifier('t')}`, "SELECT 'x\\'' AS s, 1 AS one, `t`");
});

t.test('on a server: every literal reads back as the value it was made of', async (t) => {
  const ch = await startClickHouse(t, 'single');
  const conn = new ClickHouseConnection({ urls: ch.urls, database: 'default', user: 'default' });
  t.teardown(() => conn.close());
  await conn.ping();
  for (const s of AWKWARD) {
    const [row] = await conn.query<{ s: string; bytes: string }>(sql`SELECT ${s} AS s, length(${s}) AS bytes`);
    t.equal(row!.s, s, `string ${JSON.stringify(s)}`);
    t.equal(Number(row!.bytes), Buffer.byteLength(s), `${JSON.stringify(s)}: as many bytes as its UTF-8`);
  }
  const [all] = await conn.query<{ a: string[] }>(sql`SELECT ${AWKWARD} AS a`);
  t.same(all!.a, AWKWARD, 'an array of them');

  for (const n of [0, 1, -1, 42, 0.1, -2.5, 1e21, 1.7976931348623157e308, 2.2250738585072014e-308, -2.2250738585072014e-308, 2 ** 53, -(2 ** 53), 123456.789]) {
    const [row] = await conn.query<{ x: number }>(sql`SELECT toFloat64(${n}) AS x`);
    t.equal(row!.x, n, `number ${n}`);
  }
  for (const n of [2n ** 64n - 1n, 2n ** 63n, -(2n ** 63n), 2n ** 53n + 1n, 0n]) {
    const [row] = await conn.query<{ x: string }>(sql`SELECT toString(${n}) AS x`);
    t.equal(row!.x, n.toString(), `64-bit integer ${n}`);
  }
  for (const d of [new Date('2026-03-02T10:00:00Z'), new Date('1970-01-01T00:00:00Z'), new Date('1970-01-01T00:00:01Z'), new Date('2105-12-31T23:59:59Z')]) {
    const [row] = await conn.query<{ s: string; text: string }>(sql`SELECT toUnixTimestamp(${d}) AS s, toString(${d}) AS text`);
    t.equal(Number(row!.s), d.getTime() / 1000, `DateTime ${d.toISOString()}`);
    // 18.16 shows the zero DateTime as 0000-00-00 00:00:00.
    if (d.getTime() > 0) t.equal(row!.text, dateTimeText(d), `${d.toISOString()} as text`);
  }
  const [mixed] = await conn.query<{ n: null; arr: Array<number | null>; b: number }>(sql`SELECT ${null} AS n, ${[1, null, 3]} AS arr, ${true} AS b`);
  t.same(mixed, { n: null, arr: [1, null, 3], b: 1 });
  const [uuid] = await conn.query<{ u: string }>(sql`SELECT toString(toUUID(${'0193a5c2-7d4e-7a01-8f00-00000000abcd'})) AS u`);
  t.equal(uuid!.u, '0193a5c2-7d4e-7a01-8f00-00000000abcd');
});

t.test('the first node that answers serves; a refusal carries its code', async (t) => {
  const ch = await startClickHouse(t, 'single');
  const dead = `http://127.0.0.1:${await freePort()}`;
  const conn = new ClickHouseConnection({ urls: [dead, ch.urls[0]!], database: 'default', user: 'default' });
  t.teardown(() => conn.close());
  await conn.ping();
  t.equal(conn.url, ch.urls[0], 'a node that does not answer is passed over');
  const [row] = await conn.query<{ one: number }>('SELECT 1 AS one');
  t.same(row, { one: 1 });
  const refused = await conn.query('SELECT * FROM default.no_such_table').catch((err: Error) => err);
  t.type(refused, ClickHouseQueryError);
  t.equal((refused as ClickHouseQueryError).code, 60, 'unknown table');
  await t.rejects(conn.command('SELEC 1'), { name: 'ClickHouseQueryError' }, 'a syntax error is refused, not retried elsewhere');

  const none = new ClickHouseConnection({ urls: [dead], database: 'default', user: 'default' });
  t.teardown(() => none.close());
  await t.rejects(none.ping(), { name: 'ClickHouseUnreachableError' });
});
