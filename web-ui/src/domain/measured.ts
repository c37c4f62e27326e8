// Measured loads (the collector's live feed, keyed '<link>><to node>') -> the per-link,
// per-sending-node shape the graph colours (domain/heat.ts LinkLoads). Elephant counts are not
// measured by the collector: they come from the scheduler's reservations of the same direction.
import type { LinkLoad } from '../api/collectorApi';
import type { FabricLink } from '../api/types';
import type { DirectionLoad, LinkLoads } from './heat';

/** Which end sends towards `to` on this link; null when `to` is not one of its ends. */
function senderOf(link: FabricLink, to: string): string | null {
  if (link.b.node === to) return link.a.node;
  if (link.a.node === to) return link.b.node;
  return null;
}

/**
 * One DirectionLoad per measured direction of a link of `links`, with the measured utilisation,
 * rate, drops, ECN and oper-status, and the elephants the reservations count on it. Directions of
 * links not in the fabric (a load older than a re-plan) are left out.
 */
export function measuredLoads(
  links: readonly FabricLink[],
  live: ReadonlyMap<string, LinkLoad>,
  reservations: LinkLoads = new Map(),
): LinkLoads {
  const byId = new Map(links.map((l) => [l.id, l]));
  const out: LinkLoads = new Map();
  for (const l of live.values()) {
    const link = byId.get(l.linkId);
    const from = link ? senderOf(link, l.toNode) : null;
    if (!link || !from) continue;
    const reserved = reservations.get(l.linkId)?.get(from);
    const d: DirectionLoad = {
      from,
      to: l.toNode,
      utilisation: l.utilisation,
      reservedGbps: reserved?.reservedGbps ?? 0,
      capacityGbps: l.capacityGbps,
      elephants: reserved?.elephants ?? 0,
      rateGbps: l.rateGbps,
      dropRate: l.dropRate,
      ecnFraction: l.ecnFraction,
      operDown: l.operStatus === 'DOWN',
    };
    let dirs = out.get(l.linkId);
    if (!dirs) out.set(l.linkId, (dirs = new Map<string, DirectionLoad>()));
    dirs.set(from, d);
  }
  return out;
}
