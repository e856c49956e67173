// Debian's Chromium driven by playwright-core (no browser download), for the playground's browser
// tests and `npm run screenshots`: headless, no network but what the page asks for, a fresh profile.
// Plain JavaScript so that scripts/ and the TypeScript tests share it.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const CHROMIUM_MISSING = `Chromium is missing (${CHROMIUM}): the playground's browser tests and \`npm run screenshots\` drive Debian's chromium with playwright-core. Install it: apt-get install -y chromium (or set CHROMIUM_PATH to a Chromium binary); \`bash .ci/run\` installs it.`;

const FLAGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-quic',
  '--no-first-run',
  '--disable-component-update',
  '--disable-sync',
  '--disable-default-apps',
  '--no-default-browser-check',
];

export async function launchChromium(options = {}) {
  if (!existsSync(CHROMIUM)) throw new Error(CHROMIUM_MISSING);
  const profile = mkdtempSync(path.join(os.tmpdir(), 'isvc-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: FLAGS,
    viewport: options.viewport ?? { width: 1600, height: 1000 },
    deviceScaleFactor: options.deviceScaleFactor ?? 1,
  });
  const page = context.pages()[0] ?? (await context.newPage());
  return {
    context,
    page,
    close: async () => {
      await context.close().catch(() => undefined);
      rmSync(profile, { recursive: true, force: true });
    },
  };
}
