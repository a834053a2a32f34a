// The domain rule of trial-first signup: an address at a company domain where colleagues already use
// pp is steered to them (an invitation request) or to a manual review, instead of a second
// organization. A company is a registrable domain; free mail providers are nobody's, so never match.

import type { Services } from '../../http/services.js';
import { ConflictError } from '../../ground/errors.js';
import { maskEmail, maskName } from '../../ground/masks.js';
import { domainOf, isFreeDomain, isFreeEmail } from './emailDomains.js';
import { registrableDomain } from './registrableDomain.js';

export interface DomainConflict {
  orgId: number;
  orgName: string;
  ownerEmail: string;
}

/**
 * The newest organization that has a member at the address's registrable domain (`mail.acme.test`
 * and `acme.test` are one company), with its first owner; undefined for free providers and for
 * domains nobody uses yet.
 */
export function findDomainConflict(services: Services, email: string): DomainConflict | undefined {
  const company = registrableDomain(domainOf(email));
  if (isFreeEmail(services, email) || isFreeDomain(services, company)) return undefined;
  const orgIds = orgsWithMembersAt(services, company);
  if (orgIds.length === 0) return undefined;
  const row = services.meta
    .prepare(
      `SELECT o.id AS orgId, o.name AS orgName,
              (SELECT ou.email FROM memberships om JOIN users ou ON ou.id = om.user_id
                WHERE om.org_id = o.id AND om.role = 'owner' ORDER BY om.created_at, ou.id LIMIT 1) AS ownerEmail
         FROM organizations o
        WHERE o.id IN (SELECT value FROM json_each(?))
        ORDER BY o.created_at DESC, o.id DESC LIMIT 1`,
    )
    .get(JSON.stringify(orgIds)) as { orgId: number; orgName: string; ownerEmail: string | null } | undefined;
  return row?.ownerEmail ? { orgId: row.orgId, orgName: row.orgName, ownerEmail: row.ownerEmail } : undefined;
}

/**
 * The organizations with a member whose email domain has `company` as its registrable domain. SQL
 * narrows to the domain and its subdomains; the suffix list decides (under `co.uk`, say, a member at
 * `x.acme.co.uk` counts for `acme.co.uk`).
 */
function orgsWithMembersAt(services: Services, company: string): number[] {
  const rows = services.meta
    .prepare(
      `SELECT DISTINCT m.org_id AS orgId, lower(substr(u.email, instr(u.email, '@') + 1)) AS domain
         FROM memberships m JOIN users u ON u.id = m.user_id
        WHERE lower(substr(u.email, instr(u.email, '@') + 1)) = @company
           OR substr(lower(substr(u.email, instr(u.email, '@') + 1)), -@tailLength) = @tail`,
    )
    .all({ company, tailLength: company.length + 1, tail: `.${company}` }) as Array<{ orgId: number; domain: string }>;
  return [...new Set(rows.filter((r) => registrableDomain(r.domain) === company).map((r) => r.orgId))];
}

export class DomainHasOrgError extends ConflictError {
  constructor(conflict: DomainConflict) {
    super('an organization on pp already uses this email domain; ask its owner for an invitation or request a review', 'domain_has_org', {
      org_name_masked: maskName(conflict.orgName),
      owner_email_masked: maskEmail(conflict.ownerEmail),
    });
  }
}
