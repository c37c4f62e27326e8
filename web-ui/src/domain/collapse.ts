// The collapsed view of a large fabric: the switches (and NICs) of a pod, a Dragonfly / Slim Fly /
// rail group, or a plane of spines / super-spines drawn as one node, and the links between two groups
// as one link, until the operator expands a group. The result is an ordinary Fabric, so the layout by
// role (domain/graph.ts) and the styling apply unchanged; loads, hot marks and paths are mapped onto
// the bundles with the worst direction shown (a bundle is as hot as its hottest member).
import type { Fabric, FabricLink, FabricNode, LinkState, Role } from '../api/types';
import { directionId, type DirectionLoad, type LinkLoads } from './heat';

/** Fabrics with at least this many switches start collapsed. */
export const COLLAPSE_SWITCHES = 1000;
export const GROUP_PREFIX = 'group:';

export interface CollapsedView {
  fabric: Fabric;
  linkStates: Record<string, LinkState>;
  /** The drawn node of every original node: itself, or its group's node. */
  drawnNode: ReadonlyMap<string, string>;
  /** The drawn link of every original link still drawn (links inside a collapsed group are not). */
  drawnLink: ReadonlyMap<string, string>;
  /** Group node id -> the ids of its members. */
  members: ReadonlyMap<string, readonly string[]>;
}

/** The group a node belongs to (pod, plane of spines, Dragonfly / rail group), or null: never grouped. */
export function groupKey(n: FabricNode): string | null {
  if (n.role === 'superspine' || (n.role === 'spine' && n.pod === undefined)) {
    return n.plane !== undefined ? `plane ${n.plane} ${n.role}s` : `${n.role}s`;
  }
  if (n.pod !== undefined) return `pod ${n.pod}`;
  if (n.group !== undefined) return `group ${n.group}`;
  return null;
}

export function switchCount(f: Fabric): number {
  return f.nodes.filter((n) => n.role !== 'nic').length;
}

const RANK: readonly Role[] = ['superspine', 'spine', 'router', 'leaf', 'nic'];

/** `fabric` with every group not in `expanded` drawn as one node. */
export function collapseFabric(
  fabric: Fabric,
  linkStates: Record<string, LinkState>,
  expanded: ReadonlySet<string>,
): CollapsedView {
  const drawnNode = new Map<string, string>();
  const members = new Map<string, string[]>();
  const groupNodes = new Map<string, FabricNode>();
  const nodes: FabricNode[] = [];
  for (const n of fabric.nodes) {
    const key = groupKey(n);
    if (key === null || expanded.has(key)) {
      drawnNode.set(n.id, n.id);
      nodes.push(n);
      continue;
    }
    const id = `${GROUP_PREFIX}${key}`;
    drawnNode.set(n.id, id);
    members.set(id, [...(members.get(id) ?? []), n.id]);
    const g = groupNodes.get(id);
    // The group takes its highest role (a pod of spines, leaves and NICs sits in the spine tier) and
    // keeps pod / plane / group, so the layout places it where its members would be.
    if (!g) {
      const node: FabricNode = { id, role: n.role, name: key, pod: n.pod, plane: n.plane, group: n.group };
      groupNodes.set(id, node);
      nodes.push(node);
    } else if (RANK.indexOf(n.role) < RANK.indexOf(g.role)) {
      g.role = n.role;
    }
  }
  for (const [id, g] of groupNodes) g.name = `${g.name ?? id} (${members.get(id)?.length ?? 0})`;

  const drawnLink = new Map<string, string>();
  const bundles = new Map<string, { link: FabricLink; states: LinkState[] }>();
  const links: FabricLink[] = [];
  for (const l of fabric.links) {
    const a = drawnNode.get(l.a.node) ?? l.a.node;
    const b = drawnNode.get(l.b.node) ?? l.b.node;
    if (a === l.a.node && b === l.b.node) {
      drawnLink.set(l.id, l.id);
      links.push(l);
      continue;
    }
    if (a === b) continue; // inside one collapsed group
    const [x, y] = a < b ? [a, b] : [b, a];
    const id = `${GROUP_PREFIX}${x}|${y}`;
    drawnLink.set(l.id, id);
    const state = linkStates[l.id] ?? 'up';
    const bundle = bundles.get(id);
    if (bundle) {
      bundle.link.capacityGbps += l.capacityGbps;
      bundle.states.push(state);
    } else {
      // A bundle of links between two collapsed groups has no ports of its own.
      const link: FabricLink = { id, a: { node: x, port: '' }, b: { node: y, port: '' }, capacityGbps: l.capacityGbps };
      bundles.set(id, { link, states: [state] });
      links.push(link);
    }
  }
  const states: Record<string, LinkState> = { ...linkStates };
  for (const [id, b] of bundles) {
    // A bundle is down only when every member is; drained when none is up.
    states[id] = b.states.every((s) => s === 'down') ? 'down' : b.states.some((s) => s === 'up') ? 'up' : 'drained';
  }
  return { fabric: { ...fabric, nodes, links }, linkStates: states, drawnNode, drawnLink, members };
}

/** Direction loads on the drawn links: per bundle and sending group, the worst member direction. */
export function collapseLoads(loads: LinkLoads, view: CollapsedView): LinkLoads {
  if (view.members.size === 0) return loads;
  const out: LinkLoads = new Map();
  for (const [linkId, dirs] of loads) {
    const drawn = view.drawnLink.get(linkId);
    if (drawn === undefined) continue;
    let target = out.get(drawn);
    if (!target) out.set(drawn, (target = new Map<string, DirectionLoad>()));
    for (const d of dirs.values()) {
      const from = view.drawnNode.get(d.from) ?? d.from;
      const to = view.drawnNode.get(d.to) ?? d.to;
      const held = target.get(from);
      const max = (p: number | null | undefined, q: number | null | undefined) =>
        p === undefined || p === null ? q : q === undefined || q === null ? p : Math.max(p, q);
      target.set(
        from,
        held
          ? {
              ...held,
              utilisation: Math.max(held.utilisation, d.utilisation),
              reservedGbps: held.reservedGbps + d.reservedGbps,
              capacityGbps: held.capacityGbps + d.capacityGbps,
              elephants: held.elephants + d.elephants,
              rateGbps: (held.rateGbps ?? 0) + (d.rateGbps ?? 0),
              dropRate: max(held.dropRate, d.dropRate),
              ecnFraction: max(held.ecnFraction, d.ecnFraction),
              operDown: (held.operDown ?? false) || (d.operDown ?? false),
            }
          : { ...d, from, to },
      );
    }
  }
  return out;
}

/** Hot directions ('<link>><to node>') renamed onto the drawn links and nodes. */
export function collapseDirections(directions: ReadonlySet<string>, view: CollapsedView): ReadonlySet<string> {
  if (view.members.size === 0) return directions;
  const out = new Set<string>();
  for (const d of directions) {
    const cut = d.indexOf('>');
    const link = view.drawnLink.get(d.slice(0, cut));
    if (link !== undefined) out.add(directionId(link, view.drawnNode.get(d.slice(cut + 1)) ?? d.slice(cut + 1)));
  }
  return out;
}

/** Link ids renamed onto the drawn links (a job's path through a collapsed pod marks its bundles). */
export function collapseLinkIds(ids: ReadonlySet<string> | null, view: CollapsedView): ReadonlySet<string> | null {
  if (ids === null || view.members.size === 0) return ids;
  return new Set([...ids].flatMap((id) => (view.drawnLink.has(id) ? [view.drawnLink.get(id) ?? id] : [])));
}
