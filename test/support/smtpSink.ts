// A real SMTP server (smtp-server) on 127.0.0.1, port 0, that keeps what it receives so a test can read
// the delivered mail. It can refuse the first N deliveries with a temporary error, to exercise retries.

import { SMTPServer, type SMTPServerSession } from 'smtp-server';
import type { AddressInfo } from 'node:net';

export interface SinkMessage {
  from: string;
  to: string[];
  subject: string;
  /** The decoded text/plain part. */
  text: string;
  raw: string;
}

export interface SmtpSink {
  url: string;
  messages: SinkMessage[];
  /** Deliveries refused so far. */
  refused: number;
  /** Resolves with the first message (received already or later) that matches, or rejects after `timeoutMs`. */
  waitFor(match: (m: SinkMessage) => boolean, timeoutMs?: number): Promise<SinkMessage>;
  close(): Promise<void>;
}

export interface SinkOptions {
  /** Refuse this many deliveries with 451 before accepting. */
  refuseFirst?: number;
}

export async function startSmtpSink(t: { teardown(fn: () => unknown): void }, options: SinkOptions = {}): Promise<SmtpSink> {
  const messages: SinkMessage[] = [];
  const sink = { refused: 0 } as SmtpSink;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['AUTH', 'STARTTLS'],
    logger: false,
    onMailFrom(_address, _session, callback) {
      if (sink.refused < (options.refuseFirst ?? 0)) {
        sink.refused += 1;
        const err = new Error('mailbox temporarily unavailable') as Error & { responseCode: number };
        err.responseCode = 451;
        return callback(err);
      }
      callback();
    },
    onData(stream, session: SMTPServerSession, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        messages.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          subject: header(raw, 'subject') ?? '',
          text: textPart(raw),
          raw,
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const port = (server.server.address() as AddressInfo).port;
  sink.url = `smtp://127.0.0.1:${port}`;
  sink.messages = messages;
  sink.waitFor = async (match, timeoutMs = 5000) => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = messages.find(match);
      if (found) return found;
      if (Date.now() > deadline) throw new Error(`no matching message within ${timeoutMs} ms (${messages.length} received)`);
      await new Promise((r) => setTimeout(r, 20));
    }
  };
  sink.close = () => new Promise<void>((resolve) => server.close(() => resolve()));
  t.teardown(() => sink.close());
  return sink;
}

/** The token query parameter of the first link to `path` in a message. */
export function linkToken(message: SinkMessage, path: string): string {
  const m = new RegExp(`${path.replace(/[/?]/g, '\\$&')}\\?token=([A-Za-z0-9_%-]+)`).exec(message.text);
  if (!m) throw new Error(`no ${path} link in: ${message.text}`);
  return decodeURIComponent(m[1]!);
}

function header(block: string, name: string): string | undefined {
  const head = block.split(/\r?\n\r?\n/)[0]!.replace(/\r?\n[ \t]+/g, ' ');
  const m = new RegExp(`^${name}:\\s*(.*)$`, 'im').exec(head);
  return m?.[1]?.trim();
}

/** The text/plain body, from a single-part message or the matching part of a multipart one. */
function textPart(raw: string): string {
  const type = header(raw, 'content-type') ?? 'text/plain';
  const boundary = /boundary="?([^";]+)"?/i.exec(type)?.[1];
  const parts = boundary ? raw.split(`--${boundary}`).slice(1, -1) : [raw];
  const part = parts.find((p) => /^text\/plain/i.test(header(p.replace(/^\r?\n/, ''), 'content-type') ?? 'text/plain')) ?? parts[0]!;
  const cleaned = part.replace(/^\r?\n/, '');
  const body = cleaned.slice(cleaned.search(/\r?\n\r?\n/)).replace(/^\r?\n\r?\n/, '');
  const encoding = (header(cleaned, 'content-transfer-encoding') ?? '7bit').toLowerCase();
  if (encoding === 'base64') return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
  if (encoding === 'quoted-printable') {
    return Buffer.from(
      body.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/gi, (_s, h: string) => String.fromCharCode(parseInt(h, 16))),
      'latin1',
    ).toString('utf8');
  }
  return body.replace(/\r\n/g, '\n');
}
