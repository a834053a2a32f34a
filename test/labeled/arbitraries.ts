// Random element chains, URLs, events and labeled-event rules drawn from one small vocabulary, so
// that a random rule matches a fair share of random events; the reference matcher decides which.

import fc from 'fast-check';
import type { AttributeCondition, BaseEvent, ElementInfo } from '../oracles/labeled.js';

export const TAGS = ['div', 'section', 'form', 'button', 'a', 'span', 'li'] as const;
export const IDS = ['buy', 'nav', 'signup'] as const;
export const CLASSES = ['btn', 'primary', 'nav', 'card'] as const;
/** Target texts as the tracker sends them (collapsed), in case variants; one keeps a double space. */
export const TEXTS = ['Buy now', 'buy now', 'BUY NOW', 'Sign up', 'sign UP', 'Pricing', 'Start trial', 'Buy  now'] as const;
export const ATTRIBUTE_VALUES: Record<string, readonly string[]> = {
  href: ['/pricing', '/blog/post_1', '/cart'],
  name: ['email', 'q'],
  type: ['submit', 'button'],
  role: ['button', 'link'],
  'aria-label': ['Add to cart', 'Close'],
  'data-pp-name': ['buy', 'pricing', 'x'],
  'data-pp-kind': ['cta', 'nav'],
};
const CAPTURED = Object.keys(ATTRIBUTE_VALUES);
/** What selectors and conditions may read: the captured attributes plus the id and the classes. */
const READABLE = [...CAPTURED, 'id', 'class'];
const READABLE_VALUES: Record<string, readonly string[]> = { ...ATTRIBUTE_VALUES, id: IDS, class: [...CLASSES, 'btn primary', 'btn primary', 'primary nav', 'nav card'] };

export const HOSTS = ['shop.example.com', 'www.example.org'] as const;
/** `post_1` and `post-12`: a `_` taken as a one-character wildcard would confuse them. */
export const PATHS = ['/', '/pricing', '/blog/post_1', '/blog/post-12'] as const;

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

// --- elements --------------------------------------------------------------------------------

const attributesArb: fc.Arbitrary<Record<string, string> | undefined> = fc
  .uniqueArray(fc.constantFrom(...CAPTURED), { minLength: 0, maxLength: 3 })
  .chain((names) =>
    fc.tuple(...names.map((n) => fc.constantFrom(...ATTRIBUTE_VALUES[n]!))).map((values) => (names.length === 0 ? undefined : Object.fromEntries(names.map((n, i) => [n, values[i]!])))),
  );

/** Tags as often as pages have them: many divs, a few sections and forms. */
const TAG_WEIGHTS: Record<string, number> = { div: 4, span: 2, button: 2, a: 2, li: 1, section: 1, form: 1 };
const tagArb = (tags: readonly string[]) => fc.oneof(...tags.map((tag) => ({ weight: TAG_WEIGHTS[tag] ?? 1, arbitrary: fc.constant(tag) })));

function elementArb(target: boolean, tags: readonly string[] = TAGS): fc.Arbitrary<ElementInfo> {
  return fc
    .record({
      tag: tagArb(tags),
      id: fc.option(fc.constantFrom(...IDS), { freq: 2, nil: undefined }),
      classes: fc.subarray([...CLASSES], { minLength: 0, maxLength: 3 }),
      nth_child: fc.noBias(fc.integer({ min: 1, max: 4 })),
      text: target ? fc.option(fc.constantFrom(...TEXTS), { freq: 3, nil: undefined }) : fc.constant(undefined),
      attributes: attributesArb,
    })
    .map((r) => {
      const e: ElementInfo = { tag: r.tag, nth_child: r.nth_child };
      if (r.id !== undefined) e.id = r.id;
      if (r.classes.length > 0) e.classes = r.classes;
      if (r.text !== undefined) e.text = r.text;
      if (r.attributes !== undefined) e.attributes = r.attributes;
      return e;
    });
}

/** 1 to 6 elements, the target first; a form submit's target is mostly a form. */
export function chainArb(kind: string = 'pp.click'): fc.Arbitrary<ElementInfo[]> {
  const target = kind === 'pp.form_submit' ? fc.oneof({ weight: 4, arbitrary: elementArb(true, ['form']) }, { weight: 1, arbitrary: elementArb(true) }) : elementArb(true);
  const ancestors = fc.noBias(fc.integer({ min: 0, max: 5 })).chain((n) => fc.array(elementArb(false), { minLength: n, maxLength: n }));
  return fc.tuple(target, ancestors).map(([t, rest]) => [t, ...rest]);
}

// --- URLs ------------------------------------------------------------------------------------

/** A page address in one of its spellings: host case, default or other port, trailing slash, query, fragments, hash routes. */
export const urlArb: fc.Arbitrary<string> = fc
  .record({
    https: fc.constantFrom(true, true, true, true, true, false),
    host: fc.constantFrom(...HOSTS),
    upperHost: fc.constantFrom(false, false, true),
    port: fc.constantFrom('', '', '', '', 'default', 'default', ':8080'),
    path: fc.constantFrom(...PATHS),
    trailing: fc.constantFrom(false, false, true),
    query: fc.constantFrom('', '', '?utm=x', '?a=1&b=/c'),
    fragment: fc.constantFrom('', '', '', '', '', '#top', '#top', '#/cart', '#!/settings', '#/cart/'),
  })
  .map((r) => {
    const host = r.upperHost ? r.host.replace(/^[a-z]+/, (w) => w[0]!.toUpperCase() + w.slice(1)).replace('.example.', '.EXAMPLE.') : r.host;
    const port = r.port === 'default' ? (r.https ? ':443' : ':80') : r.port;
    // The root path written as nothing at all, or with a second slash.
    const path = r.path === '/' ? (r.trailing ? '' : '/') : r.trailing ? `${r.path}/` : r.path;
    return `${r.https ? 'https' : 'http'}://${host}${port}${path}${r.query}${r.fragment}`;
  });

const pathPatternArb: fc.Arbitrary<string> = fc
  .record({
    path: fc.constantFrom(...PATHS),
    trailing: fc.boolean(),
    query: fc.constantFrom('', '', '?x=1'),
    fragment: fc.constantFrom('', '', '#top', '#/cart', '#!/settings'),
  })
  .map((r) => `${r.path === '/' || !r.trailing ? r.path : `${r.path}/`}${r.query}${r.fragment}`);

const WILDCARDS = [
  'https://shop.example.com/*',
  'http*://www.example.org/*',
  '*/pricing',
  '*/pricing*',
  '/blog/*',
  '/blog/post_1*',
  '*/post_1*',
  '/blog/post*',
  '*#/cart*',
  '/*#!*',
  '*example.org*',
  '/*',
  '*',
  '*/',
  // Literal apart from the `*`: a normalized URL never has an upper-case host.
  'https://Shop.example.com/*',
  // Many `*` between repeated letters: exponential for a backtracking matcher, linear here.
  '/*o*o*t*',
  '*/*/*p*s*t*_*',
  '/**',
];

/** Exact URLs in spellings that normalize alike, `/path` patterns, and `*` patterns. */
export const urlPatternArb: fc.Arbitrary<string> = fc.oneof({ weight: 3, arbitrary: urlArb }, { weight: 3, arbitrary: pathPatternArb }, { weight: 4, arbitrary: fc.constantFrom(...WILDCARDS) });

// --- rules -----------------------------------------------------------------------------------

const caseVariant = (s: string) => fc.constantFrom(s, s, s, s.toUpperCase());
const BARE = /^[A-Za-z_][A-Za-z0-9_-]*$/;

const attributeSelectorArb: fc.Arbitrary<string> = fc.constantFrom(...READABLE).chain((name) =>
  fc
    .record({
      name: caseVariant(name),
      value: fc.option(fc.constantFrom(...READABLE_VALUES[name]!), { freq: 3, nil: undefined }),
      quote: fc.constantFrom('"', "'", ''),
    })
    .map(({ name: n, value, quote }) => {
      if (value === undefined) return `[${n}]`;
      const q = quote === '' && !BARE.test(value) ? '"' : quote;
      return `[${n}=${q}${value}${q}]`;
    }),
);

const partArb: fc.Arbitrary<string> = fc.oneof(
  { weight: 2, arbitrary: fc.constantFrom(...IDS).map((id) => `#${id}`) },
  { weight: 3, arbitrary: fc.constantFrom(...CLASSES).map((c) => `.${c}`) },
  { weight: 1, arbitrary: fc.noBias(fc.integer({ min: 1, max: 4 })).map((n) => `:nth-child(${n})`) },
  { weight: 2, arbitrary: attributeSelectorArb },
);

/** The rightmost compound: a tag and/or one part, now and then two parts. */
const targetCompoundArb: fc.Arbitrary<string> = fc
  .record({
    tag: fc.option(fc.constantFrom(...TAGS).chain(caseVariant), { freq: 2, nil: undefined }),
    parts: fc.oneof({ weight: 6, arbitrary: fc.array(partArb, { minLength: 0, maxLength: 1 }) }, { weight: 1, arbitrary: fc.array(partArb, { minLength: 2, maxLength: 2 }) }),
  })
  .filter((c) => c.tag !== undefined || c.parts.length > 0)
  .map((c) => `${c.tag ?? ''}${c.parts.join('')}`);

/** An ancestor compound: mostly a bare tag or class, so that longer selectors still match often. */
const ancestorCompoundArb: fc.Arbitrary<string> = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom('div', 'div', 'section', 'li', 'a', 'form', 'DIV') },
  { weight: 3, arbitrary: fc.constantFrom(...CLASSES).map((c) => `.${c}`) },
  { weight: 2, arbitrary: targetCompoundArb },
);

const combinatorArb = fc.constantFrom(' ', ' ', '  ', ' > ', ' > ', '>', ' >', '> ');

/** 1 to 3 compounds joined by descendant or child combinators, spaced in different ways. */
export const selectorArb: fc.Arbitrary<string> = fc
  .tuple(
    fc
      .oneof({ weight: 5, arbitrary: fc.constant(0) }, { weight: 4, arbitrary: fc.constant(1) }, { weight: 2, arbitrary: fc.constant(2) })
      .chain((n) => fc.array(fc.tuple(ancestorCompoundArb, combinatorArb), { minLength: n, maxLength: n })),
    targetCompoundArb,
  )
  .map(([ancestors, target]) => ancestors.map(([c, comb]) => c + comb).join('') + target);

/** A tag or a class alone: several elements of a chain often match it, the conditions then choose. */
const broadSelectorArb: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom('div', 'button', 'a', 'span', 'section div', 'div span'),
  fc.constantFrom(...CLASSES).map((c) => `.${c}`),
);

/** Case and spacing variants of the texts, and texts no target has. */
export const matchTextArb: fc.Arbitrary<string> = fc.constantFrom('buy now', '  Buy   Now ', 'BUY NOW', 'buy', 'Sign up', ' sign  up', 'pricing', 'start trial', 'Start  Trial ');

const CONTAINS = ['pricing', '/', 'bu', 'Add', 'n', 'primary', 'post_', 'a', 'nav', 'btn p', 'y n'];

export const attributeConditionArb: fc.Arbitrary<AttributeCondition> = fc
  .record({
    // The id and the classes are on most elements, so conditions on them often tell elements apart.
    name: fc.oneof({ weight: 3, arbitrary: fc.constantFrom('id', 'class') }, { weight: 2, arbitrary: fc.constantFrom(...CAPTURED) }),
    op: fc.constantFrom('eq', 'contains', 'exists') as fc.Arbitrary<AttributeCondition['op']>,
  })
  .chain(({ name, op }) => {
    if (op === 'exists') return fc.constant<AttributeCondition>({ name, op });
    const values = op === 'eq' ? READABLE_VALUES[name]! : CONTAINS;
    return fc.constantFrom(...values).map((value): AttributeCondition => ({ name, op, value }));
  });

/** Not set, as null or (now and then) as an empty string. */
const unset: fc.Arbitrary<null | ''> = fc.constantFrom(null, null, null, '');

/** A rule as the API takes it (empty strings included); the reference reads it as is. */
export interface RuleInput {
  base_event: BaseEvent;
  selector: string | null;
  url_pattern: string | null;
  match_text: string | null;
  attributes: AttributeCondition[];
}

type Condition = 'selector' | 'url_pattern' | 'match_text' | 'attributes';

/**
 * Which conditions a rule has: mostly one or two, rarely none or three. Attribute conditions come
 * mostly with a selector, where several elements of a chain may match it.
 */
const conditionsArb: fc.Arbitrary<Set<Condition>> = fc
  .oneof(
    ...(
      [
        [[], 2],
        [['selector'], 10],
        [['url_pattern'], 6],
        [['match_text'], 3],
        [['attributes'], 2],
        [['selector', 'attributes'], 6],
        [['selector', 'url_pattern'], 4],
        [['selector', 'match_text'], 2],
        [['url_pattern', 'match_text'], 1],
        [['url_pattern', 'attributes'], 1],
        [['selector', 'url_pattern', 'attributes'], 1],
        [['selector', 'match_text', 'attributes'], 1],
      ] as Array<[Condition[], number]>
    ).map(([list, weight]) => ({ weight, arbitrary: fc.constant(list) })),
  )
  .map((list) => new Set(list));

export const ruleArb: fc.Arbitrary<RuleInput> = fc
  .constantFrom<BaseEvent>('pp.click', 'pp.click', 'pp.click', 'pp.form_submit', 'pp.form_submit', 'pp.page_view')
  .chain((base_event): fc.Arbitrary<RuleInput> => {
    if (base_event === 'pp.page_view') {
      return fc.oneof({ weight: 4, arbitrary: urlPatternArb }, { weight: 1, arbitrary: unset }).map((url_pattern) => ({ base_event, selector: null, url_pattern, match_text: null, attributes: [] }));
    }
    return conditionsArb.chain((has) =>
      fc.record({
        base_event: fc.constant(base_event),
        selector: !has.has('selector') ? unset : has.has('attributes') ? fc.oneof(selectorArb, broadSelectorArb) : selectorArb,
        url_pattern: has.has('url_pattern') ? urlPatternArb : unset,
        match_text: has.has('match_text') ? matchTextArb : unset,
        attributes: has.has('attributes')
          ? fc.oneof(
              { weight: 3, arbitrary: fc.array(attributeConditionArb, { minLength: 1, maxLength: 1 }) },
              { weight: 1, arbitrary: fc.array(attributeConditionArb, { minLength: 2, maxLength: 2 }) },
            )
          : fc.constant<AttributeCondition[]>([]),
      }),
    );
  });

// --- events and time -------------------------------------------------------------------------

export interface Moment {
  tz: string;
  now: Date;
  /** DST changes of the zones within the 60 days before `now`. */
  changes: Date[];
}

/**
 * Clocks whose 30-day preview window holds a DST change of Berlin or New York, so a window of 30
 * local days would differ from 30 × 24 hours; the third starts its window on Berlin's change.
 */
export const MOMENTS: Array<Omit<Moment, 'tz'>> = [
  { now: new Date('2026-04-10T12:00:00Z'), changes: [new Date('2026-03-08T07:00:00Z'), new Date('2026-03-29T01:00:00Z')] },
  { now: new Date('2026-11-20T08:30:00Z'), changes: [new Date('2026-10-25T01:00:00Z'), new Date('2026-11-01T06:00:00Z')] },
  { now: new Date('2026-04-28T01:00:00Z'), changes: [new Date('2026-03-08T07:00:00Z'), new Date('2026-03-29T01:00:00Z')] },
];
export const ZONES = ['UTC', 'Europe/Berlin', 'America/New_York'] as const;

export const momentArb: fc.Arbitrary<Moment> = fc.record({ tz: fc.constantFrom(...ZONES), m: fc.constantFrom(...MOMENTS) }).map(({ tz, m }) => ({ tz, ...m }));

/** Instants over the 60 days before `now`, many on the preview window's edges and near DST changes. */
export function instantArb(m: Moment): fc.Arbitrary<Date> {
  const now = m.now.getTime();
  const edge = now - 30 * DAY;
  return fc.oneof(
    { weight: 6, arbitrary: fc.noBias(fc.integer({ min: -60 * 24 * 60, max: 0 })).map((min) => new Date(now + min * 60_000)) },
    { weight: 2, arbitrary: fc.tuple(fc.constantFrom(...m.changes), fc.noBias(fc.integer({ min: -180, max: 180 }))).map(([c, min]) => new Date(c.getTime() + min * 60_000)) },
    { weight: 2, arbitrary: fc.constantFrom(edge, edge + 1, edge - 1, edge - HOUR, edge + HOUR, now, now - 1, now + 1000).map((ms) => new Date(ms)) },
  );
}

export interface EventInput {
  event: string;
  ts: Date;
  anonymous_id: string;
  url: string | null;
  elements: ElementInfo[] | null;
}

const KINDS = ['pp.click', 'pp.click', 'pp.click', 'pp.click', 'pp.form_submit', 'pp.form_submit', 'pp.page_view', 'pp.page_view', 'pp.rage_click', 'signup'];

export function eventArb(m: Moment): fc.Arbitrary<EventInput> {
  return fc.constantFrom(...KINDS).chain((event) =>
    fc.record({
      event: fc.constant(event),
      ts: instantArb(m),
      anonymous_id: fc.constantFrom('a0', 'a1', 'a2'),
      url: fc.option(urlArb, { freq: 8, nil: null }),
      elements: ['pp.click', 'pp.form_submit', 'pp.rage_click'].includes(event) ? chainArb(event) : fc.constant(null),
    }),
  );
}

/** Events of which some share an instant with another one (ties). */
export function eventsArb(m: Moment, minLength: number, maxLength: number): fc.Arbitrary<EventInput[]> {
  return fc.array(eventArb(m), { minLength, maxLength }).chain((events) =>
    fc.array(fc.tuple(fc.nat({ max: events.length - 1 }), fc.nat({ max: events.length - 1 })), { minLength: 1, maxLength: Math.max(1, Math.floor(events.length / 5)) }).map((pairs) => {
      const out = events.map((e) => ({ ...e }));
      for (const [i, j] of pairs) out[i]!.ts = out[j]!.ts;
      return out;
    }),
  );
}
