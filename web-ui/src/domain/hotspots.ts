// Which link directions are hot now, from the collector's hotspot history (GET /v1/hotspots;
// contracts/schemas/hotspot-event.schema.json: 'direction' is the node the hot direction points to).
import type { HotspotEvent as HotspotEventContract } from '../api/collectorApi';
import { directionId } from './heat';

/** The fields of a hotspot event (the type generated from the collector's OpenAPI) the dashboard uses. */
export type HotspotEvent = Pick<HotspotEventContract, 'kind' | 'linkId' | 'direction' | 'detectedAt'>;
export type HotspotKind = HotspotEvent['kind'];

/** Every kind of the schema: a kind added there fails the build until it is listed here. */
export const HOTSPOT_KINDS = [
  'hotspot-start',
  'hotspot-end',
  'link-down',
  'link-up',
] as const satisfies readonly HotspotKind[];
type Unlisted = Exclude<HotspotKind, (typeof HOTSPOT_KINDS)[number]>;
export const HOTSPOT_KINDS_COMPLETE: [Unlisted] extends [never] ? true : Unlisted = true;

/**
 * Replays hotspot-start / hotspot-end per direction and returns the directions still hot, as
 * '<link>><to node>' ids (domain/heat.ts directionId).
 * link-down ends a hotspot too (a down link carries nothing; it is styled as down instead).
 */
export function hotDirections(events: readonly HotspotEvent[]): Set<string> {
  const sorted = [...events].sort((a, b) => a.detectedAt.localeCompare(b.detectedAt));
  const hot = new Set<string>();
  for (const e of sorted) {
    if (e.kind === 'hotspot-start') hot.add(directionId(e.linkId, e.direction));
    else if (e.kind === 'hotspot-end') hot.delete(directionId(e.linkId, e.direction));
    else if (e.kind === 'link-down') {
      for (const d of [...hot]) if (d.startsWith(`${e.linkId}>`)) hot.delete(d);
    }
  }
  return hot;
}

/** Links (not directions) with at least one hot direction. */
export function hotLinks(directions: ReadonlySet<string>): Set<string> {
  return new Set([...directions].map((d) => d.split('>')[0] ?? d));
}

/**
 * The hotspot events of both sources (the history read and the live stream), each once: by eventId,
 * or by kind, direction and time where a row has none.
 */
export function mergeHotspots<T extends HotspotEvent & { eventId?: string }>(
  ...sources: readonly (readonly T[])[]
): T[] {
  const out = new Map<string, T>();
  for (const list of sources) {
    for (const e of list) out.set(e.eventId ?? `${e.kind}/${e.linkId}/${e.direction}/${e.detectedAt}`, e);
  }
  return [...out.values()];
}
