// An event's properties with its web fields added (webFields.ts), and the JSON text stored for
// them. Server-side senders may forward a visitor's user agent and address as `props.$user_agent`
// and `props.$ip`; those win over the request's own. `$ip` is removed before anything is stored.

import { WEB_PROPERTIES, webFields, type ClientHints } from './webFields.js';

export type { ClientHints } from './webFields.js';

interface EventLike {
  url?: string | null;
  referrer?: string | null;
  props?: Record<string, unknown> | null;
}

/** `text`: the JSON.stringify of `ev.props`, when known; the answer's `text` is that of its `props` when it can reuse it. */
export function withWebFields(ev: EventLike, client: ClientHints, text?: string): { props: Record<string, unknown> | null; text: string | undefined } {
  const given = ev.props ?? null;
  const forwardedUa = typeof given?.$user_agent === 'string' ? given.$user_agent : undefined;
  const forwardedIp = typeof given?.$ip === 'string' ? given.$ip : undefined;
  const fields = webFields(ev.url, ev.referrer, { userAgent: forwardedUa ?? client.userAgent, address: forwardedIp ?? client.address });
  const names = Object.keys(fields);
  if (names.length === 0 && (given === null || !('$ip' in given))) return { props: given, text };
  const clash = given !== null && ('$ip' in given || WEB_PROPERTIES.some((p) => p in given));
  if (given === null || clash) {
    const { $ip: _dropped, ...rest } = given ?? {};
    const props = { ...rest, ...fields };
    return { props, text: undefined };
  }
  const props = { ...given, ...fields };
  if (text === undefined || !text.endsWith('}')) return { props, text: undefined };
  // Appending to the text already made spares serializing the client's properties twice.
  const added = JSON.stringify(fields);
  return { props, text: text === '{}' ? added : `${text.slice(0, -1)},${added.slice(1)}` };
}
