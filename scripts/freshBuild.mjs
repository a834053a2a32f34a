// `npm run build` unless the build in dist/ was made from the tree as it is now. `npm install` builds
// (prepare) and `npm test` builds again before it runs the tests: on a fresh clone the second build
// repeated the first, minutes of a two-core machine. The tree's files (every one but the build's
// outputs, the installed packages and local data) are hashed before building, and the hash is kept
// in dist/ once the build succeeds; a changed, added or removed file builds again.

import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const STAMP = path.join(root, 'dist', '.build-inputs');
/** Folders that are not inputs of the build, relative to the root. */
const SKIPPED = new Set(['node_modules', 'dist', '.git', '.tap', '.pp-data', 'coverage', 'sdk/browser/dist']);

function hashTree() {
  const hash = createHash('sha256');
  const walk = (rel) => {
    for (const entry of readdirSync(path.join(root, rel), { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const name = rel ? `${rel}/${entry.name}` : entry.name;
      if (entry.isDirectory()) {
        if (!SKIPPED.has(name)) walk(name);
      } else if (entry.isFile() && !entry.name.endsWith('.log')) {
        hash.update(`${name}\0`);
        hash.update(readFileSync(path.join(root, name)));
        hash.update('\0');
      }
    }
  };
  walk('');
  return hash.digest('hex');
}

const inputs = hashTree();
if (existsSync(STAMP) && readFileSync(STAMP, 'utf8') === inputs) {
  console.log('build: dist/ is current');
} else {
  const built = spawnSync('npm', ['run', 'build', '--silent'], { cwd: root, stdio: 'inherit' });
  if (built.status !== 0) process.exit(built.status ?? 1);
  writeFileSync(STAMP, inputs);
}
