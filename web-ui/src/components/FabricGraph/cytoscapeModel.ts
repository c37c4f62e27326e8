// Graph elements -> cytoscape's element and style definitions. Kept apart from the component so
// it can be read (and tested) without a canvas.
import type { ElementDefinition, StylesheetJson } from 'cytoscape';
import type { GraphElements } from '../../domain/graph';
import { edgeWidthPx, LINK_STATE_COLOURS } from '../../domain/linkStyle';
import { ROLE_COLOURS } from '../../domain/roles';

export function toCytoscapeElements(graph: GraphElements): ElementDefinition[] {
  return [
    ...graph.nodes.map((n) => ({
      group: 'nodes' as const,
      data: { id: n.id, label: n.label, role: n.role, colour: ROLE_COLOURS[n.role] },
      position: { ...n.position },
    })),
    ...graph.edges.map((e) => ({
      group: 'edges' as const,
      data: {
        id: e.id,
        source: e.source,
        target: e.target,
        state: e.state,
        tooltip: e.tooltip,
        width: edgeWidthPx(e.capacityGbps),
        colour: LINK_STATE_COLOURS[e.state],
      },
    })),
  ];
}

export const fabricStyle: StylesheetJson = [
  {
    selector: 'node',
    style: {
      'background-color': 'data(colour)',
      label: 'data(label)',
      'font-size': 10,
      'text-valign': 'bottom',
      'text-margin-y': 3,
      'min-zoomed-font-size': 7, // labels vanish when a large fabric is zoomed out
      width: 18,
      height: 18,
    },
  },
  { selector: 'node[role = "nic"]', style: { shape: 'round-rectangle', width: 12, height: 12 } },
  { selector: 'edge', style: { width: 'data(width)', 'line-color': 'data(colour)', 'curve-style': 'straight' } },
  { selector: 'edge[state = "drained"]', style: { 'line-style': 'dashed' } },
  { selector: 'edge[state = "down"]', style: { 'line-style': 'dotted' } },
  { selector: 'edge:selected, edge.hover', style: { 'line-color': '#111', 'z-index': 10 } },
];
