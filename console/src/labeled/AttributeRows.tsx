// The attribute conditions of a rule: a row each (attribute, comparison, value; no value for
// "is present"), added and removed freely up to ten. A refusal the server names for a row's part
// is shown under that row.

import { useId } from 'preact/hooks';
import type { AttributeOp } from './labeledApi';
import { ATTRIBUTE_NAMES, MAX_ATTRIBUTES, type AttributeRow } from './ruleForm';

const OPS: Array<[AttributeOp, string]> = [
  ['eq', 'equals'],
  ['contains', 'contains'],
  ['exists', 'is present'],
];

export function AttributeRows({ rows, onRows, problem }: { rows: AttributeRow[]; onRows(rows: AttributeRow[]): void; problem(field: string): string | undefined }) {
  const id = useId();
  const change = (i: number, part: Partial<AttributeRow>) => onRows(rows.map((r, j) => (j === i ? { ...r, ...part } : r)));
  const listProblem = problem('attributes');
  return (
    <fieldset class="labeled-attributes" aria-describedby={`${id}-hint${listProblem ? ` ${id}-problem` : ''}`}>
      <legend>Attribute conditions</legend>
      <div class="hint" id={`${id}-hint`}>
        On the element the selector matches (or the clicked element): <code>id</code>, <code>class</code>, <code>href</code> (path only), <code>name</code>, <code>type</code>, <code>role</code>,{' '}
        <code>aria-label</code> or a <code>data-pp-*</code> name.
      </div>
      <datalist id={`${id}-names`}>
        {ATTRIBUTE_NAMES.map((n) => (
          <option value={n} />
        ))}
      </datalist>
      {rows.map((row, i) => {
        const rowProblems = (['name', 'op', 'value'] as const).map((part) => problem(`attributes[${i}].${part}`)).filter((p): p is string => p !== undefined);
        const problemId = `${id}-row${i}-problem`;
        const describedBy = rowProblems.length > 0 ? problemId : undefined;
        return (
          <div class="attribute-row" data-testid="attribute-row">
            <input
              aria-label={`Attribute ${i + 1}`}
              list={`${id}-names`}
              value={row.name}
              spellcheck={false}
              placeholder="data-pp-name"
              aria-invalid={problem(`attributes[${i}].name`) ? true : undefined}
              aria-describedby={describedBy}
              onInput={(e) => change(i, { name: (e.currentTarget as HTMLInputElement).value })}
            />
            <select aria-label={`Attribute ${i + 1} comparison`} value={row.op} onChange={(e) => change(i, { op: (e.currentTarget as HTMLSelectElement).value as AttributeOp })}>
              {OPS.map(([op, label]) => (
                <option value={op}>{label}</option>
              ))}
            </select>
            {row.op !== 'exists' && (
              <input
                aria-label={`Attribute ${i + 1} value`}
                value={row.value}
                spellcheck={false}
                aria-invalid={problem(`attributes[${i}].value`) ? true : undefined}
                aria-describedby={describedBy}
                onInput={(e) => change(i, { value: (e.currentTarget as HTMLInputElement).value })}
              />
            )}
            <button type="button" class="button secondary small" aria-label={`Remove attribute condition ${i + 1}`} onClick={() => onRows(rows.filter((_, j) => j !== i))}>
              Remove
            </button>
            {rowProblems.length > 0 && (
              <div class="problem" id={problemId}>
                {rowProblems.join(' ')}
              </div>
            )}
          </div>
        );
      })}
      {listProblem && (
        <div class="problem" id={`${id}-problem`}>
          {listProblem}
        </div>
      )}
      <button type="button" class="button secondary small" disabled={rows.length >= MAX_ATTRIBUTES} onClick={() => onRows([...rows, { name: '', op: 'eq', value: '' }])}>
        Add an attribute condition
      </button>
    </fieldset>
  );
}
