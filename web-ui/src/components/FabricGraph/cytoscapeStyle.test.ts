// cytoscape's own style engine (headless: no canvas needed) must accept what the model and the
// stylesheet give it; a property it cannot parse is dropped silently, so check the computed values.
import cytoscape from 'cytoscape';
import { describe, expect, it } from 'vitest';
import type { Fabric } from '../../api/types';
import { toGraphElements } from '../../domain/graph';
import { heatColour, linkLoads } from '../../domain/heat';
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

  it('draws a loaded link as a two-colour gradient, source half first', () => {
    const e = edge('leaf1-spine1');
    expect(e.style('line-fill')).toBe('linear-gradient');
    const rgb = (c: string) => c.replace(/\s/g, '');
    const stops = (e.style('line-gradient-stop-colors') as string).split(' ');
    expect(stops.map(rgb)).toEqual([heatColour(0.25), heatColour(0.25), heatColour(1), heatColour(1)].map(rgb));
  });

  it('marks hot links, fades links off the selected path, keeps drained dashed', () => {
    expect(edge('leaf1-spine1').style('underlay-opacity')).toBe('0.7');
    expect(edge('leaf1-spine2').style('opacity')).toBe('0.2');
    expect(edge('leaf1-spine1').style('opacity')).toBe('1');
    expect(edge('leaf2-spine2').style('line-style')).toBe('dashed');
    expect(edge('leaf2-spine2').style('line-fill')).toBe('solid');
  });

  it('accepts the drop and ECN outlines, measured-down dots and elephant labels', () => {
    const m = linkLoads([]);
    m.set(
      'leaf1-spine1',
      new Map([
        [
          'leaf1',
          {
            from: 'leaf1',
            to: 'spine1',
            utilisation: 0.5,
            reservedGbps: 0,
            capacityGbps: 400,
            elephants: 3,
            dropRate: 0.1,
          },
        ],
      ]),
    );
    m.set(
      'leaf1-spine2',
      new Map([
        [
          'leaf1',
          {
            from: 'leaf1',
            to: 'spine2',
            utilisation: 0.5,
            reservedGbps: 0,
            capacityGbps: 400,
            elephants: 0,
            ecnFraction: 0.1,
            operDown: true,
          },
        ],
      ]),
    );
    const c = cytoscape({
      headless: true,
      styleEnabled: true,
      elements: toCytoscapeElements(toGraphElements(fabric, {}), {
        loads: m,
        show: { drops: true, ecn: true, elephants: true },
      }),
      style: fabricStyle,
    });
    expect(c.getElementById('leaf1-spine1').style('line-outline-width')).toBe('2px');
    expect(c.getElementById('leaf1-spine1').style('label')).toBe('3');
    expect(String(c.getElementById('leaf1-spine2').style('line-outline-color')).replace(/\s/g, '')).toBe(
      'rgb(255,127,14)',
    );
    expect(c.getElementById('leaf1-spine2').style('line-style')).toBe('dotted');
  });
});
