// Confirm, then act: for what is hard to take back (deleting, revoking, removing, purging) a button
// opens a modal question, and the action runs only from the question's own button. Escape or
// Cancel closes it unchanged; a failed action keeps it open with the error; with `typeToConfirm`
// the action is offered only once that text (a project's name) is typed exactly. When the question
// closes, the focus goes back to the control that opened it.

import type { ComponentChildren } from 'preact';
import { useEffect, useId, useRef, useState } from 'preact/hooks';
import { Field } from './forms';
import { ErrorNote } from './states';
import { useAction } from './useAction';
import './confirm.css';

export interface ConfirmProps {
  /** The question, the dialog's heading: "Revoke Marketing site?". */
  title: string;
  /** The button that acts: "Revoke the key". */
  confirmLabel: string;
  /** The action looks dangerous (red) unless false. */
  danger?: boolean;
  /** Text to type, exactly, before the action is offered. */
  typeToConfirm?: string;
  testId?: string;
  /** The action; the dialog closes once it succeeds and stays open with its error when it fails. */
  onConfirm(): Promise<unknown>;
  /** What the action does, said in the dialog. */
  children?: ComponentChildren;
}

/** The question itself, open while mounted; `onClose` when it closes, acted or not. */
export function ConfirmDialog({ title, confirmLabel, danger = true, typeToConfirm, testId, onConfirm, onClose, children }: ConfirmProps & { onClose(): void }) {
  const ref = useRef<HTMLDialogElement>(null);
  const id = useId();
  const [typed, setTyped] = useState('');
  const { busy, error, run } = useAction();
  useEffect(() => {
    const opener = document.activeElement;
    ref.current?.showModal();
    return () => returnFocus(opener);
  }, []);
  const ready = typeToConfirm === undefined || typed === typeToConfirm;
  const confirm = (e: Event) => {
    e.preventDefault();
    if (!ready || busy) return;
    void run(async () => {
      await onConfirm();
      ref.current?.close();
    });
  };
  return (
    <dialog ref={ref} class="confirm-dialog" aria-labelledby={id} onClose={onClose} data-testid={testId}>
      <form onSubmit={confirm} noValidate>
        <h2 id={id}>{title}</h2>
        {children}
        {typeToConfirm !== undefined && <Field label={`Type the project name (${typeToConfirm}) to confirm`} value={typed} onValue={setTyped} autoFocus />}
        <ErrorNote error={error} />
        <div class="confirm-actions">
          <button type="button" class="button secondary" onClick={() => ref.current?.close()}>
            Cancel
          </button>
          <button type="submit" class={`button ${danger ? 'danger' : 'primary'}`} disabled={!ready || busy} aria-busy={busy ? true : undefined}>
            {busy ? 'Working…' : confirmLabel}
          </button>
        </div>
      </form>
    </dialog>
  );
}

/**
 * A question closed by its caller's unmounting takes the focus with it, leaving it on the body; once
 * it has left the page, the focus goes back to the control that opened it, if that is still there.
 */
function returnFocus(opener: Element | null): void {
  queueMicrotask(() => {
    const lost = document.activeElement === null || document.activeElement === document.body;
    if (lost && opener instanceof HTMLElement && opener.isConnected) opener.focus();
  });
}

/** A button that asks `title` before it acts. */
export function ConfirmButton({
  label,
  ariaLabel,
  class: className = 'button secondary small',
  disabled,
  ...question
}: ConfirmProps & {
  /** The button's text. */
  label: ComponentChildren;
  /** Its accessible name where the text alone is ambiguous (one Revoke per row). */
  ariaLabel?: string;
  class?: string;
  disabled?: boolean;
}) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" class={className} aria-label={ariaLabel} disabled={disabled} onClick={() => setOpen(true)}>
        {label}
      </button>
      {open && <ConfirmDialog {...question} onClose={() => setOpen(false)} />}
    </>
  );
}
