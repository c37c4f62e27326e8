import { describe, expect, it } from 'vitest';
import type { Fabric } from '../../api/types';
import { toGraphElements } from '../../domain/graph';
import { edgeWidthPx, LINK_STATE_COLOURS } from '../../domain/linkStyle';
import { ROLE_COLOURS } from '../../domain/roles';
import { readContract } from '../../testing/contracts';
import { toCytoscapeElements } from './cytoscapeModel';

const fabric = readContract<Fabric>('examples/clos3-tiny.json');

describe('toCytoscapeElements', () => {
  const elements = toCytoscapeElements(toGraphElements(fabric, { [fabric.links[0]!.id]: 'down' }));
  const nodes = elements.filter((e) => e.group === 'nodes');
  const edges = elements.filter((e) => e.group === 'edges');

  it('has one element per node and link, nodes placed (preset layout)', () => {
    expect(nodes).toHaveLength(fabric.nodes.length);
    expect(edges).toHaveLength(fabric.links.length);
    for (const n of nodes) expect(n.position).toBeDefined();
  });

  it('colours nodes by role and links by state', () => {
    for (const n of nodes) expect(n.data.colour).toBe(ROLE_COLOURS[n.data.role as keyof typeof ROLE_COLOURS]);
    expect(edges[0]!.data).toMatchObject({ state: 'down', colour: LINK_STATE_COLOURS.down });
    expect(edges[1]!.data.colour).toBe(LINK_STATE_COLOURS.up);
  });

  it('only references nodes that exist', () => {
    const ids = new Set(nodes.map((n) => n.data.id));
    for (const e of edges) {
      expect(ids.has(e.data.source as string)).toBe(true);
      expect(ids.has(e.data.target as string)).toBe(true);
    }
  });
});

describe('edgeWidthPx', () => {
  it.each([
    [100, 1],
    [400, 3],
    [1600, 5],
    [100_000, 6],
    [10, 1],
    [0, 1],
  ])('%d Gbit/s -> %d px', (gbps, px) => {
    expect(edgeWidthPx(gbps)).toBeCloseTo(px, 6);
  });
});
