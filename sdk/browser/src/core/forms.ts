// Form interaction: pp.form_start on the first focus in a form, then the order of field
// focuses and the time spent in each, reported by pp.form_submit or, when the page view
// ends first, pp.form_abandon. No value is ever read; sensitive fields are not seen.
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
}

interface FormState {
  form: HTMLFormElement;
  selector: string;
  started: number;
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
    const fields = Array.from(st.fields.values());
    cap.emit(
      event,
      {
        form: st.selector,
        fields,
        focus_order: st.order,
        last_field: st.order[st.order.length - 1],
        duration_ms: Date.now() - st.started,
      },
      describe(st.form, cap.mode) || undefined,
      url,
    );
  };

  on(document, 'focusin', (e: FocusEvent) => {
    const el = fieldOf(e.target);
    const form = el && (el as HTMLInputElement).form;
    if (!el || !form || isExcluded(el) || isExcluded(form)) return;
    let st = forms.get(form);
    const field = fieldKey(el, form, cap.mode);
    if (!st) {
      st = { form, selector: selectorOf(form, cap.mode), started: Date.now(), order: [], fields: new Map() };
      forms.set(form, st);
      cap.emit('pp.form_start', { form: st.selector, field }, describe(form, cap.mode) || undefined);
    }
    blurCurrent(st);
    let stat = st.fields.get(field);
    if (!stat) {
      if (st.fields.size >= MAX_FIELDS) return;
      stat = { field, tag: el.tagName.toLowerCase(), time_ms: 0, focus_count: 0, changed: false };
      if (cap.mode === 'standard') stat.type = (el as HTMLInputElement).type;
      st.fields.set(field, stat);
    }
    stat.focus_count++;
    if (st.order.length < MAX_ORDER) st.order.push(field);
    st.focused = { field, since: Date.now() };
  });

  on(document, 'focusout', (e: FocusEvent) => {
    const el = fieldOf(e.target);
    const form = el && (el as HTMLInputElement).form;
    const st = form && forms.get(form);
    if (st) blurCurrent(st);
  });

  // Only the fact that a field changed is kept; the event's value is never read.
  const changed = (e: Event): void => {
    const el = fieldOf(e.target);
    const form = el && (el as HTMLInputElement).form;
    const st = form ? forms.get(form) : undefined;
    if (!el || !form || !st) return;
    const stat = st.fields.get(fieldKey(el, form, cap.mode));
    if (stat) stat.changed = true;
  };
  on(document, 'input', changed);
  on(document, 'change', changed);

  on(document, 'submit', (e: SubmitEvent) => {
    const form = e.target instanceof HTMLFormElement ? e.target : null;
    if (!form || isExcluded(form)) return;
    const st = forms.get(form) || {
      form,
      selector: selectorOf(form, cap.mode),
      started: Date.now(),
      order: [],
      fields: new Map(),
    };
    report(st, 'pp.form_submit');
  });

  return {
    pageEnd: (url) => {
      const open = Array.from(forms.values());
      for (const st of open) report(st, 'pp.form_abandon', url);
      forms = new Map();
    },
  };
}
