// Paths: the routes counted so far, as a tree of item numbers in flat arrays.

/**
 * The routes counted so far as a tree of item numbers in flat arrays: node 0 is the empty route,
 * and a node's child for an item is found in an open-addressing table keyed by both, so counting
 * a unit's route allocates nothing.
 */
export class RouteTree {
  /** By node: the route one item shorter, its last item, and the units whose route it is. */
  parent: Int32Array = new Int32Array(16);
  item: Int32Array = new Int32Array(16);
  units: Int32Array = new Int32Array(16);
  private size = 1;
  /** Nodes by slot (0: free); the length is a power of two, at most half full. */
  private slots = new Int32Array(32);

  /** The node of route codes[first, end), added when new. */
  nodeOf(codes: Int32Array, first: number, end: number): number {
    let node = 0;
    for (let k = first; k < end; k++) node = this.child(node, codes[k]!);
    return node;
  }

  /** The items of a node's route, first to last. */
  codesOf(node: number): number[] {
    const codes: number[] = [];
    for (let at = node; at !== 0; at = this.parent[at]!) codes.push(this.item[at]!);
    return codes.reverse();
  }

  private child(node: number, item: number): number {
    const mask = this.slots.length - 1;
    let slot = slotOf(node, item) & mask;
    for (let at = this.slots[slot]!; at !== 0; at = this.slots[slot]!) {
      if (this.parent[at] === node && this.item[at] === item) return at;
      slot = (slot + 1) & mask;
    }
    if (this.size === this.parent.length) {
      this.parent = grown(this.parent);
      this.item = grown(this.item);
      this.units = grown(this.units);
    }
    const added = this.size++;
    this.parent[added] = node;
    this.item[added] = item;
    this.slots[slot] = added;
    if (2 * this.size > this.slots.length) this.rehash();
    return added;
  }

  private rehash(): void {
    this.slots = new Int32Array(2 * this.slots.length);
    const mask = this.slots.length - 1;
    for (let node = 1; node < this.size; node++) {
      let slot = slotOf(this.parent[node]!, this.item[node]!) & mask;
      while (this.slots[slot] !== 0) slot = (slot + 1) & mask;
      this.slots[slot] = node;
    }
  }
}

/** A slot number for (node, item): multiplicative hashing, mixed so low bits vary. */
function slotOf(node: number, item: number): number {
  const h = Math.imul(node, 0x9e3779b1) ^ Math.imul(item, 0x85ebca6b);
  return h ^ (h >>> 15);
}

function grown(a: Int32Array): Int32Array<ArrayBuffer> {
  const b = new Int32Array(2 * a.length);
  b.set(a);
  return b;
}
