// One page's behavior report: its headline figures, how far it is read (scroll reach), where it is
// clicked (the heatmap of a viewport-width band, by default the band with the most clicks) and the
// clicked elements ranked, each with where inside it the clicks landed; more elements page in.

import { api, ok, type Schemas } from '../api/client';
import { formatNumber, formatPercent } from '../ui/format';
import { TableHead } from '../ui/TableHead';
import { Table } from '../ui/Table';
import { Empty } from '../ui/states';
import { Tile } from '../queries/Tile';
import { ChoiceControl } from '../queries/controls/Controls';
import { LoadMore, ReportControls, ReportFrame, useReport, usePaged, type ReportContext } from './report';
import { countWithRate, depthText } from './Pages';
import { HorizontalBars } from './HorizontalBars';
import { ClickHeatmap } from './ClickHeatmap';
import { ElementCells } from './ElementCells';
import { clicksText } from './density';
import { recordingsHref, WatchLink } from '../replay/WatchLink';

type Report = Schemas['BehaviorPage'];
type Band = Schemas['HeatmapBand'];
type Element = Schemas['ClickedElement'];

const REACH = [25, 50, 75, 100] as const;

export function PageReport() {
  const ctx = useReport();
  const { projectId, query, url } = ctx;
  const page = url.get('url');
  const paged = usePaged(
    (cursor?: string) =>
      page
        ? ok(api.GET('/api/v1/projects/{id}/pages/behavior', { params: { path: { id: projectId }, query: { url: page, ...query, ...(cursor ? { cursor } : {}) } } }))
        : Promise.reject(new Error('Choose a page from the pages list.')),
    [projectId, page, JSON.stringify(query)],
  );
  const back = <a href={ctx.linkTo('/behavior/pages', {})}>← All pages</a>;
  return (
    <ReportFrame title="Page report" titleId="page-report-title" subtitle={<p class="result-meta">{back}</p>} ctx={ctx} controls={<ReportControls ctx={ctx} />} paged={paged}>
      {(r) => (
        <>
          <p class="page-url" data-testid="page-url">
            {r.url}
          </p>
          {r.summary.events === 0 ? (
            <Empty title={`No events on this page from ${r.date_from} to ${r.date_to}`}>Widen the dates or loosen the filters.</Empty>
          ) : (
            <>
              <Figures report={r} />
              {r.summary.rage_clicks > 0 && (
                <p class="result-meta">
                  <WatchLink
                    href={recordingsHref(projectId, { url: r.url, rage_clicks: 'true' })}
                    label="Watch recordings with rage clicks on this page"
                    text="Watch recordings with rage clicks on this page"
                  />
                </p>
              )}
              <ScrollReach scroll={r.summary.scroll} />
              <Heatmap report={r} ctx={ctx} />
              <Elements report={r} items={paged.items} />
              <LoadMore paged={paged} what="elements" />
            </>
          )}
        </>
      )}
    </ReportFrame>
  );
}

function Figures({ report }: { report: Report }) {
  const s = report.summary;
  return (
    <div class="tiles" data-testid="page-figures">
      <Tile label="Page views" value={formatNumber(s.page_views)} name="page_views" />
      <Tile label="Clicks" value={formatNumber(s.clicks)} name="clicks" />
      <Tile label="People who clicked" value={formatNumber(s.unique_clickers)} name="unique_clickers" />
      <Tile label="Rage clicks" value={countWithRate(s.rage_clicks, s.rage_click_rate)} name="rage_clicks" />
      <Tile label="Dead clicks" value={countWithRate(s.dead_clicks, s.dead_click_rate)} name="dead_clicks" />
      <Tile label="Mean scroll depth" value={depthText(s.scroll.mean_depth)} name="mean_depth" />
    </div>
  );
}

function ScrollReach({ scroll }: { scroll: Report['summary']['scroll'] }) {
  return (
    <>
      <h2>How far it is read</h2>
      {scroll.measured === 0 ? (
        <p class="muted">No scroll depth was measured on this page in the range.</p>
      ) : (
        <>
          <p class="result-meta">Share of the {formatNumber(scroll.measured)} measured page views that got at least this far down.</p>
          <HorizontalBars
            testId="scroll-reach"
            title={`Scroll reach of ${formatNumber(scroll.measured)} page views: ${REACH.map((p) => `${p}% down ${formatPercent(scroll[`reach_${p}`])}`).join(', ')}`}
            max={1}
            bars={REACH.map((p) => ({ label: `${p}% of the page`, value: scroll[`reach_${p}`] ?? 0, text: formatPercent(scroll[`reach_${p}`]) }))}
          />
        </>
      )}
    </>
  );
}

const bandText = (b: Band) => `${b.band} (${b.max_width === null ? `${b.min_width} px and wider` : `${b.min_width}–${b.max_width} px`})`;

function Heatmap({ report, ctx }: { report: Report; ctx: ReportContext }) {
  const { bands, unplaced } = report.heatmap;
  // The band with the most clicks unless the URL names one; the first such band on a tie.
  const busiest = bands.reduce<Band | undefined>((a, b) => (!a || b.clicks > a.clicks ? b : a), undefined);
  const band = bands.find((b) => b.band === ctx.url.get('band')) ?? busiest;
  const total = bands.reduce((s, b) => s + b.clicks, 0);
  return (
    <>
      <h2>Where it is clicked</h2>
      {!band || total === 0 ? (
        <p class="muted">No click on this page carries a position{unplaced > 0 ? ` (${clicksText(unplaced)} from trackers older than 0.6.5 cannot be placed)` : ''}.</p>
      ) : (
        <>
          <div class="band-control">
            <ChoiceControl label="Window width" value={band.band} choices={bands.map((b) => [b.band, `${bandText(b)} · ${clicksText(b.clicks)}`] as const)} onValue={(v) => ctx.url.set({ band: v })} />
          </div>
          <ul class="heatmap-notes" data-testid="heatmap-notes">
            <li>
              {clicksText(band.clicks)} in windows {band.max_width === null ? `${band.min_width} px wide and wider` : `${band.min_width}–${band.max_width} px wide`}, {formatNumber(band.cells.length)}{' '}
              {band.cells.length === 1 ? 'cell' : 'cells'} of {report.heatmap.x_step_percent}% of the width by {report.heatmap.y_step_px} px.
            </li>
            {band.fixed_clicks > 0 && (
              <li data-testid="heatmap-fixed">{clicksText(band.fixed_clicks)} on fixed or sticky elements, which move with the window, are not drawn; the elements table counts them.</li>
            )}
            {band.truncated && <li>Only the {formatNumber(band.cells.length)} busiest cells are drawn.</li>}
            {unplaced > 0 && <li data-testid="heatmap-unplaced">{clicksText(unplaced)} from trackers older than 0.6.5 carry no window width and are not drawn in any band.</li>}
          </ul>
          <ClickHeatmap
            cells={band.cells}
            band={band.band}
            xStep={report.heatmap.x_step_percent}
            yStep={report.heatmap.y_step_px}
            title={`Click heatmap of ${report.url} in ${band.band} windows: ${clicksText(band.clicks - band.fixed_clicks)} in ${formatNumber(band.cells.length)} cells`}
          />
        </>
      )}
    </>
  );
}

function Elements({ report, items }: { report: Report; items: Element[] }) {
  return (
    <>
      <h2>Clicked elements</h2>
      {items.length === 0 ? (
        <p class="muted">No element on this page was clicked in the range.</p>
      ) : (
        <>
          {report.privacy_mode === 'strict' && <p class="result-meta">The project's privacy mode is strict: element texts are not collected.</p>}
          <Table label="Clicked elements" testId="page-elements">
            <TableHead columns={['Element', 'Text', 'Clicks', 'Rage clicks', 'Dead clicks', 'Where in it']} />
            <tbody>
              {items.map((e) => (
                <tr>
                  <th scope="row" class="selector-cell">
                    <code class="selector">{e.selector}</code>
                  </th>
                  <td>{e.text ?? '—'}</td>
                  <td>{formatNumber(e.clicks)}</td>
                  <td>{formatNumber(e.rage_clicks)}</td>
                  <td>{formatNumber(e.dead_clicks)}</td>
                  <td>
                    <ElementCells cells={e.cells} element={e.selector} />
                  </td>
                </tr>
              ))}
            </tbody>
          </Table>
        </>
      )}
    </>
  );
}
