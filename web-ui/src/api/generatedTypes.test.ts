// The generated types must match the committed contract: regenerate into a temp file and compare,
// so a contract change without `npm run gen:api` fails here instead of drifting silently.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

describe('src/api/generated/scheduler-api.ts', () => {
  it('is what openapi-typescript makes of contracts/openapi/scheduler-api.yaml today', () => {
    const out = join(mkdtempSync(join(tmpdir(), 'weft-gen-')), 'scheduler-api.ts');
    execFileSync('node_modules/.bin/openapi-typescript', ['../contracts/openapi/scheduler-api.yaml', '-o', out], {
      stdio: 'pipe',
    });
    const committed = readFileSync('src/api/generated/scheduler-api.ts', 'utf8');
    expect(committed, 'run `npm run gen:api` and commit the result').toBe(readFileSync(out, 'utf8'));
  }, 30_000);
});
