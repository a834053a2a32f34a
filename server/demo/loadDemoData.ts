// Sends the demo events to the server's own ingestion surface over HTTP (the path every real
// event takes: journal, writer, identity links), with a server key issued for the purpose and
// revoked when done; and turns on autocapture for the demo project so its behavior pages fill.

import http from 'node:http';
import https from 'node:https';
import type { Services } from '../services.js';
import { issueIngestKey, revokeIngestKey } from '../keys/ingestKeys.js';
import { patchBehaviorSettings } from '../behavior/behaviorSettings.js';
import { demoEvents } from './demoEvents.js';

const BATCH = 500;
const RETRIES = 20;
const IDENTIFY_CONCURRENCY = 8;

interface Answer {
  status: number;
  body: string;
  retryAfter: number;
}

/** A POST to this very server; its certificate may be self-signed, which is no reason to refuse ourselves. */
function post(url: string, key: string, body: unknown): Promise<Answer> {
  const target = new URL(url);
  const client = target.protocol === 'https:' ? https : http;
  const payload = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = client.request(
      target,
      { method: 'POST', rejectUnauthorized: false, headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(payload) } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8'), retryAfter: Number(res.headers['retry-after'] ?? 1) }));
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

/** Sends and, while the server asks to slow down (429, 503 back-pressure), waits and sends again. */
async function send(url: string, key: string, body: unknown): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    const answer = await post(url, key, body);
    if (answer.status === 202 || answer.status === 200) return;
    if ((answer.status === 429 || answer.status === 503) && attempt < RETRIES) {
      await new Promise((r) => setTimeout(r, Math.min(Math.max(answer.retryAfter, 0.2), 5) * 1000));
      continue;
    }
    throw new Error(`demo data: ${new URL(url).pathname} answered ${answer.status}: ${answer.body.slice(0, 300)}`);
  }
}

export interface DemoLoad {
  events: number;
  people: number;
}

export async function loadDemoData(services: Services, serverUrl: string, projectId: number, ownerId: number, options: { visitors?: number } = {}): Promise<DemoLoad> {
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
  try {
    for (let i = 0; i < data.events.length; i += BATCH) await send(`${serverUrl}/v1/track`, issued.value, { events: data.events.slice(i, i + BATCH) });
    // One link per request, each answered once durable: a few at a time keeps that short.
    const pending = [...data.identities];
    const worker = async () => {
      for (let identity = pending.shift(); identity; identity = pending.shift()) await send(`${serverUrl}/v1/identify`, issued.value, identity);
    };
    await Promise.all(Array.from({ length: IDENTIFY_CONCURRENCY }, worker));
  } finally {
    revokeIngestKey(services, projectId, issued.key.id);
  }
  return { events: data.events.length, people: new Set(data.events.map((e) => e.anonymous_id)).size };
}
