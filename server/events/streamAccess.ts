// Whether a viewer who opened a live stream may still read it. Rights are re-read on every
// request elsewhere; a stream is one long request, so it re-reads them while it runs and ends
// when the session is revoked, the membership removed or the project deleted.

import type { Services } from '../http/services.js';
import type { AuthContext } from '../auth/authenticate.js';
import { getSession } from '../auth/sessions.js';
import { getMembership } from '../accounts/organizations.js';
import { getProject } from '../accounts/projects.js';

export function streamAccess(services: Services, auth: AuthContext, projectId: number): () => boolean {
  return () => {
    const session = getSession(services, auth.sessionId);
    if (!session || session.revoked_at !== null) return false;
    if (!getMembership(services.meta, auth.orgId, auth.userId)) return false;
    return getProject(services.meta, projectId)?.org_id === auth.orgId;
  };
}
