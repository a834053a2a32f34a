// The payment provider's moves of a subscription: activation, plan or period changes, failed and
// successful payments, cancellation. Each event is recorded by id (a redelivery changes nothing) and
// applied only if it is not older than the newest one already applied for its organization. The
// signature and the HTTP side are paymentRoutes.ts's; what the organization may then do is
// accountState.ts's.

import type { Services } from '../http/services.js';
import { ValidationError } from '../ground/errors.js';
import { recordAudit } from '../audit/recordAudit.js';
import type { Plan } from './plans.js';
import { subscriptionOf, type Subscription, type SubscriptionStatus } from './subscriptions.js';

export const PROVIDER_EVENT_TYPES = ['subscription.trialing', 'subscription.activated', 'subscription.updated', 'payment.failed', 'payment.succeeded', 'subscription.cancelled'] as const;
export type ProviderEventType = (typeof PROVIDER_EVENT_TYPES)[number];

/** The callback body, as the OpenAPI schema already checked it (types only; what each type needs is checked here). */
export interface ProviderEvent {
  id: string;
  type: string;
  /** Unix seconds at the provider. */
  created: number;
  data: {
    org_id?: number;
    plan?: Plan;
    /** Unix seconds or an RFC 3339 time. */
    current_period_end?: number | string;
    /** The end of a trial the provider runs (subscription.trialing); unix seconds or RFC 3339. */
    trial_end?: number | string;
    customer?: string;
    subscription?: string;
  };
}

export type IgnoredReason = 'unknown type' | 'unknown organization' | 'no subscription' | 'stale' | 'not applicable';

export type EventReceipt = { kind: 'duplicate' } | { kind: 'ignored'; reason: IgnoredReason } | { kind: 'applied'; subscription: Subscription };

/** Stored in payment_events.outcome. */
type Outcome = 'applied' | 'unknown_type' | 'unknown_org' | 'no_subscription' | 'stale' | 'not_applicable';

/** The columns an event moves; anything absent keeps its value. */
interface Move {
  status?: SubscriptionStatus;
  trial_state?: 'converted' | 'trialing';
  trial_ends_at?: string;
  plan?: Plan;
  past_due_since?: string | null;
  current_period_end?: string;
}

function isKnownType(type: string): type is ProviderEventType {
  return (PROVIDER_EVENT_TYPES as readonly string[]).includes(type);
}

/** What a known type needs beyond the schema: the organization, and for some a plan or a period end. */
export function validateProviderEvent(event: ProviderEvent & { type: ProviderEventType }): void {
  const { data } = event;
  if (data.org_id === undefined) throw new ValidationError(`${event.type} needs data.org_id`, 'data.org_id');
  if (event.type === 'subscription.trialing' && data.trial_end === undefined) throw new ValidationError('subscription.trialing needs data.trial_end', 'data.trial_end');
  if (data.trial_end !== undefined) timeOf(data.trial_end, 'data.trial_end');
  if (event.type === 'subscription.activated') {
    if (data.plan === undefined) throw new ValidationError('subscription.activated needs data.plan', 'data.plan');
    if (data.current_period_end === undefined) throw new ValidationError('subscription.activated needs data.current_period_end', 'data.current_period_end');
  }
  if (event.type === 'subscription.updated' && data.plan === undefined && data.current_period_end === undefined) {
    throw new ValidationError('subscription.updated needs data.plan or data.current_period_end', 'data.plan');
  }
  if (data.current_period_end !== undefined) periodEnd(data.current_period_end);
}

/** A time of the body as stored (ISO 8601, UTC). */
function timeOf(value: number | string, field: string): string {
  const ms = typeof value === 'number' ? value * 1000 : Date.parse(value);
  const at = new Date(ms);
  if (Number.isNaN(at.getTime())) throw new ValidationError(`${field} ${JSON.stringify(value)} is not a time`, field);
  return at.toISOString();
}

const periodEnd = (value: number | string) => timeOf(value, 'data.current_period_end');

const PAID: readonly SubscriptionStatus[] = ['active', 'past_due'];
/** Statuses in which the provider holds a subscription of the organization. */
const AT_PROVIDER: readonly SubscriptionStatus[] = ['active', 'past_due', 'cancelled'];

/**
 * The columns `event` moves on `current`, or undefined when it does not apply there. Activation
 * applies from any status: a held (`pending_review`) or rejected trial that is paid for is no longer
 * in question, and a cancelled subscription bought again is active again.
 */
export function moveOf(current: Subscription, event: ProviderEvent & { type: ProviderEventType }, now: Date): Move | undefined {
  const { data } = event;
  const end = data.current_period_end === undefined ? {} : { current_period_end: periodEnd(data.current_period_end) };
  const plan = data.plan === undefined ? {} : { plan: data.plan };
  switch (event.type) {
    case 'subscription.trialing':
      // A trial the provider runs (one that asks for a card first): the plan's, until trial_end.
      return { status: 'trialing', trial_state: 'trialing', trial_ends_at: timeOf(data.trial_end!, 'data.trial_end'), past_due_since: null, ...plan };
    case 'subscription.activated':
      return { status: 'active', trial_state: 'converted', past_due_since: null, ...plan, ...end };
    case 'subscription.updated':
      return AT_PROVIDER.includes(current.status) ? { ...plan, ...end } : undefined;
    case 'payment.failed':
      if (!PAID.includes(current.status)) return undefined;
      // A retried charge failing again does not restart the grace period.
      return current.status === 'past_due' ? {} : { status: 'past_due', past_due_since: now.toISOString() };
    case 'payment.succeeded':
      return PAID.includes(current.status) ? { status: 'active', past_due_since: null, ...plan, ...end } : undefined;
    case 'subscription.cancelled':
      // The period already paid for keeps working (accountState reads current_period_end).
      return PAID.includes(current.status) ? { status: 'cancelled', ...end } : undefined;
  }
}

function newestAppliedAt(services: Services, orgId: number): string | undefined {
  const row = services.meta.prepare("SELECT max(created_at_provider) AS at FROM payment_events WHERE org_id = ? AND outcome = 'applied'").get(orgId) as { at: string | null };
  return row.at ?? undefined;
}

function organizationExists(services: Services, orgId: number): boolean {
  return services.meta.prepare('SELECT 1 FROM organizations WHERE id = ?').get(orgId) !== undefined;
}

function writeMove(services: Services, current: Subscription, move: Move, event: ProviderEvent, now: Date): Subscription {
  const next = { ...current, ...move };
  services.meta
    .prepare(
      `UPDATE subscriptions SET status = ?, trial_state = ?, trial_ends_at = ?, plan = ?, past_due_since = ?, current_period_end = ?,
              provider_customer = ?, provider_subscription = ?, updated_at = ?
        WHERE org_id = ?`,
    )
    .run(
      next.status,
      next.trial_state,
      next.trial_ends_at,
      next.plan,
      next.past_due_since,
      next.current_period_end,
      event.data.customer ?? current.provider_customer,
      event.data.subscription ?? current.provider_subscription,
      now.toISOString(),
      current.org_id,
    );
  return subscriptionOf(services, current.org_id)!;
}

/** Records and, where it applies, applies one event; all of it in one transaction. */
export function receiveProviderEvent(services: Services, event: ProviderEvent): EventReceipt {
  if (isKnownType(event.type)) validateProviderEvent(event as ProviderEvent & { type: ProviderEventType });
  const now = services.clock.now();
  const createdAt = new Date(event.created * 1000).toISOString();
  const orgId = event.data.org_id ?? null;

  const receive = services.meta.transaction((): EventReceipt => {
    if (services.meta.prepare('SELECT 1 FROM payment_events WHERE id = ?').get(event.id)) return { kind: 'duplicate' };
    const record = (outcome: Outcome) =>
      services.meta
        .prepare('INSERT INTO payment_events (id, type, org_id, created_at_provider, received_at, outcome) VALUES (?, ?, ?, ?, ?, ?)')
        .run(event.id, event.type, orgId, createdAt, now.toISOString(), outcome);
    const ignore = (outcome: Outcome, reason: IgnoredReason): EventReceipt => {
      record(outcome);
      return { kind: 'ignored', reason };
    };

    if (!isKnownType(event.type)) return ignore('unknown_type', 'unknown type');
    const known = event as ProviderEvent & { type: ProviderEventType };
    const current = subscriptionOf(services, orgId!);
    if (!current) {
      const exists = organizationExists(services, orgId!);
      services.log.warn(
        { event_id: event.id, type: event.type, org_id: orgId },
        exists ? 'payment event for an organization without a subscription; ignored' : 'payment event for an unknown organization; ignored',
      );
      return exists ? ignore('no_subscription', 'no subscription') : ignore('unknown_org', 'unknown organization');
    }
    const newest = newestAppliedAt(services, current.org_id);
    if (newest !== undefined && createdAt < newest) return ignore('stale', 'stale');
    const move = moveOf(current, known, now);
    if (!move) return ignore('not_applicable', 'not applicable');

    record('applied');
    const next = writeMove(services, current, move, known, now);
    recordAudit(services, {
      org_id: current.org_id,
      action: 'org.subscription.update',
      target: event.id,
      outcome: 'success',
      details: { via: 'payment_provider', event_type: event.type, status: [current.status, next.status], plan: [current.plan, next.plan], current_period_end: next.current_period_end },
    });
    return { kind: 'applied', subscription: next };
  });
  return receive();
}
