// The only global state: who is signed in (the /me answer), the organization's projects and the
// bootstrap's license section. Started once per page load by POST /auth/bootstrap; pages read it
// with useSession() and change it only through the functions below.

import { useEffect, useState } from 'preact/hooks';
import { api, ok, onSignedOut, refreshAccessToken, setAccessToken, withRefreshLock, type Schemas } from '../api/client';

export type Me = Schemas['Me'];
export type Project = Schemas['Project'];

export interface SessionState {
  status: 'loading' | 'signed-out' | 'signed-in';
  me?: Me;
  projects?: Project[];
  license?: Record<string, unknown>;
  /** Why the session ended, shown on the sign-in page. */
  notice?: string;
}

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

onSignedOut(() => publish({ status: 'signed-out', notice: 'Your session ended. Sign in again.' }));

/** Reads who is signed in and their organization's projects once a token is held. */
export async function loadShell(license?: Record<string, unknown>): Promise<void> {
  const [me, projects] = await Promise.all([ok(api.GET('/api/v1/me')), ok(api.GET('/api/v1/projects'))]);
  publish({ status: 'signed-in', me, projects: projects.items, license: license ?? state.license });
}

interface TokenAnswer {
  access_token: string;
  license?: Record<string, unknown>;
}

let started: Promise<void> | undefined;

/** POST /auth/bootstrap once per page load: a live cookie signs the user straight in. */
export function bootstrap(): Promise<void> {
  started ??= withRefreshLock(async () => {
    const response = await fetch('/api/v1/auth/bootstrap', {
      method: 'POST',
      credentials: 'same-origin',
      headers: { 'Content-Type': 'application/json' },
      body: '{}',
    }).catch(() => undefined);
    if (!response?.ok) {
      publish({ status: 'signed-out' });
      return;
    }
    const body = (await response.json()) as TokenAnswer;
    setAccessToken(body.access_token);
    await loadShell(body.license);
  }).catch(() => publish({ status: 'signed-out', notice: 'The server could not be reached.' }));
  return started;
}

/** After login, registration, invitation accept: the token answer signs the user in. */
export async function signedIn(answer: TokenAnswer): Promise<void> {
  setAccessToken(answer.access_token);
  await loadShell(answer.license);
}

export async function switchOrganization(orgId: number): Promise<void> {
  if (!(await refreshAccessToken(orgId))) throw new Error('Could not switch organization: your membership may have ended.');
  await loadShell();
}

export async function signOut(): Promise<void> {
  await fetch('/api/v1/auth/logout', { method: 'POST', credentials: 'same-origin' }).catch(() => undefined);
  setAccessToken(undefined);
  publish({ status: 'signed-out', notice: 'You are signed out.' });
}
