// The only global state: who is signed in (the /me answer), the organization's projects and the
// bootstrap's shell sections (the license on-prem; the subscription and usage in the cloud).
// Started once per page load by POST /auth/bootstrap; pages read it with useSession() and change it
// only through the functions below.

import { useEffect, useState } from 'preact/hooks';
import { api, ok, onSignedOut, setAccessToken, withRefreshLock, type Schemas } from '../api/client';

export type Me = Schemas['Me'];
export type Project = Schemas['Project'];
// billingSummary.ts always writes every property; the schema just does not list them as required.
export type BillingSection = Required<Schemas['BillingSection']>;
export type UsageSection = Required<Schemas['UsageSection']>;

export interface SessionState {
  status: 'loading' | 'signed-out' | 'signed-in';
  me?: Me;
  projects?: Project[];
  license?: Record<string, unknown>;
  /** Cloud edition: the organization's subscription; absent on-prem and for an organization that is not billed. */
  billing?: BillingSection;
  usage?: UsageSection;
  /** Why the session ended, shown on the sign-in page. */
  notice?: string;
}

/** The sections of the bootstrap answer beyond the token: `license` on-prem, `billing` and `usage` in the cloud. */
export type ShellSections = Pick<SessionState, 'license' | 'billing' | 'usage'>;

const sectionsOf = (from: ShellSections): ShellSections => ({ license: from.license, billing: from.billing, usage: from.usage });

let state: SessionState = { status: 'loading' };
const listeners = new Set<(s: SessionState) => void>();

function publish(next: SessionState): void {
  state = next;
  for (const listener of listeners) listener(state);
}

export function useSession(): SessionState {
  const [current, setCurrent] = useState(state);
  useEffect(() => {
    listeners.add(setCurrent);
    setCurrent(state);
    return () => void listeners.delete(setCurrent);
  }, []);
  return current;
}

/**
 * Whether this browser was signed in here when it last knew: a signed-out visitor's page load then
 * skips the bootstrap and its 401. Only a hint; the cookie decides. Single sign-on comes back through
 * /auth/callback with a fresh cookie and no hint yet, so that page always asks.
 */
const HINT = 'pp.signed-in';

function setHint(on: boolean): void {
  try {
    if (on) localStorage.setItem(HINT, '1');
    else localStorage.removeItem(HINT);
  } catch {
    // Storage refused (a private window's quota): every load asks, as without the hint.
  }
}

function mayHaveSession(): boolean {
  try {
    return location.pathname === '/auth/callback' || localStorage.getItem(HINT) !== null;
  } catch {
    return true;
  }
}

onSignedOut(() => {
  setHint(false);
  publish({ status: 'signed-out', notice: 'Your session ended. Sign in again.' });
});

/** Reads who is signed in and their organization's projects once a token is held; without `sections` the current ones stay. */
export async function loadShell(sections?: ShellSections): Promise<void> {
  const [me, projects] = await Promise.all([ok(api.GET('/api/v1/me')), ok(api.GET('/api/v1/projects'))]);
  publish({ status: 'signed-in', me, projects: projects.items, ...(sections ?? sectionsOf(state)) });
}

interface TokenAnswer extends ShellSections {
  access_token: string;
}

/** The address the server keeps sign-ins at, when this page was opened at another (the bootstrap's 403 names it). */
let elsewhere: string | undefined;

/**
 * POST /auth/bootstrap: a rotated token (for `orgId` when given) with the shell sections of its
 * organization; undefined when the cookie signs nobody in or the server cannot be reached.
 */
function askBootstrap(orgId?: number): Promise<TokenAnswer | undefined> {
  return withRefreshLock(async () => {
    const response = await fetch('/api/v1/auth/bootstrap', {
      method: 'POST',
      credentials: 'same-origin',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(orgId === undefined ? {} : { org_id: orgId }),
    }).catch(() => undefined);
    if (response?.status === 403) {
      const refusal = (await response.json().catch(() => undefined)) as { error?: { details?: { allowed_origin?: unknown } } } | undefined;
      const allowed = refusal?.error?.details?.allowed_origin;
      if (typeof allowed === 'string') elsewhere = allowed;
    }
    return response?.ok ? ((await response.json()) as TokenAnswer) : undefined;
  });
}

/** Why a sign-in cannot be kept at this address, and the address where it can. */
function elsewhereNotice(allowed: string): string {
  return `pp keeps your sign-in only at ${allowed}, not at ${location.origin}. Open ${allowed}/sign-in, or ask your administrator to add ${location.origin} to the allowed origins (PP_CORS_ORIGINS).`;
}

let started: Promise<void> | undefined;

/** POST /auth/bootstrap once per page load: a live cookie signs the user straight in. */
export function bootstrap(): Promise<void> {
  started ??= (async () => {
    const answer = mayHaveSession() ? await askBootstrap() : undefined;
    if (!answer) {
      setHint(false);
      publish({ status: 'signed-out', notice: elsewhere && elsewhereNotice(elsewhere) });
      return;
    }
    setHint(true);
    setAccessToken(answer.access_token);
    await loadShell(sectionsOf(answer));
  })().catch(() => publish({ status: 'signed-out', notice: 'The server could not be reached.' }));
  return started;
}

/**
 * After login, registration, invitation accept: the token answer signs the user in. Those answers
 * carry no shell sections, so the bootstrap (the same session, its cookie just set) is asked for them.
 */
export async function signedIn(answer: TokenAnswer): Promise<void> {
  setAccessToken(answer.access_token);
  setHint(true);
  const withSections = await askBootstrap();
  if (withSections) setAccessToken(withSections.access_token);
  await loadShell(sectionsOf(withSections ?? answer));
}

export async function switchOrganization(orgId: number): Promise<void> {
  const answer = await askBootstrap(orgId);
  if (!answer) throw new Error('Could not switch organization: your membership may have ended.');
  setAccessToken(answer.access_token);
  await loadShell(sectionsOf(answer));
}

/** The organization's subscription and usage read again (the billing page, a plan chosen, a trial activated); the banner follows. */
export async function loadBilling(): Promise<{ billing: BillingSection; usage: UsageSection }> {
  const orgID = state.me!.org.id;
  const answer = (await ok(api.GET('/api/v1/orgs/{orgID}/billing', { params: { path: { orgID } } }))) as { billing: BillingSection; usage: UsageSection };
  // An organization switched meanwhile keeps its own sections.
  if (state.me?.org.id === orgID) publish({ ...state, billing: answer.billing, usage: answer.usage });
  return answer;
}

export async function signOut(): Promise<void> {
  await fetch('/api/v1/auth/logout', { method: 'POST', credentials: 'same-origin' }).catch(() => undefined);
  setAccessToken(undefined);
  setHint(false);
  publish({ status: 'signed-out', notice: 'You are signed out.' });
}
