// A modal question before an action that is hard to take back (deleting a rule, saving one that
// matches nothing): the action runs only from its button, Escape or Cancel closes it unchanged.

import type { ComponentChildren } from 'preact';
import { useEffect, useRef } from 'preact/hooks';
import { ErrorNote } from '../ui/states';
import { useAction } from '../ui/useAction';

export function ConfirmDialog({
  title,
  confirmLabel,
  danger,
  testId,
  onConfirm,
  onClose,
  children,
}: {
  title: string;
  confirmLabel: string;
  danger?: boolean;
  testId?: string;
  /** The action; the dialog stays open with the error when it fails. */
  onConfirm(): Promise<void>;
  onClose(): void;
  children?: ComponentChildren;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const { busy, error, run } = useAction();
  useEffect(() => {
    ref.current?.showModal();
  }, []);
  const confirm = () =>
    run(async () => {
      await onConfirm();
      ref.current?.close();
    });
  return (
    <dialog ref={ref} class="labeled-dialog" aria-labelledby="confirm-title" onClose={onClose} data-testid={testId}>
      <h2 id="confirm-title">{title}</h2>
      {children}
      <ErrorNote error={error} />
      <div class="labeled-dialog-actions">
        <button type="button" class="button secondary" onClick={() => ref.current?.close()}>
          Cancel
        </button>
        <button type="button" class={`button ${danger ? 'danger' : 'primary'}`} disabled={busy} aria-busy={busy ? true : undefined} onClick={() => void confirm()}>
          {busy ? 'Working…' : confirmLabel}
        </button>
      </div>
    </dialog>
  );
}
