// Launches Debian's chromium through playwright-core for the browser tests (tracker and console), with
// flags that keep it headless, quiet and off the network.
import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

export const CHROMIUM_PATH = process.env.PP_CHROMIUM_PATH || '/usr/bin/chromium';

export const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

export interface LaunchOptions {
  // playwright turns the back/forward cache off by default; tests of bfcache restores
  // need it back.
  bfcache?: boolean;
}

// A missing browser fails the test that needs it, with the fix in the message: the browser
// tests are part of the suite, not optional extras (CI installs chromium first).
export async function launchChromium(opts: LaunchOptions = {}): Promise<Browser> {
  if (!existsSync(CHROMIUM_PATH)) throw new Error(`chromium not found at ${CHROMIUM_PATH} (apt-get install chromium, or set PP_CHROMIUM_PATH)`);
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: CHROMIUM_ARGS,
    headless: true,
    ignoreDefaultArgs: opts.bfcache ? ['--disable-back-forward-cache'] : undefined,
  });
}
