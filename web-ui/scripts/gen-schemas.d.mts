// Types of gen-schemas.mjs for the currency test (src/api/generatedSchemas.test.ts).
/** Contract schema (relative to contracts/schemas) -> generated file name under src/api/generated/. */
export declare const CONTRACTS: Readonly<Record<string, string>>;
/** Writes every generated file into outDir. */
export declare function generate(outDir: string): Promise<void>;
