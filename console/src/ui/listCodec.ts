// A list of strings as one URL query value: items joined by `~`, with `!` escaping a `~` or `!`
// inside an item. Empty items are kept (an unpicked funnel step is a real slot), so a list with
// one empty item is the empty value and the empty list is no value at all.

const SEPARATOR = '~';
const ESCAPE = '!';

/** The query value of `items`; undefined for the empty list, which the URL leaves out. */
export function encodeList(items: readonly string[]): string | undefined {
  if (items.length === 0) return undefined;
  return items.map(escapeItem).join(SEPARATOR);
}

/** The items of a query value; undefined (no value) is the empty list. Linear in the text. */
export function decodeList(text: string | undefined): string[] {
  if (text === undefined) return [];
  const items: string[] = [];
  let item = '';
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    // A lone escape at the very end has nothing to escape and stands for itself.
    if (c === ESCAPE && i + 1 < text.length) item += text[++i];
    else if (c === SEPARATOR) {
      items.push(item);
      item = '';
    } else item += c;
  }
  items.push(item);
  return items;
}

function escapeItem(item: string): string {
  let out = '';
  for (const c of item) out += c === SEPARATOR || c === ESCAPE ? ESCAPE + c : c;
  return out;
}
