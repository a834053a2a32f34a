// A modal dialog of the dashboard pages (save an insight, share, rename): opened when
// mounted, closed by Escape, Cancel or the caller; focus returns where it was.

import type { ComponentChildren, ComponentProps } from 'preact';
import { useEffect, useId, useRef, useState } from 'preact/hooks';
import { Field, Submit } from '../ui/forms';
import { ConfirmButton } from '../ui/ConfirmButton';
import { ErrorNote } from '../ui/states';
import { useAction } from '../ui/useAction';

/** `selectFirstField`: the first field is focused with its text selected, so typing replaces a proposed value. */
export function Dialog({ title, testId, selectFirstField, onClose, children }: { title: string; testId?: string; selectFirstField?: boolean; onClose(): void; children: ComponentChildren }) {
  const ref = useRef<HTMLDialogElement>(null);
  const id = useId();
  useEffect(() => {
    const opener = document.activeElement;
    ref.current?.showModal();
    if (selectFirstField && ref.current) selectField(ref.current);
    return () => returnFocus(opener);
  }, []);
  return (
    <dialog ref={ref} class="dash-dialog" aria-labelledby={id} onClose={onClose} data-testid={testId}>
      <h2 id={id}>{title}</h2>
      {children}
    </dialog>
  );
}

function selectField(dialog: HTMLDialogElement): void {
  const field = dialog.querySelector('input');
  field?.focus();
  field?.select();
}

/**
 * A dialog its caller unmounts while it is open (after a save) takes the focus with it, leaving it on
 * the body; once the dialog has left the page, the focus goes back to the control that opened it.
 */
function returnFocus(opener: Element | null): void {
  queueMicrotask(() => {
    const lost = document.activeElement === null || document.activeElement === document.body;
    if (lost && opener instanceof HTMLElement && opener.isConnected) opener.focus();
  });
}

/** The dialog's row of buttons: Cancel closes the dialog the button sits in. */
export function DialogActions({ children }: { children: ComponentChildren }) {
  return (
    <div class="dash-dialog-actions">
      <button type="button" class="button secondary" onClick={(e) => (e.currentTarget as HTMLElement).closest('dialog')?.close()}>
        Cancel
      </button>
      {children}
    </div>
  );
}

/** A dashboard's or an insight's name and description; an emptied description is removed. */
export function RenameDialog({
  title,
  named,
  onSave,
  onClose,
}: {
  title: string;
  named: { name: string; description: string | null };
  onSave(body: { name: string; description: string | null }): Promise<unknown>;
  onClose(): void;
}) {
  const [name, setName] = useState(named.name);
  const [description, setDescription] = useState(named.description ?? '');
  const { busy, error, handle } = useAction();
  const submit = handle(async () => {
    await onSave({ name: name.trim(), description: description.trim() || null });
    onClose();
  });
  return (
    <Dialog title={title} onClose={onClose}>
      <form onSubmit={submit}>
        <Field label="Name" value={name} onValue={setName} required />
        <Field label="Description" value={description} onValue={setDescription} />
        <ErrorNote error={error} />
        <DialogActions>
          <Submit busy={busy}>Save</Submit>
        </DialogActions>
      </form>
    </Dialog>
  );
}

export type ManageDialog = 'rename' | 'share';

/**
 * The buttons of a dashboard's or an insight's header, as far as the role allows: those that open
 * its dialogs, and its deletion, which asks first.
 */
export function ManageButtons({
  canEdit,
  canShare,
  onOpen,
  remove,
}: {
  canEdit: boolean;
  canShare: boolean;
  onOpen(dialog: ManageDialog): void;
  remove: Omit<ComponentProps<typeof ConfirmButton>, 'class'>;
}) {
  return (
    <>
      {canEdit && (
        <button type="button" class="button secondary small" onClick={() => onOpen('rename')}>
          Rename
        </button>
      )}
      {canShare && (
        <button type="button" class="button secondary small" onClick={() => onOpen('share')}>
          Share
        </button>
      )}
      {canEdit && <ConfirmButton class="button danger small" {...remove} />}
    </>
  );
}
