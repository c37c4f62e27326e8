// An axe-core scan of the page as it is now: axe's own source injected into the page, WCAG 2.x
// A and AA rules; the serious and critical violations are returned for the caller to judge.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

export async function axeScan(page) {
  if (!(await page.evaluate(() => 'axe' in window))) await page.addScriptTag({ content: axeSource });
  const result = await page.evaluate(() =>
    window.axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] } }),
  );
  const bad = result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  return {
    passes: result.passes.length,
    violations: result.violations.length,
    serious: bad.map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      nodes: v.nodes.slice(0, 3).map((n) => n.target.join(' ')),
    })),
  };
}
