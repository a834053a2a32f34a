// Who a verified identity signs in as: the account with that email, if it is a member of the
// provider's organization; otherwise, with just-in-time membership on, the account (created without a
// password when there is none) joins with the provider's default role. With it off, nobody new gets in.

import type { Services } from '../../http/services.js';
import { addMembership, getMembership, getOrganization, type OrgMembership } from '../../accounts/organizations.js';
import { findUserByEmail, getUser, insertUser, type User } from '../../accounts/users.js';
import type { OidcProvider } from './oidcProviders.js';
import { OidcRefusal } from './oidcRefusal.js';

export interface OidcIdentity {
  email: string;
  name: string | null;
}

export interface OidcMember {
  user: User;
  org: OrgMembership;
  /** True when this sign-in added the membership (and perhaps the account). */
  joined: boolean;
}

export function memberForIdentity(services: Services, provider: OidcProvider, identity: OidcIdentity): OidcMember {
  const orgId = provider.org_id;
  const resolve = services.meta.transaction((): OidcMember => {
    const existing = findUserByEmail(services.meta, identity.email);
    const membership = existing && getMembership(services.meta, orgId, existing.id);
    const org = getOrganization(services.meta, orgId)!;
    if (existing && membership) return { user: getUser(services.meta, existing.id)!, org: { id: org.id, name: org.name, role: membership.role }, joined: false };
    if (!provider.jit.enabled) {
      throw new OidcRefusal('not_a_member', `${identity.email} is not a member of the organization and just-in-time membership is off`, existing?.id);
    }
    const now = services.clock.now();
    const user = existing ? getUser(services.meta, existing.id)! : insertUser(services.meta, { email: identity.email, passwordHash: null, name: identity.name }, now);
    addMembership(services.meta, orgId, user.id, provider.jit.default_role, now);
    return { user, org: { id: org.id, name: org.name, role: provider.jit.default_role }, joined: true };
  });
  return resolve();
}
