// CSV files of any origin, through a column mapping: a column named like one of pp's stored fields
// (the columns pp's own CSV export writes) fills it, `--map column=field` says where any other goes
// (`props.<key>` for a property, `ignore` to leave it out), and every column still unmapped becomes
// a property under its header. Values are text; props and elements columns hold JSON; revenue and
// rule_id are numbers, invalid a boolean, invalid_reasons a JSON list.

import { ValidationError } from '../ground/errors.js';
import { STORED_FIELDS } from '../engine/rows.js';
import { isObject, type ImportRecord, type Json, type StoredRecord } from './importRecord.js';

type Field = (typeof STORED_FIELDS)[number];
const FIELDS: ReadonlySet<string> = new Set(STORED_FIELDS);
/** Common names of other tools for the event time. */
const TIME_ALIASES = new Set(['timestamp', 'time', 'event_time']);
const PROP = 'props.';
const MAX_MAPPINGS = 200;

/** Where each column goes: a field, a property, or nowhere. */
export type Target = { field: Field } | { prop: string } | { ignore: true };

/** Parses `column=field` pairs; a bad one is a 422 naming it. */
export function parseMappings(pairs: readonly string[]): Map<string, Target> {
  if (pairs.length > MAX_MAPPINGS) throw new ValidationError(`at most ${MAX_MAPPINGS} column mappings`, [{ field: 'map', message: `at most ${MAX_MAPPINGS}` }]);
  const out = new Map<string, Target>();
  for (const pair of pairs) {
    const at = pair.lastIndexOf('=');
    const column = at > 0 ? pair.slice(0, at) : '';
    const target = at > 0 ? pair.slice(at + 1) : '';
    const bad = (why: string) => new ValidationError(`invalid column mapping ${JSON.stringify(pair.slice(0, 100))}: ${why}`, [{ field: 'map', message: why }]);
    if (column === '' || target === '') throw bad('write it as column=field');
    if (target === 'ignore') out.set(column, { ignore: true });
    else if (target.startsWith(PROP) && target.length > PROP.length) out.set(column, { prop: target.slice(PROP.length) });
    else if (FIELDS.has(target)) out.set(column, { field: target as Field });
    else throw bad(`${target} is not a field (one of ${STORED_FIELDS.join(', ')}, props.<key> or ignore)`);
  }
  return out;
}

/** Where each header column goes, mappings first, then names, then a property of the same name. */
export function targetsOf(header: readonly string[], mappings: ReadonlyMap<string, Target>): Target[] {
  return header.map((name) => {
    const mapped = mappings.get(name);
    if (mapped) return mapped;
    if (FIELDS.has(name)) return { field: name as Field };
    if (TIME_ALIASES.has(name)) return { field: 'ts' };
    if (name.startsWith(PROP) && name.length > PROP.length) return { prop: name.slice(PROP.length) };
    return { prop: name };
  });
}

function parsedJson(value: string, field: string): { value: unknown } | { reason: string } {
  try {
    return { value: JSON.parse(value) as unknown };
  } catch {
    return { reason: `${field} is not valid JSON` };
  }
}

/** One CSV row as a stored record; empty cells are absent. */
export function csvRecord(targets: readonly Target[], fields: readonly string[]): ImportRecord {
  if (fields.length > targets.length) return { kind: 'refuse', reason: `the row has ${fields.length} columns, the header ${targets.length}` };
  const record: Record<string, unknown> = {};
  let props: Json | undefined;
  for (let i = 0; i < targets.length; i++) {
    const value = fields[i];
    const target = targets[i]!;
    if (value === undefined || value === '' || 'ignore' in target) continue;
    if ('prop' in target) {
      (props ??= {})[target.prop] = value;
      continue;
    }
    const field = target.field;
    if (field === 'props' || field === 'elements' || field === 'invalid_reasons') {
      const parsed = parsedJson(value, field);
      if ('reason' in parsed) return { kind: 'refuse', reason: parsed.reason };
      record[field] = parsed.value;
    } else if (field === 'revenue' || field === 'rule_id') {
      const n = Number(value.trim());
      if (value.trim() === '' || !Number.isFinite(n)) return { kind: 'refuse', reason: `${field} is not a number` };
      record[field] = n;
    } else if (field === 'invalid') {
      if (value !== 'true' && value !== 'false') return { kind: 'refuse', reason: 'invalid must be true or false' };
      record[field] = value === 'true';
    } else {
      record[field] = value;
    }
  }
  if (props) {
    if (record.props !== undefined && !isObject(record.props)) return { kind: 'refuse', reason: 'props must be a JSON object' };
    record.props = { ...((record.props as Json | undefined) ?? {}), ...props };
  }
  return { kind: 'stored', record: record as StoredRecord };
}
