// Graph elements -> cytoscape's element and style definitions. Kept apart from the component so
// it can be read (and tested) without a canvas.
import type { EdgeSingular, ElementDefinition, StylesheetJson } from 'cytoscape';
import type { GraphEdge, GraphElements } from '../../domain/graph';
import { directionId, heatColour, HOT_UTILISATION, type LinkLoads } from '../../domain/heat';
import { edgeWidthPx, LINK_STATE_COLOURS } from '../../domain/linkStyle';
import { ROLE_COLOURS } from '../../domain/roles';

/** What the operator data adds on top of the topology; every part optional. */
export interface LinkOverlay {
  /** Per link, per sending node, the direction's reservation (domain/heat.ts). */
  loads?: LinkLoads;
  /** Hot directions ('<link>><to node>') from the collector. */
  hotDirections?: ReadonlySet<string>;
  /** Links of the selected job's paths; when set, every other link fades. */
  highlighted?: ReadonlySet<string> | null;
}

const pct = (u: number) => `${Math.round(u * 100)}%`;

/**
 * Load data for one edge: the half at the source end shows source -> target, the other half the
 * reverse (a two-colour cytoscape gradient), and the tooltip lists both directions.
 */
function loadData(e: GraphEdge, overlay: LinkOverlay) {
  const dirs = overlay.loads?.get(e.id);
  const forward = dirs?.get(e.source);
  const reverse = dirs?.get(e.target);
  const hotForward = overlay.hotDirections?.has(directionId(e.id, e.target)) ?? false;
  const hotReverse = overlay.hotDirections?.has(directionId(e.id, e.source)) ?? false;
  const maxU = Math.max(forward?.utilisation ?? 0, reverse?.utilisation ?? 0);
  const hot = hotForward || hotReverse || maxU >= HOT_UTILISATION;
  const lines = [e.tooltip];
  const directions = [
    { from: e.source, to: e.target, load: forward, hot: hotForward },
    { from: e.target, to: e.source, load: reverse, hot: hotReverse },
  ];
  for (const d of directions) {
    const tag = d.hot ? ' HOT (collector)' : '';
    if (d.load) {
      const l = d.load;
      lines.push(
        `${d.from} → ${d.to}: ${pct(l.utilisation)} (${l.reservedGbps} of ${l.capacityGbps} Gb/s, ${l.elephants} elephants)${tag}`,
      );
    } else if (d.hot) {
      lines.push(`${d.from} → ${d.to}:${tag}`);
    }
  }
  const data: { tooltip: string; stopColours?: string[] } = { tooltip: lines.join('\n') };
  if (forward || reverse) {
    // an array, not a space-separated string: d3 writes colours as 'rgb(r, g, b)' with spaces
    const a = heatColour(forward?.utilisation ?? 0);
    const b = heatColour(reverse?.utilisation ?? 0);
    data.stopColours = [a, a, b, b];
  }
  const classes = [hot ? 'hot' : '', overlay.highlighted ? (overlay.highlighted.has(e.id) ? 'on-path' : 'faded') : '']
    .filter((c) => c !== '')
    .join(' ');
  return { data, classes };
}

export function toCytoscapeElements(graph: GraphElements, overlay: LinkOverlay = {}): ElementDefinition[] {
  return [
    ...graph.nodes.map((n) => ({
      group: 'nodes' as const,
      data: { id: n.id, label: n.label, role: n.role, colour: ROLE_COLOURS[n.role] },
      position: { ...n.position },
    })),
    ...graph.edges.map((e) => {
      const load = loadData(e, overlay);
      return {
        group: 'edges' as const,
        data: {
          id: e.id,
          source: e.source,
          target: e.target,
          state: e.state,
          width: edgeWidthPx(e.capacityGbps),
          colour: LINK_STATE_COLOURS[e.state],
          ...load.data,
        },
        classes: load.classes,
      };
    }),
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
  {
    // Loaded links: each half coloured by the direction leaving that end (gradient source -> target).
    selector: 'edge[stopColours][state != "down"]',
    style: {
      'line-fill': 'linear-gradient',
      'line-gradient-stop-colors': (ele: EdgeSingular) => ele.data('stopColours') as string[],
      'line-gradient-stop-positions': [0, 50, 50, 100],
    },
  },
  { selector: 'edge.hot', style: { 'underlay-color': '#e7298a', 'underlay-opacity': 0.7, 'underlay-padding': 3 } },
  { selector: 'edge.faded', style: { opacity: 0.2 } },
  { selector: 'edge.on-path', style: { 'z-index': 5 } },
  { selector: 'edge[state = "drained"]', style: { 'line-style': 'dashed' } },
  { selector: 'edge[state = "down"]', style: { 'line-style': 'dotted' } },
  { selector: 'edge:selected, edge.hover', style: { 'line-color': '#111', 'z-index': 10 } },
  // The link picked for its panel: an outline that survives the load gradient.
  {
    selector: 'edge.picked',
    style: { 'underlay-color': '#111', 'underlay-opacity': 0.5, 'underlay-padding': 4, 'z-index': 10 },
  },
];
