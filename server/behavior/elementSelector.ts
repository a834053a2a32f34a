// The privacy-safe CSS selector of a clicked element, rebuilt from the element chain an event
// carries, exactly as the browser tracker builds selectors (sdk/browser/src/core/elements.ts,
// docs/tracker.md#elements), so a report's selector is the one a labeled-event rule or the picker
// would use.

export interface ChainElement {
  tag?: unknown;
  id?: unknown;
  classes?: unknown;
  nth_child?: unknown;
  text?: unknown;
  attributes?: unknown;
}

const MAX_STEPS = 6;
const PLAIN = /^(?!-?\d)(?!-$)[\w-]+$/;
const FIELD_TAGS = ['input', 'select', 'textarea'];

/** CSS.escape of the CSS Object Model, which the tracker uses in the browser. */
export function cssEscape(value: string): string {
  // Most ids and classes need no escaping: ASCII word characters and hyphens, not starting with a
  // digit (or a hyphen and a digit), and not a lone hyphen.
  if (PLAIN.test(value)) return value;
  let out = '';
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (c === 0) out += '\uFFFD';
    else if ((c >= 0x1 && c <= 0x1f) || c === 0x7f || (i === 0 && c >= 0x30 && c <= 0x39) || (i === 1 && c >= 0x30 && c <= 0x39 && value.charCodeAt(0) === 0x2d)) {
      out += `\\${c.toString(16)} `;
    } else if (i === 0 && c === 0x2d && value.length === 1) out += `\\${value[i]}`;
    else if (c >= 0x80 || c === 0x2d || c === 0x5f || (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a)) out += value[i];
    else out += `\\${value[i]}`;
  }
  return out;
}

const text = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);

/**
 * The selector of the chain's first element (target first, ancestors up to `<body>` excluded):
 * up from the target, each step `tag.c1.c2.c3:nth-child(n)`, stopping at an id, at a field
 * carrying a name (sent in standard mode only), at `body`, or after six steps.
 */
export function selectorOfChain(chain: readonly ChainElement[]): string {
  const parts: string[] = [];
  for (let i = 0; parts.length < MAX_STEPS; i++) {
    const e = chain[i];
    if (!e) {
      parts.unshift('body');
      break;
    }
    const tag = text(e.tag)?.toLowerCase() ?? '*';
    const id = text(e.id);
    if (id) {
      parts.unshift(`${tag}#${cssEscape(id)}`);
      break;
    }
    const attributes = e.attributes && typeof e.attributes === 'object' ? (e.attributes as Record<string, unknown>) : {};
    const name = text(attributes.name);
    if (name && FIELD_TAGS.includes(tag)) {
      parts.unshift(`${tag}[name="${name.replace(/["\\]/g, '\\$&')}"]`);
      break;
    }
    const classes = Array.isArray(e.classes) ? e.classes.filter((c): c is string => typeof c === 'string').slice(0, 3) : [];
    parts.unshift(`${tag}${classes.map((c) => `.${cssEscape(c)}`).join('')}:nth-child(${Number(e.nth_child) || 1})`);
  }
  return parts.join(' > ');
}
