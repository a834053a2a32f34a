// The console's list codec for URL query values, without a browser: every list survives a
// round trip exactly, empty items and items holding the separator or the escape included, and
// links written before escaping existed still read as they did.

import t from 'tap';
import fc from 'fast-check';
import { decodeList, encodeList } from '../../console/src/ui/listCodec.js';

// Items drawn mostly from the characters that matter, so separators, escapes and empty items
// meet each other often.
const item = fc.array(fc.constantFrom('~', '!', 'a', 'b', '.', '|', ' ', ''), { maxLength: 6 }).map((parts) => parts.join(''));
const anyItem = fc.oneof(item, fc.string(), fc.constant(''));

t.test('decode(encode(x)) is x for any list', async (t) => {
  fc.assert(
    fc.property(fc.array(anyItem, { maxLength: 8 }), (list) => {
      t.strictSame(decodeList(encodeList(list)), list);
    }),
    { numRuns: 2000 },
  );
});

t.test('the edges: no list, one empty item, empty items between and around', async (t) => {
  const cases: Array<[string[], string | undefined]> = [
    [[], undefined], // the empty list is no query value at all
    [[''], ''], // one unpicked slot is the empty value
    [['', ''], '~'], // two unpicked steps
    [['pp.page_view', ''], 'pp.page_view~'],
    [['', 'signup'], '~signup'],
    [['a', '', 'c'], 'a~~c'],
    [['a~b', 'c!'], 'a!~b~c!!'],
    [['!'], '!!'],
  ];
  for (const [list, text] of cases) {
    t.equal(encodeList(list), text, `encodes ${JSON.stringify(list)}`);
    t.strictSame(decodeList(text), list, `decodes ${JSON.stringify(text)}`);
  }
});

t.test('links without escapes read as before', async (t) => {
  t.strictSame(decodeList('pp.page_view~pp.form_start~signup'), ['pp.page_view', 'pp.form_start', 'signup']);
  t.strictSame(decodeList('path|in|/pricing,/signup'), ['path|in|/pricing,/signup']);
  t.strictSame(decodeList('wow!'), ['wow!'], 'a lone escape at the end stands for itself');
});
