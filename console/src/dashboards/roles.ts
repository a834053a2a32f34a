// Who may do what with saved insights and dashboards: everyone reads, analysts and above change
// them, admins and owners share them.

import { useSession } from '../app/session';

export function useDashboardRights(): { canEdit: boolean; canShare: boolean } {
  const role = useSession().me?.org.role;
  return { canEdit: role === 'analyst' || role === 'admin' || role === 'owner', canShare: role === 'admin' || role === 'owner' };
}
