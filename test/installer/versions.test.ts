// Release order decides whether an upgrade moves forward: numeric parts, and a pre-release before its release.

import t from 'tap';
import { compareVersions, isVersion } from '../../installer/versions.js';

t.test('versions compare by number, not as text', async (t) => {
  const cases: Array<[string, string, number]> = [
    ['0.1.0', '0.2.0', -1],
    ['0.10.0', '0.9.9', 1], // text order would say the opposite
    ['1.0.0', '1.0.0', 0],
    ['2.0.0', '10.0.0', -1],
    ['1.2.0-rc.1', '1.2.0', -1],
    ['1.2.0', '1.2.0-rc.1', 1],
    ['1.2.0-rc.1', '1.2.0-rc.2', -1],
  ];
  for (const [a, b, sign] of cases) t.equal(Math.sign(compareVersions(a, b)), sign, `${a} vs ${b}`);
});

t.test('only MAJOR.MINOR.PATCH with an optional suffix is a version', async (t) => {
  for (const v of ['1.2.3', '0.0.1', '1.2.3-beta.1']) t.ok(isVersion(v), v);
  for (const v of ['1.2', 'v1.2.3', '1.2.3.4', '../1.2.3', '']) t.notOk(isVersion(v), v);
  t.throws(() => compareVersions('1.2', '1.2.3'), /not a version number: 1\.2/);
});
