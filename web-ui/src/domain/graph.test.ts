import { describe, expect, it } from 'vitest';
import type { Fabric, FabricLink } from '../api/types';
import { readContract } from '../testing/contracts';
import { formatLatency, linkTooltip, NODE_GAP, TIER_GAP, toGraphElements } from './graph';

const leafSpine = readContract<Fabric>('examples/leaf-spine-2x2.json');
const dragonfly = readContract<Fabric>('examples/dragonfly-tiny.json');

function positionsOf(fabric: Fabric) {
  const { nodes } = toGraphElements(fabric);
  return new Map(nodes.map((n) => [n.id, n.position]));
}

describe('tiered layout (leaf-spine)', () => {
  const at = positionsOf(leafSpine);
  const pos = (id: string) => at.get(id)!;

  it('puts spines above leaves above NICs, with no gap for the missing super-spine tier', () => {
    expect(pos('spine1').y).toBe(0);
    expect(pos('leaf1').y).toBe(TIER_GAP);
    expect(pos('nic1').y).toBe(2 * TIER_GAP);
  });

  it('centres each row and keeps ids in order', () => {
    expect(pos('spine1').x).toBe(-NODE_GAP / 2);
    expect(pos('spine2').x).toBe(NODE_GAP / 2);
    expect(pos('leaf1').x).toBeLessThan(pos('leaf2').x);
  });

  it('orders NICs by the leaf they hang off', () => {
    const xs = ['nic1', 'nic2', 'nic3', 'nic4'].map((id) => pos(id).x);
    expect(xs).toEqual([...xs].sort((a, b) => a - b));
    expect(Math.max(pos('nic1').x, pos('nic2').x)).toBeLessThan(Math.min(pos('nic3').x, pos('nic4').x));
  });

  it('sorts ids naturally: leaf10 after leaf9', () => {
    const fabric: Fabric = {
      schemaVersion: 1,
      id: 'f',
      nodes: ['leaf10', 'leaf9', 'leaf1'].map((id) => ({ id, role: 'leaf' as const })),
      links: [],
    };
    const p = positionsOf(fabric);
    expect(p.get('leaf1')!.x).toBeLessThan(p.get('leaf9')!.x);
    expect(p.get('leaf9')!.x).toBeLessThan(p.get('leaf10')!.x);
  });

  it('places every node exactly once, no two on the same spot', () => {
    const spots = [...at.values()].map((p) => `${p.x},${p.y}`);
    expect(at.size).toBe(leafSpine.nodes.length);
    expect(new Set(spots).size).toBe(spots.length);
  });
});

/** A two-tier Clos: every leaf linked to every spine, nicsPerLeaf NICs on each leaf. */
function clos(spines: number, leaves: number, nicsPerLeaf: number): Fabric {
  const nodes: Fabric['nodes'] = [];
  const links: Fabric['links'] = [];
  const link = (a: string, b: string) =>
    links.push({
      id: `${a}-${b}`,
      a: { node: a, port: `to-${b}` },
      b: { node: b, port: `to-${a}` },
      capacityGbps: 400,
    });
  for (let s = 1; s <= spines; s++) nodes.push({ id: `spine${s}`, role: 'spine' });
  for (let l = 1; l <= leaves; l++) {
    nodes.push({ id: `leaf${l}`, role: 'leaf' });
    for (let s = 1; s <= spines; s++) link(`leaf${l}`, `spine${s}`);
    for (let n = 1; n <= nicsPerLeaf; n++) {
      nodes.push({ id: `leaf${l}-nic${n}`, role: 'nic' });
      link(`leaf${l}-nic${n}`, `leaf${l}`);
    }
  }
  return { schemaVersion: 1, id: 'clos', nodes, links };
}

describe('tiered layout of a large fabric', () => {
  const fabric = clos(32, 128, 16);
  const at = positionsOf(fabric);
  const xs = [...at.values()].map((p) => p.x);
  const ys = [...at.values()].map((p) => p.y);
  const width = Math.max(...xs) - Math.min(...xs);
  const height = Math.max(...ys) - Math.min(...ys);

  it('keeps a readable shape instead of one long line', () => {
    expect(width / height).toBeLessThanOrEqual(3);
  });

  it('stretches a short row to the width of the widest', () => {
    expect(at.get('spine1')!.x).toBeCloseTo(at.get('leaf1')!.x, 6);
    expect(at.get('spine32')!.x).toBeCloseTo(at.get('leaf128')!.x, 6);
  });

  it("keeps each NIC below its own leaf, within that leaf's share of the row", () => {
    const leafGap = at.get('leaf2')!.x - at.get('leaf1')!.x;
    for (let l = 1; l <= 128; l += 9) {
      const leaf = at.get(`leaf${l}`)!;
      for (let n = 1; n <= 16; n++) {
        const nic = at.get(`leaf${l}-nic${n}`)!;
        expect(nic.y).toBeGreaterThan(leaf.y);
        expect(Math.abs(nic.x - leaf.x)).toBeLessThan(leafGap / 2);
      }
    }
  });

  it('gives every node its own spot', () => {
    expect(new Set([...at.values()].map((p) => `${p.x},${p.y}`)).size).toBe(fabric.nodes.length);
  });
});

describe('ring layout (dragonfly)', () => {
  const at = positionsOf(dragonfly);
  const routers = dragonfly.nodes.filter((n) => n.role === 'router');
  const centre = {
    x: routers.reduce((s, r) => s + at.get(r.id)!.x, 0) / routers.length,
    y: routers.reduce((s, r) => s + at.get(r.id)!.y, 0) / routers.length,
  };
  const radius = (id: string) => Math.hypot(at.get(id)!.x - centre.x, at.get(id)!.y - centre.y);

  it('puts all routers on one circle', () => {
    const radii = routers.map((r) => radius(r.id));
    for (const r of radii) expect(r).toBeCloseTo(radii[0]!, 6);
  });

  it('puts each NIC further out than its router, on the same ray', () => {
    expect(radius('g1-r0-nic0')).toBeGreaterThan(radius('g1-r0') + NODE_GAP / 2);
    const angle = (id: string) => Math.atan2(at.get(id)!.y - centre.y, at.get(id)!.x - centre.x);
    expect(angle('g1-r0-nic0')).toBeCloseTo(angle('g1-r0'), 6);
  });

  it("keeps a group's routers closer to each other than to other groups", () => {
    const d = (a: string, b: string) => Math.hypot(at.get(a)!.x - at.get(b)!.x, at.get(a)!.y - at.get(b)!.y);
    expect(d('g0-r0', 'g0-r1')).toBeLessThan(d('g0-r1', 'g1-r0'));
  });
});

describe('edges', () => {
  it('carries capacity, state (default up) and a tooltip per link', () => {
    const { edges } = toGraphElements(leafSpine, { 'leaf1-spine2': 'down' });
    expect(edges).toHaveLength(leafSpine.links.length);
    const down = edges.find((e) => e.id === 'leaf1-spine2')!;
    expect(down).toMatchObject({ source: 'leaf1', target: 'spine2', capacityGbps: 400, state: 'down' });
    expect(edges.find((e) => e.id === 'leaf1-spine1')!.state).toBe('up');
    expect(down.tooltip).toBe('leaf1:eth2 – spine2:eth1 · 400 Gbit/s · 1 µs · down');
  });

  it('writes tooltips without ports or latency when the fabric has none', () => {
    // The schema requires ports; the reader does not check them, so a snapshot without them still renders.
    const link = { id: 'x', a: { node: 'a' }, b: { node: 'b' }, capacityGbps: 1600 } as unknown as FabricLink;
    expect(linkTooltip(link, 'drained')).toBe('a – b · 1.6 Tbit/s · drained');
  });

  it.each([
    [800, '800 ns'],
    [1500, '1.5 µs'],
    [2_000_000, '2 ms'],
  ])('formats %d ns as %s', (ns, text) => {
    expect(formatLatency(ns)).toBe(text);
  });
});
