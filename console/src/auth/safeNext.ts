// Where the console may send a browser after sign-in: a path on its own origin. Anything a browser
// could read as another origin, or that it would rewrite before reading, falls back to the home page.

export const DEFAULT_PAGE = '/';
const MAX_NEXT_LENGTH = 2048;

// Browsers drop tabs and newlines from URLs and read `\` as `/`, so `/\t/evil` and `/\evil` are `//evil`.
const UNSAFE_CHARACTER = /[\u0000-\u0020\u007f-\u009f\\\s]/;
// A router or server that decodes the path once would turn `/%2f…` or `/%5c…` into `//…`.
const ENCODED_SLASH_FIRST = /^\/%(2f|5c)/i;

/** `next` when it is a same-origin path, else the home page. */
export function safeNext(next: string | undefined, origin: string): string {
  if (next === undefined || !isSafeNext(next, origin)) return DEFAULT_PAGE;
  return next;
}

function isSafeNext(next: string, origin: string): boolean {
  if (next.length > MAX_NEXT_LENGTH) return false;
  if (!next.startsWith('/') || next.startsWith('//')) return false;
  if (UNSAFE_CHARACTER.test(next) || ENCODED_SLASH_FIRST.test(next)) return false;
  try {
    return new URL(next, origin).origin === new URL(origin).origin;
  } catch {
    return false;
  }
}
