// @vitest-environment jsdom
// The measured part of the App: the collector's load stream colours links, its hotspots fill the
// incidents timeline with scheduler-api's re-placements, a link's history, a switch's detail, search.
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { FabricSnapshot } from '../../api/types';
import { readContract } from '../../testing/contracts';
import type { FabricGraphProps } from '../FabricGraph/FabricGraph';
import type { ChartProps } from '../LinkHistory/UPlotChart';
import { App } from './App';

const snapshot = {
  schemaVersion: 1,
  fabricId: 'ls-2x2',
  version: 1,
  generatedAt: '2026-11-25T12:00:00Z',
  fabric: readContract('examples/leaf-spine-2x2.json'),
  plan: {
    block: 'fcbb:bb00::/32',
    tenants: [],
    nics: [],
    switches: [
      {
        id: 'leaf1',
        nodeId: 17,
        locator: 'fcbb:bb00:11::/48',
        loopback: 'fc00::11',
        ev: { stage1: ['leaf1-spine1>spine1'], stage2: [] },
      },
    ],
  },
  linkStates: {},
  deviceStates: { leaf1: { state: 'in-sync' } },
} as unknown as FabricSnapshot;

function GraphStub({ overlay, onSelectLink, focusNode }: FabricGraphProps) {
  const d = overlay?.loads?.get('leaf1-spine1')?.get('leaf1');
  const hot = [...(overlay?.hotDirections ?? [])].join(',');
  return (
    <div data-testid="graph">
      {`${overlay?.source ?? '?'} leaf1→spine1 ${d ? Math.round(d.utilisation * 100) : '-'}% drops ${d?.dropRate ?? '-'}; hot ${hot}; focus ${focusNode ?? '-'}`}
      <button type="button" onClick={() => onSelectLink?.('leaf1-spine1')}>
        pick leaf1-spine1
      </button>
    </div>
  );
}

const ChartStub = ({ columns }: ChartProps) => <div data-testid="chart">{`${columns.x.length} seconds`}</div>;

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

const load = (utilisation: number, dropRate: number) => ({
  schemaVersion: 1,
  fabricId: 'ls-2x2',
  linkId: 'leaf1-spine1',
  toNode: 'spine1',
  timestampNs: '1764072000000000000',
  rateGbps: 400 * utilisation,
  capacityGbps: 400,
  utilisation,
  dropRate,
  ecnFraction: null,
  operStatus: 'UP',
  hot: true,
});

const hotspot = {
  schemaVersion: 1,
  eventId: 'h-1',
  kind: 'hotspot-start',
  linkId: 'leaf1-spine1',
  direction: 'spine1',
  sampleTimestampNs: '1764072000000000000',
  detectedAt: '2026-11-25T12:00:01Z',
  utilisation: 0.93,
  dropRate: 0.01,
  ecnFraction: null,
  threshold: 0.8,
};

/** The collector's stream: a snapshot, a hotspot, then it stays open. */
function stream() {
  const body = new ReadableStream<Uint8Array>({
    start(c) {
      const enc = new TextEncoder();
      c.enqueue(
        enc.encode(
          `event: snapshot\nid: e1:1\ndata: ${JSON.stringify({ schemaVersion: 1, epoch: 'e1', seq: 1, loads: [load(0.93, 0.01)] })}\n\n`,
        ),
      );
      c.enqueue(enc.encode(`event: hotspot\ndata: ${JSON.stringify(hotspot)}\n\n`));
    },
  });
  return new Response(body, { status: 200, headers: { 'Content-Type': 'text/event-stream' } });
}

function server() {
  const calls: string[] = [];
  const fetchFn: typeof fetch = (input) => {
    const url = input instanceof Request ? input.url : input.toString();
    calls.push(url);
    if (url === '/v1/links/load/stream') return Promise.resolve(stream());
    if (url.startsWith('/v1/hotspots')) return Promise.resolve(json(200, { events: [] }));
    if (url.startsWith('/v1/links/leaf1-spine1/series'))
      return Promise.resolve(
        json(200, {
          linkId: 'leaf1-spine1',
          from: 'a',
          to: 'b',
          points: [0, 1, 2].map((s) => ({
            toNode: 'spine1',
            second: `2026-11-25T12:00:0${s}Z`,
            samples: 1,
            rateGbpsAvg: 370,
            rateGbpsMax: 370,
            utilisationAvg: 0.925,
            utilisationMax: 0.925,
            capacityGbps: 400,
            dropRateMax: 0.01,
            ecnFractionMax: null,
            operStatus: 'UP',
            hot: true,
          })),
        }),
      );
    return new Promise<Response>(() => undefined);
  };
  return { calls, fetchFn };
}

afterEach(() => {
  cleanup();
  sessionStorage.clear();
});

describe('App (measured load)', () => {
  it('colours by the live feed, lists its hotspot as an incident, and shows a link’s history', async () => {
    const { fetchFn } = server();
    render(
      <App
        load={() => Promise.resolve(snapshot)}
        Graph={GraphStub}
        Chart={ChartStub}
        operator={{ fetchFn, hotspotPollMs: 3_600_000 }}
      />,
    );
    expect(await screen.findByText(/measured leaf1→spine1 93% drops 0.01; hot leaf1-spine1>spine1/)).toBeTruthy();
    expect(screen.getByRole('status', { name: 'Load stream' }).textContent).toBe('Load: live');

    const timeline = screen.getByRole('list', { name: 'Incidents' });
    const item = within(timeline).getByRole('button', { name: /hot: leaf1-spine1 → spine1 at 93%/ });
    fireEvent.click(item);
    const history = await screen.findByRole('region', { name: 'Link history' });
    expect(await within(history).findByTestId('chart')).toBeTruthy();
    expect(within(history).getByTestId('chart').textContent).toBe('3 seconds');
    expect(history.textContent).toContain('→ spine1: now 93%, peak 93%, peak drops 1.00%');
  });

  it('finds a switch by id and shows its SIDs, EV table and gNMI state', async () => {
    const { fetchFn } = server();
    render(
      <App
        load={() => Promise.resolve(snapshot)}
        Graph={GraphStub}
        Chart={ChartStub}
        operator={{ fetchFn, hotspotPollMs: 3_600_000 }}
      />,
    );
    const search = await screen.findByRole('combobox', { name: 'Search node id' });
    fireEvent.change(search, { target: { value: 'LEAF1' } });
    fireEvent.submit(search);
    const region = await screen.findByRole('region', { name: 'Switch leaf1' });
    expect(region.textContent).toContain('in-sync');
    expect(region.textContent).toContain('fcbb:bb00:11::/48');
    expect(within(region).getByRole('list', { name: 'EV stage 1 members' }).textContent).toBe('leaf1-spine1>spine1');
    expect(screen.getByTestId('graph').textContent).toContain('focus leaf1');
    fireEvent.change(search, { target: { value: 'spine9' } });
    fireEvent.submit(search);
    expect(await screen.findByText('no node “spine9”')).toBeTruthy();
  });
});
