// The sign-in redirect check (console/src/auth/safeNext.ts): only a path on the console's own origin
// is followed; every form a browser could read as another origin, or would rewrite first, gives `/`.

import t from 'tap';
import { DEFAULT_PAGE, safeNext } from '../../console/src/auth/safeNext.js';

const ORIGIN = 'https://pp.example.com';

const REFUSED: Array<[string, string]> = [
  ['//evil.example', 'protocol-relative'],
  ['///evil.example', 'three slashes'],
  ['/\\evil.example', 'slash backslash: browsers read \\ as /'],
  ['\\/evil.example', 'backslash slash'],
  ['\\\\evil.example', 'two backslashes'],
  ['/x\\y', 'a backslash anywhere'],
  ['/\t/evil.example', 'a tab, which browsers drop'],
  ['/\n/evil.example', 'a newline, which browsers drop'],
  ['/\r/evil.example', 'a carriage return'],
  ['/\u0000/evil.example', 'a NUL'],
  ['/\u007f', 'DEL'],
  ['/a b', 'a space'],
  ['/\u00a0/evil.example', 'a no-break space'],
  ['/\u2028x', 'a line separator'],
  [' /x', 'a leading space'],
  ['/x ', 'a trailing space'],
  ['/%2Fevil.example', 'an encoded slash first'],
  ['/%2fevil.example', 'an encoded slash first, lower case'],
  ['/%5Cevil.example', 'an encoded backslash first'],
  ['/%5cevil.example', 'an encoded backslash first, lower case'],
  ['https://evil.example', 'an absolute URL'],
  ['https://pp.example.com/projects', 'an absolute URL, even to this origin'],
  ['http:/evil.example', 'a scheme with one slash'],
  ['javascript:alert(1)', 'javascript:'],
  ['JavaScript:alert(1)//', 'javascript: in another case'],
  ['data:text/html,<script>alert(1)</script>', 'data:'],
  ['evil.example', 'no leading slash'],
  ['projects/1', 'a relative path'],
  ['', 'empty'],
  ['?next=x', 'a query only'],
  ['#x', 'a fragment only'],
  [`/${'a'.repeat(2048)}`, 'longer than 2048 characters'],
];

const KEPT = ['/', '/projects/7/keys', '/projects/7/insights?kind=funnel&date_from=2026-10-01', '/dashboards#tile-3', '/a/%2Fb', '/search?q=a%20b', '/org/billing?next=//evil.example'];

t.test('every form that could leave the origin falls back to the home page', async (t) => {
  for (const [next, why] of REFUSED) t.equal(safeNext(next, ORIGIN), DEFAULT_PAGE, why);
  t.equal(safeNext(undefined, ORIGIN), DEFAULT_PAGE, 'no next at all');
});

t.test('a path of this origin is kept as it is', async (t) => {
  for (const next of KEPT) t.equal(safeNext(next, ORIGIN), next, next);
});
