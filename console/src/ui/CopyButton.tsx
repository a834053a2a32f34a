// Copies a value (a key shown once, an invitation link, the tracker snippet) and says so.

import { useState } from 'preact/hooks';

export function CopyButton({ value, label = 'Copy' }: { value: string; label?: string }) {
  const [copied, setCopied] = useState<'yes' | 'no' | undefined>();
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value);
      setCopied('yes');
    } catch {
      setCopied('no');
    }
    setTimeout(() => setCopied(undefined), 2000);
  };
  return (
    <button type="button" class="button secondary small" onClick={copy}>
      {copied === 'yes' ? 'Copied' : copied === 'no' ? 'Select and copy by hand' : label}
      <span class="visually-hidden" aria-live="polite">
        {copied === 'yes' ? 'copied to the clipboard' : ''}
      </span>
    </button>
  );
}
