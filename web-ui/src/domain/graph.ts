// Fabric -> graph elements with a fixed, readable position per node: Clos and rail fabrics in
// tiers (super-spines on top, NICs at the bottom), Dragonfly / Slim Fly routers in a ring of
// groups with their NICs just outside. Pure, so it is tested without cytoscape.
import type { Fabric, FabricLink, FabricNode, LinkState, Role } from '../api/types';
import { naturalCompare } from './roles';

export interface Position {
  x: number;
  y: number;
}

export interface GraphNode {
  id: string;
  label: string;
  role: Role;
  position: Position;
}

export interface GraphEdge {
  id: string;
  source: string;
  target: string;
  capacityGbps: number;
  state: LinkState;
  tooltip: string;
}

export interface GraphElements {
  nodes: GraphNode[];
  edges: GraphEdge[];
}

/** Least vertical distance between tiers, horizontal distance between switches, between NICs; px. */
export const TIER_GAP = 160;
export const NODE_GAP = 70;
export const NIC_GAP = 24;
const SWITCH_TIERS: readonly Role[] = ['superspine', 'spine', 'leaf'];

export function toGraphElements(fabric: Fabric, linkStates: Record<string, LinkState> = {}): GraphElements {
  const positions = layout(fabric);
  return {
    nodes: fabric.nodes.map((n) => ({
      id: n.id,
      label: n.name ?? n.id,
      role: n.role,
      position: positions.get(n.id) ?? { x: 0, y: 0 },
    })),
    edges: fabric.links.map((l) => {
      const state = linkStates[l.id] ?? 'up';
      return {
        id: l.id,
        source: l.a.node,
        target: l.b.node,
        capacityGbps: l.capacityGbps,
        state,
        tooltip: linkTooltip(l, state),
      };
    }),
  };
}

/** "leaf1:eth1 – spine1:eth1 · 400 Gbit/s · 1 µs · up" */
export function linkTooltip(link: FabricLink, state: LinkState): string {
  const end = (e: FabricLink['a']) => (e.port ? `${e.node}:${e.port}` : e.node);
  const parts = [`${end(link.a)} – ${end(link.b)}`, formatGbps(link.capacityGbps)];
  if (link.latencyNs !== undefined) parts.push(formatLatency(link.latencyNs));
  parts.push(state);
  return parts.join(' · ');
}

export function formatGbps(gbps: number): string {
  return gbps >= 1000 ? `${gbps / 1000} Tbit/s` : `${gbps} Gbit/s`;
}

export function formatLatency(ns: number): string {
  if (ns >= 1_000_000) return `${ns / 1_000_000} ms`;
  if (ns >= 1000) return `${ns / 1000} µs`;
  return `${ns} ns`;
}

function layout(fabric: Fabric): Map<string, Position> {
  const byId = new Map(fabric.nodes.map((n) => [n.id, n]));
  // The switch each NIC hangs off, for placing it next to that switch.
  const attachment = new Map<string, string>();
  for (const l of fabric.links) {
    for (const [nic, other] of [
      [l.a.node, l.b.node],
      [l.b.node, l.a.node],
    ] as const) {
      if (byId.get(nic)?.role === 'nic' && byId.get(other)?.role !== 'nic' && !attachment.has(nic)) {
        attachment.set(nic, other);
      }
    }
  }
  const positions = new Map<string, Position>();
  const routers = fabric.nodes.filter((n) => n.role === 'router');
  if (routers.length > 0) ringLayout(routers, fabric.nodes, attachment, positions);
  tierLayout(fabric.nodes, attachment, positions);
  return positions;
}

const byPlacement = (a: FabricNode, b: FabricNode) =>
  (a.pod ?? 0) - (b.pod ?? 0) ||
  (a.plane ?? 0) - (b.plane ?? 0) ||
  (a.group ?? 0) - (b.group ?? 0) ||
  (a.rail ?? 0) - (b.rail ?? 0) ||
  naturalCompare(a.id, b.id);

/**
 * Switch tiers as rows centred on x = 0, every row stretched to the widest one; each switch's
 * NICs in a small grid under it. Tiers move apart as the fabric widens, so a large fabric keeps a
 * readable shape (width at most about 3 x height) instead of collapsing into a line.
 */
function tierLayout(nodes: readonly FabricNode[], attachment: Map<string, string>, out: Map<string, Position>): void {
  const rows = SWITCH_TIERS.map((role) =>
    nodes.filter((n) => n.role === role && !out.has(n.id)).sort(byPlacement),
  ).filter((row) => row.length > 0);
  const width = Math.max(0, ...rows.map((r) => (r.length - 1) * NODE_GAP));
  // rows.length gaps from the top row down to the NICs: height >= width / 3.
  const tierGap = Math.max(TIER_GAP, width / (3 * Math.max(1, rows.length)));
  const slot = new Map<string, number>(); // horizontal room each switch has for its NICs
  rows.forEach((row, tier) => {
    const step = row.length > 1 ? width / (row.length - 1) : 0;
    row.forEach((n, i) => {
      out.set(n.id, { x: row.length > 1 ? i * step - width / 2 : 0, y: tier * tierGap });
      slot.set(n.id, Math.max(NODE_GAP, step));
    });
  });

  const nics = nodes.filter((n) => n.role === 'nic' && !out.has(n.id)).sort((a, b) => naturalCompare(a.id, b.id));
  const under = new Map<string, FabricNode[]>();
  const loose: FabricNode[] = [];
  for (const nic of nics) {
    const host = attachment.get(nic.id);
    if (host !== undefined && out.has(host)) under.set(host, [...(under.get(host) ?? []), nic]);
    else loose.push(nic);
  }
  const nicY = rows.length * tierGap;
  for (const [host, members] of under) {
    const at = out.get(host);
    if (at === undefined) continue; // `under` holds only hosts already placed in `out`
    const columns = Math.max(1, Math.min(members.length, Math.floor((slot.get(host) ?? NIC_GAP) / NIC_GAP)));
    members.forEach((nic, i) => {
      const column = i % columns;
      out.set(nic.id, {
        x: at.x + (column - (columns - 1) / 2) * NIC_GAP,
        y: Math.max(nicY, at.y + tierGap) + Math.floor(i / columns) * NIC_GAP,
      });
    });
  }
  // NICs attached to nothing placed yet: one row below everything else.
  const bottom = Math.max(nicY, ...[...out.values()].map((p) => p.y)) + tierGap;
  loose.forEach((n, i) => out.set(n.id, { x: (i - (loose.length - 1) / 2) * NODE_GAP, y: bottom }));
}

/**
 * Groups of routers spread on a circle, each group's routers on a small arc around its place,
 * each router's NICs a step further out. The ring sits below any tiered nodes.
 */
function ringLayout(
  routers: readonly FabricNode[],
  nodes: readonly FabricNode[],
  attachment: Map<string, string>,
  out: Map<string, Position>,
): void {
  const groups = new Map<number, FabricNode[]>();
  for (const r of [...routers].sort(byPlacement)) {
    const g = r.group ?? 0;
    groups.set(g, [...(groups.get(g) ?? []), r]);
  }
  const largest = Math.max(...[...groups.values()].map((g) => g.length));
  const perGroupArc = (2 * Math.PI) / groups.size;
  // Big enough that neighbouring routers on the circle are about NODE_GAP apart.
  const radius = Math.max(2 * NODE_GAP, (groups.size * largest * NODE_GAP) / (2 * Math.PI));
  const hasTiers = nodes.some((n) => n.role === 'superspine' || n.role === 'spine' || n.role === 'leaf');
  const centreY = hasTiers ? (SWITCH_TIERS.length + 1) * TIER_GAP + radius + 2 * NODE_GAP : 0;
  const nicsOf = (router: string) =>
    nodes.filter((n) => n.role === 'nic' && attachment.get(n.id) === router).sort((a, b) => naturalCompare(a.id, b.id));
  [...groups.entries()]
    .sort(([a], [b]) => a - b)
    .forEach(([, members], gi) => {
      members.forEach((router, ri) => {
        const angle = gi * perGroupArc + ((ri + 0.5) / members.length - 0.5) * perGroupArc * 0.7 - Math.PI / 2;
        const at = (r: number): Position => ({ x: r * Math.cos(angle), y: centreY + r * Math.sin(angle) });
        out.set(router.id, at(radius));
        nicsOf(router.id).forEach((nic, ni) => out.set(nic.id, at(radius + (ni + 1) * NODE_GAP)));
      });
    });
}
