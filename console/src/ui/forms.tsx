// Form pieces: a labelled field (the label is the accessible name; a field error is announced and
// tied to the input), and a submit button that shows it is working.

import type { ComponentChildren } from 'preact';
import { useId } from 'preact/hooks';

type InputProps = {
  type?: 'text' | 'email' | 'password' | 'date' | 'number' | 'search' | 'url' | 'tel';
  autocomplete?: string;
  inputMode?: 'text' | 'numeric' | 'email' | 'tel';
  required?: boolean;
  autoFocus?: boolean;
  placeholder?: string;
  label: string;
  value: string;
  onValue(value: string): void;
  hint?: string;
  problem?: string;
};

export function Field({ label, value, onValue, hint, problem, ...input }: InputProps) {
  const id = useId();
  const describedBy = [hint ? `${id}-hint` : '', problem ? `${id}-problem` : ''].filter(Boolean).join(' ') || undefined;
  return (
    <div class="field">
      <label for={id}>{label}</label>
      <input
        id={id}
        // Preact's input types are a union keyed by `type`; a variable type satisfies none of its members alone.
        type={(input.type ?? 'text') as 'text'}
        autocomplete={input.autocomplete}
        inputMode={input.inputMode}
        required={input.required}
        autoFocus={input.autoFocus}
        placeholder={input.placeholder}
        value={value}
        aria-invalid={problem ? true : undefined}
        aria-describedby={describedBy}
        onInput={(e) => onValue((e.currentTarget as HTMLInputElement).value)}
      />
      {hint && (
        <div class="hint" id={`${id}-hint`}>
          {hint}
        </div>
      )}
      {problem && (
        <div class="problem" id={`${id}-problem`}>
          {problem}
        </div>
      )}
    </div>
  );
}

type SelectProps = { label: string; value: string; onValue(value: string): void; children: ComponentChildren; hint?: string };

export function Select({ label, value, onValue, children, hint }: SelectProps) {
  const id = useId();
  return (
    <div class="field">
      <label for={id}>{label}</label>
      <select id={id} value={value} onChange={(e) => onValue((e.currentTarget as HTMLSelectElement).value)}>
        {children}
      </select>
      {hint && <div class="hint">{hint}</div>}
    </div>
  );
}

export function Submit({ busy, children, variant = 'primary' }: { busy?: boolean; children: ComponentChildren; variant?: 'primary' | 'secondary' | 'danger' }) {
  return (
    <button type="submit" class={`button ${variant}`} disabled={busy} aria-busy={busy ? true : undefined}>
      {busy ? 'Working…' : children}
    </button>
  );
}

/** The message of a 422 that names a field, for that field; other errors go to the form's ErrorNote. */
export function fieldProblem(error: unknown, field: string): string | undefined {
  const e = error as { code?: string; details?: { field?: string }; message?: string } | undefined;
  return e?.code === 'validation_failed' && e.details?.field === field ? e.message : undefined;
}

/** The entry of a six-digit code sent by email or text message; a 422 on `code` shows beside it. */
export function CodeField({ value, onValue, error }: { value: string; onValue: (value: string) => void; error: unknown }) {
  return <Field label="Six-digit code" inputMode="numeric" autocomplete="one-time-code" required autoFocus value={value} onValue={onValue} problem={fieldProblem(error, 'code')} />;
}
