// The demo project's events: thirteen weeks of a made-up SaaS site (page views, autocapture clicks
// placed as tracker 0.6.5 places them, rage and dead clicks, scrolls and forms, a signup funnel,
// people who sign up and either settle in or drift away, purchases with revenue and refunds).
// Pure and seeded: the same seed and end time give the same events, uuids included.

import type { TrackEvent } from '../ingest/eventSchema.js';
import {
  clickPlace,
  COMPARE_PLANS,
  FEATURE_SCREENSHOT,
  HERO_CTA,
  homeCard,
  navLink,
  pickViewport,
  pointOn,
  PRICING_CTA,
  SIGNUP_SUBMIT,
  upgradeButton,
  type ClickPoint,
  type DemoElement,
  type Viewport,
} from './demoPages.js';
import { demoClient } from './demoClients.js';

export interface DemoIdentity {
  anonymous_id: string;
  user_id: string;
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

/**
 * Thirteen weeks: activation drivers look at people whose outcome window has closed, and the
 * longest default behavior window (30 days) needs an outcome window after it.
 */
export const DEMO_DAYS = 91;
export const DEMO_VISITORS = 3600;

const SITE = 'https://demo.pp.local';
const DAY_MS = 86_400_000;
/** The tracker's rules (clicks.ts): a burst's third click within 1 s is a rage click; 2.5 s without a change makes a dead click. */
const RAGE_AT = 3;
const DEAD_WAIT_MS = 2_500;

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
  let h = '';
  for (let i = 0; i < 4; i++)
    h += Math.floor(rand() * 4294967296)
      .toString(16)
      .padStart(8, '0');
  const variant = '89ab'[parseInt(h[16]!, 16) & 3]!;
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-${variant}${h.slice(17, 20)}-${h.slice(20)}`;
}

const pick = <T>(rand: () => number, items: readonly T[]): T => items[Math.floor(rand() * items.length)]!;

const SOURCES = [
  { referrer: 'https://www.google.com/', query: '' },
  { referrer: 'https://www.google.com/', query: '' },
  { referrer: null, query: '' },
  { referrer: 'https://news.ycombinator.com/', query: '' },
  { referrer: null, query: '?utm_source=newsletter&utm_medium=email&utm_campaign=november' },
  { referrer: 'https://twitter.com/', query: '?utm_source=twitter&utm_medium=social' },
  { referrer: 'https://www.google.de/', query: '?utm_source=google&utm_medium=cpc&utm_campaign=brand&gclid=Cj0KCQjw' },
  { referrer: 'https://www.bing.com/', query: '' },
  { referrer: 'https://duckduckgo.com/', query: '' },
  { referrer: 'https://www.linkedin.com/', query: '?utm_source=linkedin&utm_medium=social&utm_campaign=launch_week' },
  { referrer: 'https://www.reddit.com/r/analytics/', query: '' },
  { referrer: 'https://github.com/pp-analytics/pp', query: '' },
  { referrer: 'https://blog.example.org/self-hosted-analytics', query: '' },
  { referrer: 'https://mail.google.com/', query: '?utm_source=newsletter&utm_medium=email&utm_campaign=december' },
  { referrer: 'https://yandex.ru/', query: '' },
  { referrer: null, query: '?utm_source=partner&utm_medium=affiliate&utm_campaign=agency_program' },
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
type Plan = (typeof PLANS)[number];

const SIGNUP_FORM = [
  { tag: 'form', id: 'signup', nth_child: 1 },
  { tag: 'main', nth_child: 2 },
];
const SIGNUP_FIELDS = [
  { field: 'input[name="email"]', type: 'email' },
  { field: 'input[name="password"]', type: 'password' },
  { field: 'input[name="company"]', type: 'text' },
] as const;

interface Visitor {
  anonymousId: string;
  userId: string | null;
  plan: Plan | null;
  /** Drawn at signup: found their way early (a project, a colleague invited) and keep coming back. */
  engaged: boolean;
  viewport: Viewport;
}

interface Output {
  rand: () => number;
  events: TrackEvent[];
  identities: DemoIdentity[];
  end: number;
  users: number;
}

/** One session's events, in time order, seconds apart (a burst of clicks a fraction of a second). */
class Visit {
  private page = '/';

  constructor(
    private readonly out: Output,
    private readonly visitor: Visitor,
    private readonly sessionId: string,
    private t: number,
  ) {}

  private get rand() {
    return this.out.rand;
  }

  add(event: string, fields: Partial<TrackEvent> = {}, gapMs = 2_000 + this.rand() * 40_000): void {
    this.t += gapMs;
    this.out.events.push({
      event,
      uuid: uuidFrom(this.rand),
      ts: new Date(Math.min(this.t, this.out.end)).toISOString(),
      anonymous_id: this.visitor.anonymousId,
      user_id: this.visitor.userId,
      session_id: this.sessionId,
      ...fields,
      // Forwarded as a server-side sender forwards its visitor's: the Web page's browsers and countries.
      props: { ...fields.props, ...demoClient(this.visitor.anonymousId) },
    });
  }

  private here(): string {
    return `${SITE}${this.page}`;
  }

  view(path: string, title: string, arrival?: { referrer: string | null; query: string }): void {
    this.page = path;
    this.add('pp.page_view', { url: `${SITE}${path}${arrival?.query ?? ''}`, referrer: arrival ? arrival.referrer : `${SITE}/`, props: { navigation: arrival ? 'load' : 'spa', title } });
    if (this.rand() < 0.7) this.add('pp.scroll_depth', { url: this.here(), props: { percent: Math.round(20 + this.rand() * 80), pixels: Math.round(900 + this.rand() * 3000), page_height: 4200 } });
  }

  /** A scroll position for a click in the sticky header; elsewhere it does not change the page position. */
  private scrollFor(element: DemoElement): number {
    return element.fixed ? Math.round(this.rand() * 1600) : 0;
  }

  private clickAt(element: DemoElement, point: ClickPoint, scrollY: number, gapMs?: number): Record<string, unknown> {
    const where = clickPlace(element, this.visitor.viewport, point, scrollY);
    this.add('pp.click', { url: this.here(), elements: element.chain, props: { ...where, interactive: element.interactive } }, gapMs);
    return where;
  }

  click(element: DemoElement): void {
    const scrollY = this.scrollFor(element);
    this.clickAt(element, pointOn(element, this.visitor.viewport, this.rand, scrollY), scrollY);
  }

  /** A click after which nothing on the page changed: the tracker adds a dead click 2.5 s later. */
  deadClick(element: DemoElement): void {
    const scrollY = this.scrollFor(element);
    const where = this.clickAt(element, pointOn(element, this.visitor.viewport, this.rand, scrollY), scrollY);
    this.add('pp.dead_click', { url: this.here(), elements: element.chain, props: { ...where, interactive: element.interactive } }, DEAD_WAIT_MS + this.rand() * 100);
  }

  /** Three to six clicks a few pixels and a fraction of a second apart; the third makes the rage click. */
  rageClicks(element: DemoElement, dead: boolean): void {
    const scrollY = this.scrollFor(element);
    const first = pointOn(element, this.visitor.viewport, this.rand, scrollY);
    const clicks = RAGE_AT + Math.floor(this.rand() * 4);
    let where: Record<string, unknown> = {};
    for (let i = 0; i < clicks; i++) {
      const point = i === 0 ? first : { x: first.x + Math.round((this.rand() - 0.5) * 12), y: first.y + Math.round((this.rand() - 0.5) * 12) };
      where = this.clickAt(element, point, scrollY, i === 0 ? undefined : 120 + this.rand() * 230);
      if (i + 1 === RAGE_AT) this.add('pp.rage_click', { url: this.here(), elements: element.chain, props: { ...where, clicks: RAGE_AT } }, 0);
    }
    if (dead) this.add('pp.dead_click', { url: this.here(), elements: element.chain, props: { ...where, interactive: element.interactive } }, DEAD_WAIT_MS + this.rand() * 100);
  }
}

/** Visitors arrive more on weekdays and a little more each week (a growing product). */
function arrivalDay(rand: () => number, days: number): number {
  for (;;) {
    const day = Math.floor(rand() * days);
    const growth = 0.6 + 0.4 * (day / days);
    if (rand() < growth) return day;
  }
}

/** A visit to the marketing site: the home page, some reading, and sometimes the signup funnel. */
function siteVisit(visit: Visit, out: Output, visitor: Visitor, arrival: (typeof SOURCES)[number]): void {
  const rand = out.rand;
  visit.view('/', 'pp: product analytics you host', arrival);
  if (rand() < 0.3) visit.click(HERO_CTA);
  const pages = Math.floor(rand() * 4);
  for (let i = 0; i < pages; i++) {
    const index = Math.floor(rand() * CONTENT_PAGES.length);
    const page = CONTENT_PAGES[index]!;
    // From the home page through its cards, further on through the header.
    visit.click(i === 0 ? homeCard(page.path, page.title, index) : navLink(page.path, page.title, index, CONTENT_PAGES.length));
    visit.view(page.path, page.title);
    if (page.path === '/features' && rand() < 0.18) visit.deadClick(FEATURE_SCREENSHOT);
  }
  if (rand() < 0.16) signupFunnel(visit, out, visitor);
}

/** Pricing, the call to action, the form, the account; the form is sometimes abandoned. */
function signupFunnel(visit: Visit, out: Output, visitor: Visitor): void {
  const rand = out.rand;
  visit.view('/pricing', 'Pricing');
  if (rand() < 0.12) visit.rageClicks(COMPARE_PLANS, rand() < 0.6);
  visit.click(PRICING_CTA);
  if (rand() >= 0.75) return;
  visit.view('/signup', 'Sign up');
  const form = 'form#signup';
  const sinceLoad = Math.round(1_500 + rand() * 6_000);
  visit.add('pp.form_start', { url: `${SITE}/signup`, elements: SIGNUP_FORM, props: { form, field: SIGNUP_FIELDS[0].field, since_load_ms: sinceLoad } }, sinceLoad);
  const filled = SIGNUP_FIELDS.map(({ field, type }, i) => {
    const corrections = rand() < 0.2 ? 1 + Math.floor(rand() * 3) : 0;
    return {
      field,
      tag: 'input',
      type,
      time_ms: Math.round(1500 + rand() * 9000),
      focus_count: 1 + (i === 1 && rand() < 0.3 ? 1 : 0),
      changed: true,
      to_change_ms: Math.round(200 + rand() * 1500),
      corrections,
    };
  });
  const order = SIGNUP_FIELDS.map((f) => f.field);
  if (rand() < 0.5) {
    visit.click(SIGNUP_SUBMIT);
    visit.add(
      'pp.form_submit',
      {
        url: `${SITE}/signup`,
        elements: SIGNUP_FORM,
        props: { form, fields: filled, focus_order: order, last_field: order[2], duration_ms: Math.round(15_000 + rand() * 60_000), since_load_ms: sinceLoad, blank_fields: [] },
      },
      50,
    );
    signUp(visit, out, visitor);
  } else {
    const last = Math.floor(rand() * 3);
    visit.add('pp.form_abandon', {
      url: `${SITE}/signup`,
      elements: SIGNUP_FORM,
      props: { form, fields: filled.slice(0, last + 1), focus_order: order.slice(0, last + 1), last_field: order[last], duration_ms: Math.round(5_000 + rand() * 40_000), since_load_ms: sinceLoad },
    });
  }
}

/** The account, and the first minutes in the product, where people who stay mostly differ. */
function signUp(visit: Visit, out: Output, visitor: Visitor): void {
  const rand = out.rand;
  out.users += 1;
  visitor.userId = `user-${out.users}`;
  visitor.engaged = rand() < 0.4;
  out.identities.push({ anonymous_id: visitor.anonymousId, user_id: visitor.userId });
  visit.add('signup', { url: `${SITE}/signup`, props: { method: rand() < 0.7 ? 'email' : 'sso' } });
  visit.view('/app', 'Dashboard');
  if (rand() < (visitor.engaged ? 0.85 : 0.35)) visit.add('project_created', { url: `${SITE}/app`, props: { plan: 'trial' } });
  if (rand() < (visitor.engaged ? 0.55 : 0.08)) visit.add('invite_sent', { url: `${SITE}/app`, props: { plan: 'trial' } });
}

const APP_ACTIONS = ['report_viewed', 'report_viewed', 'report_viewed', 'dashboard_shared', 'project_created', 'invite_sent'] as const;

/** A signed-up customer working in the product, and sometimes buying or renewing a plan. */
function appVisit(visit: Visit, out: Output, visitor: Visitor): void {
  const rand = out.rand;
  visit.view('/app', 'Dashboard', { referrer: null, query: '' });
  const actions = (visitor.engaged ? 2 : 1) + Math.floor(rand() * 4);
  const plan = () => ({ plan: visitor.plan?.plan ?? 'trial' });
  for (let i = 0; i < actions; i++) visit.add(pick(rand, APP_ACTIONS), { url: `${SITE}/app`, props: plan() });
  if (!visitor.plan && rand() < (visitor.engaged ? 0.3 : 0.1)) {
    visitor.plan = pick(rand, PLANS);
    visit.view('/app/billing', 'Billing');
    visit.click(upgradeButton(visitor.plan.plan));
    visit.add('purchase', { url: `${SITE}/app/billing`, props: { plan: visitor.plan.plan, revenue: visitor.plan.price, currency: 'RUB' } });
  } else if (visitor.plan && rand() < 0.3) {
    visit.add('purchase', { url: `${SITE}/app/billing`, props: { plan: visitor.plan.plan, revenue: visitor.plan.price, currency: 'RUB', renewal: true } });
    if (rand() < 0.08) visit.add('refund', { url: `${SITE}/app/billing`, props: { plan: visitor.plan.plan, revenue: -visitor.plan.price, currency: 'RUB' } });
  }
}

/**
 * Days to the next visit, or null for none. Loyal visitors come back every few days, most others
 * once or never; customers who settled in come back for weeks, the others soon drift away.
 */
function nextVisitIn(rand: () => number, visitor: Visitor, loyalty: number): number | null {
  if (visitor.userId) {
    if (rand() < (visitor.engaged ? 0.04 : 0.35)) return null;
    return visitor.engaged ? 1 + Math.floor(rand() * 5) : 3 + Math.floor(rand() * 10);
  }
  if (loyalty < 0.3) return rand() < 0.3 ? null : 1 + Math.floor(rand() * 6);
  if (loyalty < 0.55) return rand() < 0.4 ? null : 4 + Math.floor(rand() * 11);
  return null;
}

const MAX_SITE_VISITS = 12;
const MAX_VISITS = 40;

export function demoEvents(options: DemoOptions): DemoData {
  const days = options.days ?? DEMO_DAYS;
  const visitors = options.visitors ?? DEMO_VISITORS;
  const out: Output = { rand: random(options.seed ?? 20261125), events: [], identities: [], end: options.end.getTime(), users: 0 };
  const rand = out.rand;
  const start = out.end - days * DAY_MS;

  for (let v = 0; v < visitors; v++) {
    const visitor: Visitor = { anonymousId: uuidFrom(rand), userId: null, plan: null, engaged: false, viewport: pickViewport(rand) };
    const loyalty = rand();
    let day: number | null = arrivalDay(rand, days);
    for (let visit = 0; day !== null && day < days && visit < (visitor.userId ? MAX_VISITS : MAX_SITE_VISITS); visit++) {
      // A session starts in the day's busy hours (08:00-22:00 UTC) and its events follow seconds apart.
      const t = start + day * DAY_MS + (8 + rand() * 14) * 3_600_000;
      if (t > out.end - 3_600_000) break;
      const session = new Visit(out, visitor, uuidFrom(rand), t);
      if (visitor.userId) appVisit(session, out, visitor);
      else siteVisit(session, out, visitor, visit === 0 ? pick(rand, SOURCES) : { referrer: null, query: '' });
      const next = nextVisitIn(rand, visitor, loyalty);
      day = next === null ? null : day + next;
    }
  }
  out.events.sort((a, b) => (a.ts! < b.ts! ? -1 : a.ts! > b.ts! ? 1 : 0));
  return { events: out.events, identities: out.identities };
}
