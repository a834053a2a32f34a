// Loads the demo events into the demo project in this process, through the ingestion domain's own
// functions (checks, normalization, the journal and the group writer, identity links) with a
// server key issued for the purpose and revoked when done: stored exactly as sent events are, with
// no HTTP round trip and so no request log lines. Turns on autocapture so the behavior pages fill.

import type { Services } from '../http/services.js';
import { issueIngestKey, revokeIngestKey } from '../keys/ingestKeys.js';
import { patchBehaviorSettings } from '../ingest/behaviorSettings.js';
import { MAX_EVENTS_PER_REQUEST, trackEvents } from '../ingest/track.js';
import { identify } from '../ingest/identity.js';
import { ingestWriter } from '../ingest/groupWriter.js';
import type { IngestCredential } from '../ingest/ingestCredential.js';
import { DEMO_DAYS, demoEvents } from './demoEvents.js';

const REQUEST_ID = 'demo-data';
/** Batches handed to the writer at once: enough to fill its groups, few enough to bound memory. */
const IN_FLIGHT = 4;

export interface DemoLoad {
  events: number;
  people: number;
  days: number;
}

/** Runs `work` over `items`, `width` at a time, in order of start. */
async function eachAtOnce<T>(items: readonly T[], width: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < items.length; i = next++) await work(items[i]!);
  };
  await Promise.all(Array.from({ length: Math.min(width, items.length) }, worker));
}

function batchesOf<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

export async function loadDemoData(services: Services, projectId: number, ownerId: number, options: { visitors?: number } = {}): Promise<DemoLoad> {
  const now = services.clock.now();
  patchBehaviorSettings(
    services.meta,
    projectId,
    { autocapture_clicks: true, autocapture_scroll: true, autocapture_forms: true, autocapture_sections: true, autocapture_hover_intent: true, privacy_mode: 'standard' },
    ownerId,
    now,
  );
  const data = demoEvents({ end: now, visitors: options.visitors });
  const issued = issueIngestKey(services, projectId, { type: 'server', name: 'Demo data loader' }, ownerId);
  const credential: IngestCredential = { key: issued.key, source: 'server', viaQuery: false };
  const ctx = { credential, sdk: null, requestId: REQUEST_ID };
  try {
    await eachAtOnce(batchesOf(data.events, MAX_EVENTS_PER_REQUEST), IN_FLIGHT, async (events) => {
      const result = await trackEvents(services, { events }, ctx);
      if (result.rejected.length > 0) throw new Error(`demo data: event refused: ${result.rejected[0]!.message}`);
    });
    await eachAtOnce(data.identities, IN_FLIGHT, async (identity) => void (await identify(services, identity, ctx)));
    // Acknowledged means journaled; the count printed afterwards should be what queries see.
    await ingestWriter(services).loaded();
  } finally {
    revokeIngestKey(services, projectId, issued.key.id);
  }
  return { events: data.events.length, people: new Set(data.events.map((e) => e.anonymous_id)).size, days: DEMO_DAYS };
}
