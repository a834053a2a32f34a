// A secret shown a single time (a key, a token, an invitation link), with what to do about it and
// a copy button.
import type { ComponentChildren } from 'preact';
import { CopyButton } from './CopyButton';

export function ShownOnce({ value, testId, copyLabel, children }: { value: string; testId: string; copyLabel?: string; children: ComponentChildren }) {
  return (
    <div class="issued" role="status">
      {children}
      <div class="secret-row">
        <code data-testid={testId}>{value}</code>
        <CopyButton value={value} label={copyLabel} />
      </div>
    </div>
  );
}
