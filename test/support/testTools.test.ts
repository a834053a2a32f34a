// The suite's own programs: how missing ones get installed, and that nothing is touched when all are there.

import path from 'node:path';
import t from 'tap';
import { ensureTestTools, installPlan } from './testTools.js';

t.test('missing packages are installed with apt-get as root, through sudo otherwise', async (t) => {
  t.same(installPlan([], false, false), []);
  t.same(installPlan(['chromium'], true, false), [
    ['apt-get', 'update', '-qq'],
    ['apt-get', 'install', '-y', '-qq', 'chromium'],
  ]);
  t.same(installPlan(['chromium'], false, true), [
    ['sudo', '-n', 'apt-get', 'update', '-qq'],
    ['sudo', '-n', 'apt-get', 'install', '-y', '-qq', 'chromium'],
  ]);
  t.equal(installPlan(['chromium'], false, false), 'the tests need chromium: run `sudo apt-get install chromium` once, then npm test again');
});

t.test('tools already present install nothing', async (t) => {
  t.equal(ensureTestTools([{ path: process.execPath, debianPackage: 'no-such-package-pp' }]), null);
});

t.test('a path the environment chose is never installed over', async (t) => {
  const gone = path.join(t.testdirName, 'no-browser-here');
  t.equal(ensureTestTools([{ path: gone, debianPackage: 'chromium', pinnedBy: 'PP_CHROMIUM_PATH' }]), `PP_CHROMIUM_PATH names ${gone}, which does not exist`);
});
