// @vitest-environment jsdom
// The operator's part of the App: token prompt, jobs from scheduler-api, path highlighting, 401.
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { FabricPlan, FabricSnapshot } from '../../api/types';
import { readContract } from '../../testing/contracts';
import type { FabricGraphProps } from '../FabricGraph/FabricGraph';
import { App } from './App';

const snapshot: FabricSnapshot = {
  schemaVersion: 1,
  fabricId: 'ls-2x2',
  version: 1,
  generatedAt: '2026-11-25T12:00:00Z',
  fabric: readContract('examples/leaf-spine-2x2.json'),
  plan: {} as FabricPlan, // the dashboard does not read the plan yet
  linkStates: {},
};

function GraphStub({ overlay }: FabricGraphProps) {
  const lit = overlay?.highlighted ? [...overlay.highlighted].sort().join(',') : 'none';
  return <div data-testid="graph">{`highlighted: ${lit}; loaded links: ${overlay?.loads?.size ?? 0}`}</div>;
}

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

/** A fake scheduler-api + collector; `jobsStatus` lets a test refuse the token. */
function server(jobsStatus = 200) {
  const calls: string[] = [];
  const fetchFn: typeof fetch = (input) => {
    const url = input instanceof Request ? input.url : input.toString();
    calls.push(url);
    if (url.startsWith('/v1/hotspots')) return Promise.resolve(json(200, { events: [] }));
    if (url.startsWith('/v1/links/load/stream')) return new Promise<Response>(() => undefined); // stays open
    if (url.startsWith('/v1/events')) return new Promise<Response>(() => undefined); // stays open
    if (url === '/v1/jobs?size=500')
      return Promise.resolve(
        json(jobsStatus, {
          items: [{ id: 'j1', name: 'ring-a', state: 'ACTIVE', tenant: 'ml', pattern: 'ring', flows: 1 }],
        }),
      );
    if (url === '/v1/jobs/j1')
      return Promise.resolve(
        json(200, {
          id: 'j1',
          name: 'ring-a',
          flows: [
            {
              id: 'j1/0',
              src: 'nic1',
              dst: 'nic3',
              links: ['nic1-leaf1', 'leaf1-spine2'],
              nodes: ['nic1', 'leaf1', 'spine2'],
              ev: 7,
            },
          ],
        }),
      );
    if (url === '/v1/fabric')
      return Promise.resolve(
        json(200, {
          fabricId: 'ls-2x2',
          version: 1,
          reservations: [{ link: 'leaf1-spine2', from: 'leaf1', to: 'spine2', utilisation: 0.5 }],
        }),
      );
    return Promise.resolve(json(404, {}));
  };
  return { calls, fetchFn };
}

afterEach(() => {
  cleanup();
  sessionStorage.clear();
});

describe('App (operator)', () => {
  it('asks for the token once, lists jobs, and highlights the selected job’s paths', async () => {
    const { calls, fetchFn } = server();
    render(
      <App load={() => Promise.resolve(snapshot)} Graph={GraphStub} operator={{ fetchFn, hotspotPollMs: 3_600_000 }} />,
    );
    // nothing sent to scheduler-api without a token (the collector needs none)
    expect(calls.filter((c) => !c.startsWith('/v1/hotspots') && !c.startsWith('/v1/links/'))).toEqual([]);
    fireEvent.change(screen.getByLabelText(/Operator token/), { target: { value: 'demo-operator-token-01' } });
    fireEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(sessionStorage.getItem('weft.operatorToken')).toBe('demo-operator-token-01');

    fireEvent.click(await screen.findByRole('button', { name: /ring-a/ }));
    // measured load is the default colour; nothing measured in this fake, so reservations are chosen
    expect(await screen.findByText('highlighted: leaf1-spine2,nic1-leaf1; loaded links: 0')).toBeTruthy();
    fireEvent.click(screen.getByRole('radio', { name: 'reservations' }));
    expect(await screen.findByText('highlighted: leaf1-spine2,nic1-leaf1; loaded links: 1')).toBeTruthy();
    expect(screen.getByText('nic1 › leaf1 › spine2')).toBeTruthy();
    expect(screen.getByText(/ACTIVE · ml · ring · 1 flows/)).toBeTruthy();
    expect(calls).toContain('/v1/events?recent=200'); // a first connection looks back
  });

  it('forgets a refused token and asks again', async () => {
    sessionStorage.setItem('weft.operatorToken', 'stale');
    const { fetchFn } = server(401);
    render(
      <App load={() => Promise.resolve(snapshot)} Graph={GraphStub} operator={{ fetchFn, hotspotPollMs: 3_600_000 }} />,
    );
    expect(await screen.findByLabelText(/Operator token/)).toBeTruthy();
    expect(sessionStorage.getItem('weft.operatorToken')).toBeNull();
  });
});
