// Polls until a reading satisfies a test's condition, for what arrives on its own time (events
// loaded behind a 202, a page's request answered); the timeout names what was awaited and the
// last value seen.

const POLL_MS = 20;
export const ARRIVAL_TIMEOUT_MS = 10_000;

export async function eventually<T>(what: string, read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = ARRIVAL_TIMEOUT_MS): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}; last seen: ${JSON.stringify(value, null, 1).slice(0, 4000)}`);
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}
