// verifyLicense against real Ed25519 signatures: one honest license, then every way a
// token can be wrong, each refused with the check that caught it.
import { generateKeyPairSync, sign } from 'node:crypto';
import { compactVerify, SignJWT } from 'jose';
import fc from 'fast-check';
import t from 'tap';
import { builtinKeysDir, loadTrustedKeys } from '../../license/trustedKeys.js';
import { verifyLicense } from '../../license/verifyLicense.js';
import { DAY_MS, goodHeader, goodPayload, makeSigner, NOW, options, refusal, signFor, signRaw, trustDir, vendor } from './licenseFixtures.js';

const b64 = (value: unknown): string => Buffer.from(JSON.stringify(value)).toString('base64url');

t.test('a valid license verifies and exposes its terms', async (t) => {
  const token = await signFor({ licenseId: 'lic_42', installId: 'inst-1' });
  const license = await verifyLicense(token, options({ installId: 'inst-1' }));
  t.equal(license.kid, 'test-vendor-a');
  t.equal(license.license_id, 'lic_42');
  t.equal(license.customer_id, 'cus_acme');
  t.equal(license.licensee, 'Acme Corp');
  t.equal(license.edition, 'enterprise');
  t.same(license.features, ['actor_drilldown', 'saved_segments']);
  t.same(license.limits, { projects: 10 });
  t.equal(license.grace_days, 14);
  t.equal(license.install_id, 'inst-1');
  t.equal(license.expires_at.toISOString(), new Date(NOW.getTime() + 365 * DAY_MS).toISOString());
  t.equal(license.grace_ends_at.getTime() - license.expires_at.getTime(), 14 * DAY_MS);
  t.equal(license.claims.iss, 'pp-licensing');
});

t.test('a license file with a trailing newline verifies', async (t) => {
  const license = await verifyLicense(`${await signFor()}\n`, options());
  t.equal(license.licensee, 'Acme Corp');
});

t.test('unknown feature names are kept', async (t) => {
  const license = await verifyLicense(await signFor({ features: ['saved_segments', 'teleport'] }), options());
  t.same(license.features, ['saved_segments', 'teleport']);
});

t.test('both keys of a rotation pair are accepted, and nothing else', async (t) => {
  const current = makeSigner('rot-a');
  const next = makeSigner('rot-b');
  const keys = loadTrustedKeys({ builtinDir: builtinKeysDir(), extraDir: trustDir(current, next) });
  for (const signer of [current, next]) {
    const license = await verifyLicense(await signFor({}, signer), options({ trustedKeys: keys }));
    t.equal(license.kid, signer.kid);
  }
  const err = await refusal(await signFor({}, vendor), options({ trustedKeys: keys }));
  t.equal(err?.check, 'kid', 'a key trusted elsewhere is not trusted here');
});

t.test('signed by an untrusted key under a trusted kid: signature', async (t) => {
  const impostor = makeSigner(vendor.kid);
  const err = await refusal(await signFor({}, impostor));
  t.equal(err?.check, 'signature');
  t.match(err?.message, /signature/);
});

t.test('unknown kid: kid', async (t) => {
  const err = await refusal(await signFor({}, makeSigner('pp-2099-z')));
  t.equal(err?.check, 'kid');
  t.match(err?.message, /"pp-2099-z".*not a trusted/);
});

t.test('missing kid: kid', async (t) => {
  const { kid: _kid, ...header } = goodHeader();
  t.equal((await refusal(signRaw(header, goodPayload())))?.check, 'kid');
});

t.test('edited payload keeping the signature: signature', async (t) => {
  const [header, , signature] = (await signFor({ features: [] })).split('.');
  const forged = goodPayload({ lic: { licensee: 'Acme Corp', edition: 'enterprise', features: ['actor_drilldown', 'saved_segments'], limits: {}, grace_days: 3650 } });
  const err = await refusal(`${header}.${b64(forged)}.${signature}`);
  t.equal(err?.check, 'signature');
});

t.test('claims the appliance does not accept, correctly signed', async (t) => {
  const cases: [string, Record<string, unknown>, Record<string, unknown>, string][] = [
    ['other aud', goodHeader(), goodPayload({ aud: 'someone-else' }), 'aud'],
    ['aud list without us', goodHeader(), goodPayload({ aud: ['a', 'b'] }), 'aud'],
    ['missing aud', goodHeader(), goodPayload({ aud: undefined }), 'aud'],
    ['other iss', goodHeader(), goodPayload({ iss: 'evil-licensing' }), 'iss'],
    ['missing iss', goodHeader(), goodPayload({ iss: undefined }), 'iss'],
    ['typ JWT', { ...goodHeader(), typ: 'JWT' }, goodPayload(), 'typ'],
    ['typ missing', { alg: 'EdDSA', kid: vendor.kid }, goodPayload(), 'typ'],
    ['no lic', goodHeader(), goodPayload({ lic: undefined }), 'claims'],
    ['features not a list', goodHeader(), goodPayload({ lic: { licensee: 'A', edition: 'e', features: 'actor_drilldown', limits: {}, grace_days: 1 } }), 'claims'],
    ['negative grace', goodHeader(), goodPayload({ lic: { licensee: 'A', edition: 'e', features: [], limits: {}, grace_days: -1 } }), 'claims'],
    ['limits not an object', goodHeader(), goodPayload({ lic: { licensee: 'A', edition: 'e', features: [], limits: [], grace_days: 1 } }), 'claims'],
    ['empty licensee', goodHeader(), goodPayload({ lic: { licensee: ' ', edition: 'e', features: [], limits: {}, grace_days: 1 } }), 'claims'],
    ['exp as text', goodHeader(), goodPayload({ exp: '2030-01-01' }), 'claims'],
    ['no jti', goodHeader(), goodPayload({ jti: undefined }), 'claims'],
    ['exp before nbf', goodHeader(), goodPayload({ exp: 1000, nbf: 2000 }), 'claims'],
  ];
  for (const [name, header, payload, check] of cases) {
    const err = await refusal(signRaw(header, payload));
    t.equal(err?.check, check, name);
  }
});

t.test('aud given as a list that includes the appliance verifies', async (t) => {
  const license = await verifyLicense(signRaw(goodHeader(), goodPayload({ aud: ['pp-appliance', 'other'] })), options());
  t.equal(license.license_id, 'lic_1');
});

t.test('install_id binds a license to one installation', async (t) => {
  const token = await signFor({ installId: 'inst-1' });
  t.equal((await refusal(token, options({ installId: 'inst-2' })))?.check, 'install_id', 'other installation');
  t.equal((await refusal(token, options()))?.check, 'install_id', 'installation id unknown');
  const unbound = await verifyLicense(await signFor(), options({ installId: 'inst-2' }));
  t.equal(unbound.install_id, undefined, 'an unbound license works on any installation');
});

t.test('not yet valid: nbf, with a few minutes of leeway for a lagging clock', async (t) => {
  const later = await signFor({ issuedAt: NOW, notBefore: new Date(NOW.getTime() + 2 * DAY_MS) });
  const err = await refusal(later);
  t.equal(err?.check, 'nbf');
  t.match(err?.message, /not valid yet/);
  const inAMinute = await signFor({ issuedAt: NOW, notBefore: new Date(NOW.getTime() + 60_000) });
  t.ok(await verifyLicense(inAMinute, options()));
  t.equal((await refusal(inAMinute, options({ notBeforeToleranceSeconds: 0 })))?.check, 'nbf');
});

t.test('expiry: grace keeps it verifying, past grace it is expired', async (t) => {
  const expiresAt = new Date(NOW.getTime() - 5 * DAY_MS);
  const inGrace = await verifyLicense(await signFor({ expiresAt, graceDays: 14 }), options());
  t.equal(inGrace.expires_at.getTime(), expiresAt.getTime());
  const token = await signFor({ expiresAt, graceDays: 5 });
  const err = await refusal(token);
  t.equal(err?.check, 'expired', 'grace ends exactly at exp + grace_days');
  t.equal(err?.license?.licensee, 'Acme Corp', 'an expired license is still described');
  t.match(err?.message, /expired.*5-day grace period ended/);
  const justBefore = new Date(expiresAt.getTime() + 5 * DAY_MS - 1);
  t.ok(await verifyLicense(token, options({ now: justBefore })));
  const noGrace = await signFor({ expiresAt: NOW, graceDays: 0 });
  t.equal((await refusal(noGrace))?.check, 'expired', 'exp itself is already past');
});

t.test('alg none is refused', async (t) => {
  const header = { alg: 'none', kid: vendor.kid, typ: 'license+jwt' };
  const bare = `${b64(header)}.${b64(goodPayload())}.`;
  t.equal((await refusal(bare))?.check, 'alg', 'empty signature');
  const signature = (await signFor()).split('.')[2];
  t.equal((await refusal(`${b64(header)}.${b64(goodPayload())}.${signature}`))?.check, 'alg', 'signature kept');
  const err = await refusal(`${b64({ ...header, alg: 'None' })}.${b64(goodPayload())}.`);
  t.equal(err?.check, 'alg', 'case variant');
  t.match(err?.message, /only EdDSA/);
});

t.test('HS256 keyed with the public key (algorithm confusion) is refused', async (t) => {
  const secrets: [string, Uint8Array][] = [
    ['PEM text', new TextEncoder().encode(vendor.publicPem)],
    ['raw key bytes', vendor.publicKey.export({ format: 'der', type: 'spki' }).subarray(-32)],
    ['SPKI DER', vendor.publicKey.export({ format: 'der', type: 'spki' })],
  ];
  for (const [name, secret] of secrets) {
    const forged = await new SignJWT(goodPayload()).setProtectedHeader({ alg: 'HS256', kid: vendor.kid, typ: 'license+jwt' }).sign(secret);
    // The forgery is real: a verifier that let the header pick the algorithm would accept it.
    await compactVerify(forged, secret);
    t.equal((await refusal(forged))?.check, 'alg', name);
  }
});

t.test('other asymmetric algorithms are refused', async (t) => {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const rs256 = await new SignJWT(goodPayload()).setProtectedHeader({ alg: 'RS256', kid: vendor.kid, typ: 'license+jwt' }).sign(privateKey);
  t.equal((await refusal(rs256))?.check, 'alg', 'RS256');
  const fullySpecified = signRaw({ ...goodHeader(), alg: 'Ed25519' }, goodPayload());
  t.equal((await refusal(fullySpecified))?.check, 'alg', 'Ed25519 alg name');
});

t.test('malformed input is a format refusal, never a crash', async (t) => {
  const good = await signFor();
  const [h, p, s] = good.split('.');
  const cases: [string, string][] = [
    ['empty', ''],
    ['one part', 'abc'],
    ['two parts', 'abc.def'],
    ['four parts', `${good}.x`],
    ['header not JSON', `${Buffer.from('not json').toString('base64url')}.${p}.${s}`],
    ['header is a JSON array', `${b64([1, 2])}.${p}.${s}`],
    ['not base64url', `${h}.${p}.${s}!`],
    ['JSON serialization', JSON.stringify({ protected: h, payload: p, signature: s })],
    ['huge', `${h}.${'A'.repeat(20_000)}.${s}`],
  ];
  for (const [name, token] of cases) t.equal((await refusal(token))?.check, 'format', name);
  t.equal((await refusal(42 as unknown as string))?.check, 'format', 'not a string');
});

t.test('a signature re-spelled with different spare bits is refused', async (t) => {
  const [h, p, s] = (await signFor()).split('.') as [string, string, string];
  // 64 signature bytes leave 4 unused bits in the last character; flipping one of them
  // spells the same bytes differently.
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
  const respelled = s.slice(0, -1) + alphabet[alphabet.indexOf(s.at(-1)!) ^ 1];
  t.same(Buffer.from(respelled, 'base64url'), Buffer.from(s, 'base64url'), 'same bytes');
  t.equal((await refusal(`${h}.${p}.${respelled}`))?.check, 'format');
});

t.test('a crit header jose does not understand is refused', async (t) => {
  const err = await refusal(signRaw({ ...goodHeader(), crit: ['exp'], exp: 1 }, goodPayload()));
  t.equal(err?.check, 'format');
});

t.test('a correctly signed payload that is not JSON: claims', async (t) => {
  const input = `${b64(goodHeader())}.${Buffer.from('{"iss":').toString('base64url')}`;
  const token = `${input}.${sign(null, Buffer.from(input), vendor.privateKey).toString('base64url')}`;
  t.equal((await refusal(token))?.check, 'claims');
});

t.test('refusal messages never contain the token', async (t) => {
  const tokens = [
    await signFor({}, makeSigner('unknown-kid')),
    await signFor({ installId: 'x' }),
    await signFor({ issuedAt: new Date(NOW.getTime() - 400 * DAY_MS), expiresAt: new Date(NOW.getTime() - 100 * DAY_MS) }),
    signRaw(goodHeader(), goodPayload({ aud: 'x' })),
  ];
  for (const token of tokens) {
    const err = await refusal(token);
    t.ok(err, 'refused');
    for (const part of token.split('.')) t.notOk(err?.message.includes(part), `message has no token part (${err?.check})`);
  }
});

t.test('property: any single-byte change to the payload or signature is refused', async (t) => {
  const parts = (await signFor()).split('.') as [string, string, string];
  await fc.assert(
    fc.asyncProperty(fc.constantFrom(1, 2), fc.nat(), fc.integer({ min: 1, max: 255 }), async (which, at, flip) => {
      const bytes = Buffer.from(parts[which], 'base64url');
      bytes[at % bytes.length] ^= flip;
      const edited = [...parts];
      edited[which] = bytes.toString('base64url');
      const err = await refusal(edited.join('.'));
      return err?.check === 'signature';
    }),
    { numRuns: 300 },
  );
  t.pass('300 edits refused');
});

t.test('property: any single-character change anywhere in the token is refused', async (t) => {
  const token = await signFor();
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.';
  await fc.assert(
    fc.asyncProperty(fc.nat({ max: token.length - 1 }), fc.constantFrom(...alphabet), async (at, c) => {
      fc.pre(token[at] !== c);
      const err = await refusal(token.slice(0, at) + c + token.slice(at + 1));
      return err !== undefined;
    }),
    { numRuns: 300 },
  );
  t.pass('300 edits refused');
});
