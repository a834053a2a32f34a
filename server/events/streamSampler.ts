// The live stream's sampling: at most `max` messages written in any window of `windowMs`, on a
// sliding window (a fixed one-second bucket lets twice as many through across a boundary).
// A message is admitted when it arrives but written later (after a read), so admitted messages
// hold a place until they are written and the window counts write times: a slow write can
// never let a later burst through early.

export class StreamSampler {
  /** Write times of the messages still inside the window, oldest first. */
  private readonly written: number[] = [];
  private admitted = 0;

  constructor(
    readonly max = 20,
    readonly windowMs = 1000,
  ) {}

  /** Admits one message at `now` and answers true, or answers false when the window is full. */
  take(now: number): boolean {
    this.expire(now);
    if (this.written.length + this.admitted >= this.max) return false;
    this.admitted += 1;
    return true;
  }

  /** Records that an admitted message was written at `now`. */
  wrote(now: number): void {
    this.admitted = Math.max(0, this.admitted - 1);
    this.written.push(now);
  }

  /** The earliest time another message may fit (later, if admitted messages are still unwritten). */
  nextFreeAt(now: number): number {
    this.expire(now);
    if (this.written.length + this.admitted < this.max) return now;
    return this.written.length > 0 ? this.written[0]! + this.windowMs : now + this.windowMs;
  }

  private expire(now: number): void {
    while (this.written.length > 0 && now - this.written[0]! >= this.windowMs) this.written.shift();
  }
}
