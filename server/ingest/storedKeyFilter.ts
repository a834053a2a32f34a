// An exact negative filter over the (project, uuid) pairs of stored events: 64-bit hashes in
// open-addressing tables (typed arrays), one per generation; when the newest is full a new one
// starts and the oldest beyond `generations` is dropped. Every pair stored with received_at at or
// after `coveredFromUs` is in it, so an absent hash proves a pair new for that range. A present
// hash may be a collision: confirming it, and checking older rows, is the caller's.

/** Two independent 32-bit halves of the 64-bit hash of a pair: the project and the uuid's four 32-bit words. */
export type KeyHash = (projectId: number, w0: number, w1: number, w2: number, w3: number) => [number, number];

/** Mixes a 32-bit word (murmur3's finalizer): every input bit reaches every output bit. */
function fmix(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

/**
 * The 32 hex digits of a canonical (lower-case 8-4-4-4-12) uuid as four unsigned words. Any other
 * text gives some words too (deterministically); such a uuid is never stored, so that is enough.
 */
export function uuidWords(uuid: string): [number, number, number, number] {
  return [
    parseInt(uuid.slice(0, 8), 16) >>> 0,
    parseInt(uuid.slice(9, 13) + uuid.slice(14, 18), 16) >>> 0,
    parseInt(uuid.slice(19, 23) + uuid.slice(24, 28), 16) >>> 0,
    parseInt(uuid.slice(28, 36), 16) >>> 0,
  ];
}

/** The words mixed with the project twice, under different seeds. */
export const pairHash: KeyHash = (projectId, w0, w1, w2, w3) => {
  let a = 0x9747b28c ^ projectId;
  let b = 0x5bd1e995 ^ Math.imul(projectId, 0xcc9e2d51);
  for (const w of [w0, w1, w2, w3]) {
    a = fmix(a ^ w);
    b = fmix(Math.imul(b, 0x1b873593) ^ w ^ 0x7f4a7c15);
  }
  return [a, b];
};

/** One open-addressing table of hashes (both halves zero marks an empty slot), filled to at most 3/4. */
class Generation {
  readonly slots: Uint32Array;
  private readonly mask: number;
  size = 0;
  /** Latest received_at (µs) of a pair inserted here. */
  maxReceivedUs = -Infinity;

  constructor(readonly capacity: number) {
    let n = 1;
    while (n * 3 < capacity * 4) n *= 2;
    this.slots = new Uint32Array(n * 2);
    this.mask = n - 1;
  }

  get full(): boolean {
    return this.size >= this.capacity;
  }

  /** The slot holding the hash, or the empty slot where it would go (as a negative index − 1). */
  private find(a: number, b: number): number {
    for (let i = a & this.mask; ; i = (i + 1) & this.mask) {
      const x = this.slots[2 * i]!;
      const y = this.slots[2 * i + 1]!;
      if (x === a && y === b) return i;
      if (x === 0 && y === 0) return -i - 1;
    }
  }

  has(a: number, b: number): boolean {
    return this.find(a, b) >= 0;
  }

  add(a: number, b: number, receivedUs: number): void {
    const i = this.find(a, b);
    if (i < 0) {
      this.slots[2 * (-i - 1)] = a;
      this.slots[2 * (-i - 1) + 1] = b;
      this.size += 1;
    }
    if (receivedUs > this.maxReceivedUs) this.maxReceivedUs = receivedUs;
  }
}

export interface FilterOptions {
  /** Pairs held at most, over all generations. */
  capacity: number;
  generations: number;
  /** Every pair stored with received_at at or after this instant (µs) is about to be added. */
  coveredFromUs: number;
  hash?: KeyHash;
}

export class StoredKeyFilter {
  /** Newest first. */
  private readonly tables: Generation[] = [];
  private readonly perGeneration: number;
  private readonly maxGenerations: number;
  private readonly hash: KeyHash;
  private covered: number;

  constructor(options: FilterOptions) {
    this.maxGenerations = Math.max(2, options.generations);
    this.perGeneration = Math.max(1, Math.ceil(options.capacity / this.maxGenerations));
    this.hash = options.hash ?? pairHash;
    this.covered = options.coveredFromUs;
  }

  /** Every pair stored with received_at (µs) at or after this is in the filter. */
  get coveredFromUs(): number {
    return this.covered;
  }

  /** Narrows what the filter vouches for to pairs received at or after `us` (it was filled from a partial read). */
  coverFrom(us: number): void {
    this.covered = Math.max(this.covered, us);
  }

  get size(): number {
    return this.tables.reduce((n, g) => n + g.size, 0);
  }

  /** False: the pair is not stored with received_at ≥ coveredFromUs. True: it may be. */
  mayHold(projectId: number, uuid: string): boolean {
    const [a, b] = this.key(projectId, ...uuidWords(uuid));
    return this.tables.some((g) => g.has(a, b));
  }

  /** Records a stored pair. */
  add(projectId: number, uuid: string, receivedUs: number): void {
    this.addWords(projectId, ...uuidWords(uuid), receivedUs);
  }

  /** Records a stored pair by its uuid's words. Dropping the oldest generation moves coveredFromUs past its newest pair. */
  addWords(projectId: number, w0: number, w1: number, w2: number, w3: number, receivedUs: number): void {
    let newest = this.tables[0];
    if (!newest || newest.full) {
      newest = new Generation(this.perGeneration);
      this.tables.unshift(newest);
      if (this.tables.length > this.maxGenerations) {
        const dropped = this.tables.pop()!;
        this.covered = Math.max(this.covered, dropped.maxReceivedUs + 1);
      }
    }
    const [a, b] = this.key(projectId, w0, w1, w2, w3);
    newest.add(a, b, receivedUs);
  }

  private key(projectId: number, w0: number, w1: number, w2: number, w3: number): [number, number] {
    const [a, b] = this.hash(projectId, w0, w1, w2, w3);
    // (0, 0) marks an empty slot; the pair that hashes to it is kept as (0, 1), a harmless extra collision.
    return a === 0 && b === 0 ? [0, 1] : [a >>> 0, b >>> 0];
  }
}
