// Types of bundle-size.mjs for its test (src/bundleSize.test.ts).
export declare const DEFAULT_LIMIT_KB: number;
export declare function initialScripts(html: string): string[];
export declare function initialJsGzip(dist: string): {
  files: { file: string; gzipBytes: number }[];
  totalBytes: number;
};
export declare function check(dist: string, limitKb: number, log?: (line: string) => void): number;
