// The supervised server's log file: rotation by size only at line ends, a bounded number of old
// files, and reading the last lines for `ppctl logs`.

import t from 'tap';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { LogFile, tailFile } from '../../installer/logFile.js';
import { tempDir } from '../support/tempDir.js';

t.test('rotates after a full line once the size is reached, keeping a fixed number of files', async (t) => {
  const file = path.join(await tempDir(t), 'pp.log');
  const log = new LogFile(file, 100, 2);
  log.write('x'.repeat(60));
  log.write('y'.repeat(60)); // over the limit, but the line is not finished: no rotation mid-line
  t.notOk(existsSync(`${file}.1`));
  log.write('\n');
  t.equal(readFileSync(`${file}.1`, 'utf8'), 'x'.repeat(60) + 'y'.repeat(60) + '\n');
  t.equal(readFileSync(file, 'utf8'), '');
  for (const c of ['a', 'b', 'c']) log.write(c.repeat(120) + '\n');
  log.close();
  t.equal(readFileSync(`${file}.1`, 'utf8'), 'c'.repeat(120) + '\n', 'newest rotated file is .1');
  t.equal(readFileSync(`${file}.2`, 'utf8'), 'b'.repeat(120) + '\n');
  t.notOk(existsSync(`${file}.3`), 'only two old files are kept');
});

t.test('supervisor lines are JSON in the server log format', async (t) => {
  const file = path.join(await tempDir(t), 'pp.log');
  const log = new LogFile(file);
  log.line('warn', 'the server exited unexpectedly', { code: 1 });
  log.close();
  const line = JSON.parse(readFileSync(file, 'utf8'));
  t.match(line, { level: 40, component: 'supervisor', code: 1, msg: 'the server exited unexpectedly' });
});

t.test('tailFile returns the last lines, also across its read blocks', async (t) => {
  const file = path.join(await tempDir(t), 'pp.log');
  t.same(tailFile(file, 5), [], 'no file, no lines');
  const lines = Array.from({ length: 20_000 }, (_, i) => `line ${i} ${'-'.repeat(20)}`);
  writeFileSync(file, lines.join('\n') + '\n');
  t.same(tailFile(file, 3), lines.slice(-3));
  t.same(tailFile(file, 5000), lines.slice(-5000), 'more than one 64 KiB block');
  t.same(tailFile(file, 0), []);
});
