// Labeled-event rules in the bench: twenty rules of the kinds teams write (a button by its
// classes and text, a link on a section of the site, a form submit, a page), created through the
// API; the time one rule takes to be derived over the whole store and torn down again; and the
// rules a project has while ingestion is measured with them.

import type { PpServer } from './ppServer.js';

const BUTTONS = ['Buy now', 'Add to cart', 'Sign up', 'Learn more', 'Next', 'Show more', 'Subscribe', 'Download', 'Open', 'Close', 'Search', 'Filter', 'Apply'];
const SECTIONS = ['home', 'catalog', 'product', 'blog', 'cart', 'account', 'pricing', 'help'];
/** Pages of their own (no path below them): one page each, as a team labels "viewed pricing". */
const PAGES = ['pricing', 'cart', 'help', 'account'];

/**
 * `count` rule bodies over what the generator's clicks, forms and pages carry: specific buttons by
 * class and text, links of one part of the site, the forms of one part, single pages.
 */
export function benchRules(count: number): Array<Record<string, unknown>> {
  const kinds: Array<(i: number) => Record<string, unknown>> = [
    (i) => ({ base_event: 'pp.click', selector: 'button.btn-primary', match_text: BUTTONS[i % BUTTONS.length] }),
    (i) => ({ base_event: 'pp.click', selector: `div.hero > a.btn`, url_pattern: `/${SECTIONS[i % SECTIONS.length]}*` }),
    (i) => ({ base_event: 'pp.click', selector: 'div.product-grid button:nth-child(2)', match_text: BUTTONS[(i + 3) % BUTTONS.length] }),
    (i) => ({ base_event: 'pp.form_submit', selector: 'form', url_pattern: `/${SECTIONS[(i + 1) % SECTIONS.length]}*` }),
    (i) => ({ base_event: 'pp.page_view', url_pattern: `/${PAGES[i % PAGES.length]}` }),
  ];
  return Array.from({ length: count }, (_, i) => ({ ...kinds[i % kinds.length]!(i), event_name: `bench_rule_${i}` }));
}

export interface LabeledFigures {
  /** Events the rule labels over the store. */
  derivedEvents: number;
  /** From the create request to the rule's derivation job succeeded. */
  materializeMs: number;
  /** From the delete request to the rule gone, its events deleted. */
  teardownMs: number;
}

async function waitFor<T>(what: string, read: () => Promise<T>, done: (v: T) => boolean, timeoutMs = 30 * 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await read();
    if (done(v)) return v;
    if (Date.now() > deadline) throw new Error(`${what} did not happen within ${timeoutMs / 1000} s`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Creates rules on projects through the API (the owner's token); answers their ids. */
export async function createRules(server: PpServer, projectId: number, bodies: Array<Record<string, unknown>>): Promise<number[]> {
  const ids: number[] = [];
  for (const body of bodies) {
    const res = await server.api('POST', `/api/v1/projects/${projectId}/labeled-events`, body);
    if (res.status !== 201) throw new Error(`creating a rule failed: ${res.status} ${res.body}`);
    ids.push((JSON.parse(res.body) as { id: number }).id);
  }
  return ids;
}

/** Waits until each rule's first derivation succeeded: the rules are then active over all history. */
export async function waitForRules(server: PpServer, projectId: number, ids: number[]): Promise<void> {
  for (const id of ids) {
    const view = await waitFor(
      `rule ${id} to be derived`,
      async () => JSON.parse((await server.api('GET', `/api/v1/projects/${projectId}/labeled-events/${id}`)).body) as { materialization: { state: string; error: string | null } | null },
      (r) => r.materialization?.state === 'succeeded' || r.materialization?.state === 'failed',
    );
    if (view.materialization!.state !== 'succeeded') throw new Error(`deriving rule ${id} failed: ${view.materialization!.error}`);
  }
}

/** Times deriving one rule (the primary button's "Add to cart" clicks) over the project's history, and its teardown. */
export async function timeLabeledRule(server: PpServer, projectId: number): Promise<LabeledFigures> {
  const base = `/api/v1/projects/${projectId}/labeled-events`;
  const rule = async (id: number) => JSON.parse((await server.api('GET', `${base}/${id}`)).body) as { materialization: { state: string; derived_events: number | null; error: string | null } | null };
  let started = performance.now();
  const [id] = await createRules(server, projectId, [{ base_event: 'pp.click', selector: 'button.btn-primary', match_text: 'add to cart', event_name: 'bench_add_to_cart' }]);
  const done = await waitFor(
    'the rule to be derived',
    () => rule(id!),
    (r) => r.materialization?.state === 'succeeded' || r.materialization?.state === 'failed',
  );
  const materializeMs = performance.now() - started;
  if (done.materialization!.state !== 'succeeded') throw new Error(`deriving the rule failed: ${done.materialization!.error}`);
  started = performance.now();
  const res = await server.api('DELETE', `${base}/${id}`);
  if (res.status !== 204) throw new Error(`deleting the rule failed: ${res.status} ${res.body}`);
  await waitFor(
    'the rule to be gone',
    async () => (await server.api('GET', `${base}/${id}`)).status,
    (s) => s === 404,
  );
  return { derivedEvents: done.materialization!.derived_events!, materializeMs, teardownMs: performance.now() - started };
}
