// HTTP ingest of generated batches of 100 events: concurrent clients as fast as acknowledgements
// come (throughput), then a fixed schedule at half that rate (latency, counted from the scheduled
// send time so a stalled server cannot hide its queue). Counting what was stored is run.ts's.

import http from 'node:http';
import { generate, type GeneratedEvent } from './generate.js';
import { SDKS } from './storeWriter.js';

export const BATCH_SIZE = 100;

export interface Batch {
  /** Index of the generated project. */
  project: number;
  events: GeneratedEvent[];
}

/** `count` generated events as batches of 100 of one project each, projects interleaved. */
export function ingestBatches(seed: number, count: number): Batch[] {
  return generatedTraffic(seed, count, false).batches;
}

/** An identity link of a generated project: `distinctId` resolved to `actorId`. */
export interface BatchLink {
  project: number;
  distinctId: string;
  actorId: string;
}

/**
 * The events of the data set of `seed` and `count` (the same events `writeDataSet` writes) as
 * batches of 100, projects interleaved, and, with `withLinks`, its identity links.
 */
export function generatedTraffic(seed: number, count: number, withLinks: boolean): { batches: Batch[]; links: BatchLink[] } {
  const perProject = new Map<number, GeneratedEvent[]>();
  const links: BatchLink[] = [];
  generate(
    { seed, events: count },
    {
      event(p, e) {
        let list = perProject.get(p);
        if (!list) perProject.set(p, (list = []));
        list.push(e);
      },
      link(project, l) {
        if (withLinks) links.push({ project, distinctId: l.distinctId, actorId: l.actorId });
      },
    },
  );
  const queues = [...perProject].map(([project, list]) => {
    const batches: Batch[] = [];
    for (let i = 0; i < list.length; i += BATCH_SIZE) batches.push({ project, events: list.slice(i, i + BATCH_SIZE) });
    return batches;
  });
  const out: Batch[] = [];
  // Round-robin by remaining share, so every stretch of the run carries every project.
  while (queues.some((q) => q.length > 0)) for (const q of queues) if (q.length > 0) out.push(q.shift()!);
  return { batches: out, links };
}

/**
 * Live traffic carries times of a moment ago, not the generated history: every event of the run is
 * stamped `now` less its generated delay. (With historical times, each 100-event batch would split
 * into one ClickHouse part per month it spans.)
 */
function liveTs(e: GeneratedEvent, now: number): number {
  return now - (e.receivedAt - e.ts);
}

/** The /v1/track body of a batch, as the node client sends it, stamped as live traffic. */
export function trackBody(b: Batch, now: number): string {
  return trackJson(b, (e) => liveTs(e, now));
}

/** The /v1/track body of a batch with the generated event times: the data set's history, sent again. */
export function historyTrackBody(b: Batch): string {
  return trackJson(b, (e) => e.ts);
}

function trackJson(b: Batch, tsOf: (e: GeneratedEvent) => number): string {
  return JSON.stringify({
    events: b.events.map((e) => ({
      event: e.event,
      uuid: e.uuid,
      ts: new Date(tsOf(e)).toISOString(),
      anonymous_id: e.anonymousId,
      user_id: e.userId,
      session_id: e.sessionId,
      url: e.url,
      referrer: e.referrer,
      release: e.release,
      props: e.props,
      elements: e.elements,
    })),
  });
}

const chTime = (ms: number) => new Date(ms).toISOString().slice(0, 19).replace('T', ' ');

/** The JSONEachRow body of a batch for ClickHouse, normalized client-side as ClickHouse needs it. */
export function peerBody(b: Batch, projectId: number, now: number): string {
  return b.events
    .map((e) =>
      JSON.stringify({
        project_id: projectId,
        uuid: e.uuid,
        ts: chTime(liveTs(e, now)),
        received_at: now,
        event: e.event,
        distinct_id: e.userId ?? e.anonymousId,
        anonymous_id: e.anonymousId ?? '',
        user_id: e.userId ?? '',
        session_id: e.sessionId ?? '',
        source: 'server',
        sdk_name: SDKS.server.name,
        sdk_version: SDKS.server.version,
        key_id: '',
        release: e.release,
        url: e.url ?? '',
        path: '',
        referrer: e.referrer ?? '',
        props: e.props ? JSON.stringify(e.props) : '',
        revenue: typeof e.props?.revenue === 'number' ? e.props.revenue : null,
        elements: e.elements ? JSON.stringify(e.elements) : '',
        invalid: 0,
      }),
    )
    .join('\n');
}

export interface Target {
  port: number;
  /** Request path and headers for a batch. */
  request(batchIndex: number): { path: string; headers: Record<string, string>; body: string };
  /** Events acknowledged by a successful answer. */
  accepted(status: number, body: string, batchIndex: number): number;
}

export interface PhaseResult {
  batches: number;
  events: number;
  accepted: number;
  failures: number;
  seconds: number;
  eventsPerS: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  firstFailure?: string;
}

export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

function send(agent: http.Agent, port: number, r: { path: string; headers: Record<string, string>; body: string }): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, method: 'POST', path: r.path, agent, headers: { ...r.headers, 'content-length': Buffer.byteLength(r.body) } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
    });
    req.on('error', reject);
    req.end(r.body);
  });
}

function summarize(latencies: number[], batches: number, events: number, accepted: number, failures: number, seconds: number, firstFailure?: string): PhaseResult {
  const sorted = latencies.sort((a, b) => a - b);
  return {
    batches,
    events,
    accepted,
    failures,
    seconds,
    eventsPerS: accepted / seconds,
    p50Ms: percentile(sorted, 50),
    p99Ms: percentile(sorted, 99),
    maxMs: sorted.at(-1) ?? NaN,
    firstFailure,
  };
}

/** Closed loop: `clients` senders, each sending its next batch as soon as the previous is acknowledged. */
export async function saturate(target: Target, indexes: number[], sizes: number[], clients: number): Promise<PhaseResult> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: clients });
  const latencies: number[] = [];
  let next = 0;
  let accepted = 0;
  let failures = 0;
  let firstFailure: string | undefined;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: clients }, async () => {
      while (next < indexes.length) {
        const i = indexes[next++]!;
        const r = target.request(i);
        const t0 = performance.now();
        const res = await send(agent, target.port, r).catch((err: Error) => ({ status: 0, body: err.message }));
        latencies.push(performance.now() - t0);
        const ok = target.accepted(res.status, res.body, i);
        accepted += ok;
        if (ok === 0) {
          failures += 1;
          firstFailure ??= `${res.status} ${res.body.slice(0, 300)}`;
        }
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  agent.destroy();
  return summarize(
    latencies,
    indexes.length,
    indexes.reduce((n, i) => n + sizes[i]!, 0),
    accepted,
    failures,
    seconds,
    firstFailure,
  );
}

/** Open loop: batch k is due at k × interval; latency counts from when it was due. */
export async function paced(target: Target, indexes: number[], sizes: number[], eventsPerS: number, maxInFlight: number): Promise<PhaseResult> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: maxInFlight });
  const intervalMs = (BATCH_SIZE / eventsPerS) * 1000;
  const latencies: number[] = [];
  let accepted = 0;
  let failures = 0;
  let firstFailure: string | undefined;
  const started = performance.now();
  const pending: Array<Promise<void>> = [];
  for (let k = 0; k < indexes.length; k++) {
    const due = started + k * intervalMs;
    const wait = due - performance.now();
    if (wait > 1) await new Promise((r) => setTimeout(r, wait));
    const i = indexes[k]!;
    const r = target.request(i);
    pending.push(
      send(agent, target.port, r)
        .catch((err: Error) => ({ status: 0, body: err.message }))
        .then((res) => {
          latencies.push(performance.now() - due);
          const ok = target.accepted(res.status, res.body, i);
          accepted += ok;
          if (ok === 0) {
            failures += 1;
            firstFailure ??= `${res.status} ${res.body.slice(0, 300)}`;
          }
        }),
    );
  }
  await Promise.all(pending);
  const seconds = (performance.now() - started) / 1000;
  agent.destroy();
  return summarize(
    latencies,
    indexes.length,
    indexes.reduce((n, i) => n + sizes[i]!, 0),
    accepted,
    failures,
    seconds,
    firstFailure,
  );
}
