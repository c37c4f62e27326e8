// The dashboard's initial JavaScript, gzipped, against a budget: every script the built
// index.html loads before the page can run (its module entry and the chunks it preloads), not the
// lazy chunks (the link-history chart). Run after `vite build`; exits 1 over the budget.
// Usage: node scripts/bundle-size.mjs [--dist DIR] [--limit-kb N]   (default: dist, 600)
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { gzipSync } from 'node:zlib';

export const DEFAULT_LIMIT_KB = 600;

/** The JavaScript files index.html loads at once: module scripts and module preloads. */
export function initialScripts(html) {
  const out = new Set();
  for (const tag of html.match(/<(script|link)\b[^>]*>/g) ?? []) {
    const isModule = /^<script\b/.test(tag) && /\btype="module"/.test(tag);
    const isPreload = /^<link\b/.test(tag) && /\brel="modulepreload"/.test(tag);
    const url = /\b(?:src|href)="([^"]+)"/.exec(tag)?.[1];
    if ((isModule || isPreload) && url && !/^[a-z]+:/i.test(url)) out.add(url.replace(/^\//, ''));
  }
  return [...out];
}

/** Each initial script's gzipped size (level 9, as a server would send it) and their total. */
export function initialJsGzip(dist) {
  const files = initialScripts(readFileSync(join(dist, 'index.html'), 'utf8')).map((file) => ({
    file,
    gzipBytes: gzipSync(readFileSync(join(dist, file)), { level: 9 }).length,
  }));
  return { files, totalBytes: files.reduce((n, f) => n + f.gzipBytes, 0) };
}

/** Checks dist against the budget; returns the exit code and prints what it measured. */
export function check(dist, limitKb, log = console.log) {
  const { files, totalBytes } = initialJsGzip(dist);
  if (files.length === 0) {
    log(`bundle-size: ${dist}/index.html loads no module script: nothing measured`);
    return 1;
  }
  for (const f of files) log(`  ${f.file.padEnd(44)} ${(f.gzipBytes / 1000).toFixed(1)} kB gzipped`);
  const kb = totalBytes / 1000;
  const verdict = kb <= limitKb ? 'within' : 'OVER';
  log(`bundle-size: initial JavaScript ${kb.toFixed(1)} kB gzipped, ${verdict} the ${limitKb} kB budget`);
  return kb <= limitKb ? 0 : 1;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { values } = parseArgs({
    options: {
      dist: { type: 'string', default: 'dist' },
      'limit-kb': { type: 'string', default: `${DEFAULT_LIMIT_KB}` },
    },
  });
  process.exitCode = check(values.dist, Number(values['limit-kb']));
}
