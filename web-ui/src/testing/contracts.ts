// Test-only access to the repository's contracts/ (shared vectors, example fabrics).
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

// A path, not a URL object: under jsdom the global URL is jsdom's, which node:fs does not take.
const CONTRACTS = resolve(dirname(fileURLToPath(import.meta.url)), '../../../contracts');

export function readContract<T>(relativePath: string): T {
  return JSON.parse(readFileSync(resolve(CONTRACTS, relativePath), 'utf8')) as T;
}

export interface UsidVector {
  name: string;
  block: string;
  usids: number[];
  carriers?: string[];
  error?: string;
}

export interface EvEncodeVector {
  name: string;
  n1: number;
  i1: number;
  n2: number;
  i2: number;
  ev?: number;
  ev1?: number;
  ev2?: number;
  error?: string;
}

export interface EvDecodeVector {
  name?: string;
  ev: number;
  n1: number;
  n2: number;
  i1: number;
  i2: number;
}
