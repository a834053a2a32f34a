// Writes console/src/api/schema.d.ts: the TypeScript types of the served OpenAPI document, so the
// console's API client is typed from the one description of the API. Run after the server is
// compiled (`npm run console:api`); test/console/apiTypes.test.ts fails when the file is stale.
//
//   node console/scripts/apiTypes.mjs [--out FILE]

import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import openapiTS, { astToString } from 'openapi-typescript';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '..', '..');

export async function apiTypes() {
  const { apiDocument } = await import(path.join(root, 'dist', 'server', 'app.js'));
  // The version is left out so that a release bump does not make the types stale.
  const doc = apiDocument('0.0.0');
  // A property with a default may be left out of a request: it is typed optional, so a query body
  // is typed as the console sends it, without the server's defaults spelled out.
  const ast = await openapiTS(doc, { alphabetize: true, defaultNonNullable: false });
  return `// Generated from the OpenAPI document by console/scripts/apiTypes.mjs; do not edit.\n\n${astToString(ast)}`;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const at = process.argv.indexOf('--out');
  const out = at > 0 ? process.argv[at + 1] : path.join(root, 'console', 'src', 'api', 'schema.d.ts');
  writeFileSync(out, await apiTypes());
}
