// The project's dashboards by name, with how many tiles each holds; analysts and above create one
// here (it opens empty, ready for tiles).

import { rangeLabel } from '../ui/dateRanges';
import { useState } from 'preact/hooks';
import { useLocation, useRoute } from 'preact-iso';
import { useSession } from '../app/session';
import { formatDateTime, formatNumber } from '../ui/format';
import { Field, Submit } from '../ui/forms';
import { Empty, ErrorNote, Loading } from '../ui/states';
import { TableHead } from '../ui/TableHead';
import { Table } from '../ui/Table';
import { useAction } from '../ui/useAction';
import { useAsync } from '../ui/useAsync';
import { createDashboard, listDashboards } from './dashboardsApi';
import { useDashboardRights } from './roles';
import './dashboards.css';

export function Dashboards() {
  const projectId = Number(useRoute().params.projectId);
  const project = useSession().projects?.find((p) => p.id === projectId);
  const { canEdit } = useDashboardRights();
  const { route } = useLocation();
  const list = useAsync(() => listDashboards(projectId).then((r) => r.items), [projectId]);
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const { busy, error, handle } = useAction();
  const base = `/projects/${projectId}`;
  const create = handle(async () => {
    const created = await createDashboard(projectId, { name: name.trim(), ...(description.trim() ? { description: description.trim() } : {}) });
    route(`${base}/dashboards/${created.id}`);
  });

  if (!project) return <Empty title="No such project in this organization" />;
  return (
    <section aria-labelledby="dashboards-title">
      <div class="page-header">
        <h1 id="dashboards-title">Dashboards</h1>
        <span class="muted">{project.name}</span>
      </div>
      <ErrorNote error={list.error} />
      {list.loading && !list.data ? (
        <Loading label="Loading the dashboards…" />
      ) : list.data && list.data.length === 0 ? (
        <Empty title="No dashboards yet">
          A dashboard puts saved insights and notes side by side, over one date range if you like.{' '}
          {canEdit ? 'Create one below, or from any insight page with “Save / Add to dashboard”.' : 'Analysts, admins and owners create them.'}
        </Empty>
      ) : (
        list.data && (
          <Table label="Dashboards" testId="dashboards">
            <TableHead columns={['Name', 'Description', 'Tiles', 'Dates', 'Changed']} />
            <tbody>
              {list.data.map((d) => (
                <tr data-dashboard-id={d.id}>
                  <th scope="row">
                    <a href={`${base}/dashboards/${d.id}`}>{d.name}</a>
                  </th>
                  <td>{d.description ?? '—'}</td>
                  <td>{formatNumber(d.tile_count)}</td>
                  <td>{d.date_range ? rangeLabel(d.date_range) : d.date_from ? `${d.date_from} to ${d.date_to}` : 'each tile its own'}</td>
                  <td>{formatDateTime(d.updated_at)}</td>
                </tr>
              ))}
            </tbody>
          </Table>
        )
      )}
      {canEdit && (
        <form class="card form-grid" onSubmit={create} aria-labelledby="new-dashboard-title">
          <h2 id="new-dashboard-title">New dashboard</h2>
          <Field label="Name" value={name} onValue={setName} required />
          <Field label="Description (optional)" value={description} onValue={setDescription} />
          <ErrorNote error={error} />
          <div>
            <Submit busy={busy}>Create the dashboard</Submit>
          </div>
        </form>
      )}
    </section>
  );
}
