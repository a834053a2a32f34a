// Seeded, deterministic product-analytics events and identity links for the benchmark (projects in
// their own zones, power-law people, sessions, funnels, revenue, identify/alias chains); writing
// them anywhere is dataSet.ts's and ingestBench.ts's job.
//
// Timestamps are whole seconds and strictly increasing per person, so that every engine orders one
// actor's events the same way (ClickHouse 18.16's windowFunnel takes second-resolution times).

import { dayNumber } from '../../server/engine/dates.js';
import { zoneOffsetMs } from '../../server/engine/localTime.js';
import { mixSeed, Random, Weighted } from './random.js';

export interface ProjectSpec {
  key: string;
  name: string;
  timezone: string;
  host: string;
  /** Share of all generated events. */
  share: number;
}

export const PROJECTS: readonly ProjectSpec[] = [
  { key: 'shop', name: 'Shop', timezone: 'Europe/London', host: 'shop.example.com', share: 0.6 },
  { key: 'saas', name: 'SaaS', timezone: 'America/New_York', host: 'app.example.io', share: 0.12 },
  { key: 'media', name: 'Media', timezone: 'Asia/Kolkata', host: 'news.example.in', share: 0.08 },
  { key: 'travel', name: 'Travel', timezone: 'Australia/Sydney', host: 'trips.example.au', share: 0.06 },
  { key: 'bank', name: 'Bank', timezone: 'Europe/Moscow', host: 'bank.example.ru', share: 0.05 },
  { key: 'games', name: 'Games', timezone: 'Asia/Tokyo', host: 'play.example.jp', share: 0.04 },
  { key: 'market', name: 'Market', timezone: 'America/Los_Angeles', host: 'market.example.com', share: 0.03 },
  { key: 'docs', name: 'Docs', timezone: 'UTC', host: 'docs.example.org', share: 0.02 },
];

/** First and last local date of the generated history (each project in its own zone). */
export const DATA_FROM = '2026-07-04';
export const DATA_TO = '2026-10-31';

/** Bumped whenever the generated data changes, so cached data sets are rebuilt. */
export const GENERATOR_VERSION = 1;

export const FUNNEL_STEPS = ['view_pricing', 'signup_started', 'signup_completed'] as const;

export type Source = 'browser' | 'server';

export interface GeneratedEvent {
  uuid: string;
  /** Epoch milliseconds, always a whole second. */
  ts: number;
  receivedAt: number;
  event: string;
  anonymousId: string | null;
  userId: string | null;
  sessionId: string | null;
  source: Source;
  url: string | null;
  referrer: string | null;
  release: string;
  props: Record<string, unknown> | null;
  elements: Array<Record<string, unknown>> | null;
}

export interface IdentityLink {
  distinctId: string;
  actorId: string;
  linkedAt: number;
}

export interface GenerateSink {
  event(projectIndex: number, e: GeneratedEvent): void;
  link(projectIndex: number, l: IdentityLink): void;
}

export interface GenerateOptions {
  seed: number;
  /** Exactly this many events are generated, shared between projects by their `share`. */
  events: number;
  projects?: readonly ProjectSpec[];
}

const DAY_MS = 86_400_000;

/** Events per project: shares of the total, the remainder to the first project. */
export function projectBudgets(total: number, projects: readonly ProjectSpec[] = PROJECTS): number[] {
  const budgets = projects.map((p) => Math.floor(total * p.share));
  budgets[0]! += total - budgets.reduce((a, b) => a + b, 0);
  return budgets;
}

// --- the vocabulary of the generated sites ----------------------------------------------------

const SECTIONS = new Weighted<string>([
  ['home', 14],
  ['catalog', 22],
  ['product', 30],
  ['blog', 10],
  ['cart', 8],
  ['account', 8],
  ['pricing', 4],
  ['help', 4],
]);
const HOURS = new Weighted<number>(Array.from({ length: 24 }, (_, h) => [h, h < 7 ? 1 : h < 9 ? 4 : h < 18 ? 8 : h < 23 ? 10 : 4] as const));
const UTM = new Weighted<string | null>([
  [null, 45],
  ['google', 25],
  ['yandex', 10],
  ['email', 8],
  ['facebook', 6],
  ['partner', 4],
  ['tiktok', 2],
]);
const REFERRERS: Record<string, string> = {
  google: 'https://www.google.com/',
  yandex: 'https://yandex.ru/',
  email: 'https://mail.example.net/',
  facebook: 'https://www.facebook.com/',
  partner: 'https://partner.example.net/review',
  tiktok: 'https://www.tiktok.com/',
};
const BUTTONS = ['Buy now', 'Add to cart', 'Sign up', 'Learn more', 'Next', 'Show more', 'Subscribe', 'Download', 'Open', 'Close', 'Search', 'Filter', 'Apply'];
const PLANS = new Weighted<[string, number]>([
  [['basic', 990], 50],
  [['pro', 2490], 30],
  [['team', 4990], 15],
  [['enterprise', 9990], 5],
]);
const FORMS = ['#signup-form', '#newsletter', '#checkout-form', '#contact', 'form.search'];
const FIELDS = ['email', 'name', 'phone', 'address', 'city', 'comment'];
const CUSTOM = new Weighted<string>([
  ['search', 40],
  ['add_to_cart', 30],
  ['share', 10],
  ['video_play', 20],
]);
const ACTIONS = new Weighted<string>([
  ['pp.page_view', 38],
  ['pp.click', 27],
  ['pp.scroll_depth', 12],
  ['pp.rage_click', 2],
  ['pp.dead_click', 3],
  ['form', 6],
  ['custom', 12],
]);

interface RawEvent {
  t: number;
  event: string;
  /** Index of the device, or -1 for an event sent by the project's own server. */
  device: number;
  session: string | null;
  url: string | null;
  referrer: string | null;
  props: Record<string, unknown> | null;
  elements: Array<Record<string, unknown>> | null;
  /** First event of a session: a person who is known on another device logs in here. */
  sessionStart?: boolean;
  /** Identity moment: a signup completes with this event. */
  signup?: boolean;
}

interface Zone {
  /** UTC ms of each local midnight of the data range (index = day since DATA_FROM). */
  midnights: number[];
  end: number;
}

function zoneFor(timezone: string): Zone {
  const first = dayNumber(DATA_FROM);
  const days = dayNumber(DATA_TO) - first + 1;
  const midnights: number[] = [];
  for (let d = 0; d <= days; d++) {
    const utcMidnight = (first + d) * DAY_MS;
    // The offset at local noon: DST changes happen at night, so this is the offset of the day.
    midnights.push(utcMidnight - zoneOffsetMs(timezone, utcMidnight + 12 * 3_600_000));
  }
  return { midnights, end: midnights[days]! };
}

class PersonBuilder {
  readonly events: RawEvent[] = [];
  private readonly devices: string[];

  constructor(
    private readonly rng: Random,
    private readonly project: ProjectSpec,
    private readonly zone: Zone,
    private readonly days: number,
  ) {
    const count = 1 + (rng.chance(0.22) ? 1 : 0) + (rng.chance(0.05) ? 1 : 0);
    this.devices = Array.from({ length: count }, () => rng.hex(20));
  }

  get deviceIds(): readonly string[] {
    return this.devices;
  }

  build(existingCustomer: boolean): void {
    const rng = this.rng;
    const weight = Math.min(250, rng.pareto(1.25));
    // Later days get slightly more newcomers: the sites grow.
    let day = Math.floor(this.days * rng.float() ** 0.8);
    const maxSessions = 1 + Math.floor(weight * 1.6);
    let signedUp = existingCustomer;
    for (let s = 0; s < maxSessions && day < this.days; s++) {
      const device = rng.chance(0.75) ? 0 : rng.int(0, this.devices.length - 1);
      signedUp = this.session(day, device, signedUp) || signedUp;
      if (rng.chance(0.05)) break;
      day += Math.max(1, Math.round(rng.exponential(18 / Math.sqrt(weight))));
    }
  }

  private url(section: string): string {
    const rng = this.rng;
    const page =
      section === 'product'
        ? `/product/${rng.int(1, 800)}`
        : section === 'catalog'
          ? `/catalog/${rng.int(1, 40)}`
          : section === 'blog'
            ? `/blog/post-${rng.int(1, 150)}`
            : section === 'home'
              ? '/'
              : `/${section}`;
    return `https://${this.project.host}${page}`;
  }

  private element(interactive: boolean): Array<Record<string, unknown>> {
    const rng = this.rng;
    const target = interactive
      ? { tag: rng.chance(0.6) ? 'button' : 'a', classes: ['btn', rng.pick(['btn-primary', 'btn-link', 'btn-ghost'])], nth_child: rng.int(1, 6), text: rng.pick(BUTTONS) }
      : { tag: rng.pick(['span', 'div', 'img']), classes: ['card-body'], nth_child: rng.int(1, 12) };
    return [target, { tag: 'div', classes: [rng.pick(['card', 'hero', 'product-grid', 'nav'])], nth_child: rng.int(1, 4) }];
  }

  /** One visit; returns whether the person signed up during it. */
  private session(day: number, device: number, signedUp: boolean): boolean {
    const rng = this.rng;
    const sessionId = rng.hex(16);
    let t = Math.floor(this.zone.midnights[day]! / 1000) + HOURS.pick(rng) * 3600 + rng.int(0, 3599);
    const push = (e: Omit<RawEvent, 'device' | 'session' | 't'>) => this.events.push({ t, device, session: sessionId, ...e });
    const utm = UTM.pick(rng);
    let section = SECTIONS.pick(rng);
    let page = this.url(section);
    push({
      event: 'pp.page_view',
      url: utm ? `${page}?utm_source=${utm}` : page,
      referrer: utm ? REFERRERS[utm]! : null,
      props: { navigation: 'load', title: `${section} page`, category: section, ...(utm ? { utm_source: utm } : {}) },
      elements: null,
      sessionStart: true,
    });
    let joined = false;
    if (rng.chance(signedUp ? 0.04 : 0.2)) joined = this.funnel(t, device, sessionId, signedUp);
    const actions = Math.min(60, rng.geometric(1 / 7));
    for (let i = 0; i < actions; i++) {
      t += rng.int(2, 90);
      const action = ACTIONS.pick(rng);
      if (action === 'pp.page_view') {
        section = SECTIONS.pick(rng);
        page = this.url(section);
        push({ event: action, url: page, referrer: null, props: { navigation: 'spa', title: `${section} page`, category: section }, elements: null });
      } else if (action === 'pp.click' || action === 'pp.dead_click') {
        const interactive = action === 'pp.click' && rng.chance(0.8);
        push({ event: action, url: page, referrer: null, props: { x: rng.int(0, 1400), y: rng.int(0, 4000), interactive }, elements: this.element(interactive) });
      } else if (action === 'pp.rage_click') {
        push({ event: action, url: page, referrer: null, props: { x: rng.int(0, 1400), y: rng.int(0, 4000), clicks: rng.int(3, 9) }, elements: this.element(true) });
      } else if (action === 'pp.scroll_depth') {
        const height = rng.int(1200, 9000);
        const percent = rng.pick([25, 50, 75, 100]);
        push({ event: action, url: page, referrer: null, props: { percent, pixels: Math.round((height * percent) / 100), page_height: height }, elements: null });
      } else if (action === 'form') {
        t = this.form(t, device, sessionId, page);
      } else {
        const name = CUSTOM.pick(rng);
        const props =
          name === 'search'
            ? { query_length: rng.int(2, 40) }
            : name === 'add_to_cart'
              ? { product_id: rng.int(1, 800), price: rng.int(2, 300) * 50 }
              : name === 'share'
                ? { channel: rng.pick(['telegram', 'email', 'copy']) }
                : { video_id: rng.int(1, 60), autoplay: rng.chance(0.3) };
        push({ event: name, url: page, referrer: null, props, elements: null });
      }
    }
    if (signedUp && rng.chance(0.015)) this.purchase(t + rng.int(30, 600));
    return joined;
  }

  private form(start: number, device: number, session: string, url: string): number {
    const rng = this.rng;
    const form = rng.pick(FORMS);
    let t = start;
    this.events.push({ t, device, session, event: 'pp.form_start', url, referrer: null, props: { form }, elements: null });
    const fields = FIELDS.slice(0, rng.int(1, 5)).map((field) => ({ field, tag: 'input', time_ms: rng.int(400, 20000), focus_count: rng.int(1, 3), changed: rng.chance(0.85) }));
    t += rng.int(5, 120);
    const submitted = rng.chance(0.68);
    const props = { form, fields, focus_order: fields.map((f) => f.field), last_field: fields.at(-1)!.field, duration_ms: (t - start) * 1000 };
    this.events.push({ t, device, session, event: submitted ? 'pp.form_submit' : 'pp.form_abandon', url, referrer: null, props, elements: [{ tag: 'form', nth_child: 1 }] });
    return t;
  }

  /** A funnel attempt started at `t`; later steps may come in this session or days later. */
  private funnel(start: number, device: number, session: string, signedUp: boolean): boolean {
    const rng = this.rng;
    const url = `https://${this.project.host}/pricing`;
    let t = start + rng.int(5, 120);
    this.events.push({ t, device, session, event: 'view_pricing', url, referrer: null, props: { plans_shown: 4 }, elements: null });
    if (signedUp || !rng.chance(0.45)) return false;
    const method = rng.pick(['email', 'google', 'vk']);
    t += rng.int(20, 900);
    this.events.push({ t, device, session, event: 'signup_started', url: `https://${this.project.host}/signup`, referrer: null, props: { method }, elements: null });
    if (!rng.chance(0.62)) return false;
    // Some finish the next day from the confirmation email (a new session on the same device).
    const later = rng.chance(0.12);
    t += later ? rng.int(3600 * 6, 3600 * 40) : rng.int(30, 1200);
    this.events.push({
      t,
      device,
      session: later ? rng.hex(16) : session,
      event: 'signup_completed',
      url: `https://${this.project.host}/welcome`,
      referrer: null,
      props: { method },
      elements: null,
      signup: true,
    });
    if (rng.chance(0.35)) {
      const r = rng.float();
      this.purchase(t + (r < 0.5 ? rng.int(60, 7200) : r < 0.85 ? rng.int(86400, 86400 * 10) : rng.int(86400 * 10, 86400 * 30)));
    }
    return true;
  }

  /** A purchase sent by the project's server, with monthly renewals and occasional refunds. */
  private purchase(first: number): void {
    const rng = this.rng;
    const [plan, price] = PLANS.pick(rng);
    let t = first;
    let n = 0;
    do {
      const order = `ord-${rng.hex(10)}`;
      this.events.push({
        t,
        device: -1,
        session: null,
        event: 'purchase',
        url: null,
        referrer: null,
        props: { revenue: price, currency: 'RUB', plan, order_id: order, renewal: n > 0 },
        elements: null,
      });
      if (rng.chance(0.08)) {
        this.events.push({
          t: t + rng.int(86400, 86400 * 14),
          device: -1,
          session: null,
          event: 'refund',
          url: null,
          referrer: null,
          props: { revenue: -price, currency: 'RUB', plan, order_id: order },
          elements: null,
        });
      }
      t += 30 * 86400 + rng.int(-3600, 3600);
      n += 1;
    } while (rng.chance(0.72));
  }
}

/** Release names change every two weeks, as a deployed application's would. */
const FIRST_DAY = dayNumber(DATA_FROM);

function releaseAt(source: Source, tsMs: number): string {
  const sprint = Math.floor((tsMs / DAY_MS - FIRST_DAY) / 14);
  return `${source === 'browser' ? 'web' : 'api'}-2026.${String(Math.max(0, sprint)).padStart(2, '0')}`;
}

/**
 * Walks one person's events in time order and decides who sent each: anonymous device ids until a
 * login or signup on that device, then the user id, which an alias may later replace. Emits the
 * events (at most `budget`) and the identity links, already resolved to the final user id.
 */
function emitPerson(rng: Random, projectIndex: number, personId: number, person: PersonBuilder, existingCustomer: boolean, end: number, budget: number, sink: GenerateSink): number {
  const raw = person.events.sort((a, b) => a.t - b.t);
  // Strictly increasing seconds: no two events of one person share a timestamp.
  for (let i = 1; i < raw.length; i++) if (raw[i]!.t <= raw[i - 1]!.t) raw[i]!.t = raw[i - 1]!.t + 1;
  const devices = person.deviceIds;
  // Some identified people later change their user id (account migration), once or twice.
  const ids = [`user_${projectIndex}_${personId}`];
  const aliasCount = rng.chance(0.06) ? (rng.chance(0.3) ? 2 : 1) : 0;
  for (let i = 0; i < aliasCount; i++) ids.push(`acct_${projectIndex}_${personId}_${i + 1}`);
  const aliasAt = ids.slice(1).map((_, i) => (i + 1) / (aliasCount + 1));
  let idIndex = -1;
  const linked = new Array<boolean>(devices.length).fill(false);
  const linkTimes = new Map<string, number>();
  let emitted = 0;
  for (let i = 0; i < raw.length && emitted < budget; i++) {
    const e = raw[i]!;
    const tsMs = e.t * 1000;
    if (tsMs >= end) break;
    if (idIndex >= 0 && idIndex + 1 < ids.length && i / raw.length >= aliasAt[idIndex]!) {
      // alias(previous_id = the current user id, user_id = the next one)
      linkTimes.set(ids[idIndex]!, tsMs);
      idIndex += 1;
    }
    let anonymousLanding = false;
    if (e.device >= 0 && !linked[e.device] && (e.signup || (e.sessionStart && (idIndex >= 0 || existingCustomer)))) {
      // identify(anonymous_id = this device, user_id): a signup from this event on, a login right
      // after the landing page view (which stays anonymous).
      if (idIndex < 0) idIndex = 0;
      linked[e.device] = true;
      linkTimes.set(devices[e.device]!, tsMs);
      anonymousLanding = !e.signup;
    }
    const device = e.device >= 0 ? devices[e.device]! : null;
    const userId = idIndex >= 0 && (e.device < 0 || (linked[e.device] && !anonymousLanding)) ? ids[idIndex]! : null;
    if (!device && !userId) continue;
    const source: Source = e.device >= 0 ? 'browser' : 'server';
    sink.event(projectIndex, {
      uuid: rng.uuid(),
      ts: tsMs,
      receivedAt: tsMs + (source === 'browser' ? rng.int(40, 2500) : rng.int(2, 150)),
      event: e.event,
      anonymousId: device,
      userId,
      sessionId: e.session,
      source,
      url: e.url,
      referrer: e.referrer,
      release: releaseAt(source, tsMs),
      props: e.props,
      elements: e.elements,
    });
    emitted += 1;
  }
  if (idIndex >= 0) {
    const actor = ids[idIndex]!;
    for (const [distinctId, linkedAt] of linkTimes) if (distinctId !== actor) sink.link(projectIndex, { distinctId, actorId: actor, linkedAt });
  }
  return emitted;
}

/** Generates exactly `options.events` events; the same options always give the same output. */
export function generate(options: GenerateOptions, sink: GenerateSink): void {
  const projects = options.projects ?? PROJECTS;
  const budgets = projectBudgets(options.events, projects);
  const days = dayNumber(DATA_TO) - dayNumber(DATA_FROM) + 1;
  projects.forEach((project, p) => {
    const zone = zoneFor(project.timezone);
    let left = budgets[p]!;
    for (let personId = 1; left > 0; personId++) {
      const rng = new Random(mixSeed(options.seed, p, personId));
      const existingCustomer = rng.chance(0.2);
      const person = new PersonBuilder(rng, project, zone, days);
      person.build(existingCustomer);
      left -= emitPerson(rng, p, personId, person, existingCustomer, zone.end, left, sink);
    }
  });
}
