// The types and validators generated from the JSON Schemas must match the committed contracts: regenerate into a
// temp folder and compare, so a schema change without `npm run gen:schemas` fails here.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FILES, generate } from '../../scripts/gen-schemas.mjs';

describe('src/api/generated/ from contracts/schemas', () => {
  it('is what gen:schemas makes of the schemas today (types, validators)', async () => {
    const out = mkdtempSync(join(tmpdir(), 'weft-gen-schemas-'));
    await generate(out);
    const files = FILES;
    expect(files.length).toBeGreaterThan(0);
    for (const file of files) {
      expect(readFileSync(join('src/api/generated', file), 'utf8'), `${file}: run \`npm run gen:schemas\``).toBe(
        readFileSync(join(out, file), 'utf8'),
      );
    }
  }, 30_000);
});
