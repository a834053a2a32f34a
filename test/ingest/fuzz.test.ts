// Thousands of malformed requests against the ingestion surface: unusable credentials with any
// body (valid batches included), and usable credentials with bodies or headers that are broken
// at the request level. Every answer must be a 4xx in the error envelope, no request may be
// logged as a server fault, the server must stay up, and no stored table may change.
// (Defects inside single events of a well-formed batch are answered 202 with rejected[]; those
// are covered in track.test.ts.)

import t from 'tap';
import fc from 'fast-check';
import { gzipSync } from 'node:zlib';
import { randomUUID } from 'node:crypto';
import { startTestServer } from '../support/testServer.js';
import { accessTokenFor, createTenant } from '../support/factories.js';
import { createIngestKey, createReleaseToken, ingestEvents, readTable } from '../support/ingest.js';
import { revokeIngestKey } from '../../server/keys/ingestKeys.js';

type Op = 'track' | 'identify' | 'alias' | 'replay' | 'capture';

interface FuzzRequest {
  op: Op;
  query?: string;
  headers: Record<string, string>;
  body: string | Buffer;
}

const OPS: Op[] = ['track', 'identify', 'alias', 'replay', 'capture'];
const TABLES = ['events', 'identity_links', 'replay_chunks', 'element_captures', 'actor_traits', 'ingest_rejections'];
const printable = (max: number) => fc.stringMatching(new RegExp(`^[\\x21-\\x7e]{0,${max}}$`));
const json = 'application/json';

/** A body each operation would accept, so only the credential can be what fails. */
function validBody(op: Op, credential?: string): unknown {
  const id = randomUUID();
  switch (op) {
    case 'track':
      return { ...(credential ? { credential } : {}), events: [{ event: 'fuzz', uuid: id, anonymous_id: id }] };
    case 'identify':
      return { anonymous_id: id, user_id: `u-${id}` };
    case 'alias':
      return { previous_id: id, user_id: `u-${id}` };
    case 'replay':
      return { ...(credential ? { credential } : {}), session_id: id, anonymous_id: id, seq: 0, events: [{ type: 2, timestamp: 1 }] };
    case 'capture':
      return { picker_token: id, nonce: 'n', url: 'https://shop.example/', selector: 'a', element: { tag: 'a' }, chain: [{ tag: 'a' }] };
  }
}

/** Request-level breakage of an envelope, per operation: every value below has the wrong type. */
const brokenEnvelope = (op: Op): fc.Arbitrary<unknown> => {
  const dict = fc.dictionary(fc.string(), fc.integer(), { maxKeys: 3 });
  // Whole numbers are ids too (stored as their decimal text): a fraction is the wrong type.
  const fraction = fc.double({ noNaN: true, noDefaultInfinity: true }).filter((d) => !Number.isInteger(d));
  const notString = fc.oneof(fraction, fc.constant(null), fc.boolean(), dict, fc.array(fc.integer()), fc.constant(''));
  const notArray = fc.oneof(fc.string(), fc.integer(), fc.constant(null), fc.boolean(), dict);
  const notObject = fc.oneof(fc.string(), fc.integer(), fc.constant(null), fc.boolean(), fc.array(fc.integer()));
  const notSeq = fc.oneof(
    fc.double().filter((d) => !Number.isInteger(d)),
    fc.integer({ max: -1 }),
    fc.string(),
  );
  const topLevel = fc
    .dictionary(
      fc.string({ minLength: 1 }).filter((k) => !['events', 'event', 'credential'].includes(k)),
      fc.anything(),
      { minKeys: 1, maxKeys: 4 },
    )
    .map((d) => ({ ...d, events: 'x' }));
  switch (op) {
    case 'track':
      return fc.oneof(
        topLevel,
        notArray.map((events) => ({ events })),
        fc.constant({ events: [] }),
        fc
          .anything()
          .filter((x) => x !== undefined)
          .map((x) => ({ events: [{ event: 'a', anonymous_id: 'b' }], unexpected: x })),
      );
    case 'identify':
      return fc.oneof(
        topLevel,
        notString.map((user_id) => ({ anonymous_id: 'a', user_id })),
        fc.constant({ anonymous_id: 'a' }),
        fc
          .anything()
          .filter((x) => x !== undefined)
          .map((x) => ({ anonymous_id: 'a', user_id: 'u', x })),
      );
    case 'alias':
      return fc.oneof(
        topLevel,
        notString.map((previous_id) => ({ previous_id, user_id: 'u' })),
        fc.constant({ user_id: 'u' }),
      );
    case 'replay':
      return fc.oneof(
        topLevel,
        notSeq.map((seq) => ({ session_id: 's', anonymous_id: 'a', seq, events: [{}] })),
        notArray.map((events) => ({ session_id: 's', anonymous_id: 'a', seq: 1, events })),
      );
    case 'capture':
      return fc.oneof(
        topLevel,
        notObject.map((element) => ({ picker_token: 't', nonce: 'n', url: 'u', selector: 's', element, chain: [{ tag: 'a' }] })),
        fc.constant({ picker_token: 't' }),
      );
  }
};

t.test('fuzzing the ingestion surface', async (t) => {
  const server = await startTestServer(t);
  const { owner, org, project } = await createTenant(server);
  const serverKey = createIngestKey(server, project).value;
  const browser = createIngestKey(server, project, { type: 'browser', domains: ['shop.example'] }).value;
  const revoked = createIngestKey(server, project);
  revokeIngestKey(server.running.services, project.id, revoked.id);
  const release = createReleaseToken(server, project).value;
  const access = await accessTokenFor(server, owner, org);
  // Something stored beforehand, so "unchanged" is not trivially "empty".
  await ingestEvents(server, serverKey, [{ event: 'before', anonymous_id: 'a' }]);
  await server.request('POST', '/v1/identify', { token: serverKey, body: { anonymous_id: 'a', user_id: 'u', traits: { plan: 'pro' } } });

  const snapshot = async () => {
    const out: Record<string, unknown> = {};
    for (const table of TABLES) out[table] = await readTable(server, `SELECT md5(string_agg(CAST(x AS VARCHAR), '|' ORDER BY CAST(x AS VARCHAR))) AS h, count(*) AS n FROM ${table} x`);
    return out;
  };
  const before = await snapshot();

  // Unusable credentials, with bodies that would otherwise be stored.
  const badCredential: fc.Arbitrary<(op: Op) => Omit<FuzzRequest, 'op' | 'body'> & { credential?: string }> = fc.oneof(
    fc.constant(() => ({ headers: {} })),
    printable(120).map((s) => () => ({ headers: { authorization: `Bearer ${s}` } })),
    printable(60).map((s) => () => ({ headers: { authorization: s } })),
    fc.stringMatching(/^[A-Za-z0-9]{40}$/).map((rest) => () => ({ headers: { authorization: `Bearer pp_sk_${rest}` } })),
    fc.stringMatching(/^[A-Za-z0-9]{32}$/).map((secret) => () => ({ headers: { authorization: `Bearer ${serverKey.slice(0, 14)}${secret}` } })),
    fc.constantFrom(release, access, revoked.value, serverKey.replace('pp_sk_', 'pp_bt_'), `${serverKey}x`).map((v) => () => ({ headers: { authorization: `Bearer ${v}` } })),
    fc.constantFrom(serverKey, browser, release, 'pp_wk_nope').map((v) => () => ({ headers: { origin: 'https://shop.example' }, query: `key=${encodeURIComponent(v)}` })),
    fc.constantFrom(serverKey, release, access, 'pp_bt_short').map((v) => () => ({ headers: {}, credential: v })),
    fc.constant(() => ({ headers: { authorization: 'Bearer' } })),
    fc.constant(() => ({ headers: { authorization: `Basic ${Buffer.from(`${serverKey}:`).toString('base64')}` } })),
  );
  const withBadCredential = fc.tuple(fc.constantFrom(...OPS), badCredential).map(([op, make]): FuzzRequest => {
    const c = make(op);
    return { op, query: c.query, headers: { 'content-type': json, ...c.headers }, body: JSON.stringify(validBody(op, c.credential)) };
  });

  // Usable credentials, broken requests.
  const goodHeaders = (op: Op): Record<string, string> =>
    op === 'replay' || op === 'capture' ? { authorization: `Bearer ${browser}`, origin: 'https://shop.example' } : { authorization: `Bearer ${serverKey}` };
  // A body that inflates past the 1 MiB limit; built once, it is slow to compress.
  const bomb = gzipSync(JSON.stringify({ events: [{ event: 'bomb', anonymous_id: 'b' }], pad: ' '.repeat(4 * 1024 * 1024) }));
  const light = <T>(arbitrary: fc.Arbitrary<T>) => ({ weight: 8, arbitrary });
  const brokenRequest = fc.constantFrom(...OPS).chain((op) =>
    fc.oneof(
      // Not JSON at all, in both content types the surface reads.
      light(
        fc
          .tuple(
            fc.string({ minLength: 1 }).filter((s) => {
              try {
                JSON.parse(s);
                return false;
              } catch {
                return true;
              }
            }),
            fc.constantFrom(json, 'text/plain'),
          )
          .map(([text, type]): FuzzRequest => ({ op, headers: { ...goodHeaders(op), 'content-type': type }, body: text })),
      ),
      // JSON that is not an object (strict parsing refuses primitives; arrays fail the schema).
      light(
        fc
          .oneof(fc.integer(), fc.string(), fc.constant(null), fc.array(fc.integer()))
          .map((v): FuzzRequest => ({ op, headers: { ...goodHeaders(op), 'content-type': json }, body: JSON.stringify(v) })),
      ),
      light(brokenEnvelope(op).map((v): FuzzRequest => ({ op, headers: { ...goodHeaders(op), 'content-type': json }, body: JSON.stringify(v) }))),
      // A valid body under a malformed client header or an unreadable encoding or type.
      light(
        printable(40)
          .filter((s) => s.length > 0 && !/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}\/[A-Za-z0-9][A-Za-z0-9.+_-]{0,63}$/.test(s))
          .map((tracker): FuzzRequest => ({ op, headers: { ...goodHeaders(op), 'content-type': json, 'x-pp-tracker': tracker }, body: JSON.stringify(validBody(op)) })),
      ),
      light(
        fc
          .constantFrom('gzip', 'deflate', 'br', 'x-unknown')
          .map((enc): FuzzRequest => ({ op, headers: { ...goodHeaders(op), 'content-type': json, 'content-encoding': enc }, body: JSON.stringify(validBody(op)) })),
      ),
      light(
        fc
          .constantFrom('application/json; charset=latin9', 'application/json; charset=koi8-r')
          .map((type): FuzzRequest => ({ op, headers: { ...goodHeaders(op), 'content-type': type }, body: JSON.stringify(validBody(op)) })),
      ),
      light(
        fc
          .constantFrom('application/xml', 'multipart/form-data; boundary=x', 'application/x-www-form-urlencoded')
          .map((type): FuzzRequest => ({ op, headers: { ...goodHeaders(op), 'content-type': type }, body: JSON.stringify(validBody(op)) })),
      ),
      // Too big (rarer, they are slow to send): over 1 MiB, over 500 events, a gzip bomb, deep nesting.
      {
        weight: 1,
        arbitrary: fc
          .integer({ min: 1, max: 64 })
          .map((extra): FuzzRequest => ({ op, headers: { ...goodHeaders(op), 'content-type': json }, body: JSON.stringify({ ...(validBody(op) as object), pad: 'x'.repeat(1024 * 1024 + extra) }) })),
      },
      {
        weight: 1,
        arbitrary: fc.integer({ min: 501, max: 520 }).map(
          (n): FuzzRequest => ({
            op: 'track',
            headers: { ...goodHeaders('track'), 'content-type': json },
            body: JSON.stringify({ events: Array.from({ length: n }, () => ({ event: 'bulk', uuid: randomUUID(), anonymous_id: 'b' })) }),
          }),
        ),
      },
      { weight: 1, arbitrary: fc.constant(0).map((): FuzzRequest => ({ op, headers: { ...goodHeaders(op), 'content-type': json, 'content-encoding': 'gzip' }, body: bomb })) },
      {
        weight: 1,
        arbitrary: fc
          .integer({ min: 5000, max: 100000 })
          .map((depth): FuzzRequest => ({ op, headers: { ...goodHeaders(op), 'content-type': json }, body: `{"events":0,"deep":${'['.repeat(depth)}${']'.repeat(depth)}}` })),
      },
    ),
  );

  const failures: string[] = [];
  let sent = 0;
  const check = async (r: FuzzRequest) => {
    sent += 1;
    const res = await server.request('POST', `/v1/${r.op}${r.query ? `?${r.query}` : ''}`, { raw: r.body, headers: r.headers });
    const envelope = res.body?.error;
    const ok = res.status >= 400 && res.status < 500 && typeof envelope?.code === 'string' && typeof envelope?.message === 'string' && typeof envelope?.details === 'object';
    if (!ok || /\n\s+at /.test(res.text)) failures.push(`${r.op} ${JSON.stringify(r.headers)} → ${res.status} ${res.text.slice(0, 200)}`);
    return ok;
  };

  await fc.assert(fc.asyncProperty(withBadCredential, check), { numRuns: 1200, endOnFailure: true });
  await fc.assert(fc.asyncProperty(brokenRequest, check), { numRuns: 1200, endOnFailure: true });

  t.same(failures, [], `${sent} malformed requests, all answered 4xx in the envelope`);
  t.same(
    server.logs.filter((l) => l.msg === 'unhandled error'),
    [],
    'no server fault was logged',
  );
  t.same(await snapshot(), before, 'no stored table changed');
  t.equal((await server.request('GET', '/v1/health')).status, 200, 'still up');
  const after = await ingestEvents(server, serverKey, [{ event: 'after', anonymous_id: 'a' }]);
  t.equal(after.status, 202, 'and still ingesting');
});
