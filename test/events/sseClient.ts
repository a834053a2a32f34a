// A small server-sent-events reader for tests: opens the stream over real HTTP, records every
// message and comment line with its arrival time, and closes on demand.

import http from 'node:http';
import { performance } from 'node:perf_hooks';

export interface SseMessage {
  event: string;
  data: any;
  /** performance.now() when the message was complete. */
  at: number;
}

export interface SseClient {
  status: number;
  headers: http.IncomingHttpHeaders;
  /** The body of a refused request (JSON parsed when possible). */
  body?: any;
  messages: SseMessage[];
  comments: Array<{ text: string; at: number }>;
  /** Resolves when the server ends the stream. */
  ended: Promise<void>;
  waitFor(done: () => boolean, timeoutMs?: number): Promise<void>;
  close(): void;
}

export function openSse(url: string, token?: string): Promise<SseClient> {
  return new Promise((resolve, reject) => {
    const req = http.get(url, { headers: { accept: 'text/event-stream', ...(token ? { authorization: `Bearer ${token}` } : {}) } }, (res) => {
      let endedResolve!: () => void;
      const client: SseClient = {
        status: res.statusCode ?? 0,
        headers: res.headers,
        messages: [],
        comments: [],
        ended: new Promise((r) => (endedResolve = r)),
        waitFor: (done, timeoutMs = 5000) => waitFor(done, timeoutMs),
        close: () => req.destroy(),
      };
      res.on('end', () => endedResolve());
      res.on('close', () => endedResolve());
      res.setEncoding('utf8');
      if (client.status !== 200) {
        let text = '';
        res.on('data', (c: string) => (text += c));
        res.on('end', () => {
          try {
            client.body = JSON.parse(text);
          } catch {
            client.body = text;
          }
          resolve(client);
        });
        return;
      }
      let buffer = '';
      res.on('data', (chunk: string) => {
        buffer += chunk;
        let end: number;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          parseBlock(client, buffer.slice(0, end));
          buffer = buffer.slice(end + 2);
        }
      });
      resolve(client);
    });
    req.on('error', (err) => {
      if ((err as NodeJS.ErrnoException).code !== 'ECONNRESET') reject(err);
    });
  });
}

function parseBlock(client: SseClient, block: string): void {
  const at = performance.now();
  let event = 'message';
  const data: string[] = [];
  for (const line of block.split('\n')) {
    if (line.startsWith(':')) client.comments.push({ text: line.slice(1).trim(), at });
    else if (line.startsWith('event:')) event = line.slice(6).trim();
    else if (line.startsWith('data:')) data.push(line.slice(5).trimStart());
  }
  if (data.length > 0) client.messages.push({ event, data: JSON.parse(data.join('\n')), at });
}

/** True when the server ends the stream within `ms`. */
export function endsWithin(client: SseClient, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout;
  const late = new Promise<boolean>((r) => (timer = setTimeout(() => r(false), ms)));
  return Promise.race([client.ended.then(() => true), late]).finally(() => clearTimeout(timer));
}

/** Polls `done` every 10 ms; the stream is real time, so waiting on it is real waiting. */
export async function waitFor(done: () => boolean, timeoutMs = 5000): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  while (!done()) {
    if (performance.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 10));
  }
}
