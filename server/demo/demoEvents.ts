// The demo project's events: four weeks of a made-up SaaS site (page views, autocapture clicks,
// scrolls and forms, a signup funnel, purchases with revenue and refunds, anonymous and identified
// people). Pure and seeded: the same seed and end time give the same events, uuids included.

import type { TrackEvent } from '../ingest/eventSchema.js';

export interface DemoIdentity {
  anonymous_id: string;
  user_id: string;
  traits: Record<string, unknown>;
}

export interface DemoData {
  events: TrackEvent[];
  identities: DemoIdentity[];
}

export interface DemoOptions {
  /** The last moment events may have; the first is `days` earlier. */
  end: Date;
  days?: number;
  visitors?: number;
  seed?: number;
}

const SITE = 'https://demo.pp.local';
const DAY_MS = 86_400_000;

/** mulberry32: small, fast and good enough to make demo data repeatable. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function uuidFrom(rand: () => number): string {
  const hex = Array.from({ length: 32 }, () => Math.floor(rand() * 16).toString(16));
  hex[12] = '4';
  hex[16] = '89ab'[Math.floor(rand() * 4)]!;
  const h = hex.join('');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

const pick = <T>(rand: () => number, items: readonly T[]): T => items[Math.floor(rand() * items.length)]!;

const SOURCES = [
  { referrer: 'https://www.google.com/', query: '' },
  { referrer: 'https://www.google.com/', query: '' },
  { referrer: null, query: '' },
  { referrer: 'https://news.ycombinator.com/', query: '' },
  { referrer: null, query: '?utm_source=newsletter&utm_medium=email&utm_campaign=november' },
  { referrer: 'https://twitter.com/', query: '?utm_source=twitter&utm_medium=social' },
] as const;

const CONTENT_PAGES = [
  { path: '/features', title: 'Features' },
  { path: '/pricing', title: 'Pricing' },
  { path: '/blog/funnels-that-tell-the-truth', title: 'Funnels that tell the truth' },
  { path: '/blog/retention-in-one-chart', title: 'Retention in one chart' },
  { path: '/docs/getting-started', title: 'Getting started' },
  { path: '/customers', title: 'Customers' },
] as const;

const PLANS = [
  { plan: 'starter', price: 2990 },
  { plan: 'team', price: 9900 },
  { plan: 'business', price: 29900 },
] as const;

const link = (href: string, text: string, classes: string[] = []) => [
  { tag: 'a', nth_child: 1, text, classes, attributes: { href } },
  { tag: 'nav', nth_child: 1, classes: ['site-nav'] },
];
const button = (id: string, text: string) => [{ tag: 'button', id, nth_child: 2, text, classes: ['btn', 'btn-primary'] }, { tag: 'section', nth_child: 1, classes: ['hero'] }];
const SIGNUP_FORM = [{ tag: 'form', id: 'signup', nth_child: 1 }, { tag: 'main', nth_child: 2 }];
const SIGNUP_FIELDS = ['input[name="email"]', 'input[name="password"]', 'input[name="company"]'];

/** Visitors arrive more on weekdays and a little more each week (a growing product). */
function arrivalDay(rand: () => number, days: number): number {
  for (;;) {
    const day = Math.floor(rand() * days);
    const growth = 0.6 + 0.4 * (day / days);
    if (rand() < growth) return day;
  }
}

export function demoEvents(options: DemoOptions): DemoData {
  const days = options.days ?? 28;
  const visitors = options.visitors ?? 2200;
  const rand = random(options.seed ?? 20261125);
  const start = options.end.getTime() - days * DAY_MS;
  const events: TrackEvent[] = [];
  const identities: DemoIdentity[] = [];
  let users = 0;

  for (let v = 0; v < visitors; v++) {
    const anonymousId = uuidFrom(rand);
    let userId: string | null = null;
    let plan: (typeof PLANS)[number] | null = null;
    let day = arrivalDay(rand, days);
    const returning = rand();
    for (let visit = 0; day < days && visit < 12; visit++) {
      // A session starts in the day's busy hours (08:00-22:00 UTC) and its events follow seconds apart.
      let t = start + day * DAY_MS + (8 + rand() * 14) * 3_600_000;
      if (t > options.end.getTime() - 3_600_000) break;
      const sessionId = uuidFrom(rand);
      const source = visit === 0 ? pick(rand, SOURCES) : { referrer: null, query: '' };
      const add = (event: string, fields: Partial<TrackEvent> = {}) => {
        t += 2_000 + rand() * 40_000;
        events.push({
          event,
          uuid: uuidFrom(rand),
          ts: new Date(Math.min(t, options.end.getTime())).toISOString(),
          anonymous_id: anonymousId,
          user_id: userId,
          session_id: sessionId,
          ...fields,
        });
      };
      const view = (path: string, title: string, first = false) => {
        add('pp.page_view', { url: `${SITE}${path}${first ? source.query : ''}`, referrer: first ? source.referrer : `${SITE}/`, props: { navigation: first ? 'load' : 'spa', title } });
        if (rand() < 0.7) add('pp.scroll_depth', { url: `${SITE}${path}`, props: { percent: Math.round(20 + rand() * 80), pixels: Math.round(900 + rand() * 3000), page_height: 4200 } });
      };
      const click = (path: string, elements: Array<Record<string, unknown>>) =>
        add('pp.click', { url: `${SITE}${path}`, elements, props: { x: Math.round(100 + rand() * 900), y: Math.round(80 + rand() * 700), interactive: true } });

      if (userId) {
        // A signed-up customer working in the product.
        view('/app', 'Dashboard', true);
        const actions = 1 + Math.floor(rand() * 4);
        for (let i = 0; i < actions; i++) add(pick(rand, ['report_viewed', 'report_viewed', 'dashboard_shared', 'project_created', 'invite_sent'] as const), { url: `${SITE}/app`, props: { plan: plan?.plan ?? 'trial' } });
        if (!plan && rand() < 0.22) {
          plan = pick(rand, PLANS);
          view('/app/billing', 'Billing');
          click('/app/billing', button('upgrade', `Upgrade to ${plan.plan}`));
          add('purchase', { url: `${SITE}/app/billing`, props: { plan: plan.plan, revenue: plan.price, currency: 'RUB' } });
        } else if (plan && rand() < 0.3) {
          add('purchase', { url: `${SITE}/app/billing`, props: { plan: plan.plan, revenue: plan.price, currency: 'RUB', renewal: true } });
          if (rand() < 0.08) add('refund', { url: `${SITE}/app/billing`, props: { plan: plan.plan, revenue: -plan.price, currency: 'RUB' } });
        }
      } else {
        view('/', 'pp: product analytics you host', true);
        if (rand() < 0.3) click('/', button('hero-cta', 'Start free trial'));
        const pages = Math.floor(rand() * 4);
        for (let i = 0; i < pages; i++) {
          const page = pick(rand, CONTENT_PAGES);
          click(i === 0 ? '/' : '/features', link(page.path, page.title));
          view(page.path, page.title);
        }
        if (rand() < 0.28) {
          // The signup funnel: pricing, the call to action, the form, the account.
          view('/pricing', 'Pricing');
          click('/pricing', button('pricing-cta', 'Start free trial'));
          if (rand() < 0.75) {
            view('/signup', 'Sign up');
            add('pp.form_start', { url: `${SITE}/signup`, elements: SIGNUP_FORM, props: { form: 'form#signup', field: SIGNUP_FIELDS[0] } });
            const filled = SIGNUP_FIELDS.map((field, i) => ({ field, tag: 'input', time_ms: Math.round(1500 + rand() * 9000), focus_count: 1 + (i === 1 && rand() < 0.3 ? 1 : 0), changed: true }));
            if (rand() < 0.62) {
              add('pp.form_submit', { url: `${SITE}/signup`, elements: SIGNUP_FORM, props: { form: 'form#signup', fields: filled, focus_order: SIGNUP_FIELDS, last_field: SIGNUP_FIELDS[2], duration_ms: Math.round(15_000 + rand() * 60_000) } });
              users += 1;
              userId = `user-${users}`;
              identities.push({ anonymous_id: anonymousId, user_id: userId, traits: { plan: 'trial', company: `Company ${users}` } });
              add('signup', { url: `${SITE}/signup`, props: { method: rand() < 0.7 ? 'email' : 'sso' } });
            } else {
              const last = Math.floor(rand() * 3);
              add('pp.form_abandon', { url: `${SITE}/signup`, elements: SIGNUP_FORM, props: { form: 'form#signup', fields: filled.slice(0, last + 1), focus_order: SIGNUP_FIELDS.slice(0, last + 1), last_field: SIGNUP_FIELDS[last], duration_ms: Math.round(5_000 + rand() * 40_000) } });
            }
          }
        }
      }
      // Returning: loyal visitors come back every few days, most others once or never.
      day += returning < 0.35 ? 1 + Math.floor(rand() * 4) : returning < 0.6 ? 3 + Math.floor(rand() * 10) : days;
    }
  }
  events.sort((a, b) => (a.ts! < b.ts! ? -1 : a.ts! > b.ts! ? 1 : 0));
  return { events, identities };
}
