// The controls insights share: date range with presets, event and property pickers fed by the
// project's catalogs, a filter row (field, operator, value, or a saved segment), and compare.

import { useId, useState } from 'preact/hooks';
import type { ComponentChildren } from 'preact';
import { api, ok, type Schemas } from '../../api/client';
import { useAsync } from '../../ui/useAsync';
import { LAST_MAX, LAST_UNITS, parseRollingRange, rangeDates, type Dates, type LastUnit } from '../../ui/dateRanges';
import { useSession } from '../../app/session';
import { hasFeature } from '../../app/features';
import { ErrorNote } from '../../ui/states';
import { OPS, filtersOf, parseFilter } from '../filters';
import { useAction } from '../../ui/useAction';

export function ControlBar({ children }: { children: ComponentChildren }) {
  return (
    <div class="control-bar" role="group" aria-label="Query">
      {children}
    </div>
  );
}

const PERIODS: Array<[string, string]> = [
  ['today', 'Today'],
  ['yesterday', 'Yesterday'],
  ['this_week', 'This week'],
  ['last_week', 'Last week'],
  ['this_month', 'This month'],
  ['last_month', 'Last month'],
  ['this_quarter', 'This quarter'],
  ['last_quarter', 'Last quarter'],
  ['this_year', 'This year'],
  ['last_year', 'Last year'],
];
const FIXED = 'fixed';
const LAST = 'last';
const SINCE = 'since';

/** The choice of the range list a value shows. */
function rangeChoice(range: string | undefined): string {
  if (!range) return FIXED;
  const rule = parseRollingRange(range);
  if (typeof rule === 'string') return FIXED;
  return rule.kind === 'last' ? LAST : rule.kind === 'since' ? SINCE : range;
}

/**
 * A page's dates: one-click rolling ranges (the last 7, 30, 90 days), a list of every rolling kind
 * (today, last N days/weeks/months, this or last week/month/quarter/year, since a date) and fixed
 * dates. A rolling range is kept as its rule, so a saved view moves with the calendar; `value`'s
 * from/to are its dates today. Typing a date makes the range fixed (or moves a since-date).
 */
export function DateRange({ value, today, onChange }: { value: Dates; today: string; onChange(value: Dates): void }) {
  const id = useId();
  const { from, to, range } = value;
  const choice = rangeChoice(range);
  const rule = range ? parseRollingRange(range) : undefined;
  const last = rule && typeof rule !== 'string' && rule.kind === 'last' ? rule : { count: 30, unit: 'days' as LastUnit };
  const pick = (text: string) => {
    const dates = rangeDates(text, today);
    if (dates) onChange({ ...dates, range: text });
  };
  const choose = (next: string) => {
    if (next === FIXED) onChange({ from, to });
    else if (next === LAST) pick(`last_${last.count}_${last.unit}`);
    else if (next === SINCE) pick(`since_${from <= today ? from : today}`);
    else pick(next);
  };
  const setLast = (count: number, unit: LastUnit) => {
    if (Number.isInteger(count) && count >= 1) pick(`last_${Math.min(count, LAST_MAX[unit])}_${unit}`);
  };
  const typed = (end: 'from' | 'to', day: string) => {
    if (!day) return;
    if (choice === SINCE && end === 'from') pick(`since_${day <= today ? day : today}`);
    else onChange({ from: end === 'from' ? day : from, to: end === 'to' ? day : to });
  };
  return (
    <div class="control">
      <span class="control-label" id={id}>
        Dates
      </span>
      <div class="range" role="group" aria-labelledby={id}>
        {[7, 30, 90].map((days) => {
          const text = `last_${days}_days`;
          return (
            <button type="button" class={`chip${range === text ? ' active' : ''}`} aria-pressed={range === text} onClick={() => pick(text)}>
              {days} days
            </button>
          );
        })}
        <select aria-label="Range" value={choice} onChange={(e) => choose((e.currentTarget as HTMLSelectElement).value)}>
          <option value={FIXED}>Fixed dates</option>
          <option value={LAST}>Last N days, weeks or months</option>
          {PERIODS.map(([text, label]) => (
            <option value={text}>{label}</option>
          ))}
          <option value={SINCE}>Since a date</option>
        </select>
        {choice === LAST && (
          <>
            <input
              type="number"
              class="narrow"
              aria-label="How many"
              min={1}
              max={LAST_MAX[last.unit]}
              value={last.count}
              onChange={(e) => setLast(Number((e.currentTarget as HTMLInputElement).value), last.unit)}
            />
            <select aria-label="Unit" value={last.unit} onChange={(e) => setLast(last.count, (e.currentTarget as HTMLSelectElement).value as LastUnit)}>
              {LAST_UNITS.map((unit) => (
                <option value={unit}>{unit}</option>
              ))}
            </select>
          </>
        )}
        <input
          type="date"
          aria-label={choice === SINCE ? 'Since' : 'From'}
          value={from}
          max={choice === SINCE ? today : to}
          onChange={(e) => typed('from', (e.currentTarget as HTMLInputElement).value)}
        />
        <input type="date" aria-label="To" value={to} min={from} disabled={choice === SINCE} onChange={(e) => typed('to', (e.currentTarget as HTMLInputElement).value)} />
      </div>
    </div>
  );
}

/** The project's event names, most frequent first (the catalog), for every event picker of a page. */
export function useEventNames(projectId: number): string[] {
  const catalog = useAsync(() => ok(api.GET('/api/v1/projects/{id}/catalog/events', { params: { path: { id: projectId } } })), [projectId]);
  return (catalog.data?.items ?? [])
    .slice()
    .sort((a, b) => b.count - a.count)
    .map((e) => e.event);
}

/** A control of the bar with its label; `children` draws the field given the id the label names. */
export function Labelled({ label, children }: { label: string; children(id: string): ComponentChildren }) {
  const id = useId();
  return (
    <div class="control">
      <label class="control-label" for={id}>
        {label}
      </label>
      {children(id)}
    </div>
  );
}

/** A whole number of the bar, taken when the field is left or Enter is pressed. */
/**
 * A number taken when it is committed (Enter or leaving the field). What is typed before is kept as
 * a draft, so an answer drawn meanwhile does not put the old value back under the typing.
 */
export function NumberControl({ label, value, min, max, onValue }: { label: string; value: number; min: number; max?: number; onValue(v: string): void }) {
  const [draft, setDraft] = useState<string | null>(null);
  return (
    <Labelled label={label}>
      {(id) => (
        <input
          id={id}
          type="number"
          class="narrow"
          min={min}
          max={max}
          value={draft ?? value}
          onInput={(e) => setDraft((e.currentTarget as HTMLInputElement).value)}
          onChange={(e) => {
            setDraft(null);
            onValue((e.currentTarget as HTMLInputElement).value);
          }}
        />
      )}
    </Labelled>
  );
}

export function EventPicker({ label, value, names, onValue, allowAny }: { label: string; value: string; names: string[]; onValue(v: string): void; allowAny?: boolean }) {
  const options = names.includes(value) || !value || value === 'any' ? names : [value, ...names];
  return (
    <Labelled label={label}>
      {(id) => (
        <select id={id} value={value} onChange={(e) => onValue((e.currentTarget as HTMLSelectElement).value)}>
          {allowAny && <option value="any">any event</option>}
          {!allowAny && !value && <option value="">choose an event</option>}
          {options.map((n) => (
            <option value={n}>{n}</option>
          ))}
        </select>
      )}
    </Labelled>
  );
}

export function usePropertyKeys(projectId: number): string[] {
  const catalog = useAsync(() => ok(api.GET('/api/v1/projects/{id}/catalog/props', { params: { path: { id: projectId } } })), [projectId]);
  return (catalog.data?.items ?? []).map((p) => `props.${p.key}`);
}

const BUILT_IN_FIELDS = ['url', 'path', 'referrer', 'source', 'sdk_name', 'release'];

/**
 * Where the tracker's clicks landed (docs/tracker.md): what heatmaps place clicks with, not what a
 * person filters or breaks down by, so listed apart at the end rather than among the properties.
 */
const CLICK_GEOMETRY = new Set(['props.x', 'props.y', 'props.vw', 'props.vh', 'props.ox', 'props.oy', 'props.fixed']);

/** The options of a field picker: built-in fields, the project's properties, the click geometry apart. */
function FieldOptions({ keys }: { keys: string[] }) {
  const geometry = keys.filter((k) => CLICK_GEOMETRY.has(k));
  return (
    <>
      {[...BUILT_IN_FIELDS, ...keys.filter((k) => !CLICK_GEOMETRY.has(k))].map((k) => (
        <option value={k}>{k}</option>
      ))}
      {geometry.length > 0 && (
        <optgroup label="Click position (tracker)">
          {geometry.map((k) => (
            <option value={k}>{k}</option>
          ))}
        </optgroup>
      )}
    </>
  );
}

export function PropertyPicker({ label, value, keys, onValue }: { label: string; value: string; keys: string[]; onValue(v: string): void }) {
  return (
    <Labelled label={label}>
      {(id) => (
        <select id={id} value={value} onChange={(e) => onValue((e.currentTarget as HTMLSelectElement).value)}>
          <option value="">none</option>
          <FieldOptions keys={keys} />
        </select>
      )}
    </Labelled>
  );
}

/** A labelled choice of the control bar: `choices` are [value, text] pairs. */
export function ChoiceControl({ label, value, choices, onValue }: { label: string; value: string; choices: ReadonlyArray<readonly [string, string]>; onValue(v: string): void }) {
  return (
    <Labelled label={label}>
      {(id) => (
        <select id={id} value={value} onChange={(e) => onValue((e.currentTarget as HTMLSelectElement).value)}>
          {choices.map(([v, text]) => (
            <option value={v}>{text}</option>
          ))}
        </select>
      )}
    </Labelled>
  );
}

export function CompareToggle({ on, onValue }: { on: boolean; onValue(on: boolean): void }) {
  return (
    <label class="check control">
      <input type="checkbox" checked={on} onChange={(e) => onValue((e.currentTarget as HTMLInputElement).checked)} /> Compare with the previous period
    </label>
  );
}

export { filterText, filtersOf, parseFilter, type FilterItem } from '../filters';

/** How an operator reads in a filter row (the URL and the API keep the short codes). */
const OP_LABELS: Record<Schemas['QueryFilter']['op'], string> = {
  eq: 'is',
  neq: 'is not',
  in: 'is one of',
  not_in: 'is none of',
  contains: 'contains',
  not_contains: 'does not contain',
  starts_with: 'starts with',
  gt: '>',
  gte: '≥',
  lt: '<',
  lte: '≤',
  exists: 'is set',
  not_exists: 'is not set',
};

/**
 * A filter's value, typed freely and taken on change (Enter or leaving the field). What is being
 * typed is the field's own: an answer drawn meanwhile re-renders the row and must not put the
 * value last taken back over it.
 */
/**
 * A filter's value, taken when it is committed (Enter or leaving the field). What is typed before is
 * kept as a draft, so a render meanwhile (the row just added reaching the address, an answer drawn)
 * does not put the old value back under the typing.
 */
function FilterValue({ label, value, onValue }: { label: string; value: string; onValue(v: string): void }) {
  const [draft, setDraft] = useState<string | null>(null);
  return (
    <input
      aria-label={label}
      value={draft ?? value}
      onInput={(e) => setDraft((e.currentTarget as HTMLInputElement).value)}
      onChange={(e) => {
        setDraft(null);
        onValue((e.currentTarget as HTMLInputElement).value);
      }}
    />
  );
}

/** Filter rows, and saved segments where the answer takes them (`segments`, on by default; reports take filters only). */
export function FilterEditor({
  projectId,
  filters,
  keys,
  onChange,
  segments: offerSegments = true,
}: {
  projectId: number;
  filters: string[];
  keys: string[];
  onChange(filters: string[]): void;
  segments?: boolean;
}) {
  const segmentsAllowed = offerSegments && hasFeature(useSession(), 'saved_segments');
  const segments = useAsync(
    () => (segmentsAllowed ? ok(api.GET('/api/v1/projects/{id}/segments', { params: { path: { id: projectId } } })).then((r) => r.items) : Promise.resolve([])),
    [projectId, segmentsAllowed],
  );
  const update = (i: number, text: string) => onChange(filters.map((f, j) => (j === i ? text : f)));
  return (
    <div class="control filters">
      <span class="control-label">Filters</span>
      {filters.map((text, i) => {
        const f = parseFilter(text);
        if (typeof f === 'string' || text.startsWith('segment:')) {
          const name = segments.data?.find((s) => `segment:${s.id}` === text)?.name ?? text;
          return (
            <div class="filter-row">
              <span class="chip active">segment: {name}</span>
              <button type="button" class="link" aria-label={`Remove segment ${name}`} onClick={() => onChange(filters.filter((_, j) => j !== i))}>
                Remove
              </button>
            </div>
          );
        }
        const [field = '', op = 'eq', ...rest] = text.split('|');
        const value = rest.join('|');
        return (
          <div class="filter-row">
            <select aria-label={`Filter ${i + 1} field`} value={field} onChange={(e) => update(i, [(e.currentTarget as HTMLSelectElement).value, op, value].join('|'))}>
              <FieldOptions keys={keys} />
            </select>
            <select aria-label={`Filter ${i + 1} operator`} value={op} onChange={(e) => update(i, [field, (e.currentTarget as HTMLSelectElement).value, value].join('|'))}>
              {OPS.map((o) => (
                <option value={o}>{OP_LABELS[o]}</option>
              ))}
            </select>
            {op !== 'exists' && op !== 'not_exists' && <FilterValue label={`Filter ${i + 1} value`} value={value} onValue={(v) => update(i, [field, op, v].join('|'))} />}
            <button type="button" class="link" aria-label={`Remove filter ${i + 1}`} onClick={() => onChange(filters.filter((_, j) => j !== i))}>
              Remove
            </button>
          </div>
        );
      })}
      <div class="filter-add">
        <button type="button" class="button secondary small" onClick={() => onChange([...filters, 'path|eq|/'])}>
          Add a filter
        </button>
        {segmentsAllowed && filters.some((f) => !f.startsWith('segment:')) && (
          <SaveSegment projectId={projectId} filters={filters} onSaved={(id) => (segments.reload(), onChange([`segment:${id}`]))} />
        )}
        {segmentsAllowed && (segments.data?.length ?? 0) > 0 && (
          <select aria-label="Add a saved segment" value="" onChange={(e) => onChange([...filters, (e.currentTarget as HTMLSelectElement).value])}>
            <option value="">add a saved segment…</option>
            {segments.data!.map((s) => (
              <option value={`segment:${s.id}`}>{s.name}</option>
            ))}
          </select>
        )}
      </div>
    </div>
  );
}

/** Saves the filter rows (not segments) as a named segment of the project, which then replaces them. */
function SaveSegment({ projectId, filters, onSaved }: { projectId: number; filters: string[]; onSaved(id: number): void }) {
  const [name, setName] = useState('');
  const { error, run } = useAction();
  const save = () =>
    run(async () => {
      const rows = filtersOf(filters.filter((f) => !f.startsWith('segment:'))) as Schemas['QueryFilter'][];
      const segment = await ok(api.POST('/api/v1/projects/{id}/segments', { params: { path: { id: projectId } }, body: { name: name.trim(), filters: rows } }));
      setName('');
      onSaved(segment.id);
    });
  return (
    <span class="filter-row">
      <input aria-label="Segment name" placeholder="segment name" value={name} onInput={(e) => setName((e.currentTarget as HTMLInputElement).value)} />
      <button type="button" class="button secondary small" disabled={!name.trim()} onClick={() => void save()}>
        Save as a segment
      </button>
      <ErrorNote error={error} />
    </span>
  );
}
