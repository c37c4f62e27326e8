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

/** Vertical distance between tiers and horizontal distance between neighbours, in px. */
export const TIER_GAP = 160;
export const NODE_GAP = 70;
const TIER_ROLES: readonly Role[] = ['superspine', 'spine', 'leaf', 'nic'];

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
      return { id: l.id, source: l.a.node, target: l.b.node, capacityGbps: l.capacityGbps, state, tooltip: linkTooltip(l, state) };
    }),
  };
}

/** "leaf1:eth1 – spine1:eth1 · 400 Gbit/s · 1 µs · up" */
export function linkTooltip(link: FabricLink, state: LinkState): string {
  const end = (e: FabricLink['a']) => (e.port ? `${e.node}:${e.port}` : e.node);
  const parts = [`${end(link.a)} – ${end(link.b)}`, `${formatGbps(link.capacityGbps)}`];
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
    for (const [nic, other] of [[l.a.node, l.b.node], [l.b.node, l.a.node]] as const) {
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

/** Rows per tier, each centred on x = 0; NICs ordered under the switch they attach to. */
function tierLayout(nodes: readonly FabricNode[], attachment: Map<string, string>, out: Map<string, Position>): void {
  const free = (role: Role) => nodes.filter((n) => n.role === role && !out.has(n.id));
  TIER_ROLES.forEach((role, tier) => {
    let row = free(role).sort(byPlacement);
    if (role === 'nic') {
      const x = (n: FabricNode) => out.get(attachment.get(n.id) ?? '')?.x ?? Number.POSITIVE_INFINITY;
      row = row.sort((a, b) => x(a) - x(b) || naturalCompare(a.id, b.id));
    }
    row.forEach((n, i) => out.set(n.id, { x: (i - (row.length - 1) / 2) * NODE_GAP, y: tier * TIER_GAP }));
  });
}

/**
 * Groups of routers spread on a circle, each group's routers on a small arc around its place,
 * each router's NICs a step further out. The ring sits below any tiered nodes.
 */
function ringLayout(routers: readonly FabricNode[], nodes: readonly FabricNode[], attachment: Map<string, string>, out: Map<string, Position>): void {
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
  const centreY = hasTiers ? TIER_ROLES.length * TIER_GAP + radius + 2 * NODE_GAP : 0;
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
