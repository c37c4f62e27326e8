import { describe, expect, it } from 'vitest';
import type { Fabric } from '../../api/types';
import { toGraphElements } from '../../domain/graph';
import { heatColour, linkLoads } from '../../domain/heat';
import { edgeWidthPx } from '../../domain/linkStyle';
import { ROLE_COLOURS } from '../../domain/roles';
import { readContract } from '../../testing/contracts';
import { edgeTooltip, toCytoscapeElements, type LinkOverlay } from './cytoscapeModel';
import { buildHeatScene, linkLines } from './heatScene';

const fabric = readContract<Fabric>('examples/clos3-tiny.json');

describe('toCytoscapeElements', () => {
  const graph = toGraphElements(fabric, { [fabric.links[0]!.id]: 'down' });
  const nodes = toCytoscapeElements(graph);

  it('has one element per node, placed (preset layout), coloured by role; links are the link layer’s', () => {
    expect(nodes).toHaveLength(fabric.nodes.length);
    expect(nodes.every((n) => n.group === 'nodes')).toBe(true);
    for (const n of nodes) expect(n.position).toBeDefined();
    for (const n of nodes) expect(n.data.colour).toBe(ROLE_COLOURS[n.data.role as keyof typeof ROLE_COLOURS]);
  });

  it('draws every link between nodes that exist', () => {
    const lines = linkLines(graph);
    expect(lines).toHaveLength(fabric.links.length);
    const ids = new Set(nodes.map((n) => n.data.id));
    for (const l of lines) {
      expect(ids.has(l.edge.source)).toBe(true);
      expect(ids.has(l.edge.target)).toBe(true);
    }
    expect(buildHeatScene(lines).drawn.down).toEqual([fabric.links[0]!.id]);
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

describe('tooltips and heat colours', () => {
  const ls = readContract<Fabric>('examples/leaf-spine-2x2.json');
  const graph = toGraphElements(ls, {});

  it('words a link’s tooltip with both directions’ numbers', () => {
    const loads = linkLoads([
      {
        link: 'leaf1-spine1',
        from: 'leaf1',
        to: 'spine1',
        reservedGbps: 100,
        capacityGbps: 400,
        utilisation: 0.25,
        elephants: 1,
      },
      {
        link: 'leaf1-spine1',
        from: 'spine1',
        to: 'leaf1',
        reservedGbps: 400,
        capacityGbps: 400,
        utilisation: 1,
        elephants: 4,
      },
    ]);
    const tip = (id: string, overlay: LinkOverlay) =>
      edgeTooltip(
        graph.edges.find((e) => e.id === id)!,
        overlay,
      );
    expect(tip('leaf1-spine1', { loads })).toContain('leaf1 → spine1: 25% (100 of 400 Gb/s, 1 elephants)');
    expect(tip('leaf1-spine1', { loads })).toContain('spine1 → leaf1: 100%');
    expect(tip('leaf2-spine2', { hotDirections: new Set(['leaf2-spine2>leaf2']) })).toContain(
      'spine2 → leaf2: HOT (collector)',
    );
  });

  it('heat colours run from cividis dark blue (idle) to yellow (full) and clamp', () => {
    expect(heatColour(0)).toBe(heatColour(-1));
    expect(heatColour(1)).toBe(heatColour(3));
    expect(heatColour(0)).not.toBe(heatColour(1));
    expect(heatColour(Number.NaN)).toBe(heatColour(0));
  });
});
