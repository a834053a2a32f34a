// The billing page of a cloud organization (/org/billing): the plan and its state in plain words,
// the events counted against the limit, and the plans with what each unlocks. Admins choose the free
// plan (after a confirmation) or go to the payment provider's checkout for a paid one; others read.
// On-prem, and for an organization that is not billed, the page says there is nothing to bill.

import { useEffect, useRef, useState } from 'preact/hooks';
import { api, ok } from '../api/client';
import { loadBilling, useSession, type BillingSection, type UsageSection } from '../app/session';
import { FEATURES } from '../app/features';
import { formatMonth, formatNumber, formatPercent } from '../ui/format';
import { Empty, ErrorNote, Loading } from '../ui/states';
import { TableHead } from '../ui/TableHead';
import { Table } from '../ui/Table';
import { useAsync } from '../ui/useAsync';
import { useAction } from '../ui/useAction';
import { describeBilling, isAdminRole, planName, type Plan } from './planWords';
import './billing.css';

export function Billing() {
  const { me, billing, license } = useSession();
  if (!me) return null;
  return (
    <section aria-labelledby="billing-title" class="billing-page">
      <div class="page-header">
        <h1 id="billing-title">Plan and billing</h1>
        <span class="muted">{me.org.name}</span>
      </div>
      {billing ? (
        <BilledOrganization admin={isAdminRole(me.org.role)} orgId={me.org.id} />
      ) : license ? (
        <Empty title="Billing exists only in the hosted edition">
          This installation is not billed: what it may do is set by its license, shown on the <a href="/org">organization page</a>.
        </Empty>
      ) : (
        <Empty title="This organization is not billed">It has no subscription, so there is no plan to choose.</Empty>
      )}
    </section>
  );
}

function BilledOrganization({ admin, orgId }: { admin: boolean; orgId: number }) {
  const answer = useAsync(loadBilling, [orgId]);
  const [chosen, setChosen] = useState<string>();
  if (!answer.data) return answer.error ? <ErrorNote error={answer.error} /> : <Loading />;
  const { billing, usage } = answer.data;
  return (
    <>
      <ErrorNote error={answer.error} />
      {chosen && (
        <p class="notice" role="status">
          {chosen}
        </p>
      )}
      <StatusCard billing={billing} admin={admin} />
      <UsageCard usage={usage} held={billing.access === 'trial_pending_review'} />
      <PlansCard
        orgId={orgId}
        billing={billing}
        admin={admin}
        onFree={() => {
          setChosen('You are on the free plan now.');
          answer.reload();
        }}
      />
    </>
  );
}

function StatusCard({ billing, admin }: { billing: BillingSection; admin: boolean }) {
  const words = describeBilling(billing);
  return (
    <div class="card" role="group" aria-labelledby="plan-title">
      <h2 id="plan-title">Current plan</h2>
      <p class="billing-headline" data-testid="billing-headline">
        {words.headline}
      </p>
      {words.detail && <p data-testid="billing-detail">{words.detail}</p>}
      {billing.access === 'trial_pending_review' && billing.trial_state === 'sms_required' && admin && (
        <p>
          <a class="button primary" href="/trial/activate">
            Confirm with your phone
          </a>
        </p>
      )}
    </div>
  );
}

function UsageCard({ usage, held }: { usage: UsageSection; held: boolean }) {
  const month = formatMonth(usage.month);
  const trial = usage.limit_kind === 'trial_total';
  const used = trial ? usage.trial_events : usage.events_this_month;
  const meterLabel = trial ? 'Events since the trial started' : `Events in ${month}`;
  return (
    <div class="card" role="group" aria-labelledby="usage-title">
      <h2 id="usage-title">Usage</h2>
      {usage.limit !== null && (
        <div class="usage-meter">
          <meter min={0} max={usage.limit} value={Math.min(used, usage.limit)} aria-label={meterLabel} />
          <div>
            {meterLabel}: <strong data-testid="usage-used">{formatNumber(used)}</strong> of <strong data-testid="usage-limit">{formatNumber(usage.limit)}</strong> (
            {formatPercent(usage.limit > 0 ? used / usage.limit : 0)})
          </div>
        </div>
      )}
      <dl class="facts">
        <dt>Events in {month}</dt>
        <dd data-testid="events-this-month">{formatNumber(usage.events_this_month)}</dd>
      </dl>
      <p class="muted">
        {trial
          ? 'A trial collects up to this many events in all; beyond it, collection stops until a plan is chosen.'
          : usage.limit_kind === 'monthly'
            ? 'Counted per calendar month (UTC). Beyond the plan’s events, collection stops until the month ends or the plan changes.'
            : held
              ? 'No events are collected until the trial is activated.'
              : 'No events are collected until a plan is chosen.'}
      </p>
    </div>
  );
}

type PlanSummary = BillingSection['plans'][number];

/** Whether the plan is the one in force and paid for (or free), so choosing it changes nothing. */
function isInForce(billing: BillingSection, plan: Plan | undefined): boolean {
  return billing.access === null && billing.plan === plan && (billing.status === 'active' || billing.status === 'past_due');
}

function PlansCard({ orgId, billing, admin, onFree }: { orgId: number; billing: BillingSection; admin: boolean; onFree(): void }) {
  const [confirming, setConfirming] = useState(false);
  const action = useAction();
  const held = billing.access === 'trial_pending_review';
  const canChoose = admin && !held;
  const free = billing.plans.find((p) => p.plan === 'free');

  const upgrade = (plan: Plan) =>
    action.run(async () => {
      const answer = await ok(api.POST('/api/v1/orgs/{orgID}/billing/plan', { params: { path: { orgID: orgId } }, body: { plan } }));
      // The payment provider's page; its callback moves the subscription, and the provider brings the browser back.
      if (answer.checkout_url) location.assign(answer.checkout_url);
    });
  const chooseFree = () =>
    action.run(async () => {
      await ok(api.POST('/api/v1/orgs/{orgID}/billing/plan', { params: { path: { orgID: orgId } }, body: { plan: 'free' } }));
      setConfirming(false);
      onFree();
    });

  return (
    <div class="card" role="group" aria-labelledby="plans-title">
      <h2 id="plans-title">Plans</h2>
      {held && <p class="muted">A plan can be chosen once the trial is activated.</p>}
      {!admin && <p class="muted">Owners and admins of the organization choose its plan.</p>}
      <Table label="Plans" class="plans" testId="plans">
        <TableHead columns={['Plan', 'Events a month', 'Unlocks']} actions={canChoose} />
        <tbody>
          {billing.plans.map((p) => (
            <tr data-plan={p.plan}>
              <td>
                <strong>{planName(p.plan)}</strong>{' '}
                {billing.plan === p.plan && billing.access !== 'trial_expired' && billing.access !== 'subscription_required' && (
                  <span class="badge active">{billing.status === 'trialing' || held ? 'your trial' : 'current'}</span>
                )}
              </td>
              <td data-col="events">{formatNumber(p.events_per_month)}</td>
              <td>
                <Unlocks entitlements={p.entitlements ?? []} />
              </td>
              {canChoose && (
                <td class="actions">
                  <PlanAction plan={p} billing={billing} busy={action.busy} onChoose={() => (p.plan === 'free' ? setConfirming(true) : p.plan && void upgrade(p.plan))} />
                </td>
              )}
            </tr>
          ))}
        </tbody>
      </Table>
      {confirming && free && <ConfirmFree billing={billing} free={free} busy={action.busy} onConfirm={() => void chooseFree()} onCancel={() => setConfirming(false)} />}
      <ErrorNote error={action.error} />
      {canChoose && !billing.checkout_available && <p class="muted">Paid plans cannot be bought on this installation yet.</p>}
    </div>
  );
}

function Unlocks({ entitlements }: { entitlements: string[] }) {
  if (entitlements.length === 0) return <>Every report, dashboard and export</>;
  return (
    <>
      Every report, dashboard and export, and:
      <ul class="plan-features">
        {entitlements.map((e) => (
          <li>
            <strong>{FEATURES[e]?.title ?? e}</strong>: {FEATURES[e]?.unlocks ?? e}
          </li>
        ))}
      </ul>
    </>
  );
}

function PlanAction({ plan, billing, busy, onChoose }: { plan: PlanSummary; billing: BillingSection; busy: boolean; onChoose(): void }) {
  if (isInForce(billing, plan.plan)) return null;
  if (plan.plan !== 'free' && !billing.checkout_available) return null;
  return (
    <button type="button" class={`button ${plan.plan === 'free' ? 'secondary' : 'primary'} small`} disabled={busy} onClick={onChoose}>
      {plan.plan === 'free' ? 'Choose free' : `Upgrade to ${planName(plan.plan)}`}
    </button>
  );
}

function ConfirmFree({ billing, free, busy, onConfirm, onCancel }: { billing: BillingSection; free: PlanSummary; busy: boolean; onConfirm(): void; onCancel(): void }) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => ref.current?.focus(), []);
  const lost = billing.entitlements.filter((e) => !(free.entitlements ?? []).includes(e)).map((e) => FEATURES[e]?.title ?? e);
  return (
    <div class="confirm-panel" role="group" aria-labelledby="free-confirm-title" tabIndex={-1} ref={ref} data-testid="confirm-free">
      <h3 id="free-confirm-title">Move to the free plan?</h3>
      <p>
        The free plan collects up to {formatNumber(free.events_per_month)} events a month.
        {lost.length > 0 && ` ${lost.join(' and ')} stop working.`}
        {billing.status === 'trialing' && ' Your trial ends now.'}
      </p>
      <div class="confirm-actions">
        <button type="button" class="button primary" disabled={busy} aria-busy={busy ? true : undefined} onClick={onConfirm}>
          {busy ? 'Working…' : 'Move to the free plan'}
        </button>
        <button type="button" class="button secondary" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </div>
  );
}
