// The links as a scene of strokes grouped by look, in model coordinates: each direction's heat
// colour or the link's state colour, hot marks, drop and ECN outlines, dots and dashes, the
// selected job's paths and the chosen link, elephant counts. The link layer (drawHeat.ts) draws it
// under cytoscape's canvas in a few calls, so a 10 Hz update of thousands of links never goes
// through cytoscape's per-element style engine, and cytoscape, which draws and picks the nodes,
// never holds the links at all (fewer elements: a large fabric is interactive sooner). Pure:
// tested without a canvas.
import type { GraphEdge, GraphElements, Position } from '../../domain/graph';
import { directionId, heatColour, HOT_UTILISATION } from '../../domain/heat';
import { edgeWidthPx, LINK_STATE_COLOURS } from '../../domain/linkStyle';
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
/** The link chosen for its history: a dark underlay. */
const CHOSEN_COLOUR = '#111111';
const MARK_COLOURS = { drops: '#d62728', ecn: '#ff7f0e' } as const;
/** Dash patterns in model units, as cytoscape draws 'dashed' and 'dotted' lines. */
const DASHED = [6, 3];
const DOTTED = [1, 1];
/** Opacity of links off the selected job's paths. */
export const FADED_ALPHA = 0.2;

/** The load-derived look of a link, or null when it has none (drawn in its state's colour). */
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
  /** In drawing order: faded links' underlays, outlines, lines; then the same for the rest. */
  strokes: HeatStroke[];
  labels: HeatLabel[];
  /** What is drawn, as link ids (read back by tests and inspectors instead of pixels). */
  drawn: { hot: string[]; onPath: string[]; drained: string[]; down: string[]; chosen: string[] };
}

/** Half the drawn size of a node (cytoscape's node style): lines start at the node's rim. */
export function nodeRadius(role: string): number {
  return role === 'nic' ? 6 : 9;
}

/** Each link's line between its nodes' rims, in model coordinates (null: the nodes overlap). */
export interface LinkLine {
  edge: GraphEdge;
  x1: number;
  y1: number;
  x2: number;
  y2: number;
}

/** The lines of every link: computed once per graph (positions are fixed), used to draw and to hit-test. */
export function linkLines(graph: GraphElements): LinkLine[] {
  const nodes = new Map(graph.nodes.map((n) => [n.id, n]));
  const out: LinkLine[] = [];
  for (const edge of graph.edges) {
    const a = nodes.get(edge.source);
    const b = nodes.get(edge.target);
    if (!a || !b) continue;
    const line = rimToRim(a.position, nodeRadius(a.role), b.position, nodeRadius(b.role));
    if (line) out.push({ edge, ...line });
  }
  return out;
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
 * The link nearest to a point (model coordinates) within `slack` of its drawn edge, or null: what
 * the pointer is on. O(links): a few thousand distance checks per pointer move.
 */
export function linkAt(lines: readonly LinkLine[], x: number, y: number, slack: number): GraphEdge | null {
  let best: GraphEdge | null = null;
  let bestD = Infinity;
  for (const l of lines) {
    const dx = l.x2 - l.x1;
    const dy = l.y2 - l.y1;
    const len2 = dx * dx + dy * dy;
    const t = len2 > 0 ? Math.min(1, Math.max(0, ((x - l.x1) * dx + (y - l.y1) * dy) / len2)) : 0;
    const d = Math.hypot(x - (l.x1 + t * dx), y - (l.y1 + t * dy)) - edgeWidthPx(l.edge.capacityGbps) / 2;
    if (d <= slack && d < bestD) {
      best = l.edge;
      bestD = d;
    }
  }
  return best;
}

/**
 * Every link drawn for a graph and its overlay: a loaded link as two halves in its directions'
 * colours, any other in its state's colour (drained dashed, down dotted red: no heat on a down
 * link); under it a hot underlay (line + 2 x 3 px), a drop or ECN outline (line + 2 x 2 px), the
 * chosen link's dark underlay (line + 2 x 4 px); elephant counts at the middle. Links off the
 * selected job's paths fade and lie under the path's. O(links); strokes are grouped by look, so
 * drawing costs a few canvas calls per distinct colour, not per link.
 */
export function buildHeatScene(lines: readonly LinkLine[], overlay: LinkOverlay = {}): HeatScene {
  const groups = new Map<string, { order: number; stroke: HeatStroke }>();
  const add = (order: number, colour: string, alpha: number, widthPx: number, dash: readonly number[]) => {
    const key = `${order}|${alpha}|${colour}|${widthPx}|${dash.join(',')}`;
    let g = groups.get(key);
    if (!g) groups.set(key, (g = { order, stroke: { colour, alpha, widthPx, dash, segments: [] } }));
    return g.stroke.segments;
  };
  const labels: HeatLabel[] = [];
  const drawn: HeatScene['drawn'] = { hot: [], onPath: [], drained: [], down: [], chosen: [] };
  for (const line of lines) {
    const e = line.edge;
    const heat = edgeHeat(e, overlay);
    const onPath = overlay.highlighted?.has(e.id) ?? false;
    const faded = overlay.highlighted ? !onPath : false;
    if (onPath) drawn.onPath.push(e.id);
    if (e.state === 'drained') drawn.drained.push(e.id);
    if (e.state === 'down') drawn.down.push(e.id);
    // faded first (passes 0-3), then the rest (4-7): links on a selected path lie over the others
    const fade = faded ? 0 : 4;
    const alpha = faded ? FADED_ALPHA : 1;
    const width = edgeWidthPx(e.capacityGbps);
    const { x1, y1, x2, y2 } = line;
    if (overlay.selectedLink === e.id) {
      drawn.chosen.push(e.id);
      add(fade, CHOSEN_COLOUR, alpha * 0.35, width + 8, []).push(x1, y1, x2, y2);
    }
    if (heat?.hot) {
      drawn.hot.push(e.id);
      add(1 + fade, HOT_COLOUR, alpha * 0.7, width + 6, []).push(x1, y1, x2, y2);
    }
    if (heat?.mark) add(2 + fade, MARK_COLOURS[heat.mark], alpha, width + 4, []).push(x1, y1, x2, y2);
    const dash = e.state === 'down' || heat?.operDown ? DOTTED : e.state === 'drained' ? DASHED : [];
    if (e.state !== 'down' && heat?.forward && heat.reverse) {
      const mx = (x1 + x2) / 2;
      const my = (y1 + y2) / 2;
      add(3 + fade, heat.forward, alpha, width, dash).push(x1, y1, mx, my);
      add(3 + fade, heat.reverse, alpha, width, dash).push(mx, my, x2, y2);
    } else {
      add(3 + fade, LINK_STATE_COLOURS[e.state], alpha, width, dash).push(x1, y1, x2, y2);
    }
    if (heat?.label) labels.push({ x: (x1 + x2) / 2, y: (y1 + y2) / 2, text: heat.label, alpha });
  }
  const strokes = [...groups.values()].sort((p, q) => p.order - q.order).map((g) => g.stroke);
  return { strokes, labels, drawn };
}
