// Generates TypeScript types from the JSON Schemas of the contracts the dashboard reads
// (contracts/schemas/*.schema.json, with their $refs to contracts/fabric.schema.json), one file
// per contract under src/api/generated/. `npm run gen:schemas` writes them; the currency test
// (src/api/generatedSchemas.test.ts) writes them to a temporary folder and compares.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { compileFromFile } from 'json-schema-to-typescript';

const HERE = dirname(fileURLToPath(import.meta.url));
const SCHEMAS = resolve(HERE, '../../contracts/schemas');

/** Contract schema (relative to contracts/schemas) -> generated file name. */
export const CONTRACTS = {
  'fabric-snapshot.schema.json': 'fabric-snapshot.ts',
  'hotspot-event.schema.json': 'hotspot-event.ts',
  'link-load.schema.json': 'link-load.ts',
};

/** Type names: the schemas' titles describe the topic, the dashboard wants the contract's name. */
const NAMES_BY_ID = {
  'https://weft.io/contracts/fabric.schema.json': 'Fabric',
  'https://weft.io/contracts/schemas/fabric-snapshot.schema.json': 'FabricSnapshot',
  'https://weft.io/contracts/schemas/fabric-plan.schema.json': 'FabricPlan',
  'https://weft.io/contracts/schemas/hotspot-event.schema.json': 'HotspotEvent',
  'https://weft.io/contracts/schemas/link-load.schema.json': 'LinkLoad',
};

/** Types without an $id keep the generator's name from their $ref (Node, Link, Endpoint...). */
function customName(schema) {
  return NAMES_BY_ID[schema.$id];
}

export async function generate(outDir) {
  mkdirSync(outDir, { recursive: true });
  for (const [schema, file] of Object.entries(CONTRACTS)) {
    const ts = await compileFromFile(join(SCHEMAS, schema), {
      cwd: SCHEMAS,
      bannerComment: `// Generated from contracts/schemas/${schema} by \`npm run gen:schemas\`: do not edit.`,
      // The schemas close every object (additionalProperties: false); keep the types closed too.
      additionalProperties: false,
      format: false,
      customName,
      // Offline: every $ref is a relative file path under contracts/.
      $refOptions: { resolve: { http: false } },
    });
    writeFileSync(join(outDir, file), ts);
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  await generate(process.argv[2] ?? resolve(HERE, '../src/api/generated'));
}
