// What a trial-first signup carries from step to step: the proof of the address (the emailed code
// with the address, or the link's token) and the hints of a domain conflict. The server decides
// everything; these only name the shapes its answers and bodies have.

import { ApiError } from '../../api/client';

export type SignupProof = { email: string; code: string } | { token: string };

/** The masked hints of a 409 `domain_has_org`: the first letter of each, the owner's domain kept. */
export interface DomainHints {
  org_name_masked: string;
  owner_email_masked: string;
}

export function domainConflictOf(error: unknown): DomainHints | undefined {
  return error instanceof ApiError && error.code === 'domain_has_org' ? (error.details as unknown as DomainHints) : undefined;
}

/** The browser's IANA zone: the server only uses it to write the deadline in the email. */
export const browserTimezone = (): string => Intl.DateTimeFormat().resolvedOptions().timeZone;
