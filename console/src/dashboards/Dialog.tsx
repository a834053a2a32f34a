// A modal dialog of the dashboard pages (save an insight, share, rename, remove): opened when
// mounted, closed by Escape, Cancel or the caller; focus returns where it was.

import type { ComponentChildren } from 'preact';
import { useEffect, useId, useRef, useState } from 'preact/hooks';
import { Field, Submit } from '../ui/forms';
import { ErrorNote } from '../ui/states';
import { useAction } from '../ui/useAction';

export function Dialog({ title, testId, onClose, children }: { title: string; testId?: string; onClose(): void; children: ComponentChildren }) {
  const ref = useRef<HTMLDialogElement>(null);
  const id = useId();
  useEffect(() => {
    ref.current?.showModal();
  }, []);
  return (
    <dialog ref={ref} class="dash-dialog" aria-labelledby={id} onClose={onClose} data-testid={testId}>
      <h2 id={id}>{title}</h2>
      {children}
    </dialog>
  );
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
export function RenameDialog({ title, named, onSave, onClose }: { title: string; named: { name: string; description: string | null }; onSave(body: { name: string; description: string | null }): Promise<unknown>; onClose(): void }) {
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

export type ManageDialog = 'rename' | 'share' | 'delete';

/** The buttons of a dashboard's or an insight's header that open its dialogs, as far as the role allows. */
export function ManageButtons({ canEdit, canShare, deleteLabel, onOpen }: { canEdit: boolean; canShare: boolean; deleteLabel: string; onOpen(dialog: ManageDialog): void }) {
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
      {canEdit && (
        <button type="button" class="button danger small" onClick={() => onOpen('delete')}>
          {deleteLabel}
        </button>
      )}
    </>
  );
}
