// @vitest-environment jsdom
// A deployment closes the controller's and the collector's reads (deploy/): the dashboard sends
// the operator token on every read, shows nothing it was refused, and asks for the token again
// when a read is refused.
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { fetchSnapshot } from '../../api/client';
import type { FabricPlan, FabricSnapshot } from '../../api/types';
import { readContract } from '../../testing/contracts';
import type { FabricGraphProps } from '../FabricGraph/FabricGraph';
import { App } from './App';

const TOKEN = 'deploy-operator-token-0123';

const snapshot: FabricSnapshot = {
  schemaVersion: 1,
  fabricId: 'ls-2x2',
  version: 1,
  generatedAt: '2026-11-25T12:00:00Z',
  fabric: readContract('examples/leaf-spine-2x2.json'),
  plan: {} as FabricPlan,
  linkStates: {},
};

function GraphStub({ fabric }: FabricGraphProps) {
  return <div data-testid="graph">{`${fabric.links.length} links`}</div>;
}

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

/**
 * Controller + collector + scheduler-api with closed reads: 401 without the accepted token. Records
 * each read's path and whether it carried the token; `accepted` can be changed (a revoked token).
 */
function closedServer() {
  const reads: { path: string; token: boolean }[] = [];
  const state = { accepted: TOKEN };
  const fetchFn: typeof fetch = (input, init) => {
    const path = input instanceof Request ? input.url : input.toString();
    const auth = (init?.headers as Record<string, string> | undefined)?.Authorization;
    const token = auth === `Bearer ${state.accepted}`;
    reads.push({ path, token: auth !== undefined });
    if (!token) return Promise.resolve(json(401, { error: 'a token is needed' }));
    if (path === '/fabric') return Promise.resolve(json(200, snapshot));
    if (path.startsWith('/v1/hotspots')) return Promise.resolve(json(200, { events: [] }));
    if (path.startsWith('/v1/links/load/stream') || path.startsWith('/v1/events'))
      return new Promise<Response>(() => undefined); // stays open
    if (path.startsWith('/v1/jobs')) return Promise.resolve(json(200, { items: [] }));
    if (path === '/v1/fabric') return Promise.resolve(json(200, { fabricId: 'ls-2x2', version: 1, reservations: [] }));
    return Promise.resolve(json(404, {}));
  };
  return { reads, state, fetchFn };
}

afterEach(() => {
  cleanup();
  sessionStorage.clear();
});

describe('App with closed reads', () => {
  it('sends the operator token to the controller and the collector, and draws the fabric only then', async () => {
    const { reads, fetchFn } = closedServer();
    render(
      <App
        load={(signal, token) => fetchSnapshot({ signal, token, fetchImpl: fetchFn })}
        Graph={GraphStub}
        operator={{ fetchFn, hotspotPollMs: 3_600_000 }}
        timing={{ retryDelayMs: () => 3_600_000 }}
      />,
    );
    // refused without a token: said so, nothing drawn, the prompt is there
    expect(await screen.findByText(/refused to show the fabric \(HTTP 401\): sign in/)).toBeTruthy();
    expect(screen.queryByTestId('graph')).toBeNull();
    fireEvent.change(screen.getByLabelText(/Operator token/), { target: { value: TOKEN } });
    fireEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    expect((await screen.findByTestId('graph')).textContent).toBe('8 links');
    await waitFor(() => {
      const withToken = new Set(reads.filter((r) => r.token).map((r) => r.path.split('?')[0]));
      for (const p of ['/fabric', '/v1/hotspots', '/v1/links/load/stream', '/v1/events', '/v1/fabric'])
        expect(withToken).toContain(p);
    });
  });

  it('asks again when the controller refuses a token, keeping the fabric it drew', async () => {
    sessionStorage.setItem('weft.operatorToken', TOKEN);
    const { state, fetchFn } = closedServer();
    render(
      <App
        load={(signal, token) => fetchSnapshot({ signal, token, fetchImpl: fetchFn })}
        Graph={GraphStub}
        operator={{ fetchFn, hotspotPollMs: 3_600_000 }}
        timing={{ retryDelayMs: () => 3_600_000, pollMs: 50 }}
      />,
    );
    expect(await screen.findByTestId('graph')).toBeTruthy();
    state.accepted = 'rotated-token-0123456789'; // the operator's token was revoked
    expect(await screen.findByLabelText(/Operator token/)).toBeTruthy();
    expect(sessionStorage.getItem('weft.operatorToken')).toBeNull();
    expect(screen.getByTestId('graph').textContent).toBe('8 links');
  });
});
