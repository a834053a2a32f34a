// The live stream's sampling: at most `max` messages in any window of `windowMs`, counted on a
// sliding window (a fixed one-second bucket would let twice as many through across a boundary).

export class StreamSampler {
  /** Send times of the messages still inside the window, oldest first. */
  private readonly sent: number[] = [];

  constructor(
    readonly max = 20,
    readonly windowMs = 1000,
  ) {}

  /** Counts one message at `now` and answers true, or answers false when the window is full. */
  take(now: number): boolean {
    while (this.sent.length > 0 && now - this.sent[0]! >= this.windowMs) this.sent.shift();
    if (this.sent.length >= this.max) return false;
    this.sent.push(now);
    return true;
  }

  /** The earliest time another message fits. */
  nextFreeAt(now: number): number {
    return this.sent.length < this.max ? now : this.sent[0]! + this.windowMs;
  }
}
