// Delivers the outbox over SMTP (nodemailer) when `smtp_url` is configured: a pass runs right after a
// message is queued and every few seconds, sends what is due, and reschedules failures with backoff.
// Without `smtp_url` messages simply wait in the outbox. One worker per running server, stopped
// (after its current pass) when the server shuts down.

import nodemailer, { type Transporter } from 'nodemailer';
import type { Services } from '../http/services.js';
import { dueMessages } from './outbox.js';
import { markAttemptFailed, markDelivered } from './deliveryAttempts.js';

const POLL_MS = 5_000;
const BATCH = 20;

export interface MailWorker {
  /** Runs a delivery pass now (or right after the current one) and resolves when it is done. */
  kick(): Promise<void>;
  stop(): Promise<void>;
}

const workers = new WeakMap<Services, MailWorker>();

/** The worker started for these services, if any. */
export function mailWorkerOf(services: Services): MailWorker | undefined {
  return workers.get(services);
}

/** Tells the worker that something was queued; a no-op where no worker runs (CLI commands). */
export function notifyMailWorker(services: Services): void {
  void workers.get(services)?.kick();
}

export function startMailWorker(services: Services): MailWorker {
  const existing = workers.get(services);
  if (existing) return existing;
  const smtpUrl = services.config.smtp_url;
  let transport: Transporter | undefined;
  let running: Promise<void> | undefined;
  let again = false;
  let stopped = false;

  const pass = async (): Promise<void> => {
    if (!smtpUrl) return;
    transport ??= nodemailer.createTransport({ url: smtpUrl, connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 30_000 });
    for (const m of dueMessages(services, BATCH)) {
      try {
        await transport.sendMail({ from: services.config.mail_from, to: m.to, subject: m.subject, text: m.text, html: m.html, headers: m.headers });
        markDelivered(services, 'outbox', m.id);
      } catch (err) {
        const reason = err instanceof Error ? err.message.slice(0, 500) : String(err);
        markAttemptFailed(services, 'outbox', m.id, m.attempts, reason);
        services.log.warn({ outbox_id: m.id, attempt: m.attempts + 1, err: reason }, 'mail delivery failed; will retry');
      }
    }
  };

  const kick = (): Promise<void> => {
    if (stopped) return Promise.resolve();
    if (running) {
      again = true;
      return running;
    }
    running = (async () => {
      do {
        again = false;
        await pass().catch((err: unknown) => services.log.error({ err }, 'mail worker pass failed'));
      } while (again && !stopped);
    })().finally(() => {
      running = undefined;
    });
    return running;
  };

  const timer = setInterval(() => void kick(), POLL_MS);
  timer.unref();
  const worker: MailWorker = {
    kick,
    async stop() {
      stopped = true;
      clearInterval(timer);
      await running;
      transport?.close();
      workers.delete(services);
    },
  };
  workers.set(services, worker);
  services.onShutdown(() => worker.stop());
  return worker;
}
