// An event's properties with its web fields added (webFields.ts), and the JSON text stored for
// them. Server-side senders may forward a visitor's user agent and address as `props.$user_agent`
// and `props.$ip`; those win over the request's own. `$ip` is removed before anything is stored,
// unless the project stores client addresses: then it holds the address the fields were read from.

import { WEB_PROPERTIES, webFields, type ClientHints } from './webFields.js';

export type { ClientHints } from './webFields.js';

interface EventLike {
  url?: string | null;
  referrer?: string | null;
  props?: Record<string, unknown> | null;
}

const DERIVED: ReadonlySet<string> = new Set(WEB_PROPERTIES);

/** Whether the client's props hold `$ip` or a name the web fields write (then they are rebuilt, not appended to). */
function clashes(props: Record<string, unknown>): boolean {
  for (const k in props) if (k.charCodeAt(0) === 36 && (k === '$ip' || DERIVED.has(k))) return true;
  return false;
}

/**
 * `text`: the JSON.stringify of `ev.props`, when known; the answer's `text` is that of its `props`
 * when it can reuse it. `storeAddress`: the address read is kept as `$ip`.
 */
export function withWebFields(ev: EventLike, client: ClientHints, text?: string, storeAddress = false): { props: Record<string, unknown> | null; text: string | undefined } {
  const given = ev.props ?? null;
  const forwardedUa = given !== null && typeof given.$user_agent === 'string' ? given.$user_agent : undefined;
  const forwardedIp = given !== null && typeof given.$ip === 'string' ? given.$ip : undefined;
  const address = forwardedIp ?? client.address;
  const derived = webFields(ev.url, ev.referrer, { userAgent: forwardedUa ?? client.userAgent, address });
  const fields: Record<string, unknown> = storeAddress && typeof address === 'string' && address !== '' ? { ...derived, $ip: address } : derived;
  let any = false;
  for (const _ in fields) {
    any = true;
    break;
  }
  const clash = given !== null && clashes(given);
  if (!any && !clash) return { props: given, text };
  const props: Record<string, unknown> = {};
  if (given !== null) for (const k in given) if (k !== '$ip') props[k] = given[k];
  for (const k in fields) props[k] = fields[k];
  if (clash || given === null || text === undefined || !text.endsWith('}')) return { props, text: given === null ? JSON.stringify(props) : undefined };
  // Appending to the text already made spares serializing the client's properties twice.
  const added = JSON.stringify(fields);
  return { props, text: text === '{}' ? added : `${text.slice(0, -1)},${added.slice(1)}` };
}
