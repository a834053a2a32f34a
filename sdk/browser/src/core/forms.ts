// Form interaction: pp.form_start on the first focus in a form, then the order of field
// focuses, the time spent in each and how soon and how often it was edited, reported by
// pp.form_submit or, when the page view ends first, pp.form_abandon. A value is only ever
// compared with '' (blank_fields at submit) and never sent; sensitive fields are not seen.
import type { PrivacyMode } from '../shared/types.js';
import type { Capture, Feature } from './capture.js';
import { describe, isExcluded, isField, selectorOf } from './elements.js';
import { on } from './util.js';

const MAX_ORDER = 50;
const MAX_FIELDS = 50;

interface FieldStat {
  field: string;
  tag: string;
  type?: string;
  time_ms: number;
  focus_count: number;
  changed: boolean;
  to_change_ms?: number;
  corrections: number;
  // When the field first had focus; not sent.
  first: number;
}

interface FormState {
  form: HTMLFormElement;
  selector: string;
  started: number;
  since_load_ms?: number;
  order: string[];
  fields: Map<string, FieldStat>;
  focused?: { field: string; since: number };
}

function fieldOf(target: EventTarget | null): Element | null {
  if (!(target instanceof Element) || !isField(target)) return null;
  const type = (target.getAttribute('type') || '').toLowerCase();
  if (['submit', 'button', 'reset', 'image'].includes(type)) return null;
  return target;
}

function fieldKey(el: Element, form: HTMLFormElement, mode: PrivacyMode): string {
  return selectorOf(el, mode, form);
}

const newState = (form: HTMLFormElement, mode: PrivacyMode): FormState => ({
  form,
  selector: selectorOf(form, mode),
  started: Date.now(),
  order: [],
  fields: new Map(),
});

// The capturable fields left empty: an unchecked checkbox, a radio group with nothing
// checked (named by its first radio), a select with no non-empty choice, an empty text.
function blankFields(form: HTMLFormElement, mode: PrivacyMode): string[] {
  const all = Array.from(form.elements) as HTMLInputElement[];
  const groups = new Set<string>();
  const out = new Set<string>();
  for (const el of all) {
    if (out.size >= MAX_FIELDS) break;
    if (!fieldOf(el) || isExcluded(el)) continue;
    let blank: boolean;
    if (el.type === 'radio' && el.name) {
      if (groups.has(el.name)) continue;
      groups.add(el.name);
      blank = !all.some((o) => o.type === 'radio' && o.name === el.name && o.checked);
    } else if (el.type === 'radio' || el.type === 'checkbox') blank = !el.checked;
    else if (el instanceof HTMLSelectElement) blank = el.selectedIndex < 0 || el.value === '';
    else blank = el.value === '';
    if (blank) out.add(fieldKey(el, form, mode));
  }
  return Array.from(out);
}

export function startForms(cap: Capture): Feature {
  let forms = new Map<HTMLFormElement, FormState>();

  const blurCurrent = (st: FormState): void => {
    if (!st.focused) return;
    const stat = st.fields.get(st.focused.field);
    if (stat) stat.time_ms += Date.now() - st.focused.since;
    st.focused = undefined;
  };

  const report = (st: FormState, event: 'pp.form_submit' | 'pp.form_abandon', url?: string): void => {
    blurCurrent(st);
    forms.delete(st.form);
    const fields = Array.from(st.fields.values(), ({ first, ...f }) => f);
    cap.emit(
      event,
      {
        form: st.selector,
        fields,
        focus_order: st.order,
        last_field: st.order[st.order.length - 1],
        duration_ms: Date.now() - st.started,
        since_load_ms: st.since_load_ms,
        blank_fields: event === 'pp.form_submit' ? blankFields(st.form, cap.mode) : undefined,
      },
      describe(st.form, cap.mode) || undefined,
      url,
    );
  };

  on(document, 'focusin', (e: FocusEvent) => {
    const el = fieldOf(e.target);
    const form = el && (el as HTMLInputElement).form;
    if (!el || !form || isExcluded(el) || isExcluded(form)) return;
    const now = Date.now();
    let st = forms.get(form);
    const field = fieldKey(el, form, cap.mode);
    if (!st) {
      st = newState(form, cap.mode);
      st.since_load_ms = cap.sincePageStart();
      forms.set(form, st);
      cap.emit('pp.form_start', { form: st.selector, field, since_load_ms: st.since_load_ms }, describe(form, cap.mode) || undefined);
    }
    blurCurrent(st);
    let stat = st.fields.get(field);
    if (!stat) {
      if (st.fields.size >= MAX_FIELDS) return;
      stat = { field, tag: el.tagName.toLowerCase(), time_ms: 0, focus_count: 0, changed: false, corrections: 0, first: now };
      if (cap.mode === 'standard') stat.type = (el as HTMLInputElement).type;
      st.fields.set(field, stat);
    }
    stat.focus_count++;
    if (st.order.length < MAX_ORDER) st.order.push(field);
    st.focused = { field, since: now };
  });

  on(document, 'focusout', (e: FocusEvent) => {
    const el = fieldOf(e.target);
    const form = el && (el as HTMLInputElement).form;
    const st = form && forms.get(form);
    if (st) blurCurrent(st);
  });

  // Only when and how a field changed is kept; the event's data is never read. A deletion
  // (backspace, delete, cut) counts as a correction.
  const changed = (e: Event): void => {
    const el = fieldOf(e.target);
    const form = el && (el as HTMLInputElement).form;
    const st = form ? forms.get(form) : undefined;
    if (!el || !form || !st) return;
    const stat = st.fields.get(fieldKey(el, form, cap.mode));
    if (!stat) return;
    stat.changed = true;
    stat.to_change_ms ??= Date.now() - stat.first;
    if ((e as InputEvent).inputType?.startsWith('delete')) stat.corrections++;
  };
  on(document, 'input', changed);
  on(document, 'change', changed);

  on(document, 'submit', (e: SubmitEvent) => {
    const form = e.target instanceof HTMLFormElement ? e.target : null;
    if (!form || isExcluded(form)) return;
    report(forms.get(form) || newState(form, cap.mode), 'pp.form_submit');
  });

  return {
    pageEnd: (url) => {
      const open = Array.from(forms.values());
      for (const st of open) report(st, 'pp.form_abandon', url);
      forms = new Map();
    },
  };
}
