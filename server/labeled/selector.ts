// The CSS subset of labeled-event rules (docs/labeled-events.md#matching): compound selectors of a
// tag, #id, .class, [attr], [attr=value] and :nth-child(n), joined by descendant and child
// combinators. Anything else is refused by name, so a rule never silently means something else.

/** `[name]` (exists) or `[name=value]` (eq), as a rule's attribute conditions say it. */
export interface AttributeTest {
  /** Lowercase. */
  name: string;
  op: 'exists' | 'eq';
  value?: string;
}

export interface Compound {
  /** Lowercase. */
  tag?: string;
  ids: string[];
  classes: string[];
  attributes: AttributeTest[];
  /** Positions among siblings (1-based); more than one different never matches. */
  nthChild: number[];
}

export type Combinator = 'child' | 'descendant';

/** Compounds from left to right; `combinators[i]` joins `compounds[i]` and `compounds[i + 1]`. */
export interface Selector {
  compounds: Compound[];
  combinators: Combinator[];
}

export const MAX_COMPOUNDS = 12;

/** Why a selector is refused, and where (0-based offset). */
export class SelectorError extends Error {
  constructor(
    message: string,
    readonly position: number,
    readonly unsupported?: string,
  ) {
    super(message);
  }
}

const IDENT = /[A-Za-z0-9_\-\u0080-\uffff]+/y;
const NAME = /[A-Za-z][A-Za-z0-9_:-]*/y;
const INTEGER = /\s*(\d{1,9})\s*\)/y;
const SPACE = /\s+/y;

/** What a character that starts no supported part is called in an error. */
const UNSUPPORTED: Record<string, string> = {
  '*': 'the universal selector *',
  ',': 'selector lists (,)',
  '+': 'the adjacent sibling combinator +',
  '~': 'the general sibling combinator ~',
  '|': 'namespaces (|)',
  '\\': 'escapes (\\)',
};

class Reader {
  at = 0;
  constructor(readonly text: string) {}

  get done(): boolean {
    return this.at >= this.text.length;
  }

  peek(): string {
    return this.text[this.at] ?? '';
  }

  match(re: RegExp): RegExpExecArray | null {
    re.lastIndex = this.at;
    const m = re.exec(this.text);
    if (m) this.at = re.lastIndex;
    return m;
  }

  fail(message: string, unsupported?: string): never {
    throw new SelectorError(message, this.at, unsupported);
  }
}

function ident(r: Reader, what: string): string {
  const m = r.match(IDENT);
  if (!m) r.fail(`expected ${what} at position ${r.at + 1}`);
  return m[0];
}

function quoted(r: Reader): string {
  const quote = r.peek();
  const start = r.at;
  r.at += 1;
  let out = '';
  while (!r.done && r.peek() !== quote) {
    if (r.peek() === '\\') {
      r.at += 1;
      if (r.done) break;
    }
    out += r.peek();
    r.at += 1;
  }
  if (r.done) {
    r.at = start;
    r.fail(`the quoted value at position ${start + 1} is not closed`);
  }
  r.at += 1;
  return out;
}

const BARE_VALUE = 'a bare attribute value holds only ASCII letters, digits, _ and - and characters outside ASCII; quote any other value, e.g. [href="/trial"]';

/** An unquoted value: IDENT characters up to `]` or a space, or refused whole (`[href=/trial]`, `[href=a/b]`). */
function bareValue(r: Reader): string {
  const m = r.match(IDENT);
  if (!m || !(r.done || r.peek() === ']' || /\s/.test(r.peek()))) r.fail(`${BARE_VALUE} (position ${r.at + 1})`);
  return m[0];
}

function attribute(r: Reader): AttributeTest {
  r.at += 1;
  r.match(SPACE);
  const name = r.match(NAME);
  if (!name) r.fail(`expected an attribute name at position ${r.at + 1}`);
  r.match(SPACE);
  let value: string | undefined;
  if (r.peek() === '=') {
    r.at += 1;
    r.match(SPACE);
    value = r.peek() === '"' || r.peek() === "'" ? quoted(r) : bareValue(r);
    r.match(SPACE);
  } else if ('~|^$*'.includes(r.peek()) && r.text[r.at + 1] === '=') {
    r.fail(`the attribute operator ${r.peek()}= is not supported (only [attr] and [attr=value])`, `${r.peek()}=`);
  }
  if (r.peek() !== ']') r.fail(`expected ] at position ${r.at + 1}`, r.peek() === '' ? undefined : 'attribute flags');
  r.at += 1;
  return value === undefined ? { name: name[0].toLowerCase(), op: 'exists' } : { name: name[0].toLowerCase(), op: 'eq', value };
}

function pseudo(r: Reader): number {
  const start = r.at;
  const m = r.match(/:nth-child\(/iy);
  if (!m) {
    const name = /::?[A-Za-z-]*/y;
    name.lastIndex = start;
    const found = name.exec(r.text)?.[0] ?? ':';
    r.fail(`${found} is not supported (the only pseudo-class is :nth-child(n))`, found);
  }
  const n = r.match(INTEGER);
  if (!n || Number(n[1]) < 1) {
    r.at = start;
    r.fail(':nth-child takes a positive integer, e.g. :nth-child(2)', ':nth-child(an+b)');
  }
  return Number(n[1]);
}

function compound(r: Reader): Compound {
  const c: Compound = { ids: [], classes: [], attributes: [], nthChild: [] };
  const start = r.at;
  const tag = r.match(/[A-Za-z][A-Za-z0-9-]*/y);
  if (tag) c.tag = tag[0].toLowerCase();
  for (;;) {
    const ch = r.peek();
    if (ch === '#') {
      r.at += 1;
      c.ids.push(ident(r, 'an id'));
    } else if (ch === '.') {
      r.at += 1;
      c.classes.push(ident(r, 'a class name'));
    } else if (ch === '[') {
      c.attributes.push(attribute(r));
    } else if (ch === ':') {
      c.nthChild.push(pseudo(r));
    } else break;
  }
  if (r.at === start) {
    const ch = r.peek();
    if (UNSUPPORTED[ch]) r.fail(`${UNSUPPORTED[ch]} is not supported`, ch);
    r.fail(r.done ? 'the selector ends with a combinator' : `unexpected ${JSON.stringify(ch)} at position ${r.at + 1}`, r.done ? undefined : ch);
  }
  return c;
}

/** Parses a selector of the subset, or throws a SelectorError naming what is not supported. */
export function parseSelector(text: string): Selector {
  const r = new Reader(text.trim());
  if (r.done) r.fail('the selector is empty');
  const sel: Selector = { compounds: [compound(r)], combinators: [] };
  while (!r.done) {
    const spaced = r.match(SPACE) !== null;
    if (r.done) break;
    let combinator: Combinator = 'descendant';
    if (r.peek() === '>') {
      r.at += 1;
      r.match(SPACE);
      combinator = 'child';
    } else if (!spaced) {
      const ch = r.peek();
      r.fail(UNSUPPORTED[ch] ? `${UNSUPPORTED[ch]} is not supported` : `unexpected ${JSON.stringify(ch)} at position ${r.at + 1}`, ch);
    }
    sel.combinators.push(combinator);
    sel.compounds.push(compound(r));
    if (sel.compounds.length > MAX_COMPOUNDS) r.fail(`a selector has at most ${MAX_COMPOUNDS} compound selectors (an element chain has at most 12 elements)`);
  }
  return sel;
}
