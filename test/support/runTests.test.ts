// The test runner itself: a test that leaves a temporary folder behind fails the run, by name.

import { spawnSync } from 'node:child_process';
import path from 'node:path';
import t from 'tap';
import { packageRoot } from '../../server/ground/packageRoot.js';

t.test('a temporary folder left behind is reported and fails the run', async (t) => {
  const root = packageRoot();
  const run = spawnSync(process.execPath, [path.join(root, 'dist', 'test', 'support', 'runTests.js'), 'dist/test/fixtures/leakyTest.js'], { cwd: root, encoding: 'utf8' });
  t.equal(run.status, 1);
  t.match(run.stdout, /not ok - the tests left 1 temporary file\(s\) behind: pp-forgotten-\w+/);
  t.match(run.stdout, /\n\d+ passed, 1 failed\n$/);
});
