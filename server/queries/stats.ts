// The statistics the association queries report, in plain arithmetic: shares, the normal tail,
// odds ratios, Benjamini–Hochberg q values and the phi coefficient with its interval.

/** 1.96…: the standard normal quantile of a two-sided 95% interval. */
export const Z95 = 1.959963984540054;

/** x / y, or null when y is 0. */
export const ratio = (x: number, y: number): number | null => (y === 0 ? null : x / y);

/**
 * erfc(x) for x ≥ 0 to about 1e-15: below 3 by the series of erf with positive terms (no
 * cancellation), above by the continued fraction of erfc evaluated with Lentz's method.
 */
export function erfc(x: number): number {
  if (x < 3) {
    let term = x;
    let sum = x;
    for (let n = 1; n < 200 && term > sum * 1e-17; n++) {
      term *= (2 * x * x) / (2 * n + 1);
      sum += term;
    }
    return 1 - (2 / Math.sqrt(Math.PI)) * Math.exp(-x * x) * sum;
  }
  // erfc(x) = exp(-x²)/√π · 1/(x + (1/2)/(x + 1/(x + (3/2)/(x + …)))).
  const tiny = 1e-300;
  let f = x;
  let c = x;
  let d = 0;
  for (let n = 1; n < 500; n++) {
    const a = n / 2;
    d = x + a * d;
    d = Math.abs(d) < tiny ? tiny : d;
    c = x + a / c;
    c = Math.abs(c) < tiny ? tiny : c;
    d = 1 / d;
    const delta = c * d;
    f *= delta;
    if (Math.abs(delta - 1) < 1e-16) break;
  }
  return Math.exp(-x * x) / Math.sqrt(Math.PI) / f;
}

/** Two-sided p of a standard normal statistic. */
export const twoSidedP = (z: number): number => Math.min(1, erfc(Math.abs(z) / Math.SQRT2));

/** Odds ratio with one added to each cell, its 95% interval and the two-sided p of its logarithm. */
export function oddsRatio(a: number, b: number, c: number, d: number): { ratio: number; low: number; high: number; p: number } {
  const log = Math.log(((a + 1) * (d + 1)) / ((b + 1) * (c + 1)));
  const se = Math.sqrt(1 / (a + 1) + 1 / (b + 1) + 1 / (c + 1) + 1 / (d + 1));
  return { ratio: Math.exp(log), low: Math.exp(log - Z95 * se), high: Math.exp(log + Z95 * se), p: twoSidedP(log / se) };
}

/** Benjamini–Hochberg adjusted p values, in the order given. */
export function benjaminiHochberg(ps: number[]): number[] {
  const order = ps.map((p, i) => [p, i] as const).sort((x, y) => x[0] - y[0] || x[1] - y[1]);
  const q = new Array<number>(ps.length);
  let running = 1;
  for (let r = order.length - 1; r >= 0; r--) {
    const [p, i] = order[r]!;
    running = Math.min(running, (p * ps.length) / (r + 1));
    q[i] = running;
  }
  return q;
}

/** A 2×2 table: x = did it (at least k times within w days), y = retained. */
export interface Table {
  x1y1: number;
  x1y0: number;
  x0y1: number;
  x0y0: number;
}

/** The phi coefficient; null when a margin is empty. */
export function phi(t: Table): number | null {
  const x1 = t.x1y1 + t.x1y0;
  const x0 = t.x0y1 + t.x0y0;
  const y1 = t.x1y1 + t.x0y1;
  const y0 = t.x1y0 + t.x0y0;
  if (x1 === 0 || x0 === 0 || y1 === 0 || y0 === 0) return null;
  return (t.x1y1 * t.x0y0 - t.x1y0 * t.x0y1) / Math.sqrt(x1 * x0 * y1 * y0);
}

/** A 95% interval of phi by Fisher's z; null below four actors. */
export function phiInterval(value: number, n: number): { low: number; high: number } | null {
  if (n < 4) return null;
  const z = Math.atanh(Math.max(-0.999999999999, Math.min(0.999999999999, value)));
  const se = 1 / Math.sqrt(n - 3);
  return { low: Math.tanh(z - Z95 * se), high: Math.tanh(z + Z95 * se) };
}
