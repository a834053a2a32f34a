// The retention grid as its page and a dashboard tile show it.

import { useEffect, useState } from 'preact/hooks';
import { formatDay, formatMoney, formatNumber, formatPercent } from '../../ui/format';
import { useDrawnMark } from '../../ui/charts/drawn';
import { Table } from '../../ui/Table';
import { useProjectCurrency } from '../insight';
import type { QueryAnswer } from '../queryTypes';
import type { RetentionValue as Value } from './codec';

/** Cohorts drawn before the first paint: more than a screen holds. */
const FIRST_ROWS = 16;

function formatRetentionValue(value: number | null, mode: Value, currency: string | undefined): string {
  if (value === null) return '';
  return mode === 'revenue' ? formatMoney(value, currency) : formatPercent(value);
}

/**
 * Shade of a cell, one of ten steps from white to a light accent by its share of the grid's
 * largest value: a class, not an inline style, because a 90-day grid has eight thousand cells.
 * The text stays ink on every step (at least 6:1).
 */
function shade(value: number | null, max: number): string {
  if (value === null || max <= 0) return 'cell';
  return `cell shade-${Math.round(Math.max(0, Math.min(1, value / max)) * 9)}`;
}

type RetentionQuery = { granularity?: 'day' | 'week'; periods?: number; value?: Value };

/** The retention grid (and the previous period's) as the page and a dashboard tile show it; `onCell` opens a cell's people. */
export function RetentionAnswer({ query, data: d, onCell }: { query: RetentionQuery; data: QueryAnswer<'retention'>; onCell?(cell: { cohort: string; period: number }): void }) {
  const granularity = query.granularity ?? 'day';
  const periods = query.periods ?? (granularity === 'day' ? 7 : 4);
  const value = query.value ?? 'actors';
  return (
    <>
      <RetentionGrid result={d} periods={periods} granularity={granularity} value={value} onCell={onCell} testId="retention-grid" />
      {d.compare && (
        <>
          <h2>
            Previous period ({d.compare.date_from} to {d.compare.date_to})
          </h2>
          <RetentionGrid result={d.compare} periods={periods} granularity={granularity} value={value} testId="retention-compare" />
        </>
      )}
    </>
  );
}

function RetentionGrid({
  result,
  periods,
  granularity,
  value,
  onCell,
  testId,
}: {
  result: NonNullable<QueryAnswer<'retention'>['compare']>;
  periods: number;
  granularity: 'day' | 'week';
  value: Value;
  onCell?(cell: { cohort: string; period: number }): void;
  testId: string;
}) {
  // The rows of the first screen first; the rest in the next task, so a 90-day grid appears at once.
  const [rows, setRows] = useState(FIRST_ROWS);
  useEffect(() => {
    setRows(FIRST_ROWS);
    if (result.cohorts.length <= FIRST_ROWS) return;
    const later = setTimeout(() => setRows(result.cohorts.length), 0);
    return () => clearTimeout(later);
  }, [result]);
  useDrawnMark([result]);
  const currency = useProjectCurrency();
  const max = Math.max(0, ...result.cohorts.flatMap((c) => c.values.slice(value === 'actors' ? 1 : 0).map((v) => v ?? 0)));
  return (
    <Table label="Retention grid" class="retention" testId={testId}>
      <thead>
        <tr>
          <th scope="col">Cohort</th>
          <th scope="col">People</th>
          {Array.from({ length: periods + 1 }, (_, p) => (
            <th scope="col">
              {granularity === 'day' ? 'Day' : 'Week'} {p}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {result.cohorts.slice(0, rows).map((c) => (
          <tr>
            <th scope="row" data-cohort={c.cohort}>
              {formatDay(c.cohort)}
            </th>
            <td>{formatNumber(c.size)}</td>
            {c.values.map((v, p) => {
              const text = formatRetentionValue(v, value, currency);
              const title = value === 'actors' && c.counts?.[p] != null ? `${c.counts[p]} of ${c.size}` : undefined;
              return (
                <td class={shade(v, p === 0 && value === 'actors' ? 1 : max)} title={title} data-value={v ?? ''}>
                  {onCell && v !== null && c.size > 0 ? (
                    <button type="button" class="cell-button" onClick={() => onCell({ cohort: c.cohort, period: p })}>
                      {text}
                    </button>
                  ) : (
                    text
                  )}
                </td>
              );
            })}
          </tr>
        ))}
      </tbody>
    </Table>
  );
}
