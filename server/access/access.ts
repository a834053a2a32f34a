// What each route declares about who may call it: the credential it takes, the membership and
// minimum role it needs, whether it changes data (for the account-state gate), the plan
// entitlements it needs and which personal-API-key scope may call it. The route table runs the
// checks these declarations name, in one order (see guard.ts); handlers no longer carry them.

import type { RequestHandler } from 'express';
import type { Entitlement } from '../../license/entitlements.js';
import type { Role } from './roles.js';

/**
 * How a caller proves who it is. `access_token` is the signed-in member (or a personal API key
 * standing for one); the others are each checked by the route's own `checks`, but `payload_key`
 * (an ingestion key named inside a PostHog client's payload), `signed_link` (an expiring signature in
 * the query string, like an export's download link) and `share_token` (a public link's
 * token in its path), which the handler opens once the request is read.
 */
export type Credential = 'none' | 'access_token' | 'refresh_cookie' | 'ingest_key' | 'payload_key' | 'release_token' | 'share_token' | 'email_token' | 'signed_link' | 'provider_signature';

/**
 * What an access-token route is about: a project of the caller's organization (`{id}`), the
 * organization named by `{orgID}`, the caller's organization as a whole, or the caller's own account.
 */
export type Scope = 'project' | 'org' | 'member' | 'self';

/** Personal API key scopes, in ascending order of rights. */
export const API_KEY_SCOPES = ['read', 'write', 'admin'] as const;
export type ApiKeyScope = (typeof API_KEY_SCOPES)[number];

/** The role a member needs to hold a key with the scope, re-checked on every request. */
export const SCOPE_ROLE: Record<ApiKeyScope, Role> = { read: 'viewer', write: 'analyst', admin: 'admin' };

export interface Access {
  credential: Credential;
  /** For `access_token`: what the route is about (see Scope). */
  scope?: Scope;
  /** For `access_token`: the minimum role; every member qualifies when absent. */
  role?: Role;
  /** Whether the operation changes data; defaults to every method but GET. */
  mutates?: boolean;
  /** A mutation that stays open while the account is held or paused (activation, choosing a plan). */
  openWhilePaused?: boolean;
  /** A read of a plan-gated capability, refused (402) while the account is paused. */
  liveAccount?: boolean;
  /** Entitlements the license or plan must grant for every call (body-dependent ones stay with the body's checks). */
  entitlements?: Entitlement[];
  /** Exists only in the cloud edition (404 on-prem, before anything else). */
  cloudOnly?: boolean;
  /** The route's own steps at the authentication stage: budgets, origin checks, its credential's proof. */
  checks?: RequestHandler[];
  /** Which personal-API-key scope may call it; `never` refuses keys (401). Derived when absent. */
  apiKey?: ApiKeyScope | 'never';
}

/** No credential at all: public files, the health check, the document. */
export const PUBLIC: Access = { credential: 'none' };

/** An access-token route about a project (`{id}`) of the caller's organization. */
export function project(role: Role, more: Omit<Access, 'credential' | 'scope' | 'role'> = {}): Access {
  return { credential: 'access_token', scope: 'project', role, ...more };
}

/** An access-token route about the organization named by `{orgID}`, which must be the caller's. */
export function org(role: Role, more: Omit<Access, 'credential' | 'scope' | 'role'> = {}): Access {
  return { credential: 'access_token', scope: 'org', role, ...more };
}

/** An access-token route about the caller's organization as a whole. */
export function member(role?: Role, more: Omit<Access, 'credential' | 'scope' | 'role'> = {}): Access {
  return { credential: 'access_token', scope: 'member', ...(role ? { role } : {}), ...more };
}

/** An access-token route about the caller's own account (profile, sessions, password, keys): never a key. */
export function self(more: Omit<Access, 'credential' | 'scope' | 'role' | 'apiKey'> = {}): Access {
  return { credential: 'access_token', scope: 'self', apiKey: 'never', ...more };
}

/** A route proven by something other than an access token; `checks` do the proving. */
export function other(credential: Exclude<Credential, 'access_token'>, checks: RequestHandler[], more: Omit<Access, 'credential' | 'checks'> = {}): Access {
  return { credential, checks, ...more };
}

/** Whether the declaration says the operation changes data. */
export function mutatesData(method: string, access: Access): boolean {
  return access.mutates ?? method !== 'get';
}

/**
 * The personal-API-key scope a route accepts: none but on access-token routes about projects or
 * organizations; `admin` where the role needed is admin or owner, `write` for other changes,
 * `read` for the rest.
 */
export function apiKeyScopeOf(method: string, access: Access): ApiKeyScope | 'never' {
  if (access.apiKey) return access.apiKey;
  if (access.credential !== 'access_token' || access.scope === 'self') return 'never';
  if (access.role === 'admin' || access.role === 'owner') return 'admin';
  return mutatesData(method, access) ? 'write' : 'read';
}

/** Whether the account-state gate (held trial 403, paused account 402) runs before the operation. */
export function gatedByAccountState(method: string, access: Access): boolean {
  if (!mutatesData(method, access) || access.openWhilePaused) return false;
  if (access.credential === 'release_token') return true;
  return access.credential === 'access_token' && access.scope !== 'self';
}
