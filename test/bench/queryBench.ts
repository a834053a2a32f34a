// Times the cases on one engine: a warm-up, then the median of several runs per case. For pp
// every request goes through the real HTTP API of the running server; a case whose route is not
// mounted (not in the served OpenAPI document) is reported as not available instead of failing.

import type { BenchCase, CaseScope, Figures, PpRequest } from './cases.js';
import { PREPARATIONS } from './cases.js';
import type { ClickHouse } from './clickhouse.js';
import type { PpServer } from './ppServer.js';

export interface Timing {
  runsMs: number[];
  p50Ms: number;
  figures: Figures;
  /** The same request again from the result cache (pp only; absent when it was not a cache hit). */
  cachedP50Ms?: number;
}

export type Outcome = { ok: true; timing: Timing } | { ok: false; reason: string };

export interface TimingOptions {
  warmups: number;
  runs: number;
  log: (line: string) => void;
}

export function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

async function timed<T>(warmups: number, runs: number, once: () => Promise<{ ms: number; value: T }>): Promise<{ runsMs: number[]; value: T }> {
  let value: T | undefined;
  for (let i = 0; i < warmups; i++) value = (await once()).value;
  const runsMs: number[] = [];
  for (let i = 0; i < runs; i++) {
    const r = await once();
    runsMs.push(r.ms);
    value = r.value;
  }
  return { runsMs, value: value as T };
}

/** `/api/v1/projects/{id}/…` paths and methods the server documents, hence mounts. */
export async function mountedOperations(server: PpServer): Promise<Set<string>> {
  const res = await server.request('GET', '/api/v1/openapi.json');
  if (res.status !== 200) throw new Error(`GET /api/v1/openapi.json answered ${res.status}`);
  const doc = JSON.parse(res.body) as { paths: Record<string, Record<string, unknown>> };
  const ops = new Set<string>();
  for (const [p, methods] of Object.entries(doc.paths)) for (const m of Object.keys(methods)) ops.add(`${m.toUpperCase()} ${p}`);
  return ops;
}

const operation = (r: PpRequest) => `${r.method} /api/v1/projects/{id}/${r.path}`;

function urlOf(projectId: number, r: PpRequest): string {
  const q = r.query ? `?${new URLSearchParams(r.query).toString()}` : '';
  return `/api/v1/projects/${projectId}${r.path ? `/${r.path}` : ''}${q}`;
}

/** The server's event engine answers the request 501 `engine_unsupported`: not a failure, not a number. */
export class NotOnEngine extends Error {
  constructor(readonly feature: string) {
    super(`not on this engine yet: ${feature}`);
  }
}

/** Reasons of outcomes the engine does not answer yet start so. */
export const NOT_ON_ENGINE = 'not on this engine yet';

/**
 * One request. The timed runs ask for a fresh answer (`Cache-Control: no-cache`): they measure the
 * query, not the result cache, which `cached` requests measure.
 */
async function ppOnce(server: PpServer, scope: CaseScope, r: PpRequest, cached = false): Promise<{ ms: number; value: unknown; cache: string | undefined }> {
  const res = await server.api(r.method, urlOf(scope.projectId, r), r.body, cached ? {} : { 'cache-control': 'no-cache' });
  if (res.status === 501) {
    const error = (JSON.parse(res.body) as { error?: { code?: string; details?: { feature?: string } } }).error;
    if (error?.code === 'engine_unsupported') throw new NotOnEngine(error.details?.feature ?? r.path);
  }
  if (res.status !== 200) throw new Error(`${r.method} ${r.path} answered ${res.status}: ${res.body.slice(0, 500)}`);
  return { ms: res.ms, value: JSON.parse(res.body), cache: res.headers['x-pp-cache'] as string | undefined };
}

export async function timePp(server: PpServer, cases: BenchCase[], scope: CaseScope, o: TimingOptions): Promise<Map<string, Outcome>> {
  const mounted = await mountedOperations(server);
  const prepared = new Map<string, unknown>();
  const out = new Map<string, Outcome>();
  for (const c of cases) {
    try {
      const needed = c.needs ? PREPARATIONS[c.needs]! : undefined;
      const missing = [needed, c.pp(scope)].filter((r): r is PpRequest => r !== undefined && !mounted.has(operation(r)));
      if (missing.length > 0) {
        out.set(c.kind, { ok: false, reason: `not available: ${operation(missing[0]!)} is not mounted` });
        o.log(`  pp ${c.kind}: not available`);
        continue;
      }
      if (c.needs && !prepared.has(c.needs)) prepared.set(c.needs, (await ppOnce(server, scope, needed!)).value);
      const request = c.pp(scope, c.needs ? prepared.get(c.needs) : undefined);
      const { runsMs, value } = await timed(o.warmups, o.runs, () => ppOnce(server, scope, request));
      // The last fresh answer was kept: asked again, the same request is a cache hit.
      let hits = true;
      const cached = await timed(0, o.runs, async () => {
        const res = await ppOnce(server, scope, request, true);
        hits &&= res.cache === 'hit' && JSON.stringify(res.value) === JSON.stringify(value);
        return res;
      });
      const timing: Timing = { runsMs, p50Ms: median(runsMs), figures: c.ppFigures(value, scope), cachedP50Ms: hits ? median(cached.runsMs) : undefined };
      out.set(c.kind, { ok: true, timing });
      o.log(`  pp ${c.kind}: p50 ${timing.p50Ms.toFixed(1)} ms (${runsMs.map((x) => x.toFixed(0)).join(', ')}); from the cache ${timing.cachedP50Ms?.toFixed(1) ?? 'no hit'}`);
    } catch (err) {
      if (err instanceof NotOnEngine) {
        out.set(c.kind, { ok: false, reason: err.message });
        o.log(`  pp ${c.kind}: ${err.message}`);
        continue;
      }
      out.set(c.kind, { ok: false, reason: `failed: ${(err as Error).message}` });
      o.log(`  pp ${c.kind}: FAILED ${(err as Error).message}`);
    }
  }
  return out;
}

/** The round trip of an authenticated request that runs no query: the floor under every case. */
export async function timeBaseline(server: PpServer, scope: CaseScope, o: TimingOptions): Promise<number> {
  const { runsMs } = await timed(o.warmups, o.runs, () => ppOnce(server, scope, { method: 'GET', path: '' }));
  return median(runsMs);
}

export async function timePeer(ch: ClickHouse, cases: BenchCase[], scope: CaseScope, o: TimingOptions): Promise<Map<string, Outcome>> {
  const out = new Map<string, Outcome>();
  for (const c of cases) {
    if (!c.peerSql || !c.peerFigures) continue;
    const sql = c.peerSql(scope);
    try {
      const { runsMs, value } = await timed(o.warmups, o.runs, async () => {
        const r = await ch.query(sql);
        return { ms: r.ms, value: r.rows };
      });
      const timing = { runsMs, p50Ms: median(runsMs), figures: c.peerFigures(value, scope) };
      out.set(c.kind, { ok: true, timing });
      o.log(`  ClickHouse ${c.kind}: p50 ${timing.p50Ms.toFixed(1)} ms (${runsMs.map((x) => x.toFixed(0)).join(', ')})`);
    } catch (err) {
      out.set(c.kind, { ok: false, reason: `failed: ${(err as Error).message.slice(0, 600)}` });
      o.log(`  ClickHouse ${c.kind}: FAILED ${(err as Error).message.slice(0, 600)}`);
    }
  }
  return out;
}
