// A small seeded random source (sfc32) and the distributions the data generator draws from.
// Deterministic across runs and machines: nothing here reads Math.random or the clock.

/** Mixes a list of integers into one 32-bit seed (a murmur3-style finalizer per step). */
export function mixSeed(...parts: number[]): number {
  let h = 0x9e3779b9;
  for (const p of parts) {
    h = Math.imul(h ^ (p >>> 0), 0x85ebca6b);
    h ^= h >>> 13;
    h = Math.imul(h, 0xc2b2ae35);
    h ^= h >>> 16;
  }
  return h >>> 0;
}

const HEX = '0123456789abcdef';

export class Random {
  private a: number;
  private b: number;
  private c: number;
  private d: number;

  constructor(seed: number) {
    this.a = 0x9e3779b9;
    this.b = 0x243f6a88;
    this.c = 0xb7e15162;
    this.d = seed >>> 0;
    for (let i = 0; i < 12; i++) this.next32();
  }

  next32(): number {
    const t = (((this.a + this.b) | 0) + this.d) | 0;
    this.d = (this.d + 1) | 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) | 0;
    this.c = (this.c << 21) | (this.c >>> 11);
    this.c = (this.c + t) | 0;
    return t >>> 0;
  }

  /** Uniform in [0, 1). */
  float(): number {
    return this.next32() / 4294967296;
  }

  chance(p: number): boolean {
    return this.float() < p;
  }

  /** Integer in [min, max]. */
  int(min: number, max: number): number {
    return min + Math.floor(this.float() * (max - min + 1));
  }

  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.float() * items.length)]!;
  }

  /** Exponential with the given mean. */
  exponential(mean: number): number {
    return -Math.log(1 - this.float()) * mean;
  }

  /** Pareto with minimum 1 and shape `alpha` (smaller alpha, heavier tail). */
  pareto(alpha: number): number {
    return (1 - this.float()) ** (-1 / alpha);
  }

  /** Number of failures before a success of probability p. */
  geometric(p: number): number {
    return Math.floor(Math.log(1 - this.float()) / Math.log(1 - p));
  }

  /** `len` lowercase hex digits. */
  hex(len: number): string {
    let s = '';
    let word = 0;
    for (let i = 0; i < len; i++) {
      if ((i & 7) === 0) word = this.next32();
      s += HEX[(word >>> ((i & 7) * 4)) & 15];
    }
    return s;
  }

  /** A version-4 UUID in its text form. */
  uuid(): string {
    const h = this.hex(32);
    const variant = ((parseInt(h[16]!, 16) & 0x3) | 0x8).toString(16);
    return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-${variant}${h.slice(17, 20)}-${h.slice(20, 32)}`;
  }
}

/** Picks from weighted choices with one draw; weights need not sum to 1. */
export class Weighted<T> {
  private readonly cumulative: number[] = [];
  private readonly total: number;

  constructor(private readonly choices: ReadonlyArray<readonly [T, number]>) {
    let sum = 0;
    for (const [, w] of choices) this.cumulative.push((sum += w));
    this.total = sum;
  }

  pick(rng: Random): T {
    const x = rng.float() * this.total;
    for (let i = 0; i < this.cumulative.length; i++) if (x < this.cumulative[i]!) return this.choices[i]![0];
    return this.choices[this.choices.length - 1]![0];
  }
}
