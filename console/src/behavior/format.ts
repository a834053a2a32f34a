// Durations of the behavior reports, which come in milliseconds: short ones keep their tenths of a
// second (a hesitation of 1.4 s is not 1 s), long ones read like the rest of the console.

import { formatDuration } from '../ui/format';

export function formatMs(ms: number | null | undefined): string {
  if (ms === null || ms === undefined) return '—';
  if (ms < 1000) return `${Math.round(ms)}ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)}s`;
  return formatDuration(ms / 1000);
}
