// The server's last log lines, kept in memory so `ppctl logs` can show them for a server that has no
// log file or journal (one started by `npm start` or `ppctl serve` in a terminal). Lines are numbered
// so `ppctl logs --follow` can ask for what came after the last line it printed.

const DEFAULT_CAPACITY = 2000;

export class RecentLogLines {
  private readonly lines: string[] = [];
  /** The number of the oldest line held; line n is lines[n - first]. */
  private first = 0;

  constructor(private readonly capacity = DEFAULT_CAPACITY) {}

  push(text: string): void {
    for (const line of text.split('\n')) {
      if (line === '') continue;
      this.lines.push(line);
      if (this.lines.length > this.capacity) {
        this.lines.shift();
        this.first += 1;
      }
    }
  }

  /** Up to `max` lines after line number `after` (the newest `max` without it), and the next number to ask after. */
  since(after: number | undefined, max: number): { lines: string[]; last: number } {
    const end = this.first + this.lines.length;
    const start = after === undefined ? Math.max(this.first, end - max) : Math.max(this.first, after + 1, end - max);
    return { lines: this.lines.slice(start - this.first), last: end - 1 };
  }
}
