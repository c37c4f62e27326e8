import type { ElementDefinition } from 'cytoscape';
import { describe, expect, it } from 'vitest';
import type { Fabric } from '../../api/types';
import { toGraphElements } from '../../domain/graph';
import { heatColour, linkLoads } from '../../domain/heat';
import { edgeWidthPx, LINK_STATE_COLOURS } from '../../domain/linkStyle';
import { ROLE_COLOURS } from '../../domain/roles';
import { readContract } from '../../testing/contracts';
import { edgeTooltip, toCytoscapeElements, type LinkOverlay } from './cytoscapeModel';

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

describe('toCytoscapeElements with a selected job and link', () => {
  const ls = readContract<Fabric>('examples/leaf-spine-2x2.json');
  const graph = toGraphElements(ls, {});
  const edge = (els: ElementDefinition[], id: string) => els.find((e) => e.group === 'edges' && e.data.id === id)!;

  it('keeps a selected job’s links and fades the rest', () => {
    const els = toCytoscapeElements(graph, { highlighted: new Set(['leaf1-spine2', 'nic1-leaf1']) });
    const onPath = els.filter((e) => e.group === 'edges' && e.classes === 'on-path').map((e) => e.data.id);
    expect(onPath.sort()).toEqual(['leaf1-spine2', 'nic1-leaf1']);
    expect(edge(els, 'leaf1-spine1').classes).toBe('faded');
  });

  it('marks the chosen link, and gives cytoscape nothing that follows the load', () => {
    const loads = linkLoads([
      { link: 'leaf1-spine1', from: 'leaf1', to: 'spine1', reservedGbps: 400, capacityGbps: 400, utilisation: 1 },
    ]);
    const els = toCytoscapeElements(graph, { loads, selectedLink: 'leaf1-spine1', hotDirections: new Set() });
    expect(edge(els, 'leaf1-spine1').classes).toBe('chosen');
    expect(Object.keys(edge(els, 'leaf1-spine1').data).sort()).toEqual(
      ['colour', 'id', 'source', 'state', 'target', 'width'].sort(),
    );
  });

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
