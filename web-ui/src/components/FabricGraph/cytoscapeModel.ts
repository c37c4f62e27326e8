// Graph elements -> cytoscape's element and style definitions. Kept apart from the component so
// it can be read (and tested) without a canvas.
import type { ElementDefinition, StylesheetJson } from 'cytoscape';
import type { GraphEdge, GraphElements } from '../../domain/graph';
import { directionId, type DirectionLoad, type LinkLoads } from '../../domain/heat';
import { ROLE_COLOURS } from '../../domain/roles';

/** What the operator data adds on top of the topology; every part optional. */
export interface LinkOverlay {
  /** Per link, per sending node, the direction's reservation (domain/heat.ts). */
  loads?: LinkLoads;
  /** Hot directions ('<link>><to node>') from the collector. */
  hotDirections?: ReadonlySet<string>;
  /** Links of the selected job's paths; when set, every other link fades. */
  highlighted?: ReadonlySet<string> | null;
  /** What the loads are: measured by the collector or reserved by the scheduler (tooltip wording). */
  source?: 'measured' | 'reserved';
  /** Marks that can be switched on: drops (red outline), ECN marks (orange outline), elephant counts (label). */
  show?: { drops?: boolean; ecn?: boolean; elephants?: boolean };
  /** The link chosen for its history chart. */
  selectedLink?: string | null;
}

const pct = (u: number) => `${Math.round(u * 100)}%`;
const fraction = (v: number | null | undefined) => (typeof v === 'number' ? `${(v * 100).toFixed(2)}%` : 'n/a');

function describe(l: DirectionLoad, measured: boolean): string {
  if (!measured) return `${pct(l.utilisation)} (${l.reservedGbps} of ${l.capacityGbps} Gb/s, ${l.elephants} elephants)`;
  const rate = typeof l.rateGbps === 'number' ? l.rateGbps.toFixed(1) : '?';
  const down = l.operDown ? ', oper DOWN' : '';
  return `${pct(l.utilisation)} measured (${rate} of ${l.capacityGbps} Gb/s, drops ${fraction(l.dropRate)}, ECN ${fraction(l.ecnFraction)}, ${l.elephants} elephants${down})`;
}

/**
 * An edge's tooltip: the link, then both directions' numbers. Built when the pointer is on the edge,
 * not for every edge on every live update (formatting thousands of numbers 10 times a second).
 */
export function edgeTooltip(e: GraphEdge, overlay: LinkOverlay = {}): string {
  const dirs = overlay.loads?.get(e.id);
  const forward = dirs?.get(e.source);
  const reverse = dirs?.get(e.target);
  const hotForward = overlay.hotDirections?.has(directionId(e.id, e.target)) ?? false;
  const hotReverse = overlay.hotDirections?.has(directionId(e.id, e.source)) ?? false;
  const lines = [e.tooltip];
  const directions = [
    { from: e.source, to: e.target, load: forward, hot: hotForward },
    { from: e.target, to: e.source, load: reverse, hot: hotReverse },
  ];
  const measured = overlay.source === 'measured';
  for (const d of directions) {
    const tag = d.hot ? ' HOT (collector)' : '';
    if (d.load) {
      lines.push(`${d.from} → ${d.to}: ${describe(d.load, measured)}${tag}`);
    } else if (d.hot) {
      lines.push(`${d.from} → ${d.to}:${tag}`);
    }
  }
  return lines.join('\n');
}

/**
 * Cytoscape's elements: the nodes only, placed (preset layout). The links are drawn and picked by
 * the link layer (heatScene.ts, drawHeat.ts): cytoscape would spend most of a large fabric's
 * start-up on their styles and geometry.
 */
export function toCytoscapeElements(graph: GraphElements): ElementDefinition[] {
  return graph.nodes.map((n) => ({
    group: 'nodes' as const,
    data: { id: n.id, label: n.label, role: n.role, colour: ROLE_COLOURS[n.role] },
    position: { ...n.position },
  }));
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
  { selector: 'node.chosen', style: { 'border-width': 3, 'border-color': '#111' } },
];
