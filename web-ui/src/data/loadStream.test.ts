// The load stream against a real HTTP server speaking SSE (node:http), read with the real fetch.
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { withToken } from '../api/withToken';
import { openLoadStream } from './loadStream';
import { initialLoadState, loadReducer, loadStreamPosition, type LoadAction } from './loadState';

let server: Server | undefined;
afterEach(() => {
  server?.closeAllConnections();
  server?.close();
  server = undefined;
});

async function sseServer(script: { status: number; body: string }[]) {
  const seen: { url: string; headers: IncomingHttpHeaders }[] = [];
  server = createServer((req, res) => {
    seen.push({ url: req.url ?? '', headers: req.headers });
    const step = script[Math.min(seen.length - 1, script.length - 1)]!;
    res.writeHead(step.status, { 'Content-Type': step.status === 200 ? 'text/event-stream' : 'text/plain' });
    res.end(step.body);
  });
  await new Promise<void>((r) => server!.listen(0, '127.0.0.1', r));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const fetchFn: typeof fetch = (input, init) =>
    fetch(`${base}${input instanceof Request ? input.url : input.toString()}`, init);
  return { seen, fetchFn };
}

const until = async (cond: () => boolean, ms = 3000) => {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 10));
  }
};

const load = (linkId: string, toNode: string, utilisation: number, ts: string) =>
  JSON.stringify({
    schemaVersion: 1,
    fabricId: 'f',
    linkId,
    toNode,
    timestampNs: ts,
    rateGbps: 400 * utilisation,
    capacityGbps: 400,
    utilisation,
    dropRate: 0.01,
    ecnFraction: null,
    operStatus: 'UP',
    hot: false,
  });

const snapshot = (seq: number, loads: string[]) =>
  `event: snapshot\nid: e1:${seq}\ndata: {"schemaVersion":1,"epoch":"e1","seq":${seq},"loads":[${loads.join(',')}]}\n\n`;
const delta = (from: number, seq: number, loads: string[], removed: string[] = []) =>
  `event: loads\nid: e1:${seq}\ndata: {"schemaVersion":1,"epoch":"e1","fromSeq":${from},"seq":${seq},"loads":[${loads.join(',')}],"removed":${JSON.stringify(removed)}}\n\n`;
const hotspot =
  'event: hotspot\ndata: {"schemaVersion":1,"eventId":"h1","kind":"hotspot-start","linkId":"l1","direction":"b",' +
  '"sampleTimestampNs":"5","detectedAt":"2026-11-25T12:00:00Z","utilisation":0.95,"dropRate":0,"ecnFraction":null,"threshold":0.8}\n\n';

describe('openLoadStream', () => {
  it('applies the snapshot, deltas and hotspots, then resumes from epoch:seq after the stream ends', async () => {
    const { seen, fetchFn } = await sseServer([
      {
        status: 200,
        body: snapshot(4, [load('l1', 'b', 0.2, '10')]) + delta(4, 6, [load('l1', 'b', 0.6, '20')]) + hotspot,
      },
      { status: 200, body: delta(6, 8, [load('l2', 'c', 0.3, '30')]) + ': keepalive\n\n' },
      { status: 200, body: '' },
    ]);
    let state = initialLoadState;
    const actions: LoadAction[] = [];
    const stop = openLoadStream({
      dispatch: (a) => {
        actions.push(a);
        state = loadReducer(state, a);
      },
      position: () => loadStreamPosition(state),
      fetchFn,
      delayMs: () => 5,
    });
    try {
      await until(() => state.seq === 8);
    } finally {
      stop();
    }
    expect(seen[0]!.url).toBe('/v1/links/load/stream');
    expect(seen[0]!.headers['last-event-id']).toBeUndefined();
    expect(seen[1]!.headers['last-event-id']).toBe('e1:6');
    expect(state.loads.get('l1>b')?.utilisation).toBe(0.6);
    expect(state.loads.get('l2>c')?.utilisation).toBe(0.3);
    expect(state.hotspots.map((h) => h.eventId)).toEqual(['h1']);
    expect(actions.some((a) => a.type === 'failed' && a.error.includes('ended the stream'))).toBe(true);
  });

  it('backs off with growing delays while the collector fails, and skips malformed events', async () => {
    const { fetchFn } = await sseServer([
      { status: 200, body: 'event: snapshot\ndata: {"schemaVersion":1}\n\n' },
      { status: 502, body: 'bad gateway' },
    ]);
    const delays: number[] = [];
    const actions: LoadAction[] = [];
    const stop = openLoadStream({
      dispatch: (a) => actions.push(a),
      position: () => null,
      fetchFn,
      delayMs: (n) => (delays.push(n), 5),
    });
    await until(() => delays.length >= 3);
    stop();
    expect(delays.slice(0, 3)).toEqual([0, 1, 2]);
    expect(actions.some((a) => a.type === 'snapshot')).toBe(false);
    expect(actions.find((a) => a.type === 'failed' && a.error.includes('502'))).toMatchObject({ retryInMs: 5 });
  });

  it('sends the token given to its fetch, and on a 401 asks for another while it keeps retrying', async () => {
    const { seen, fetchFn } = await sseServer([
      { status: 401, body: 'a token is needed' },
      { status: 200, body: snapshot(1, [load('l1', 'b', 0.2, '10')]) },
    ]);
    let refused = 0;
    let state = initialLoadState;
    const stop = openLoadStream({
      dispatch: (a) => {
        state = loadReducer(state, a);
      },
      position: () => null,
      fetchFn: withToken(fetchFn, 'tok-0123456789'),
      delayMs: () => 5,
      onUnauthorised: () => refused++,
    });
    try {
      await until(() => state.seq === 1);
    } finally {
      stop();
    }
    expect(refused).toBe(1);
    // The refused request and the one that got the snapshot; the stream may already have reconnected
    // once more (5 ms) before stop(), so later requests are only checked for the token too.
    expect(seen.length).toBeGreaterThanOrEqual(2);
    expect(seen.map((s) => s.headers.authorization)).toEqual(seen.map(() => 'Bearer tok-0123456789'));
  });
});
