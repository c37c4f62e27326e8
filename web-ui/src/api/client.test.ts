import { describe, expect, it, vi } from 'vitest';
import { readContract } from '../testing/contracts';
import { ApiError, fetchSnapshot } from './client';
import type { Fabric } from './types';

const fabric = readContract<Fabric>('examples/leaf-spine-2x2.json');
const good = {
  schemaVersion: 1,
  fabricId: 'ls-2x2',
  version: 4,
  generatedAt: '2026-11-21T12:00:00Z',
  fabric,
  plan: {},
  linkStates: { 'leaf1-spine1': 'up', 'leaf1-spine2': 'drained' },
};

const answering = (body: unknown, status = 200) =>
  vi.fn<typeof fetch>(async () => new Response(typeof body === 'string' ? body : JSON.stringify(body), { status }));

async function failure(fetchImpl: typeof fetch): Promise<ApiError> {
  try {
    await fetchSnapshot({ fetchImpl });
  } catch (e) {
    if (e instanceof ApiError) return e;
    throw e;
  }
  throw new Error('fetchSnapshot did not fail');
}

describe('fetchSnapshot', () => {
  it('GETs /fabric and returns the snapshot', async () => {
    const f = answering(good);
    const s = await fetchSnapshot({ fetchImpl: f, baseUrl: 'http://ctl:8181' });
    expect(f).toHaveBeenCalledWith(
      'http://ctl:8181/fabric',
      expect.objectContaining({ headers: { Accept: 'application/json' } }),
    );
    expect(s.fabric.nodes).toHaveLength(fabric.nodes.length);
    expect(s.linkStates['leaf1-spine2']).toBe('drained');
  });

  it('says no controller answered when the connection fails', async () => {
    const e = await failure(vi.fn<typeof fetch>(async () => Promise.reject(new TypeError('fetch failed'))));
    expect(e.kind).toBe('unreachable');
    expect(e.message).toBe('No controller answered at /fabric');
  });

  it.each([500, 502, 504])('treats a bare %d (the dev proxy) as no controller', async (status) => {
    const e = await failure(answering('', status));
    expect(e).toMatchObject({
      kind: 'unreachable',
      message: `No controller answered at /fabric (HTTP ${status} from the proxy)`,
    });
  });

  it("passes on the controller's own error message", async () => {
    const e = await failure(answering({ error: 'no fabric planned yet' }, 503));
    expect(e).toMatchObject({
      kind: 'http',
      message: 'The controller answered HTTP 503 for /fabric: no fabric planned yet',
    });
  });

  it('reports a client-side HTTP error with its status', async () => {
    expect((await failure(answering('nope', 404))).message).toBe('HTTP 404 for /fabric');
  });

  it('rejects an answer that is not JSON', async () => {
    expect((await failure(answering('<html>'))).kind).toBe('format');
  });

  it.each([
    [{ ...good, schemaVersion: 2 }, '$.schemaVersion: must be 1, got 2'],
    [{ ...good, version: 1.5 }, '$.version: must be a non-negative integer below 2^53'],
    [{ ...good, fabric: { ...fabric, nodes: [{ id: 'x', role: 'tor' }] } }, '$.fabric.nodes[0].role: must be one of'],
    [
      { ...good, fabric: { ...fabric, nodes: [...fabric.nodes, fabric.nodes[0]] } },
      `$.fabric.nodes[${fabric.nodes.length}].id: duplicate`,
    ],
    [
      { ...good, fabric: { ...fabric, links: [{ ...fabric.links[0], capacityGbps: '400' }] } },
      '$.fabric.links[0].capacityGbps: must be a number',
    ],
    [
      { ...good, fabric: { ...fabric, links: [{ ...fabric.links[0], b: { node: 'ghost' } }] } },
      '$.fabric.links[0].b.node: unknown node "ghost"',
    ],
    [{ ...good, linkStates: { x: 'flapping' } }, '$.linkStates.x: must be one of up, down, drained'],
  ])('names the bad field: %#', async (body, message) => {
    const e = await failure(answering(body));
    expect(e.kind).toBe('format');
    expect(e.message).toContain(message);
  });
});
