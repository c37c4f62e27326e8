// @vitest-environment jsdom
// "When an API call fails the view says what failed and keeps the last good data; it never goes
// blank": every source answers once, then every one fails (controller, collector history, load
// stream, scheduler-api's event stream); the view names each failure and still shows the
// fabric, the measured load, the hotspot, the jobs and the selected link's history.
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { fetchSnapshot } from '../../api/client';
import type { FabricPlan, FabricSnapshot } from '../../api/types';
import { readContract } from '../../testing/contracts';
import type { FabricGraphProps } from '../FabricGraph/FabricGraph';
import type { ChartProps } from '../LinkHistory/UPlotChart';
import { App } from './App';

const snapshot: FabricSnapshot = {
  schemaVersion: 1,
  fabricId: 'ls-2x2',
  version: 3,
  generatedAt: '2026-11-25T12:00:00Z',
  fabric: readContract('examples/leaf-spine-2x2.json'),
  plan: {} as FabricPlan,
  linkStates: {},
};

function GraphStub({ fabric, overlay, onSelectLink }: FabricGraphProps) {
  const d = overlay?.loads?.get('leaf1-spine1')?.get('leaf1');
  const hot = [...(overlay?.hotDirections ?? [])].join(',');
  return (
    <div data-testid="graph">
      {`${fabric.links.length} links; leaf1→spine1 ${d ? Math.round(d.utilisation * 100) : '-'}%; hot ${hot}`}
      <button type="button" onClick={() => onSelectLink?.('leaf1-spine1')}>
        pick leaf1-spine1
      </button>
    </div>
  );
}
const ChartStub = ({ columns }: ChartProps) => <div data-testid="chart">{`${columns.x.length} seconds`}</div>;

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

const loadSample = {
  schemaVersion: 1,
  fabricId: 'ls-2x2',
  linkId: 'leaf1-spine1',
  toNode: 'spine1',
  timestampNs: '1764072000000000000',
  rateGbps: 300,
  capacityGbps: 400,
  utilisation: 0.75,
  dropRate: 0,
  ecnFraction: null,
  operStatus: 'UP',
  hot: false,
};
const hotspot = {
  schemaVersion: 1,
  eventId: 'h-1',
  kind: 'hotspot-start',
  linkId: 'leaf2-spine2',
  direction: 'spine2',
  sampleTimestampNs: '1764072000000000000',
  detectedAt: '2026-11-25T12:00:01Z',
  utilisation: 0.95,
  dropRate: 0.01,
  ecnFraction: null,
  threshold: 0.8,
};
const series = {
  linkId: 'leaf1-spine1',
  from: 'a',
  to: 'b',
  points: [0, 1].map((s) => ({
    toNode: 'spine1',
    second: `2026-11-25T12:00:0${s}Z`,
    samples: 1,
    rateGbpsAvg: 300,
    rateGbpsMax: 300,
    utilisationAvg: 0.75,
    utilisationMax: 0.75,
    capacityGbps: 400,
    dropRateMax: 0,
    ecnFractionMax: null,
    operStatus: 'UP',
    hot: false,
  })),
};

/** Streams that end when the test breaks the stack (a dead service's connection closes). */
function sse(text: string, ends: Promise<void>) {
  const body = new ReadableStream<Uint8Array>({
    start(c) {
      c.enqueue(new TextEncoder().encode(text));
      void ends.then(() => {
        c.close();
      });
    },
  });
  return new Response(body, { status: 200, headers: { 'Content-Type': 'text/event-stream' } });
}

/** Every service of the stack; `breakAll()` makes each one fail from then on. */
function stack() {
  let broken = false;
  let breakStreams: () => void = () => undefined;
  const streamsEnd = new Promise<void>((r) => {
    breakStreams = r;
  });
  const fetchFn: typeof fetch = (input) => {
    const url = input instanceof Request ? input.url : input.toString();
    if (broken) {
      if (url === '/fabric') return Promise.resolve(json(503, { error: 'controller restarting' }));
      if (url.startsWith('/v1/events')) return Promise.reject(new TypeError('Failed to fetch'));
      return Promise.resolve(json(502, {}));
    }
    if (url === '/fabric') return Promise.resolve(json(200, snapshot));
    if (url === '/v1/links/load/stream')
      return Promise.resolve(
        sse(
          `event: snapshot\nid: e1:1\ndata: ${JSON.stringify({ schemaVersion: 1, epoch: 'e1', seq: 1, loads: [loadSample] })}\n\n`,
          streamsEnd,
        ),
      );
    if (url.startsWith('/v1/events')) return Promise.resolve(sse('event: hello\nid: 0\ndata: {}\n\n', streamsEnd));
    if (url.startsWith('/v1/hotspots')) return Promise.resolve(json(200, { events: [hotspot] }));
    if (url.startsWith('/v1/links/leaf1-spine1/series')) return Promise.resolve(json(200, series));
    if (url.startsWith('/v1/jobs'))
      return Promise.resolve(
        json(200, { items: [{ id: 'j1', name: 'ring-a', state: 'ACTIVE', tenant: 'ml', pattern: 'ring', flows: 1 }] }),
      );
    if (url === '/v1/fabric') return Promise.resolve(json(200, { fabricId: 'ls-2x2', version: 1, reservations: [] }));
    return Promise.resolve(json(404, {}));
  };
  return {
    fetchFn,
    breakAll: () => {
      broken = true;
      breakStreams();
    },
  };
}

afterEach(() => {
  cleanup();
  sessionStorage.clear();
});

describe('App when its sources fail', () => {
  it('names what failed and keeps every view’s last good data', async () => {
    sessionStorage.setItem('weft.operatorToken', 'demo-operator-token-01');
    const { fetchFn, breakAll } = stack();
    render(
      <App
        load={(signal, token) => fetchSnapshot({ signal, token, fetchImpl: fetchFn })}
        Graph={GraphStub}
        Chart={ChartStub}
        operator={{ fetchFn, hotspotPollMs: 100 }}
        timing={{ pollMs: 100, retryDelayMs: () => 100 }}
      />,
    );
    const graph = await screen.findByTestId('graph');
    await waitFor(() => {
      expect(graph.textContent).toContain('8 links; leaf1→spine1 75%; hot leaf2-spine2>spine2');
    });
    expect(await screen.findByRole('button', { name: /ring-a/ })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'pick leaf1-spine1' }));
    expect((await screen.findByTestId('chart')).textContent).toBe('2 seconds');

    breakAll();
    // each failure is named ...
    expect(await screen.findByText(/controller restarting/)).toBeTruthy();
    expect(screen.getByText(/showing the last snapshot received \(version 3\)/)).toBeTruthy();
    expect(await screen.findByText(/Showing the last good data; failed: hotspots: .*HTTP 502/)).toBeTruthy();
    await waitFor(() => {
      expect(screen.getByText(/Load: disconnected/)).toBeTruthy();
    });
    // ... and nothing that was shown is gone
    expect(screen.getByTestId('graph').textContent).toContain('8 links; leaf1→spine1 75%; hot leaf2-spine2>spine2');
    expect(screen.getByRole('button', { name: /ring-a/ })).toBeTruthy();
    expect(screen.getByTestId('chart').textContent).toBe('2 seconds');
    expect(screen.getByRole('heading', { name: 'Link leaf1-spine1' })).toBeTruthy();
  });
});
