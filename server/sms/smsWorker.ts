// Delivers the SMS outbox to the HTTP gateway named by `sms.gateway_url`: one JSON POST per message
// (`{"to", "text"}`, with the bearer `sms.gateway_token` when set), a 2xx within five seconds or the
// attempt failed and retried with the mail backoff. Without a gateway messages wait in the outbox.
// One worker per running server; stopping it abandons a request in flight, which stays queued.

import type { Services } from '../http/services.js';
import { dueSms, type DueSms } from './smsOutbox.js';
import { markAttemptFailed, markDelivered } from '../mail/deliveryAttempts.js';

const POLL_MS = 5_000;
const BATCH = 20;
export const GATEWAY_TIMEOUT_MS = 5_000;

export interface SmsWorker {
  /** Runs a delivery pass after the current one (passes asked for meanwhile are one) and resolves when it is done. */
  kick(): Promise<void>;
  /** Delivers from now on: every few seconds and after each queued message. */
  start(): void;
  stop(): Promise<void>;
}

/** The worker of these services (delivering once workers.ts has started it). */
export function smsWorkerOf(services: Services): SmsWorker {
  return services.workers.sms;
}

/** Tells the worker that something was queued; a no-op where no worker runs (CLI commands). */
export function notifySmsWorker(services: Services): void {
  void services.workers.sms.kick();
}

async function postToGateway(services: Services, message: DueSms, shutdown: AbortSignal): Promise<void> {
  const { gateway_url: url, gateway_token: token } = services.config.sms;
  const res = await fetch(url!, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify({ to: message.to, text: message.text }),
    redirect: 'error',
    signal: AbortSignal.any([shutdown, AbortSignal.timeout(GATEWAY_TIMEOUT_MS)]),
  });
  await res.body?.cancel();
  if (!res.ok) throw new Error(`the gateway answered ${res.status}`);
}

/** Why an attempt failed, for the outbox row and the log; never the number or the text. */
function failureReason(err: unknown): string {
  if (err instanceof DOMException && err.name === 'TimeoutError') return `no answer from the gateway within ${GATEWAY_TIMEOUT_MS / 1000} s`;
  const cause = err instanceof Error && err.cause instanceof Error ? (err.cause as Error & { code?: string }) : undefined;
  if (cause) return `cannot reach the gateway: ${cause.code ?? cause.message}`.slice(0, 500);
  return (err instanceof Error ? err.message : String(err)).slice(0, 500);
}

/** The worker, idle until started: `kick` does nothing before `start` and after `stop`. */
export function createSmsWorker(services: Services): SmsWorker {
  let started = false;
  let timer: NodeJS.Timeout | undefined;
  const shutdown = new AbortController();
  let chain = Promise.resolve();
  let passQueued = false;

  const deliver = async (message: DueSms): Promise<void> => {
    try {
      await postToGateway(services, message, shutdown.signal);
      markDelivered(services, 'sms_outbox', message.id);
    } catch (err) {
      if (shutdown.signal.aborted) return;
      const reason = failureReason(err);
      markAttemptFailed(services, 'sms_outbox', message.id, message.attempts, reason);
      services.log.warn({ sms_outbox_id: message.id, attempt: message.attempts + 1, err: reason }, 'SMS delivery failed; will retry');
    }
  };

  const pass = async (): Promise<void> => {
    if (!services.config.sms.gateway_url) return;
    for (const message of dueSms(services, BATCH)) {
      if (shutdown.signal.aborted) return;
      await deliver(message);
    }
  };

  const kick = (): Promise<void> => {
    if (!started || shutdown.signal.aborted || passQueued) return chain;
    passQueued = true;
    chain = chain
      .then(() => {
        passQueued = false;
        return pass();
      })
      .catch((err: unknown) => services.log.error({ err }, 'SMS worker pass failed'));
    return chain;
  };

  return {
    kick,
    start() {
      if (started) return;
      started = true;
      timer = setInterval(() => void kick(), POLL_MS);
      timer.unref();
    },
    async stop() {
      clearInterval(timer);
      shutdown.abort();
      await chain;
    },
  };
}
