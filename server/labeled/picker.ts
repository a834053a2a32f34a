// The element picker's side in the main API (docs/labeled-events.md#element-picker): a signed,
// ten-minute, project-bound token with a nonce, and reading what the picker module captured under
// it as a rule's starting conditions. The token is an HMAC-signed payload; nothing is stored for it.

import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Services } from '../http/services.js';
import { AppError, NotFoundError } from '../ground/errors.js';
import { deriveKey } from '../ground/secretKeys.js';
import { aliveAt } from '../ground/clock.js';
import { readCapture, type ElementInfo } from '../ingest/capture.js';
import { normalizePageUrl } from '../behavior/pageUrl.js';
import { ATTRIBUTE_NAME } from '../ingest/elementColumns.js';

export const PICKER_TOKEN_SECONDS = 600;

interface Payload {
  /** Project id, user id, nonce, expiry (epoch seconds). */
  p: number;
  u: number;
  n: string;
  exp: number;
}

export interface PickerToken {
  token: string;
  nonce: string;
  expires_at: string;
}

export function pickerEnabled(services: Services): void {
  if (!services.config.picker_enabled) throw new AppError(501, 'not_implemented', 'the element picker is turned off on this installation (picker_enabled)');
}

const sign = (services: Services, body: string) => createHmac('sha256', deriveKey(services.secret, 'picker-token')).update(body).digest('base64url');

export function issuePickerToken(services: Services, projectId: number, userId: number): PickerToken {
  const nonce = randomBytes(16).toString('base64url');
  const exp = Math.floor(services.clock.now().getTime() / 1000) + PICKER_TOKEN_SECONDS;
  const body = Buffer.from(JSON.stringify({ p: projectId, u: userId, n: nonce, exp } satisfies Payload)).toString('base64url');
  return { token: `${body}.${sign(services, body)}`, nonce, expires_at: new Date(exp * 1000).toISOString() };
}

/** The token's payload when it is genuine, unexpired and bound to the project; otherwise 404. */
function verify(services: Services, projectId: number, token: string): Payload {
  const gone = new NotFoundError('no picker session for this token: it is not valid, has expired or belongs to another project');
  const [body, mac, extra] = token.split('.');
  if (!body || !mac || extra !== undefined) throw gone;
  const expected = Buffer.from(sign(services, body));
  const given = Buffer.from(mac);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw gone;
  let payload: Payload;
  try {
    payload = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as Payload;
  } catch {
    throw gone;
  }
  if (payload.p !== projectId || !aliveAt(payload.exp * 1000, services.clock.now().getTime(), PICKER_TOKEN_SECONDS * 1000)) throw gone;
  return payload;
}

/** A CSS value safe in our selector subset: bare when it is an identifier, else double-quoted. */
const cssValue = (v: string) => (/^[A-Za-z_][A-Za-z0-9_-]*$/.test(v) ? v : `"${v.replace(/["\\]/g, '\\$&')}"`);
const IDENTIFIER = /^[A-Za-z_-][A-Za-z0-9_-]*$/;

function compoundOf(el: ElementInfo, withPosition: boolean): string {
  const tag = el.tag.toLowerCase();
  const classes = (el.classes ?? []).filter((c) => IDENTIFIER.test(c)).slice(0, 3);
  return `${tag}${classes.map((c) => `.${c}`).join('')}${withPosition && el.nth_child ? `:nth-child(${el.nth_child})` : ''}`;
}

/** The element's own stable mark: a data-pp-* attribute, else its id; undefined without either. */
function anchorOf(el: ElementInfo): string | undefined {
  const tag = el.tag.toLowerCase();
  const data = Object.entries(el.attributes ?? {}).find(([name, value]) => name.startsWith('data-pp-') && ATTRIBUTE_NAME.test(name) && value !== '');
  if (data) return `${tag}[${data[0]}=${cssValue(data[1])}]`;
  if (el.id) return IDENTIFIER.test(el.id) ? `${tag}#${el.id}` : `${tag}[id=${cssValue(el.id)}]`;
  return undefined;
}

const INTERACTIVE_TAGS = new Set(['a', 'button', 'input', 'select', 'textarea', 'label', 'summary', 'option']);
const INTERACTIVE_ROLES = new Set(['button', 'link', 'tab', 'menuitem', 'checkbox', 'radio', 'switch', 'option']);

/**
 * Where in the chain the element a person means is: the nearest element that is a control (a
 * link, button, field, label…, or one with such a role or a data-pp-* mark), so that picking a
 * button by its label names the button, whose own clicks a rule must also match; the picked
 * element itself when none is.
 */
export function meantIndex(chain: ElementInfo[]): number {
  const i = chain.findIndex(
    (el) => INTERACTIVE_TAGS.has(el.tag.toLowerCase()) || INTERACTIVE_ROLES.has(el.attributes?.role ?? '') || Object.keys(el.attributes ?? {}).some((n) => n.startsWith('data-pp-')),
  );
  return Math.max(i, 0);
}

/**
 * A short selector, in the rules' subset, for the element a person meant by picking the chain's
 * first one (meantIndex): its own data-pp-* or id; else its tag and classes under the nearest
 * ancestor with such a mark; else the path of tags, classes and positions from two levels up.
 */
export function stableSelector(picked: ElementInfo[]): string {
  const chain = picked.slice(meantIndex(picked));
  const [target, ...ancestors] = chain;
  if (!target) return '';
  const own = anchorOf(target);
  if (own) return own;
  const marked = ancestors.findIndex((a) => anchorOf(a) !== undefined);
  if (marked >= 0) return `${anchorOf(ancestors[marked]!)!} ${compoundOf(target, false)}`;
  return [...chain.slice(0, 3)]
    .reverse()
    .map((el) => compoundOf(el, true))
    .join(' > ');
}

export interface CapturePoll {
  ready: boolean;
  expires_at: string;
  captured_at?: string;
  url?: string;
  url_pattern?: string | null;
  selector?: string;
  text?: string | null;
  element?: { tag: string; id: string | null; classes: string[]; attributes: Record<string, string> };
}

/** What the picker captured under the token, as a rule's starting point; ready: false until something was. */
export async function pollCapture(services: Services, projectId: number, token: string): Promise<CapturePoll> {
  const payload = verify(services, projectId, token);
  const expires_at = new Date(payload.exp * 1000).toISOString();
  const capture = await readCapture(services, projectId, token);
  if (!capture || capture.nonce !== payload.n) return { ready: false, expires_at };
  const chain = capture.chain.length > 0 ? capture.chain : [capture.element];
  const target = chain[meantIndex(chain)]!;
  const attributes = Object.fromEntries(Object.entries(target.attributes ?? {}).filter(([name, v]) => ATTRIBUTE_NAME.test(name) && typeof v === 'string'));
  return {
    ready: true,
    expires_at,
    captured_at: capture.received_at,
    url: capture.url,
    url_pattern: normalizePageUrl(capture.url),
    selector: stableSelector(chain),
    // Only the picked element carries its text (the tracker's rule): a control's label is that.
    text: typeof chain[0]!.text === 'string' && chain[0]!.text !== '' ? chain[0]!.text : null,
    element: { tag: target.tag.toLowerCase(), id: target.id ?? null, classes: target.classes ?? [], attributes },
  };
}
