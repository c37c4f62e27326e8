// @vitest-environment jsdom
// Draining a link from the UI: pick it by keyboard, the confirmation names the flows on it, the
// call goes to scheduler-api, the named flows are watched until they have moved, the link is drained.
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
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
  plan: {} as FabricPlan, // the drain flow does not read the plan
  linkStates: {},
};

function GraphStub({ linkStates, overlay }: FabricGraphProps) {
  return (
    <div data-testid="graph">{`picked: ${overlay?.selectedLink ?? 'none'}; leaf1-spine2: ${linkStates['leaf1-spine2'] ?? 'up'}`}</div>
  );
}

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

const flow = (id: string, spine: string) => ({
  id,
  src: 'nic1',
  dst: 'nic3',
  links: ['nic1-leaf1', `leaf1-${spine}`, `leaf2-${spine}`, 'nic3-leaf2'],
  nodes: ['nic1', 'leaf1', spine, 'leaf2', 'nic3'],
});

/** scheduler-api with one job whose flow 0 crosses leaf1-spine2 until the link is drained. */
function server(drainStatus = 200) {
  const posts: string[] = [];
  let drained = false;
  const fetchFn: typeof fetch = (input, init) => {
    const url = input instanceof Request ? input.url : input.toString();
    if (init?.method === 'POST') {
      posts.push(url);
      drained = drainStatus === 200;
      return Promise.resolve(
        drainStatus === 200
          ? json(200, { linkId: 'leaf1-spine2', state: 'drained', moved: 1, unplaced: 0 })
          : json(drainStatus, { title: 'Internal Server Error', detail: 'database unavailable' }),
      );
    }
    if (url.startsWith('/v1/hotspots')) return Promise.resolve(json(200, { events: [] }));
    if (url.startsWith('/v1/events')) return new Promise<Response>(() => undefined);
    if (url === '/v1/jobs?size=500')
      return Promise.resolve(json(200, { items: [{ id: 'j1', name: 'ring-a', state: 'ACTIVE', flows: 2 }] }));
    if (url === '/v1/jobs/j1')
      return Promise.resolve(
        json(200, {
          id: 'j1',
          name: 'ring-a',
          state: 'ACTIVE',
          flows: [flow('j1/0', drained ? 'spine1' : 'spine2'), flow('j1/1', 'spine1')],
        }),
      );
    if (url === '/v1/fabric')
      return Promise.resolve(
        json(200, { fabricId: 'ls-2x2', version: 1, linkStates: drained ? { 'leaf1-spine2': 'drained' } : {} }),
      );
    return Promise.resolve(json(404, {}));
  };
  return { posts, fetchFn };
}

afterEach(() => {
  cleanup();
  sessionStorage.clear();
});

async function pickLink(fetchFn: typeof fetch) {
  sessionStorage.setItem('weft.operatorToken', 'demo-operator-token-01');
  render(
    <App load={() => Promise.resolve(snapshot)} Graph={GraphStub} operator={{ fetchFn, hotspotPollMs: 3_600_000 }} />,
  );
  await screen.findByRole('button', { name: /ring-a/ }); // jobs read
  fireEvent.change(await screen.findByLabelText('Link id'), { target: { value: 'leaf1-spine2' } });
  fireEvent.click(screen.getByRole('button', { name: 'Show' }));
  expect(screen.getByTestId('graph').textContent).toBe('picked: leaf1-spine2; leaf1-spine2: up');
}

describe('App (drain)', () => {
  it('names the flows on the link, drains it, and shows them moved and the link drained', async () => {
    const { posts, fetchFn } = server();
    await pickLink(fetchFn);
    fireEvent.click(screen.getByRole('button', { name: 'Drain' }));

    const dialog = await screen.findByRole('dialog', { name: 'Drain leaf1-spine2?' });
    const named = await within(dialog).findByRole('list', { name: 'Flows that will move' });
    expect(named.textContent).toBe('ring-a nic1 → nic3 (now nic1 › leaf1 › spine2 › leaf2 › nic3)');
    expect(document.activeElement?.textContent).toBe('Cancel'); // the safe choice has the focus
    expect(posts).toEqual([]);

    fireEvent.click(within(dialog).getByRole('button', { name: 'Drain leaf1-spine2' }));
    const moves = await screen.findByRole('list', { name: 'Flows leaving leaf1-spine2' });
    expect(await within(moves).findByText(/moved to nic1 › leaf1 › spine1/)).toBeTruthy();
    expect(posts).toEqual(['/v1/fabric/links/leaf1-spine2/drain']);
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(screen.getByText(/now drained, 1 moved, 0 without a path/)).toBeTruthy();
  });

  it('cancels with Escape without calling scheduler-api', async () => {
    const { posts, fetchFn } = server();
    await pickLink(fetchFn);
    fireEvent.click(screen.getByRole('button', { name: 'Drain' }));
    const dialog = await screen.findByRole('dialog');
    await within(dialog).findByRole('list');
    fireEvent.keyDown(dialog, { key: 'Escape' });
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(posts).toEqual([]);
  });

  it('says what failed when the drain is refused, and the link stays up', async () => {
    const { fetchFn } = server(500);
    await pickLink(fetchFn);
    fireEvent.click(screen.getByRole('button', { name: 'Drain' }));
    const dialog = await screen.findByRole('dialog');
    await within(dialog).findByRole('list');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Drain leaf1-spine2' }));
    expect((await screen.findByRole('alert')).textContent).toBe(
      'drain leaf1-spine2: /v1/fabric/links/leaf1-spine2/drain: HTTP 500: database unavailable',
    );
    expect(screen.getByTestId('graph').textContent).toBe('picked: leaf1-spine2; leaf1-spine2: up');
  });
});
