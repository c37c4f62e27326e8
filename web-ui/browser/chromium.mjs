// Debian's chromium driven by playwright-core (FACTS.md §5): never a downloaded browser, a fresh
// profile per run, and the flags that make it quiet and headless on a shared machine.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';

export const CHROMIUM = process.env.WEFT_CHROMIUM ?? '/usr/bin/chromium';

const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-dev-shm-usage',
];

/** Starts chromium with a throw-away profile; `close()` stops it and removes the profile. */
export async function launchChromium({ width = 1400, height = 900 } = {}) {
  const profile = mkdtempSync(join(tmpdir(), 'weft-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: ARGS,
    viewport: { width, height },
  });
  return {
    context,
    page: context.pages()[0] ?? (await context.newPage()),
    async close() {
      await context.close().catch(() => undefined);
      rmSync(profile, { recursive: true, force: true });
    },
  };
}
