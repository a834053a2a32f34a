// One form's report: its attempts, how many were submitted or abandoned and how long people
// hesitated before the first field; the fields ranked by drop-off (where abandoned attempts last
// had focus) as bars, and every figure of each field in a table; more fields page in.

import { api, ok, type Schemas } from '../api/client';
import { formatNumber, formatPercent } from '../ui/format';
import { TableHead } from '../ui/TableHead';
import { Table } from '../ui/Table';
import { Empty } from '../ui/states';
import { Tile } from '../queries/Tile';
import { LoadMore, ReportControls, ReportFrame, useReport, usePaged } from './report';
import { HorizontalBars } from './HorizontalBars';
import { formatMs } from './format';

type Field = Schemas['FormField'];

export function FormDetail() {
  const ctx = useReport();
  const { projectId, query, url } = ctx;
  const form = url.get('form');
  const page = url.get('url');
  const paged = usePaged(
    (cursor?: string) =>
      form
        ? ok(api.GET('/api/v1/projects/{id}/forms/detail', { params: { path: { id: projectId }, query: { form, ...(page ? { url: page } : {}), ...query, ...(cursor ? { cursor } : {}) } } }))
        : Promise.reject(new Error('Choose a form from the forms list.')),
    [projectId, form, page, JSON.stringify(query)],
  );
  const back = <a href={ctx.linkTo('/behavior/forms', {})}>← All forms</a>;
  return (
    <ReportFrame title="Form report" titleId="form-report-title" subtitle={<p class="result-meta">{back}</p>} ctx={ctx} controls={<ReportControls ctx={ctx} />} paged={paged}>
      {(d) => (
        <>
          <p class="page-url" data-testid="form-name">
            <code class="selector">{d.form}</code> on {d.url ?? 'every page'}
          </p>
          <p class="notice" role="note" data-testid="no-values-note">
            No entered value is ever collected: the tracker records which field had focus, for how long, whether it changed, how many deletions were typed and whether it was empty at the submit, never
            what it holds.
          </p>
          {d.attempts === 0 ? (
            <Empty title={`No attempt at this form from ${d.date_from} to ${d.date_to}`}>Widen the dates or loosen the filters.</Empty>
          ) : (
            <>
              <div class="tiles" data-testid="form-figures">
                <Tile label="Attempts" value={formatNumber(d.attempts)} name="attempts" />
                <Tile label="Submitted" value={formatNumber(d.submitted)} name="submitted" />
                <Tile label="Abandoned" value={formatNumber(d.abandoned)} name="abandoned" />
                <Tile label="Median hesitation" value={formatMs(d.median_hesitation_ms)} name="median_hesitation_ms" />
              </div>
              <p class="result-meta">Hesitation is the time from the page load to the first focus in the form.</p>
              <h2>Where it is left</h2>
              {d.abandoned === 0 ? (
                <p class="muted">No attempt was abandoned in the range.</p>
              ) : (
                <HorizontalBars
                  testId="field-funnel"
                  color="#b42318"
                  title={`Drop-offs of ${formatNumber(d.abandoned)} abandoned attempts by the field that last had focus: ${paged.items.map((f) => `${f.field} ${f.drop_offs}`).join(', ')}`}
                  max={Math.max(1, ...paged.items.map((f) => f.drop_offs))}
                  bars={paged.items.map((f) => ({ label: f.field, value: f.drop_offs, text: `${formatNumber(f.drop_offs)} (${formatPercent(f.drop_off_rate)} of abandons)` }))}
                />
              )}
              <h2>Fields</h2>
              <FieldsTable fields={paged.items} />
              <LoadMore paged={paged} what="fields" />
            </>
          )}
        </>
      )}
    </ReportFrame>
  );
}

function FieldsTable({ fields }: { fields: Field[] }) {
  if (fields.length === 0) return <p class="muted">The attempts name no field.</p>;
  return (
    <Table label="Fields" testId="form-fields">
      <TableHead columns={['Field', 'Tag', 'Type', 'Drop-offs', 'Drop-off rate', 'Interactions', 'Median time in it', 'Median time to change', 'Refocuses', 'Corrections', 'Left blank']} />
      <tbody>
        {fields.map((f) => (
          <tr>
            <th scope="row" class="selector-cell">
              <code class="selector">{f.field}</code>
            </th>
            <td>{f.tag ?? '—'}</td>
            <td>{f.type ?? '—'}</td>
            <td>{formatNumber(f.drop_offs)}</td>
            <td>{formatPercent(f.drop_off_rate)}</td>
            <td>{formatNumber(f.interactions)}</td>
            <td>{formatMs(f.median_time_ms)}</td>
            <td>{formatMs(f.median_to_change_ms)}</td>
            <td>{formatNumber(f.refocuses)}</td>
            <td>{formatNumber(f.corrections)}</td>
            <td>{formatNumber(f.left_blank)}</td>
          </tr>
        ))}
      </tbody>
    </Table>
  );
}
