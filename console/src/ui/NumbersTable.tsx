// The table of a chart's numbers: shown as it is when short, behind a disclosure when long (a year
// of days), so a long table is built only for whoever opens it.

import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';

export const LONG_TABLE = 62;

export function NumbersTable({ collapsed, children }: { collapsed: boolean; children: ComponentChildren }) {
  const [open, setOpen] = useState(false);
  if (!collapsed) return <>{children}</>;
  return (
    <details class="chart-details" onToggle={(e) => setOpen((e.currentTarget as HTMLDetailsElement).open)}>
      <summary>Numbers of the chart</summary>
      {open && children}
    </details>
  );
}
