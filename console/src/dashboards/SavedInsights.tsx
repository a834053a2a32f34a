// The project's saved insights, latest changed first, optionally of one kind: each with its kind,
// the dashboards showing it and who changed it last. Analysts and above delete them here.

import { useState } from 'preact/hooks';
import { useRoute } from 'preact-iso';
import { useSession } from '../app/session';
import { formatDateTime } from '../ui/format';
import { Empty, ErrorNote, Loading } from '../ui/states';
import { TableHead } from '../ui/TableHead';
import { Table } from '../ui/Table';
import { useAction } from '../ui/useAction';
import { useAsync } from '../ui/useAsync';
import { kindLabel } from '../queries/registry';
import { deleteInsight, listInsights, type Insight } from './dashboardsApi';
import { Dialog, DialogActions } from './Dialog';
import { useDashboardRights } from './roles';
import './dashboards.css';

export function SavedInsights() {
  const projectId = Number(useRoute().params.projectId);
  const project = useSession().projects?.find((p) => p.id === projectId);
  const { canEdit } = useDashboardRights();
  const list = useAsync(() => listInsights(projectId).then((r) => r.items), [projectId]);
  const [deleting, setDeleting] = useState<Insight>();
  const action = useAction();
  const base = `/projects/${projectId}`;

  if (!project) return <Empty title="No such project in this organization" />;
  return (
    <section aria-labelledby="saved-title">
      <div class="page-header">
        <h1 id="saved-title">Saved insights</h1>
        <span class="muted">{project.name}</span>
      </div>
      <ErrorNote error={list.error} />
      {list.loading && !list.data ? (
        <Loading label="Loading the saved insights…" />
      ) : list.data && list.data.length === 0 ? (
        <Empty title="No saved insights yet">Open any insight, set it up and choose “Save / Add to dashboard”: it is kept here with its query, for you and the rest of the team.</Empty>
      ) : (
        list.data && (
          <Table label="Saved insights" testId="saved-insights">
            <TableHead columns={['Name', 'Kind', 'On dashboards', 'Changed by', 'Changed']} actions={canEdit} />
            <tbody>
              {list.data.map((i) => (
                <tr data-insight-id={i.id}>
                  <th scope="row">
                    <a href={`${base}/insights/saved/${i.id}`}>{i.name}</a>
                  </th>
                  <td>{kindLabel(i.kind)}</td>
                  <td>
                    {i.dashboards.length === 0
                      ? '—'
                      : i.dashboards.map((d, n) => (
                          <>
                            {n > 0 && ', '}
                            <a href={`${base}/dashboards/${d.id}`}>{d.name}</a>
                          </>
                        ))}
                  </td>
                  <td>{i.updated_by?.name ?? i.updated_by?.email ?? '—'}</td>
                  <td>{formatDateTime(i.updated_at)}</td>
                  {canEdit && (
                    <td class="actions">
                      <button type="button" class="button danger small" aria-label={`Delete ${i.name}`} onClick={() => (action.clear(), setDeleting(i))}>
                        Delete
                      </button>
                    </td>
                  )}
                </tr>
              ))}
            </tbody>
          </Table>
        )
      )}
      {deleting && (
        <Dialog title={`Delete the insight ${deleting.name}?`} testId="delete-insight-dialog" onClose={() => setDeleting(undefined)}>
          <p>{deleting.dashboards.length > 0 ? `Its tiles leave ${deleting.dashboards.map((d) => d.name).join(', ')}, and its` : 'Its'} share links stop working.</p>
          <ErrorNote error={action.error} />
          <DialogActions>
            <button
              type="button"
              class="button danger"
              disabled={action.busy}
              onClick={() => void action.run(async () => (await deleteInsight(projectId, deleting.id), setDeleting(undefined), list.reload()))}
            >
              Delete the insight
            </button>
          </DialogActions>
        </Dialog>
      )}
    </section>
  );
}
