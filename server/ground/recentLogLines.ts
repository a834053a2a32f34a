// The server's last log lines, kept in memory so `ppctl logs` can show them for a server that has no
// log file or journal (one started by `npm start` or `ppctl serve` in a terminal). Lines are numbered
// so `ppctl logs --follow` can ask for what came after the last line it printed. A fixed ring: keeping
// a line costs the same however many are held.

const DEFAULT_CAPACITY = 2000;

/** Lines in order, and the number of the newest line held (ask for what comes after it next). */
export interface RecentLines {
  lines: string[];
  last: number;
}

export class RecentLogLines {
  private readonly ring: string[];
  /** How many lines were ever kept; line n (from 0) is ring[n % capacity] while n >= total - capacity. */
  private total = 0;

  constructor(private readonly capacity = DEFAULT_CAPACITY) {
    this.ring = new Array<string>(capacity);
  }

  push(text: string): void {
    let start = 0;
    for (let end = text.indexOf('\n'); start < text.length; end = text.indexOf('\n', start)) {
      const stop = end < 0 ? text.length : end;
      if (stop > start) this.ring[this.total++ % this.capacity] = text.slice(start, stop);
      start = stop + 1;
    }
  }

  /** Up to `max` lines after line number `after` (the newest `max` without it), and the number of the newest. */
  since(after: number | undefined, max: number): RecentLines {
    const oldest = Math.max(0, this.total - this.capacity);
    const from = Math.max(oldest, this.total - max, after === undefined ? 0 : after + 1);
    const lines: string[] = [];
    for (let n = from; n < this.total; n++) lines.push(this.ring[n % this.capacity]!);
    return { lines, last: this.total - 1 };
  }
}
