// datetime-local inputs show the reader's local time; the API speaks RFC 3339. Both ways here.

/** A datetime-local value (the browser's local time) as RFC 3339; empty stays empty. */
export const toIso = (local: string): string => (local ? new Date(local).toISOString() : '');

/** An RFC 3339 time as a datetime-local value in the browser's time zone; empty stays empty. */
export function toLocal(iso: string): string {
  if (!iso) return '';
  const d = new Date(iso);
  return new Date(d.getTime() - d.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);
}
