// The generated types must match the committed contracts: regenerate into a temp file and compare,
// so a contract change without `npm run gen:api` fails here instead of drifting silently.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

describe.each(['scheduler-api', 'telemetry-collector'])('src/api/generated/%s.ts', (name) => {
  it(`is what openapi-typescript makes of contracts/openapi/${name}.yaml today`, () => {
    const out = join(mkdtempSync(join(tmpdir(), 'weft-gen-')), `${name}.ts`);
    execFileSync('node_modules/.bin/openapi-typescript', [`../contracts/openapi/${name}.yaml`, '-o', out], {
      stdio: 'pipe',
    });
    const committed = readFileSync(`src/api/generated/${name}.ts`, 'utf8');
    expect(committed, 'run `npm run gen:api` and commit the result').toBe(readFileSync(out, 'utf8'));
  }, 30_000);
});
