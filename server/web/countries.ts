// Country of a client address from DB-IP's country list (CC BY 4.0, shipped in
// @ip-location-db/dbip-country, read from disk: no network). The CSVs are read once per process,
// at the first lookup of a public address (about half a second), into sorted typed arrays
// searched by bisection. IPv6 ranges are compared on
// their first 64 bits, which is where every allocation in the list ends.

import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { isIPv4, isIPv6 } from 'node:net';

interface Table<T extends Uint32Array | BigUint64Array> {
  starts: T;
  ends: T;
  /** Index into `codes` per range. */
  country: Uint16Array;
  codes: string[];
}

let v4: Table<Uint32Array> | undefined;
let v6: Table<BigUint64Array> | undefined;

function dataDir(): string {
  const require = createRequire(import.meta.url);
  return path.dirname(require.resolve('@ip-location-db/dbip-country/package.json'));
}

/** Lines `start,end,CC` (numbers in decimal), already sorted by start in the package. */
function load<T extends Uint32Array | BigUint64Array>(file: string, make: (n: number) => T, value: (s: string) => number | bigint): Table<T> {
  const text = readFileSync(path.join(dataDir(), file), 'latin1');
  const lines = text.split('\n').filter((l) => l !== '');
  const starts = make(lines.length);
  const ends = make(lines.length);
  const country = new Uint16Array(lines.length);
  const codes: string[] = [];
  const index = new Map<string, number>();
  lines.forEach((line, i) => {
    const a = line.indexOf(',');
    const b = line.indexOf(',', a + 1);
    starts[i] = value(line.slice(0, a)) as never;
    ends[i] = value(line.slice(a + 1, b)) as never;
    const code = line.slice(b + 1).trim();
    let c = index.get(code);
    if (c === undefined) {
      c = codes.length;
      codes.push(code);
      index.set(code, c);
    }
    country[i] = c;
  });
  return { starts, ends, country, codes };
}

const TOP64 = (1n << 64n) - 1n;

function v4Table(): Table<Uint32Array> {
  return (v4 ??= load('dbip-country-ipv4-num.csv', (n) => new Uint32Array(n), Number));
}

function v6Table(): Table<BigUint64Array> {
  return (v6 ??= load(
    'dbip-country-ipv6-num.csv',
    (n) => new BigUint64Array(n),
    (s) => BigInt(s) >> 64n,
  ));
}

/** Loads both lists now (the bench calls this before it measures). */
export function loadCountries(): void {
  v4Table();
  v6Table();
}

function find<T extends Uint32Array | BigUint64Array>(t: Table<T>, key: number | bigint): string | null {
  let lo = 0;
  let hi = t.starts.length - 1;
  let at = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    if (t.starts[mid]! <= key) {
      at = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  if (at < 0 || t.ends[at]! < key) return null;
  const code = t.codes[t.country[at]!]!;
  return code === 'ZZ' || code === '' ? null : code;
}

function v4Number(address: string): number {
  const p = address.split('.');
  return ((Number(p[0]) << 24) >>> 0) + (Number(p[1]) << 16) + (Number(p[2]) << 8) + Number(p[3]);
}

/** The first 64 bits of an IPv6 address (its `::` expanded). */
function v6Top(address: string): bigint {
  const [head, tail] = address.includes('::') ? (address.split('::') as [string, string]) : [address, undefined];
  const left = head === '' ? [] : head.split(':');
  const right = tail === undefined || tail === '' ? [] : tail.split(':');
  const groups = tail === undefined ? left : [...left, ...new Array<string>(8 - left.length - right.length).fill('0'), ...right];
  let top = 0n;
  for (let i = 0; i < 4; i++) top = (top << 16n) | BigInt(parseInt(groups[i] ?? '0', 16) || 0);
  return top & TOP64;
}

/** Loopback, private and link-local addresses: no country, and no reason to read the lists. */
function isLocal(a: string): boolean {
  if (a.startsWith('127.') || a.startsWith('10.') || a.startsWith('192.168.') || a.startsWith('169.254.') || a === '::1') return true;
  if (a.startsWith('172.')) {
    const second = Number(a.slice(4, a.indexOf('.', 4)));
    return second >= 16 && second <= 31;
  }
  const lower = a.slice(0, 4).toLowerCase();
  return lower.startsWith('fc') || lower.startsWith('fd') || lower.startsWith('fe80');
}

/** ISO 3166 alpha-2 code of the address's country, or null (private, reserved or unknown). */
export function countryOf(address: string | null | undefined): string | null {
  if (!address) return null;
  let a = address.trim();
  if (a.startsWith('::ffff:') && isIPv4(a.slice(7))) a = a.slice(7);
  if (isLocal(a)) return null;
  if (isIPv4(a)) return find(v4Table(), v4Number(a));
  const zone = a.indexOf('%');
  if (zone >= 0) a = a.slice(0, zone);
  if (isIPv6(a)) return find(v6Table(), v6Top(a));
  return null;
}
