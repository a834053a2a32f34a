// Polls until a reading satisfies a test's condition, for what arrives on its own time (events
// loaded behind a 202, a page's request answered); the timeout names what was awaited and the
// last value seen.

// The first polls come quickly (most waits are short), later ones further apart (up to a quarter
// second), so a long wait does not run into the API's per-user rate limit (600 a minute).
const FIRST_POLL_MS = 20;
const LAST_POLL_MS = 250;
export const ARRIVAL_TIMEOUT_MS = 10_000;

export async function eventually<T>(what: string, read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = ARRIVAL_TIMEOUT_MS): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let pollMs = FIRST_POLL_MS;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}; last seen: ${JSON.stringify(value, null, 1).slice(0, 4000)}`);
    await new Promise((resolve) => setTimeout(resolve, pollMs));
    pollMs = Math.min(LAST_POLL_MS, Math.ceil(pollMs * 1.5));
  }
}
