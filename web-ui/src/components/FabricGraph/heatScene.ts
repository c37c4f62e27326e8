// What changes with every live load update (each direction's heat colour, hot marks, drop and ECN
// outlines, measured-down dots, elephant counts) as a scene of strokes grouped by look, in model
// coordinates. The heat layer (drawHeat.ts) draws it over cytoscape's canvas in a few calls, so a
// 10 Hz update of thousands of links never goes through cytoscape's per-element style engine;
// cytoscape keeps what changes rarely: topology, link state, selection. Pure: tested without a canvas.
import type { GraphEdge, GraphElements, Position } from '../../domain/graph';
import { directionId, heatColour, HOT_UTILISATION } from '../../domain/heat';
import { edgeWidthPx } from '../../domain/linkStyle';
import type { LinkOverlay } from './cytoscapeModel';

/** The load-derived look of one link; null colours: no load known for that direction. */
export interface EdgeHeat {
  /** Colour of the half at the source end (source -> target), and of the other half. */
  forward: string | null;
  reverse: string | null;
  hot: boolean;
  /** One outline: drops win over ECN marks. */
  mark: 'drops' | 'ecn' | null;
  operDown: boolean;
  /** Elephant count when shown, else ''. */
  label: string;
}

export const HOT_COLOUR = '#e7298a';
const MARK_COLOURS = { drops: '#d62728', ecn: '#ff7f0e' } as const;
/** Dash patterns in model units, as cytoscape draws 'dashed' and 'dotted' lines. */
const DASHED = [6, 3];
const DOTTED = [1, 1];
/** Opacity of links off the selected job's paths (cytoscape's edge.faded). */
export const FADED_ALPHA = 0.2;

/** The load-derived look of a link, or null when there is nothing to draw over cytoscape's line. */
export function edgeHeat(e: GraphEdge, overlay: LinkOverlay): EdgeHeat | null {
  const dirs = overlay.loads?.get(e.id);
  const forward = dirs?.get(e.source);
  const reverse = dirs?.get(e.target);
  const hotForward = overlay.hotDirections?.has(directionId(e.id, e.target)) ?? false;
  const hotReverse = overlay.hotDirections?.has(directionId(e.id, e.source)) ?? false;
  const maxU = Math.max(forward?.utilisation ?? 0, reverse?.utilisation ?? 0);
  const hot = hotForward || hotReverse || maxU >= HOT_UTILISATION;
  if (!forward && !reverse && !hot) return null;
  const show = overlay.show ?? {};
  const elephants = (forward?.elephants ?? 0) + (reverse?.elephants ?? 0);
  const drops = show.drops && Math.max(forward?.dropRate ?? 0, reverse?.dropRate ?? 0) > 0;
  const ecn = show.ecn && Math.max(forward?.ecnFraction ?? 0, reverse?.ecnFraction ?? 0) > 0;
  const loaded = forward !== undefined || reverse !== undefined;
  return {
    forward: loaded ? heatColour(forward?.utilisation ?? 0) : null,
    reverse: loaded ? heatColour(reverse?.utilisation ?? 0) : null,
    hot,
    mark: drops ? 'drops' : ecn ? 'ecn' : null,
    operDown: (forward?.operDown ?? false) || (reverse?.operDown ?? false),
    label: show.elephants && elephants > 0 ? String(elephants) : '',
  };
}

/** Line segments (x1 y1 x2 y2 ...) sharing one look, stroked in one call. */
export interface HeatStroke {
  colour: string;
  alpha: number;
  widthPx: number;
  dash: readonly number[];
  segments: number[];
}

export interface HeatLabel {
  x: number;
  y: number;
  text: string;
  alpha: number;
}

export interface HeatScene {
  /** In drawing order: faded links' hot underlays, outlines, heat; then the same for the rest. */
  strokes: HeatStroke[];
  labels: HeatLabel[];
  /** Ids of the links drawn hot (read back by tests and inspectors). */
  hot: string[];
}

/** Half the drawn size of a node (FabricGraph's style): lines start at the node's rim. */
export function nodeRadius(role: string): number {
  return role === 'nic' ? 6 : 9;
}

/** The end points of a link between two node rims; null when the nodes overlap. */
function rimToRim(a: Position, ra: number, b: Position, rb: number) {
  const dx = b.x - a.x;
  const dy = b.y - a.y;
  const len = Math.hypot(dx, dy);
  if (len <= ra + rb) return null;
  const ux = dx / len;
  const uy = dy / len;
  return { x1: a.x + ux * ra, y1: a.y + uy * ra, x2: b.x - ux * rb, y2: b.y - uy * rb };
}

/**
 * The scene for a graph and its overlay: per link the two halves in their directions' colours
 * (down links keep cytoscape's red dots: no heat), a hot underlay (line + 2 x 3 px), a drop or ECN
 * outline (line + 2 x 2 px), elephant counts at the middle. Links off the selected job's paths
 * fade as cytoscape fades them. O(links); the strokes are grouped by look, so drawing costs a
 * few canvas calls per distinct colour, not per link.
 */
export function buildHeatScene(graph: GraphElements, overlay: LinkOverlay = {}): HeatScene {
  const nodes = new Map(graph.nodes.map((n) => [n.id, n]));
  const groups = new Map<string, { order: number; stroke: HeatStroke }>();
  const add = (order: number, colour: string, alpha: number, widthPx: number, dash: readonly number[]) => {
    const key = `${order}|${alpha}|${colour}|${widthPx}|${dash.join(',')}`;
    let g = groups.get(key);
    if (!g) groups.set(key, (g = { order, stroke: { colour, alpha, widthPx, dash, segments: [] } }));
    return g.stroke.segments;
  };
  const labels: HeatLabel[] = [];
  const hot: string[] = [];
  for (const e of graph.edges) {
    const heat = edgeHeat(e, overlay);
    if (!heat) continue;
    const a = nodes.get(e.source);
    const b = nodes.get(e.target);
    if (!a || !b) continue;
    const line = rimToRim(a.position, nodeRadius(a.role), b.position, nodeRadius(b.role));
    if (!line) continue;
    const faded = overlay.highlighted ? !overlay.highlighted.has(e.id) : false;
    // faded first (passes 0-2), then the rest (3-5): links on a selected path lie over the others
    const fade = faded ? 0 : 3;
    const alpha = faded ? FADED_ALPHA : 1;
    const width = edgeWidthPx(e.capacityGbps);
    const whole = [line.x1, line.y1, line.x2, line.y2];
    if (heat.hot) {
      hot.push(e.id);
      add(fade, HOT_COLOUR, alpha * 0.7, width + 6, []).push(...whole);
    }
    if (heat.mark) add(1 + fade, MARK_COLOURS[heat.mark], alpha, width + 4, []).push(...whole);
    if (e.state !== 'down' && heat.forward && heat.reverse) {
      const dash = heat.operDown ? DOTTED : e.state === 'drained' ? DASHED : [];
      const mx = (line.x1 + line.x2) / 2;
      const my = (line.y1 + line.y2) / 2;
      add(2 + fade, heat.forward, alpha, width, dash).push(line.x1, line.y1, mx, my);
      add(2 + fade, heat.reverse, alpha, width, dash).push(mx, my, line.x2, line.y2);
    }
    if (heat.label) labels.push({ x: (line.x1 + line.x2) / 2, y: (line.y1 + line.y2) / 2, text: heat.label, alpha });
  }
  const strokes = [...groups.values()].sort((p, q) => p.order - q.order).map((g) => g.stroke);
  return { strokes, labels, hot };
}
