// A real HTTP SMS gateway on 127.0.0.1, port 0, that keeps every message posted to it (the JSON body
// and the Authorization header) so a test can read the delivered texts. It can answer the first N
// posts with 500, to exercise retries.

import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface GatewayPost {
  to: string;
  text: string;
  authorization: string | undefined;
  contentType: string | undefined;
}

export interface SmsGateway {
  url: string;
  /** Accepted messages, in order. */
  received: GatewayPost[];
  /** Posts answered with 500 so far. */
  refused: number;
  /** Resolves with the first accepted message (already received or later) that matches, or rejects after `timeoutMs`. */
  waitFor(match: (m: GatewayPost) => boolean, timeoutMs?: number): Promise<GatewayPost>;
}

export async function startSmsGateway(t: { teardown(fn: () => unknown): void }, options: { refuseFirst?: number } = {}): Promise<SmsGateway> {
  const gateway = { received: [] as GatewayPost[], refused: 0 } as SmsGateway;
  const waiters: Array<() => void> = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (gateway.refused < (options.refuseFirst ?? 0)) {
        gateway.refused += 1;
        res.writeHead(500).end('try later');
        return;
      }
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { to: string; text: string };
      gateway.received.push({ to: body.to, text: body.text, authorization: req.headers.authorization, contentType: req.headers['content-type'] });
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"id":"msg-1"}');
      for (const wake of waiters.splice(0)) wake();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  gateway.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/messages`;
  gateway.waitFor = async (match, timeoutMs = 5_000) => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = gateway.received.find(match);
      if (found) return found;
      const left = deadline - Date.now();
      if (left <= 0) throw new Error('no matching SMS reached the gateway');
      await new Promise<void>((resolve) => {
        waiters.push(resolve);
        setTimeout(resolve, left).unref();
      });
    }
  };
  t.teardown(
    () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  );
  return gateway;
}
