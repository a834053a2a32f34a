// The value of [attr=value] in rule selectors: what a bare value may hold (docs/labeled-events.md
// #matching), and that anything else must be quoted.

import t from 'tap';
import { parseSelector, SelectorError } from '../../server/labeled/selector.js';

function refusal(selector: string): Error | undefined {
  try {
    parseSelector(selector);
  } catch (err) {
    return err as Error;
  }
  return undefined;
}

const valueOf = (selector: string) => parseSelector(selector).compounds.at(-1)!.attributes[0]!.value;

t.test('a bare value: ASCII letters, digits, _ and -, and characters outside ASCII', async (t) => {
  for (const value of ['buy', 'buy_now-2', '9lives', '-', 'café', 'ボタン', '\u{1F34B}']) {
    t.equal(valueOf(`button[data-pp-name=${value}]`), value, value);
    t.equal(valueOf(`button[data-pp-name= ${value} ]`), value, `${value} with spaces around`);
  }
});

t.test('any other character needs quotes', async (t) => {
  for (const selector of ['a[href=/trial]', 'a[href=trial/2]', 'a[data-pp-name=a.b]', 'a[data-pp-name=x:y]', 'a[data-pp-name=a#b]', 'a[href=?q]', 'a[data-pp-name=a+b]', 'a[data-pp-name=]']) {
    const err = refusal(selector);
    t.ok(err instanceof SelectorError, selector);
    t.match(
      err?.message,
      /^a bare attribute value holds only ASCII letters, digits, _ and - and characters outside ASCII; quote any other value, e\.g\. \[href="\/trial"\] \(position \d+\)$/,
      selector,
    );
  }
  t.equal(valueOf('a[href="/trial"]'), '/trial');
  t.equal(valueOf("a[href='/trial?x=1']"), '/trial?x=1');
  t.equal(valueOf('a[data-pp-name="say \\"hi\\""]'), 'say "hi"', 'a backslash takes the next character as it is');
});
