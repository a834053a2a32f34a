// The one reading of an integer path id: decimal digits with no sign, leading zero, base prefix,
// exponent, fraction or space, at most Number.MAX_SAFE_INTEGER. Every other form names no resource.

const DECIMAL_ID = /^[1-9][0-9]{0,15}$/;

/** The id, or undefined when the text is not one (`01`, `0x1`, `1e0`, `+1`, `1.0`, `1 ` …). */
export function parsePathId(raw: string): number | undefined {
  if (!DECIMAL_ID.test(raw)) return undefined;
  const id = Number(raw);
  return Number.isSafeInteger(id) ? id : undefined;
}

export const PATH_ID_RULE = 'must be a positive integer in decimal digits, without sign, leading zeros or spaces';
