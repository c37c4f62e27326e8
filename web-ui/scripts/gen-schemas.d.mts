// Types of gen-schemas.mjs for the currency test (src/api/generatedSchemas.test.ts).
/** Contract schema (relative to contracts/schemas) -> generated type file under src/api/generated/. */
export declare const CONTRACTS: Readonly<Record<string, string>>;
/** Every file generate() writes (types and validators), relative to its output folder. */
export declare const FILES: readonly string[];
/** Writes every generated file into outDir. */
export declare function generate(outDir: string): Promise<void>;
