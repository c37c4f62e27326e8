// `./weft bench ui`: the dashboard on a large fabric in Debian's chromium. Nothing listens on a
// port: playwright answers the page's requests from the built files and the given fabric.
//  - interactive: the dashboard (dist/) opens on the fabric (served as the controller's GET
//    /fabric): navigation start -> FabricGraph's 'weft:graph-ready' mark, and -> the first
//    animation frame after it (the page draws and answers input). Median of --runs.
//  - storm: the benchmark page (dist-bench/) draws the same fabric with the dashboard's own
//    FabricGraph, then every link direction gets a new load --hz times a second for --seconds:
//    animation-frame deltas (p50/p95/p99/max), new loads -> next frame, long tasks.
//    --storm walk (default): each load moves by at most 1 % per update, as consecutive samples do;
//    --storm random: every load drawn afresh each time (every link changes colour: the worst case).
// Usage: node browser/bench-ui.mjs --fabric FILE [--runs N] [--hz N] [--seconds N] [--storm walk|random] [--json]
import { readdirSync, readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { extname, join, normalize } from 'node:path';
import { parseArgs } from 'node:util';
import { launchChromium } from './chromium.mjs';

const { values: opt } = parseArgs({
  options: {
    fabric: { type: 'string' },
    runs: { type: 'string', default: '3' },
    hz: { type: 'string', default: '10' },
    seconds: { type: 'string', default: '10' },
    storm: { type: 'string', default: 'walk' },
    json: { type: 'boolean', default: false },
  },
});
if (!opt.fabric) throw new Error('--fabric FILE is required');
const fabricBody = readFileSync(opt.fabric, 'utf8');
const fabric = JSON.parse(fabricBody);
const snapshotBody = JSON.stringify({
  schemaVersion: 1,
  fabricId: fabric.id,
  version: 1,
  generatedAt: new Date().toISOString(),
  fabric,
  plan: {},
  linkStates: {},
});
const ORIGIN = 'http://weft.bench';
const TYPES = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css', '.map': 'application/json' };
const here = new URL('..', import.meta.url).pathname;

/** Answers every request of the page: the built files, the fabric, and empty operator reads. */
async function serve(context) {
  await context.route(`${ORIGIN}/**`, async (route) => {
    const path = new URL(route.request().url()).pathname;
    if (path === '/fabric') return route.fulfill({ contentType: 'application/json', body: snapshotBody });
    if (path === '/bench/fabric.json') return route.fulfill({ contentType: 'application/json', body: fabricBody });
    if (path.startsWith('/v1/hotspots'))
      return route.fulfill({ contentType: 'application/json', body: '{"events":[]}' });
    const dir = path === '/bench.html' || path.startsWith('/assets/bench-') ? 'dist-bench' : 'dist';
    const file = normalize(join(here, dir, path === '/' ? 'index.html' : path));
    try {
      return await route.fulfill({
        contentType: TYPES[extname(file)] ?? 'application/octet-stream',
        body: readFileSync(file),
      });
    } catch {
      // dist-bench holds the shared chunks too
      try {
        return await route.fulfill({
          body: readFileSync(normalize(join(here, 'dist-bench', path))),
          contentType: TYPES[extname(file)],
        });
      } catch {
        return route.fulfill({ status: 404, body: '' });
      }
    }
  });
}

/**
 * CPU seconds used so far by every process under this one (chromium's browser, renderer and GPU
 * processes), from /proc: unlike wall time, barely inflated by what else the machine runs.
 */
function browserCpuMs() {
  const parent = new Map();
  const cpu = new Map();
  for (const d of readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const stat = readFileSync(`/proc/${d}/stat`, 'utf8');
      const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      parent.set(Number(d), Number(f[1]));
      cpu.set(Number(d), Number(f[11]) + Number(f[12]));
    } catch {
      // the process ended while we read
    }
  }
  let ticks = 0;
  for (const [pid, t] of cpu) {
    for (let p = parent.get(pid); p !== undefined && p > 1; p = parent.get(p)) {
      if (p === process.pid) {
        ticks += t;
        break;
      }
    }
  }
  return (ticks * 1000) / 100; // USER_HZ is 100 on Linux
}

const pct = (xs, p) => {
  if (xs.length === 0) return null;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)];
};
const r1 = (x) => (x === null ? null : Math.round(x * 10) / 10);

async function graphReady(page) {
  await page.waitForFunction(() => performance.getEntriesByName('weft:graph-ready').length > 0, undefined, {
    timeout: 120_000,
  });
  return page.evaluate(
    () =>
      new Promise((resolve) => {
        const mark = performance.getEntriesByName('weft:graph-ready')[0];
        requestAnimationFrame(() => {
          resolve({
            readyMs: mark.startTime,
            frameMs: performance.now(),
            edges: mark.detail?.edges,
            nodes: mark.detail?.nodes,
          });
        });
      }),
  );
}

const browser = await launchChromium();
try {
  await serve(browser.context);
  const runs = [];
  for (let i = 0; i < Number(opt.runs); i++) {
    const page = await browser.context.newPage();
    const cpu0 = browserCpuMs();
    await page.goto(`${ORIGIN}/`);
    runs.push({ ...(await graphReady(page)), cpuMs: browserCpuMs() - cpu0 });
    await page.close();
  }
  const page = await browser.context.newPage();
  await page.goto(`${ORIGIN}/bench.html`);
  const benchReady = await graphReady(page);
  const stormCpu0 = browserCpuMs();
  // Settle first: the page's own first draw is not part of the updates' frames.
  await page.waitForTimeout(2000);
  const storm = await page.evaluate(
    ([hz, s, kind]) => window.weftBench.storm(hz, s, kind),
    [Number(opt.hz), Number(opt.seconds), opt.storm],
  );
  const stormCpuMs = browserCpuMs() - stormCpu0;
  const frames = storm.frames.slice(1);
  const result = {
    fabric: fabric.id,
    nodes: runs[0].nodes,
    edges: runs[0].edges,
    runs: runs.length,
    graph_ready_ms: r1(
      pct(
        runs.map((r) => r.readyMs),
        50,
      ),
    ),
    interactive_ms: r1(
      pct(
        runs.map((r) => r.frameMs),
        50,
      ),
    ),
    interactive_max_ms: r1(Math.max(...runs.map((r) => r.frameMs))),
    interactive_browser_cpu_ms: r1(
      pct(
        runs.map((r) => r.cpuMs),
        50,
      ),
    ),
    bench_page_interactive_ms: r1(benchReady.frameMs),
    storm: opt.storm,
    first_colour_ms: r1(storm.firstColourMs),
    update_hz: Number(opt.hz),
    storm_seconds: Number(opt.seconds),
    updates: storm.updates,
    link_directions_per_update: fabric.links.length * 2,
    frames: frames.length,
    fps: r1(frames.length / Number(opt.seconds)),
    frame_p50_ms: r1(pct(frames, 50)),
    frame_p95_ms: r1(pct(frames, 95)),
    frame_p99_ms: r1(pct(frames, 99)),
    frame_max_ms: r1(Math.max(...frames)),
    update_to_frame_p50_ms: r1(pct(storm.updateToFrameMs, 50)),
    update_to_frame_p99_ms: r1(pct(storm.updateToFrameMs, 99)),
    storm_browser_cpu_ms_per_update: r1(stormCpuMs / Math.max(1, storm.updates)),
    long_tasks: storm.longTasks.length,
    long_task_total_ms: r1(storm.longTasks.reduce((a, b) => a + b, 0)),
    loadavg: loadavg().map((x) => r1(x)),
  };
  if (opt.json) console.log(JSON.stringify(result));
  else {
    console.log(`fabric ${result.fabric}: ${result.nodes} nodes, ${result.edges} links`);
    for (const [k, v] of Object.entries(result))
      if (!['fabric', 'nodes', 'edges'].includes(k))
        console.log(`  ${k.padEnd(28)} ${Array.isArray(v) ? v.join(' ') : v}`);
  }
} finally {
  await browser.close();
}
