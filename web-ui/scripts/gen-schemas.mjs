// Generates code from the JSON Schemas of the contracts the dashboard reads (contracts/schemas/,
// with their $refs to contracts/fabric.schema.json) into src/api/generated/:
// - TypeScript types for the contracts no OpenAPI carries (the controller's fabric snapshot);
//   link loads and hotspot events get theirs from the collector's OpenAPI, which $refs the same
//   schemas (`npm run gen:api`), so each type is generated once;
// - validators (Ajv standalone code) for the Kafka-shaped values the dashboard receives, so a
//   reader checks exactly what the schema says instead of a hand-kept copy of it.
// `npm run gen:schemas` writes them; the currency test (src/api/generatedSchemas.test.ts) writes
// them to a temporary folder and compares.
import { mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import Ajv2020 from 'ajv/dist/2020.js';
import standaloneCode from 'ajv/dist/standalone/index.js';
import { compileFromFile } from 'json-schema-to-typescript';

const HERE = dirname(fileURLToPath(import.meta.url));
const SCHEMAS = resolve(HERE, '../../contracts/schemas');

/** Contract schema (relative to contracts/schemas) -> generated file name. */
export const CONTRACTS = {
  'fabric-snapshot.schema.json': 'fabric-snapshot.ts',
};

/** Validator name -> the schema it checks and the generated type (from the collector's OpenAPI) it proves. */
const VALIDATORS = {
  validateLinkLoad: ['link-load.schema.json', 'LinkLoad'],
  validateHotspotEvent: ['hotspot-event.schema.json', 'HotspotEvent'],
};
const VALIDATORS_FILE = 'contract-validators';

/** Every file this script writes under the output folder. */
export const FILES = [...Object.values(CONTRACTS), `${VALIDATORS_FILE}.js`, `${VALIDATORS_FILE}.d.ts`];

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
  writeValidators(outDir);
}

/**
 * RFC 3339 date-time by its shape (the Java readers also check the calendar). A RegExp format is
 * inlined into the standalone code; ajv-formats' would be loaded at run time through require(),
 * which an ES module bundle cannot do.
 */
const DATE_TIME = /^\d{4}-\d\d-\d\d[Tt]\d\d:\d\d:\d\d(?:\.\d+)?(?:[Zz]|[+-]\d\d:\d\d)$/;

/**
 * One ES module of Ajv standalone validators (every keyword of the schemas: types, ranges, patterns,
 * enums, formats, required and unknown fields) and its type declarations.
 */
function writeValidators(outDir) {
  const ajv = new Ajv2020({
    strict: true,
    // The flow-report schema's oneOf names required fields per branch without redefining them.
    strictRequired: false,
    // ipv6 is only in schemas compiled along (flow reports), never validated by the dashboard.
    formats: { 'date-time': DATE_TIME, ipv6: true },
    // String lengths in UTF-16 units, so the standalone code needs no runtime helper (ids are ASCII).
    unicode: false,
    logger: false,
    code: { source: true, esm: true },
  });
  ajv.addSchema(JSON.parse(readFileSync(resolve(SCHEMAS, '../fabric.schema.json'), 'utf8')));
  for (const file of readdirSync(SCHEMAS).sort()) {
    ajv.addSchema(JSON.parse(readFileSync(join(SCHEMAS, file), 'utf8')));
  }
  const refs = Object.fromEntries(
    Object.entries(VALIDATORS).map(([name, [schema]]) => [name, `https://weft.io/contracts/schemas/${schema}`]),
  );
  const code = standaloneCode(ajv, refs);
  if (/\brequire\(/.test(code)) throw new Error('standalone validators need a runtime require(): not loadable as ESM');
  const from = Object.values(VALIDATORS)
    .map(([schema]) => schema)
    .join(', ');
  writeFileSync(
    join(outDir, `${VALIDATORS_FILE}.js`),
    `// Generated from contracts/schemas/ (${from}) by \`npm run gen:schemas\`: do not edit.\n${code}\n`,
  );
  const decls = Object.entries(VALIDATORS).map(
    ([name, [, type]]) => `export declare const ${name}: ValidateFunction<components['schemas']['${type}']>;`,
  );
  writeFileSync(
    join(outDir, `${VALIDATORS_FILE}.d.ts`),
    [
      `// Generated by \`npm run gen:schemas\`: do not edit. Types from the collector's OpenAPI (npm run gen:api).`,
      `import type { ValidateFunction } from 'ajv';`,
      `import type { components } from './telemetry-collector';`,
      ...decls,
      '',
    ].join('\n'),
  );
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  await generate(process.argv[2] ?? resolve(HERE, '../src/api/generated'));
}
