// Builds the console into dist/console: hashed file names under assets/ (served immutably), one
// index.html and the session player's replay-frame.html, no inline script or style (the server's CSP allows neither).
import { defineConfig } from 'vite';
import preact from '@preact/preset-vite';
import { readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { fileURLToPath } from 'node:url';

const here = fileURLToPath(new URL('.', import.meta.url));

/** The tracker version this checkout ships (the highest built one): the snippet pins it. */
function trackerVersion(): string {
  const versions = readdirSync(new URL('../sdk/browser/dist', import.meta.url)).filter((v) => /^\d+\.\d+\.\d+$/.test(v));
  const newest = versions.sort((a, b) => a.localeCompare(b, 'en', { numeric: true })).pop();
  if (!newest) throw new Error('build the tracker (sdk/browser) before the console');
  return newest;
}

/** Text files worth compressing: the server sends these `.br` / `.gz` twins to browsers that accept them. */
const COMPRESSIBLE = /\.(js|css|html|svg|json)$/;
const MIN_BYTES = 1024;

/** Writes a brotli (best) and a gzip (best) twin beside every built text file, once at build time. */
function precompress(dir: string): void {
  for (const name of readdirSync(dir)) {
    const full = path.join(dir, name);
    // Only what the build wrote: the root's pages and assets/, not the compiled modules beside them.
    if (statSync(full).isDirectory()) {
      if (name === 'assets') precompress(full);
    } else if (COMPRESSIBLE.test(name) && statSync(full).size >= MIN_BYTES) {
      const body = readFileSync(full);
      writeFileSync(`${full}.br`, brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }));
      writeFileSync(`${full}.gz`, gzipSync(body, { level: 9 }));
    }
  }
}

const outDir = fileURLToPath(new URL('../dist/console', import.meta.url));

/**
 * Clears what an earlier build wrote (stale hashed assets), leaving the rest of dist/console: the
 * server's compile puts the console modules the tests import (dist/console/src) there first.
 */
function clearEarlierBuild(): void {
  rmSync(path.join(outDir, 'assets'), { recursive: true, force: true });
  for (const name of ['index.html', 'replay-frame.html'].flatMap((n) => [n, `${n}.br`, `${n}.gz`])) rmSync(path.join(outDir, name), { force: true });
}

export default defineConfig({
  root: here,
  base: '/',
  plugins: [
    preact({ prefreshEnabled: false, devToolsEnabled: false }),
    { name: 'pp-clear', apply: 'build', buildStart: clearEarlierBuild },
    { name: 'pp-precompress', apply: 'build', closeBundle: () => precompress(outDir) },
  ],
  logLevel: 'warn',
  define: { __TRACKER_VERSION__: JSON.stringify(trackerVersion()) },
  build: {
    outDir,
    emptyOutDir: false,
    assetsDir: 'assets',
    assetsInlineLimit: 0,
    sourcemap: false,
    target: 'es2022',
    reportCompressedSize: false,
    modulePreload: { polyfill: false },
    // The console, and the frame its session player runs in (under a CSP of its own).
    rollupOptions: { input: { index: path.join(here, 'index.html'), frame: path.join(here, 'replay-frame.html') } },
  },
  server: {
    proxy: { '/api': 'http://127.0.0.1:8080', '/v1': 'http://127.0.0.1:8080' },
  },
});
