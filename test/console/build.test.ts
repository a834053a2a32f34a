// The console build: the JavaScript a first visit loads (the entry and what it preloads) stays
// within 150 KB gzipped, and the API types the console is written against are those of the
// served OpenAPI document (regenerate with `npm run console:api`).

import t from 'tap';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { consoleDir } from '../../server/http/consoleSite.js';
import { packageRoot } from '../../server/ground/packageRoot.js';

const BUDGET_BYTES = 150 * 1024;

t.test('initial JavaScript within budget', async (t) => {
  const index = readFileSync(path.join(consoleDir(), 'index.html'), 'utf8');
  const initial = [...index.matchAll(/<(?:script[^>]*\bsrc|link[^>]*rel="modulepreload"[^>]*\bhref)="([^"]+\.js)"/g)].map((m) => m[1]!);
  t.ok(initial.length >= 1, 'index.html loads an entry script');
  const sizes = initial.map((src) => gzipSync(readFileSync(path.join(consoleDir(), src)), { level: 9 }).length);
  const total = sizes.reduce((a, b) => a + b, 0);
  t.ok(total <= BUDGET_BYTES, `initial JavaScript ${(total / 1024).toFixed(1)} KB gzipped (budget ${BUDGET_BYTES / 1024} KB): ${initial.join(', ')}`);
});

t.test('console/src/api/schema.d.ts matches the served OpenAPI document', async (t) => {
  const { apiTypes } = (await import(path.join(packageRoot(), 'console', 'scripts', 'apiTypes.mjs'))) as { apiTypes(): Promise<string> };
  const checkedIn = readFileSync(path.join(packageRoot(), 'console', 'src', 'api', 'schema.d.ts'), 'utf8');
  t.ok(checkedIn === (await apiTypes()), 'up to date (else run `npm run console:api` and commit the file)');
});
