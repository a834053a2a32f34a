// Phone numbers as pp accepts and shows them: E.164 (a `+`, or the international prefix `00`, then 8
// to 15 digits, the first not 0), typed with any spaces, dashes or parentheses, and masked wherever one
// is shown back. Every accepted spelling of a number gives one string, which is what gets hashed.

const SEPARATORS = /[\s\-()]/g;
const E164 = /^\+[1-9][0-9]{7,14}$/;
// Digits alone could be a national number; only `00`, the international call prefix, stands for `+`.
const INTERNATIONAL_PREFIX = /^00/;

/** The number in E.164, or undefined when what was typed is not one. */
export function parsePhone(typed: string): string | undefined {
  const phone = typed.replace(SEPARATORS, '').replace(INTERNATIONAL_PREFIX, '+');
  return E164.test(phone) ? phone : undefined;
}

/** `+4915112345612` → `+49*********12`: the first two and the last two digits stay. */
export function maskPhone(phone: string): string {
  const digits = phone.slice(1);
  return `+${digits.slice(0, 2)}${'*'.repeat(digits.length - 4)}${digits.slice(-2)}`;
}
