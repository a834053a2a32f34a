// A funnel's answer as its page and a dashboard tile show it.

import type { ComponentChildren } from 'preact';
import { FunnelChart } from '../../ui/charts/FunnelChart';
import { formatDuration, formatMoney, formatNumber, formatPercent, valueLabel } from '../../ui/format';
import { TableHead } from '../../ui/TableHead';
import { Table } from '../../ui/Table';
import { useProjectCurrency } from '../insight';
import type { QueryAnswer } from '../queryTypes';

type FunnelQuery = { count_by?: 'actors' | 'totals'; breakdown?: { property: string } };

/** A funnel's answer as the page and a dashboard tile show it: conversion, the steps' table, breakdown and revenue lost. */
export function FunnelAnswer({ query, data: d, links }: { query: FunnelQuery; data: QueryAnswer<'funnel'>; links?: ComponentChildren }) {
  const countBy = query.count_by ?? 'actors';
  const breakdown = query.breakdown?.property;
  const currency = useProjectCurrency();
  return (
    <>
      <p class="result-meta">
        {d.date_from} to {d.date_to} · {countBy === 'actors' ? 'people' : 'attempts'} · {formatPercent(d.steps[d.steps.length - 1]!.conversion_rate)} converted overall
      </p>
      <FunnelChart
        title="Funnel conversion by step"
        steps={d.steps.map((s) => ({ label: s.label, count: s.count, conversion: s.conversion_rate, stepConversion: s.step_conversion_rate, medianSeconds: s.median_seconds_from_previous }))}
        compare={d.compare?.steps.map((s) => ({
          label: s.label,
          count: s.count,
          conversion: s.conversion_rate,
          stepConversion: s.step_conversion_rate,
          medianSeconds: s.median_seconds_from_previous,
        }))}
      />
      {links}
      <Table label="Funnel steps" testId="funnel-table">
        <thead>
          <tr>
            <th scope="col">Step</th>
            <th scope="col">{countBy === 'actors' ? 'People' : 'Attempts'}</th>
            <th scope="col">Of step 1</th>
            <th scope="col">Of previous</th>
            <th scope="col">Median time</th>
            <th scope="col">Mean time</th>
            {d.compare && <th scope="col">Previous period</th>}
          </tr>
        </thead>
        <tbody>
          {d.steps.map((s, i) => (
            <tr>
              <th scope="row">
                {i + 1}. {s.label}
              </th>
              <td data-col="count">{formatNumber(s.count)}</td>
              <td>{formatPercent(s.conversion_rate)}</td>
              <td>{i === 0 ? '—' : formatPercent(s.step_conversion_rate)}</td>
              <td>{s.median_seconds_from_previous === null ? '—' : formatDuration(s.median_seconds_from_previous)}</td>
              <td>{s.mean_seconds_from_previous === null ? '—' : formatDuration(s.mean_seconds_from_previous)}</td>
              {d.compare && <td>{formatNumber(d.compare.steps[i]?.count)}</td>}
            </tr>
          ))}
        </tbody>
      </Table>
      {d.breakdown && d.breakdown.length > 0 && (
        <>
          <h2>By {breakdown}</h2>
          <Table label="Funnel by breakdown" testId="funnel-breakdown">
            <thead>
              <tr>
                <th scope="col">{breakdown}</th>
                {d.steps.map((s, i) => (
                  <th scope="col">
                    {i + 1}. {s.label}
                  </th>
                ))}
                <th scope="col">Converted</th>
              </tr>
            </thead>
            <tbody>
              {d.breakdown.map((b) => (
                <tr>
                  <th scope="row">{valueLabel(b.name)}</th>
                  {b.steps.map((s) => (
                    <td>{formatNumber(s.count)}</td>
                  ))}
                  <td>{formatPercent(b.steps[b.steps.length - 1]?.conversion_rate)}</td>
                </tr>
              ))}
            </tbody>
          </Table>
        </>
      )}
      {d.revenue && (
        <>
          <h2>Revenue lost between steps</h2>
          <p class="result-meta">{formatMoney(d.revenue.revenue_per_converting_actor, currency)} per converting person over the range</p>
          <Table label="Revenue lost between steps" testId="funnel-revenue">
            <TableHead columns={['Transition', 'Dropped', 'Estimated loss per month']} />
            <tbody>
              {d.revenue.transitions.map((tr) => (
                <tr>
                  <th scope="row">
                    {tr.from_step} → {tr.to_step}
                  </th>
                  <td>{formatNumber(tr.dropped)}</td>
                  <td>{formatMoney(tr.estimated_monthly_loss, currency)}</td>
                </tr>
              ))}
            </tbody>
          </Table>
        </>
      )}
    </>
  );
}
