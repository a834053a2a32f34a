// Builds the console into dist/console: hashed file names under assets/ (served immutably), one
// index.html, no inline script or style (the server's CSP allows neither).
import { defineConfig } from 'vite';
import preact from '@preact/preset-vite';
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const here = fileURLToPath(new URL('.', import.meta.url));

/** The tracker version this checkout ships (the highest built one): the snippet pins it. */
function trackerVersion(): string {
  const versions = readdirSync(new URL('../sdk/browser/dist', import.meta.url)).filter((v) => /^\d+\.\d+\.\d+$/.test(v));
  const newest = versions.sort((a, b) => a.localeCompare(b, 'en', { numeric: true })).pop();
  if (!newest) throw new Error('build the tracker (sdk/browser) before the console');
  return newest;
}

export default defineConfig({
  root: here,
  base: '/',
  plugins: [preact({ prefreshEnabled: false, devToolsEnabled: false })],
  logLevel: 'warn',
  define: { __TRACKER_VERSION__: JSON.stringify(trackerVersion()) },
  build: {
    outDir: fileURLToPath(new URL('../dist/console', import.meta.url)),
    emptyOutDir: true,
    assetsDir: 'assets',
    assetsInlineLimit: 0,
    sourcemap: false,
    target: 'es2022',
    reportCompressedSize: false,
    modulePreload: { polyfill: false },
  },
  server: {
    proxy: { '/api': 'http://127.0.0.1:8080', '/v1': 'http://127.0.0.1:8080' },
  },
});
