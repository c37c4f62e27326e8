// The stream against a real HTTP server speaking SSE (node:http), read with the real fetch.
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { openEventStream } from './eventStream';
import { eventsReducer, initialEventsState, type EventsAction } from './eventsState';

let server: Server | undefined;
afterEach(() => {
  server?.closeAllConnections();
  server?.close();
  server = undefined;
});

/** Serves /v1/events: each request gets the next script entry (status, SSE body, then close). */
async function sseServer(script: { status: number; body: string }[]) {
  const seen: IncomingHttpHeaders[] = [];
  const urls: string[] = [];
  server = createServer((req, res) => {
    seen.push(req.headers);
    urls.push(req.url ?? '');
    const step = script[Math.min(seen.length - 1, script.length - 1)]!;
    res.writeHead(step.status, {
      'Content-Type': step.status === 200 ? 'text/event-stream' : 'application/problem+json',
    });
    res.end(step.body);
  });
  await new Promise<void>((r) => server!.listen(0, '127.0.0.1', r));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const fetchFn: typeof fetch = (input, init) =>
    fetch(`${base}${input instanceof Request ? input.url : input.toString()}`, init);
  return { seen, urls, fetchFn };
}

const until = async (cond: () => boolean, ms = 3000) => {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 10));
  }
};

const event = (id: number, type: string) =>
  `id: ${id}\nevent: ${type}\ndata: {"id":${id},"type":"${type}","subject":"j","at":"t","payload":{}}\n\n`;

describe('openEventStream', () => {
  it('sends the token, applies events, and reconnects from the last id when the server ends the stream', async () => {
    const { seen, urls, fetchFn } = await sseServer([
      { status: 200, body: `id: 3\nevent: hello\ndata: {}\n\n${event(4, 'job-created')}${event(5, 'flows-replaced')}` },
      {
        status: 200,
        body: `id: 5\nevent: hello\ndata: {}\n\n${event(5, 'flows-replaced')}${event(6, 'link-drained')}`,
      },
      { status: 200, body: '' },
    ]);
    let state = initialEventsState;
    const actions: EventsAction[] = [];
    const stop = openEventStream({
      token: 'op-token',
      dispatch: (a) => {
        actions.push(a);
        state = eventsReducer(state, a);
      },
      lastEventId: () => state.lastEventId,
      fetchFn,
      delayMs: () => 5,
    });
    try {
      await until(() => state.lastEventId === 6);
    } finally {
      stop();
    }
    expect(seen[0]!.authorization).toBe('Bearer op-token');
    expect(seen[0]!['last-event-id']).toBeUndefined();
    expect(urls[0]).toBe('/v1/events?recent=200'); // a first connection looks back
    expect(seen[1]!['last-event-id']).toBe('5');
    expect(urls[1]).toBe('/v1/events'); // a resumed one replays from its id instead
    expect(state.recent.map((e) => e.id)).toEqual([6, 5, 4]); // the replayed 5 applied once
    expect(actions.some((a) => a.type === 'failed' && a.error.includes('ended the stream'))).toBe(true);
  });

  it('stops and reports unauthorised on 401 (no retry loop with a refused token)', async () => {
    const { seen, fetchFn } = await sseServer([{ status: 401, body: '{"title":"Unauthorized"}' }]);
    const actions: EventsAction[] = [];
    const stop = openEventStream({
      token: 'bad',
      dispatch: (a) => actions.push(a),
      lastEventId: () => -1,
      fetchFn,
      delayMs: () => 5,
    });
    await until(() => actions.some((a) => a.type === 'unauthorised'));
    await new Promise((r) => setTimeout(r, 100));
    stop();
    expect(seen).toHaveLength(1);
  });

  it('backs off with growing delays while the server fails', async () => {
    const { fetchFn } = await sseServer([{ status: 503, body: '{}' }]);
    const delays: number[] = [];
    const actions: EventsAction[] = [];
    const stop = openEventStream({
      token: 't',
      dispatch: (a) => actions.push(a),
      lastEventId: () => -1,
      fetchFn,
      delayMs: (n) => (delays.push(n), 5),
    });
    await until(() => delays.length >= 3);
    stop();
    expect(delays.slice(0, 3)).toEqual([0, 1, 2]);
    expect(actions.find((a) => a.type === 'failed')).toMatchObject({ error: '/v1/events: HTTP 503', retryInMs: 5 });
  });
});
