// An insight's numbers as CSV, built from the very answer the page or tile draws: the answer is
// flattened into one row per innermost list entry (a funnel step, a series point, a cohort), each
// row carrying the fields of the entries around it, with nested objects as dotted columns and
// lists of numbers as numbered ones. One function for every kind, so a new kind downloads too.

type Row = Record<string, string | number | boolean | null>;
type Json = Record<string, unknown>;

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const isScalar = (v: unknown): v is string | number | boolean | null => v === null || ['string', 'number', 'boolean'].includes(typeof v);

/** Rows of one object: its scalars on every row, one row per entry of each list of objects it holds. */
function flatten(value: Json, prefix: string, base: Row): Row[] {
  const row: Row = { ...base };
  const lists: Array<[string, Json[]]> = [];
  const nested: Array<[string, Json]> = [];
  for (const [key, v] of Object.entries(value)) {
    const name = prefix ? `${prefix}.${key}` : key;
    if (isScalar(v)) row[name] = v;
    else if (Array.isArray(v) && v.every(isScalar)) v.forEach((x, i) => (row[`${name}.${i}`] = x as Row[string]));
    else if (Array.isArray(v)) lists.push([name, v.filter(isObject)]);
    else if (isObject(v)) nested.push([name, v]);
  }
  // Nested objects add their scalars to the row; their lists count as the row's own.
  let rows: Row[] = [row];
  for (const [name, obj] of nested) rows = rows.flatMap((r) => flatten(obj, name, r));
  if (lists.length === 0) return rows;
  return rows.flatMap((r) => lists.flatMap(([name, items]) => items.flatMap((item) => flatten(item, name, lists.length > 1 ? { ...r, table: name } : r))));
}

const cell = (v: Row[string] | undefined): string => {
  if (v === undefined || v === null) return '';
  const text = String(v);
  return /[",\n\r]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
};

/** The CSV text of an answer: a header of every column in first-seen order, then the rows. */
export function answerCsv(data: unknown): string {
  const rows = isObject(data) ? flatten(data, '', {}) : Array.isArray(data) ? data.filter(isObject).flatMap((d) => flatten(d, '', {})) : [];
  const columns: string[] = [];
  const seen = new Set<string>();
  for (const r of rows) for (const k of Object.keys(r)) if (!seen.has(k)) seen.add(k), columns.push(k);
  return [columns.map(cell).join(','), ...rows.map((r) => columns.map((c) => cell(r[c])).join(','))].join('\r\n') + '\r\n';
}

/** A button that saves the answer's numbers as `<name>.csv`. */
export function DownloadCsv({ data, name }: { data: unknown; name: string }) {
  const save = () => {
    const url = URL.createObjectURL(new Blob([answerCsv(data)], { type: 'text/csv;charset=utf-8' }));
    const a = document.createElement('a');
    a.href = url;
    a.download = `${name.replace(/[^\p{L}\p{N}._-]+/gu, '-').slice(0, 80) || 'insight'}.csv`;
    document.body.appendChild(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 1000);
  };
  return (
    <button type="button" class="button secondary small download-csv" onClick={save}>
      Download CSV
    </button>
  );
}
