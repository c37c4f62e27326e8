// The bundle-size budget check (scripts/bundle-size.mjs) on a built-looking dist/ of known sizes:
// it counts exactly the initial scripts and fails over the budget.
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { check, DEFAULT_LIMIT_KB, initialJsGzip, initialScripts } from '../scripts/bundle-size.mjs';

const html = `<!doctype html><html><head>
  <script type="module" crossorigin src="/assets/index-abc.js"></script>
  <link rel="modulepreload" crossorigin href="/assets/react-def.js">
  <link rel="stylesheet" crossorigin href="/assets/index-ghi.css">
  <script src="https://example.org/analytics.js"></script>
</head><body></body></html>`;

/** A dist/ whose two initial scripts are random bytes (gzip cannot shrink them) of the given sizes. */
function dist(entryKb: number, preloadKb: number) {
  const dir = mkdtempSync(join(tmpdir(), 'weft-bundle-size-'));
  mkdirSync(join(dir, 'assets'));
  writeFileSync(join(dir, 'index.html'), html);
  writeFileSync(join(dir, 'assets/index-abc.js'), randomBytes(entryKb * 1000));
  writeFileSync(join(dir, 'assets/react-def.js'), randomBytes(preloadKb * 1000));
  writeFileSync(join(dir, 'assets/uPlot-lazy.js'), randomBytes(500_000)); // lazy: not counted
  return dir;
}

describe('bundle-size', () => {
  it('counts the module entry and its preloads, not stylesheets, lazy chunks or other origins', () => {
    expect(initialScripts(html)).toEqual(['assets/index-abc.js', 'assets/react-def.js']);
    const { files, totalBytes } = initialJsGzip(dist(100, 50));
    expect(files.map((f) => f.file)).toEqual(['assets/index-abc.js', 'assets/react-def.js']);
    expect(totalBytes).toBeGreaterThan(150_000);
    expect(totalBytes).toBeLessThan(151_000);
  });

  it('passes within the budget and fails over it (a lowered limit)', () => {
    const d = dist(100, 50);
    const lines: string[] = [];
    expect(check(d, DEFAULT_LIMIT_KB, (l) => lines.push(l))).toBe(0);
    expect(lines.at(-1)).toMatch(/initial JavaScript 150\.\d kB gzipped, within the 600 kB budget/);
    expect(check(d, 120, () => undefined)).toBe(1);
  });

  it('exits non-zero from the command line when over the budget', () => {
    const d = dist(100, 50);
    const run = (limit: string) => {
      try {
        execFileSync(process.execPath, ['scripts/bundle-size.mjs', '--dist', d, '--limit-kb', limit], {
          stdio: 'pipe',
        });
        return 0;
      } catch (e) {
        return (e as { status: number }).status;
      }
    };
    expect(run('600')).toBe(0);
    expect(run('149')).toBe(1);
  });
});
