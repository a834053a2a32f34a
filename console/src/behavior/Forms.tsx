// Behavior → Forms: every form (its selector on a page) in the API's order, most starts first,
// with views, starts, submits, conversion, abandonment and time to submit; each opens its fields.
// Admins and owners also find here the deletion of all the project's form data.

import { api, ok, type Schemas } from '../api/client';
import { useSession } from '../app/session';
import { formatNumber, formatPercent } from '../ui/format';
import { TableHead } from '../ui/TableHead';
import { Table } from '../ui/Table';
import { Empty } from '../ui/states';
import { LoadMore, ReportControls, ReportFrame, useReport, usePaged } from './report';
import { formatMs } from './format';
import { FormPurge } from './FormPurge';

type FormRow = Schemas['FormSummary'];

export function Forms() {
  const ctx = useReport();
  const { projectId, query } = ctx;
  const role = useSession().me?.org.role;
  const isAdmin = role === 'admin' || role === 'owner';
  const paged = usePaged(
    (cursor?: string) => ok(api.GET('/api/v1/projects/{id}/forms', { params: { path: { id: projectId }, query: { ...query, ...(cursor ? { cursor } : {}) } } })),
    [projectId, JSON.stringify(query)],
  );
  const note = (
    <p class="result-meta">
      Starts, submits and abandons count each visit (a session, or a person without one) once a day. Forms report which field had focus and for how long, never what was typed.
    </p>
  );
  return (
    <>
      <ReportFrame title="Forms" titleId="behavior-forms-title" subtitle={note} ctx={ctx} controls={<ReportControls ctx={ctx} />} paged={paged}>
        {(first) =>
          paged.items.length === 0 ? (
            <Empty title={`No form was started from ${first.date_from} to ${first.date_to}`}>Widen the dates or loosen the filters. Forms are collected when the project's settings turn them on.</Empty>
          ) : (
            <>
              <Table label="Forms" testId="behavior-forms">
                <TableHead
                  columns={['Form', 'Page', 'Views', 'Starts', 'Start rate', 'Submits', 'Conversion', 'Abandons', 'Abandonment', 'Resubmissions', 'People who started', 'People who submitted', 'Median time to submit']}
                />
                <tbody>
                  {paged.items.map((f: FormRow) => (
                    <tr>
                      <th scope="row" class="selector-cell">
                        <a href={ctx.linkTo('/behavior/form', { form: f.form, url: f.url })}>
                          <code class="selector">{f.form}</code>
                        </a>
                      </th>
                      <td class="url-cell">{f.url}</td>
                      <td>{formatNumber(f.views)}</td>
                      <td>{formatNumber(f.starts)}</td>
                      <td>{formatPercent(f.start_rate)}</td>
                      <td>{formatNumber(f.submits)}</td>
                      <td>{formatPercent(f.conversion_rate)}</td>
                      <td>{formatNumber(f.abandons)}</td>
                      <td>{formatPercent(f.abandonment_rate)}</td>
                      <td>{formatNumber(f.resubmissions)}</td>
                      <td>{formatNumber(f.starters)}</td>
                      <td>{formatNumber(f.submitters)}</td>
                      <td>{formatMs(f.median_time_to_submit_ms)}</td>
                    </tr>
                  ))}
                </tbody>
              </Table>
              <LoadMore paged={paged} what="forms" />
            </>
          )
        }
      </ReportFrame>
      {isAdmin && ctx.project && <FormPurge projectId={projectId} projectName={ctx.project.name} onPurged={paged.reload} />}
    </>
  );
}
