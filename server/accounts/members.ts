// Changing and removing members. Owners are changed only by owners, nobody becomes owner except by an
// owner, and an organization never loses its last owner. Each check and its write share a transaction.

import type { Services } from '../http/services.js';
import { ConflictError, ForbiddenError, NotFoundError } from '../ground/errors.js';
import { countOwners, getMembership, listMembers, removeMembership, setMembershipRole, type Member } from './organizations.js';
import type { Role } from '../access/roles.js';

export interface Actor {
  userId: number;
  role: Role;
}

const LAST_OWNER = 'an organization needs at least one owner; make someone else owner first';

function target(services: Services, orgId: number, userId: number) {
  const membership = getMembership(services.meta, orgId, userId);
  if (!membership) throw new NotFoundError('member not found');
  return membership;
}

function memberOf(services: Services, orgId: number, userId: number): Member {
  return listMembers(services.meta, orgId).find((m) => m.user_id === userId)!;
}

export function changeMemberRole(services: Services, orgId: number, actor: Actor, userId: number, role: Role): Member {
  const change = services.meta.transaction(() => {
    const current = target(services, orgId, userId);
    if ((current.role === 'owner' || role === 'owner') && actor.role !== 'owner') throw new ForbiddenError('only an owner may change an owner or make someone owner');
    if (current.role === 'owner' && role !== 'owner' && countOwners(services.meta, orgId) <= 1) throw new ConflictError(LAST_OWNER, 'last_owner');
    setMembershipRole(services.meta, orgId, userId, role);
  });
  change();
  return memberOf(services, orgId, userId);
}

/** Removes a member; their next request with any token of this organization is 401. */
export function removeMember(services: Services, orgId: number, actor: Actor, userId: number): void {
  const remove = services.meta.transaction(() => {
    const current = target(services, orgId, userId);
    if (current.role === 'owner' && actor.role !== 'owner') throw new ForbiddenError('only an owner may remove an owner');
    if (current.role === 'owner' && countOwners(services.meta, orgId) <= 1) throw new ConflictError(LAST_OWNER, 'last_owner');
    removeMembership(services.meta, orgId, userId);
  });
  remove();
}
