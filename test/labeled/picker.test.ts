// The picker's suggested selector: short (the element's own data-pp-* or id, else under the
// nearest ancestor that has one, else a path of tags, classes and positions), always inside the
// rules' selector subset, and always matching a click on the element it was made for.

import t from 'tap';
import fc from 'fast-check';
import { stableSelector } from '../../server/labeled/picker.js';
import { parseSelector } from '../../server/labeled/selector.js';
import { compileRule } from '../../server/labeled/matchRow.js';
import { elementColumns } from '../../server/ingest/elementColumns.js';
import type { ElementInfo } from '../../server/ingest/capture.js';
import type { EventRow } from '../../server/ingest/normalizeEvent.js';

/** Whether a click on the chain's first element matches `selector`, as the ingest writer decides. */
function matchesTarget(selector: string, chain: ElementInfo[]): boolean {
  const row = { event: 'pp.click', url: null, ...elementColumns('pp.click', chain) } as unknown as EventRow;
  const onTarget = compileRule({ base_event: 'pp.click', selector, url_pattern: null, match_text: null, attributes: [] });
  return onTarget({ row, pages: new Map() });
}

t.test('hand-made chains', async (t) => {
  const button = { tag: 'BUTTON', classes: ['btn', 'primary'], nth_child: 2 };
  t.equal(stableSelector([{ ...button, id: 'buy', attributes: { 'data-pp-name': 'buy now' } }]), 'button[data-pp-name="buy now"]', 'a data-pp-* attribute first');
  t.equal(stableSelector([{ ...button, id: 'buy' }]), 'button#buy', 'then the id');
  t.equal(stableSelector([{ ...button, id: 'a:b' }]), 'button[id="a:b"]', 'an id that is not an identifier, as an attribute');
  t.equal(stableSelector([button, { tag: 'section', id: 'pricing', nth_child: 3 }]), 'section#pricing button.btn.primary', 'under the nearest marked ancestor');
  const div = { tag: 'div', classes: ['hero'], nth_child: 1 };
  t.equal(
    stableSelector([{ tag: 'span', nth_child: 1 }, { tag: 'p', nth_child: 2 }, div, { tag: 'main', nth_child: 1 }]),
    'div.hero:nth-child(1) > p:nth-child(2) > span:nth-child(1)',
    'else the path from two levels up',
  );
  t.equal(
    stableSelector([{ tag: 'span', nth_child: 1 }, button, div, { tag: 'main', nth_child: 1 }]),
    'main:nth-child(1) > div.hero:nth-child(1) > button.btn.primary:nth-child(2)',
    'the label of a button names the button',
  );
  t.equal(
    stableSelector([
      { tag: 'span', nth_child: 1 },
      { tag: 'div', attributes: { role: 'button' }, nth_child: 1 },
      { tag: 'li', id: 'plan' },
    ]),
    'li#plan div',
    'or an element with a control role',
  );
  t.equal(
    stableSelector([
      { tag: 'span', nth_child: 1, text: 'Buy' },
      { tag: 'button', id: 'buy' },
    ]),
    'button#buy',
  );
});

const word = fc.constantFrom('buy', 'btn', 'x-1', 'a:b', 'two words', '9lives', 'Émile');
const element = fc.record(
  {
    tag: fc.constantFrom('div', 'button', 'a', 'span', 'SECTION', 'my-el'),
    id: word,
    classes: fc.array(word, { maxLength: 4 }),
    nth_child: fc.integer({ min: 1, max: 6 }),
    attributes: fc.dictionary(fc.constantFrom('data-pp-name', 'data-pp-kind', 'href', 'role'), word, { maxKeys: 2 }),
  },
  { requiredKeys: ['tag', 'nth_child'] },
);

t.test('every suggestion parses and matches a click on its element', async (t) => {
  fc.assert(
    fc.property(fc.array(element, { minLength: 1, maxLength: 8 }), (chain) => {
      const selector = stableSelector(chain);
      parseSelector(selector);
      if (!matchesTarget(selector, chain)) throw new Error(`${selector} does not match ${JSON.stringify(chain)}`);
    }),
    { numRuns: 500 },
  );
  t.pass('500 random chains');
});
