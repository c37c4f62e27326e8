// cytoscape's own style engine (headless: no canvas needed) must accept what the model and the
// stylesheet give it; a property it cannot parse is dropped silently, so check the computed values.
import cytoscape from 'cytoscape';
import { describe, expect, it } from 'vitest';
import type { Fabric } from '../../api/types';
import { toGraphElements } from '../../domain/graph';
import { readContract } from '../../testing/contracts';
import { fabricStyle, toCytoscapeElements } from './cytoscapeModel';
import { nodeRadius } from './heatScene';

describe('fabricStyle in headless cytoscape', () => {
  const fabric = readContract<Fabric>('examples/leaf-spine-2x2.json');
  const cy = cytoscape({
    headless: true,
    styleEnabled: true,
    elements: toCytoscapeElements(toGraphElements(fabric)),
    style: fabricStyle,
  });

  it('draws nodes at the size the link layer starts its lines from', () => {
    for (const id of ['leaf1', 'spine1', 'nic1']) {
      const n = cy.getElementById(id);
      expect(n.width()).toBe(2 * nodeRadius(String(n.data('role'))));
    }
    expect(cy.getElementById('nic1').style('shape')).toBe('round-rectangle');
  });

  it('marks the chosen node', () => {
    cy.getElementById('leaf1').addClass('chosen');
    expect(cy.getElementById('leaf1').style('border-width')).toBe('3px');
  });
});
