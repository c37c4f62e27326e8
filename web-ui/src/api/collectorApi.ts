// Typed read of the telemetry collector's hotspot history (GET /v1/hotspots on the collector,
// port 8083 in the demo; rows as contracts/schemas/hotspot-event.schema.json). The collector
// asks for no token.
import { HOTSPOT_KINDS, type HotspotEvent, type HotspotKind } from '../domain/hotspots';
import { ApiError, type Fetch } from './schedulerApi';

export const HOTSPOTS_PATH = '/v1/hotspots';

/** Hotspot events of the last `windowMs` (default 1 h), oldest first. */
export async function fetchHotspots(
  fetchFn: Fetch = (...a) => fetch(...a),
  now: Date = new Date(),
  windowMs = 3_600_000,
  signal?: AbortSignal,
): Promise<HotspotEvent[]> {
  const from = new Date(now.getTime() - windowMs).toISOString();
  const res = await fetchFn(`${HOTSPOTS_PATH}?from=${encodeURIComponent(from)}`, { signal });
  if (!res.ok) throw new ApiError(HOTSPOTS_PATH, res.status, `HTTP ${res.status}`);
  const body = (await res.json()) as { events?: unknown };
  if (!Array.isArray(body.events)) throw new ApiError(HOTSPOTS_PATH, res.status, 'events: must be an array');
  return body.events.map((e: unknown, i) => {
    const r = e as Record<string, unknown>;
    for (const k of ['kind', 'linkId', 'direction', 'detectedAt'] as const) {
      if (typeof r[k] !== 'string')
        throw new ApiError(HOTSPOTS_PATH, res.status, `events[${i}].${k}: must be a string`);
    }
    const kind = r.kind as string;
    if (!(HOTSPOT_KINDS as readonly string[]).includes(kind)) {
      throw new ApiError(HOTSPOTS_PATH, res.status, `events[${i}].kind: must be one of ${HOTSPOT_KINDS.join(', ')}`);
    }
    return {
      kind: kind as HotspotKind,
      linkId: r.linkId as string,
      direction: r.direction as string,
      detectedAt: r.detectedAt as string,
    };
  });
}
