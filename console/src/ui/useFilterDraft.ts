// A filter form over the URL's parameters: what is typed waits in a draft, shown in place of the
// URL's value, until the form is applied, which writes the draft into the URL (through `shape`, for
// fields the URL keeps as lists) and empties it.

import { useState } from 'preact/hooks';
import type { UrlState } from './urlState';

export interface FilterDraft {
  draft: Record<string, string>;
  /** The draft's value of a field, else the URL's. */
  value(key: string): string;
  /** A field's draft set to `text`. */
  put(key: string, text: string): void;
  /** An input handler putting the field's value in the draft. */
  onInput(key: string): (e: Event) => void;
  /** The form's submit handler. */
  apply(e: Event): void;
}

export function useFilterDraft(url: UrlState, shape: (draft: Record<string, string>) => Record<string, string | string[]> = (d) => d): FilterDraft {
  const [draft, setDraft] = useState<Record<string, string>>({});
  const put = (key: string, text: string) => setDraft({ ...draft, [key]: text });
  return {
    draft,
    value: (key) => draft[key] ?? url.get(key),
    put,
    onInput: (key) => (e) => put(key, (e.currentTarget as HTMLInputElement).value),
    apply(e) {
      e.preventDefault();
      url.set(shape(draft));
      setDraft({});
    },
  };
}
