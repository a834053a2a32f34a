// Serializes client JSON for DuckDB's JSON columns. JavaScript strings may hold lone UTF-16
// surrogates, which JSON.stringify writes as `\ud800` escapes that DuckDB's JSON reader refuses;
// one such event would make every property query of its project fail. They become U+FFFD.

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/**
 * How JSON.stringify writes a lone surrogate (paired ones stay raw). An escaped backslash followed
 * by such text matches too: that only costs the slower path, whose output is then the same.
 */
const SURROGATE_ESCAPE = /\\ud[89a-f]/;

export function wellFormed(s: string): string {
  return s.replace(LONE_SURROGATE, '\ufffd');
}

/** `text`: the JSON.stringify of the value, when the caller has it already. */
export function jsonText(value: unknown, text: string = JSON.stringify(value)): string {
  if (!SURROGATE_ESCAPE.test(text)) return text;
  return JSON.stringify(value, (_key, v: unknown) => {
    if (typeof v === 'string') return wellFormed(v);
    if (v !== null && typeof v === 'object' && !Array.isArray(v)) {
      return Object.fromEntries(Object.entries(v).map(([k, x]) => [wellFormed(k), x]));
    }
    return v;
  });
}
