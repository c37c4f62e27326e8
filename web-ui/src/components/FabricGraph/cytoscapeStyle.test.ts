// cytoscape's own style engine (headless: no canvas needed) must accept what the model and the
// stylesheet give it; a property it cannot parse is dropped silently, so check the computed values.
import cytoscape from 'cytoscape';
import { describe, expect, it } from 'vitest';
import type { Fabric } from '../../api/types';
import { toGraphElements } from '../../domain/graph';
import { linkLoads } from '../../domain/heat';
import { readContract } from '../../testing/contracts';
import { fabricStyle, toCytoscapeElements } from './cytoscapeModel';

describe('fabricStyle in headless cytoscape', () => {
  const fabric = readContract<Fabric>('examples/leaf-spine-2x2.json');
  const loads = linkLoads([
    { link: 'leaf1-spine1', from: 'leaf1', to: 'spine1', reservedGbps: 100, capacityGbps: 400, utilisation: 0.25 },
    { link: 'leaf1-spine1', from: 'spine1', to: 'leaf1', reservedGbps: 400, capacityGbps: 400, utilisation: 1 },
  ]);
  const cy = cytoscape({
    headless: true,
    styleEnabled: true,
    elements: toCytoscapeElements(toGraphElements(fabric, { 'leaf2-spine2': 'drained' }), {
      loads,
      highlighted: new Set(['leaf1-spine1']),
    }),
    style: fabricStyle,
  });
  const edge = (id: string) => cy.getElementById(id);

  it('fades links off the selected path, keeps drained dashed, leaves the load to the heat layer', () => {
    expect(edge('leaf1-spine1').style('line-fill')).toBe('solid');
    expect(edge('leaf1-spine2').style('opacity')).toBe('0.2');
    expect(edge('leaf1-spine1').style('opacity')).toBe('1');
    expect(edge('leaf2-spine2').style('line-style')).toBe('dashed');
    expect(edge('leaf2-spine2').style('line-fill')).toBe('solid');
  });

  it('underlays the chosen link and dots a down one', () => {
    const c = cytoscape({
      headless: true,
      styleEnabled: true,
      elements: toCytoscapeElements(toGraphElements(fabric, { 'leaf1-spine2': 'down' }), {
        selectedLink: 'leaf1-spine1',
      }),
      style: fabricStyle,
    });
    expect(c.getElementById('leaf1-spine1').style('underlay-opacity')).toBe('0.35');
    expect(c.getElementById('leaf1-spine2').style('line-style')).toBe('dotted');
  });
});
