// Strict privacy on read: when the project is in strict mode, the text of a recording is masked
// again as it leaves the server, whatever mode it was recorded in (the tracker masks in strict mode
// already; this holds for chunks recorded before the project switched). Text becomes one `*` per
// character as rrweb's own masking writes it; style sheets, structure and positions stay.

/** rrweb-snapshot's node types and rrweb's event types and sources that carry page text. */
const TEXT_NODE = 3;
const FULL_SNAPSHOT = 2;
const INCREMENTAL = 3;
const MUTATION = 0;
const INPUT = 5;
/** Attributes whose value is text a person reads or typed. */
const TEXT_ATTRIBUTES = new Set(['value', 'placeholder', 'title', 'alt', 'aria-label', 'label']);

type Json = Record<string, unknown>;

export function maskText(text: string): string {
  let out = '';
  for (const ch of text) out += ch === ' ' || ch === '\n' || ch === '\t' || ch === '\r' ? ch : '*';
  return out;
}

function maskAttributes(attributes: unknown): void {
  if (!attributes || typeof attributes !== 'object') return;
  for (const [name, value] of Object.entries(attributes as Json)) {
    if (typeof value === 'string' && TEXT_ATTRIBUTES.has(name.toLowerCase())) (attributes as Json)[name] = maskText(value);
  }
}

/** Masks a serialized node and its subtree in place (iteratively: recorded trees can be deep). */
function maskNode(root: unknown): void {
  const stack: unknown[] = [root];
  while (stack.length > 0) {
    const node = stack.pop() as Json | null;
    if (!node || typeof node !== 'object') continue;
    if (node.type === TEXT_NODE && typeof node.textContent === 'string' && node.isStyle !== true) node.textContent = maskText(node.textContent);
    maskAttributes(node.attributes);
    if (Array.isArray(node.childNodes)) stack.push(...(node.childNodes as unknown[]));
  }
}

/** Masks the text of one rrweb event in place. */
export function maskEvent(event: unknown): void {
  const e = event as { type?: number; data?: Json } | null;
  if (!e || typeof e !== 'object' || !e.data || typeof e.data !== 'object') return;
  const data = e.data;
  if (e.type === FULL_SNAPSHOT) maskNode(data.node);
  if (e.type !== INCREMENTAL) return;
  if (data.source === INPUT && typeof data.text === 'string') data.text = maskText(data.text);
  if (data.source !== MUTATION) return;
  for (const add of (data.adds as Json[] | undefined) ?? []) maskNode(add?.node);
  for (const text of (data.texts as Json[] | undefined) ?? []) if (typeof text?.value === 'string') text.value = maskText(text.value);
  for (const attr of (data.attributes as Json[] | undefined) ?? []) maskAttributes(attr?.attributes);
}
