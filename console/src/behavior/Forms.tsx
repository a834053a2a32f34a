// Behavior → Forms: every form (its selector on a page) in the API's order, most starts first,
// with views, starts, submits, conversion, abandonment and time to submit; each opens its fields.
// Each rate shares a cell with its count, as on the pages list, so the table fits a 1280 px window.
// Deleting the project's form data lives in the project settings, which admins are pointed to.

import { api, ok, type Schemas } from '../api/client';
import { useSession } from '../app/session';
import { formatNumber } from '../ui/format';
import { TableHead } from '../ui/TableHead';
import { Table } from '../ui/Table';
import { Empty } from '../ui/states';
import { LoadMore, ReportControls, ReportFrame, useReport, usePaged } from './report';
import { formatMs } from './format';
import { countWithRate } from './Pages';

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
      Starts, submits and abandons count each visit (a session, or a person without one) once a day; starts are shown as a share of views, submits and abandons of starts. Forms report which field had
      focus and for how long, never what was typed.
      {isAdmin && (
        <>
          {' '}
          Deleting all form data is in the <a href={`/projects/${projectId}/settings`}>project settings</a>.
        </>
      )}
    </p>
  );
  return (
    <ReportFrame title="Forms" titleId="behavior-forms-title" subtitle={note} ctx={ctx} controls={<ReportControls ctx={ctx} />} paged={paged}>
      {(first) =>
        paged.items.length === 0 ? (
          <Empty title={`No form was started from ${first.date_from} to ${first.date_to}`}>Widen the dates or loosen the filters. Forms are collected when the project's settings turn them on.</Empty>
        ) : (
          <>
            <Table label="Forms" class="forms-table" testId="behavior-forms">
              <TableHead columns={['Form', 'Page', 'Views', 'Starts', 'Submits', 'Abandons', 'Resubmissions', 'People who started', 'People who submitted', 'Median time to submit']} />
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
                    <td>{countWithRate(f.starts, f.start_rate)}</td>
                    <td>{countWithRate(f.submits, f.conversion_rate)}</td>
                    <td>{countWithRate(f.abandons, f.abandonment_rate)}</td>
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
  );
}
